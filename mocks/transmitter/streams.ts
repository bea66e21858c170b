import { DELIVERY_POLL, DELIVERY_PUSH } from "../../src/protocols/caep.js";
import { PollQueue } from "./poll-queue.js";
import type { DeliveryKind, PushResult, StreamStatus, StreamView } from "./types.js";

/** Streams the mock keeps at most (SSF lets a Transmitter refuse more: 409). */
export const MAX_STREAMS = 100;
const MAX_EVENTS_REQUESTED = 100;
const MAX_TEXT = 2048;
const MAX_SUBJECTS = 1000;

/** One stream (SSF stream configuration plus what the mock keeps about it). */
export interface StreamRecord {
  readonly id: string;
  delivery: DeliveryKind;
  endpointUrl?: string;
  authorization?: string;
  /** Absent when the Receiver named none: every supported type is then delivered (see `deliveredOf`). */
  eventsRequested?: string[];
  description?: string;
  aud: string;
  status: StreamStatus;
  reason?: string;
  readonly createdBy: "receiver" | "profile";
  readonly request?: unknown;
  readonly subjects: unknown[];
  verification?: { state?: string; requests: number; jti?: string; delivery?: PushResult };
  /** Poll streams: the SETs queued for the Receiver's polls. */
  queue?: PollQueue;
}

/** The Receiver-supplied members of a stream configuration (SSF §8.1.1), checked. */
export interface ReceiverConfig {
  readonly delivery: DeliveryKind;
  readonly endpointUrl?: string;
  readonly authorization?: string;
  readonly eventsRequested?: string[];
  readonly description?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

export const methodUrn = (d: DeliveryKind): string => (d === "push" ? DELIVERY_PUSH : DELIVERY_POLL);

/**
 * Reads the Receiver-supplied members of a create, update or replace request (SSF §8.1.1):
 * `delivery` (a method the mock advertised; push with an absolute http(s) `endpoint_url` and
 * an optional `authorization_header`; poll's endpoint is the Transmitter's), `events_requested`
 * (strings), `description`. Transmitter-supplied members are ignored. A string says what is wrong.
 * With `partial`, absent members stay absent (PATCH).
 */
export function readReceiverConfig(
  body: unknown,
  advertised: readonly DeliveryKind[],
  partial = false,
): Partial<ReceiverConfig> | string {
  if (!isObject(body)) return "the request body is not a JSON object";
  const out: { -readonly [K in keyof ReceiverConfig]?: ReceiverConfig[K] } = {};
  const d = body.delivery;
  if (d === undefined) {
    if (!partial) {
      if (advertised[0] !== "poll") return "delivery is missing (push needs an endpoint_url)";
      out.delivery = "poll";
    }
  } else {
    if (!isObject(d)) return "delivery is not a JSON object";
    const kind = d.method === DELIVERY_PUSH ? "push" : d.method === DELIVERY_POLL ? "poll" : undefined;
    if (kind === undefined || !advertised.includes(kind))
      return `delivery.method is not one of the advertised ${advertised.map(methodUrn).join(", ")}`;
    out.delivery = kind;
    if (kind === "push") {
      const url = d.endpoint_url;
      if (typeof url !== "string" || url.length > MAX_TEXT || !URL.canParse(url))
        return "delivery.endpoint_url of a push stream is not an absolute URL";
      if (!["http:", "https:"].includes(new URL(url).protocol))
        return "delivery.endpoint_url of a push stream is not an http(s) URL";
      out.endpointUrl = url;
      const auth = d.authorization_header;
      if (auth !== undefined && (typeof auth !== "string" || auth.length > MAX_TEXT))
        return "delivery.authorization_header is not a string";
      if (auth !== undefined) out.authorization = auth;
    }
  }
  const ev = body.events_requested;
  if (ev !== undefined) {
    if (
      !Array.isArray(ev) ||
      ev.length > MAX_EVENTS_REQUESTED ||
      !ev.every((e) => typeof e === "string" && e.length <= MAX_TEXT)
    )
      return `events_requested is not an array of at most ${MAX_EVENTS_REQUESTED} strings`;
    out.eventsRequested = [...(ev as string[])];
  }
  const desc = body.description;
  if (desc !== undefined) {
    if (typeof desc !== "string" || desc.length > MAX_TEXT) return "description is not a string";
    out.description = desc;
  }
  return out;
}

/** Applies Receiver-supplied members to a stream (a switch to poll gets a queue, to push loses it). */
export function applyConfig(s: StreamRecord, c: Partial<ReceiverConfig>, replace: boolean): void {
  if (c.delivery !== undefined) {
    s.delivery = c.delivery;
    if (c.delivery === "push") {
      s.endpointUrl = c.endpointUrl!;
      if (c.authorization !== undefined) s.authorization = c.authorization;
      else delete s.authorization;
      delete s.queue;
    } else {
      delete s.endpointUrl;
      delete s.authorization;
      s.queue ??= new PollQueue();
    }
  }
  if (c.eventsRequested !== undefined) s.eventsRequested = c.eventsRequested;
  else if (replace) delete s.eventsRequested;
  if (c.description !== undefined) s.description = c.description;
  else if (replace) delete s.description;
}

/** Remembers a subject added to a stream (bounded; SSF add subject). */
export function addSubject(s: StreamRecord, subject: unknown): void {
  const key = JSON.stringify(subject);
  if (s.subjects.some((x) => JSON.stringify(x) === key)) return;
  if (s.subjects.length >= MAX_SUBJECTS) s.subjects.shift();
  s.subjects.push(subject);
}

export function removeSubject(s: StreamRecord, subject: unknown): void {
  const key = JSON.stringify(subject);
  const i = s.subjects.findIndex((x) => JSON.stringify(x) === key);
  if (i >= 0) s.subjects.splice(i, 1);
}

/**
 * The event types a stream delivers (SSF §8.1.1 events_delivered: within events_supported and
 * events_requested). A Receiver that requested none gets every type the Transmitter supports:
 * SSF makes events_requested OPTIONAL and says nothing of its absence, and a Transmitter that
 * then sent nothing would leave such a stream useless; an explicit empty list stays empty.
 */
export function deliveredOf(s: StreamRecord, supported: readonly string[]): string[] {
  return s.eventsRequested === undefined
    ? [...supported]
    : s.eventsRequested.filter((e) => supported.includes(e));
}

/** The stream's configuration as a Transmitter answers it (SSF §8.1.1); no authorization echoed. */
export function streamConfig(
  s: StreamRecord,
  t: { issuer: string; eventsSupported: readonly string[]; pollUrl: (id: string) => string },
): Record<string, unknown> {
  return {
    stream_id: s.id,
    iss: t.issuer,
    aud: s.aud,
    delivery: {
      method: methodUrn(s.delivery),
      endpoint_url: s.delivery === "push" ? s.endpointUrl : t.pollUrl(s.id),
    },
    events_supported: [...t.eventsSupported],
    ...(s.eventsRequested !== undefined ? { events_requested: [...s.eventsRequested] } : {}),
    events_delivered: deliveredOf(s, t.eventsSupported),
    ...(s.description !== undefined ? { description: s.description } : {}),
  };
}

/** The harness's view of a stream (`GET /__idc/streams`). */
export function streamView(
  s: StreamRecord,
  t: { eventsSupported: readonly string[]; pollUrl: (id: string) => string },
): StreamView {
  return {
    streamId: s.id,
    delivery: s.delivery,
    endpointUrl: s.delivery === "push" ? s.endpointUrl! : t.pollUrl(s.id),
    ...(s.authorization !== undefined ? { authorization: s.authorization } : {}),
    ...(s.eventsRequested !== undefined ? { eventsRequested: [...s.eventsRequested] } : {}),
    eventsDelivered: deliveredOf(s, t.eventsSupported),
    aud: s.aud,
    status: s.status,
    createdBy: s.createdBy,
    ...(s.verification ? { verification: { ...s.verification } } : {}),
    ...(s.request !== undefined ? { request: s.request } : {}),
  };
}
