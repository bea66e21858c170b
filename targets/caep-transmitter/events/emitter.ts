import { randomBytes } from "node:crypto";
import type { FaultSet } from "../faults.js";
import type { JsonObject } from "../http/json-body.js";
import type { TransmitterKeys } from "../service/keys.js";
import type { Receivers } from "../service/receivers.js";
import { CAEP_BASE, VERIFICATION_EVENT, type CaepEventName } from "../ssf.js";
import type { Stream } from "../streams/stream.js";
import type { StreamStore } from "../streams/store.js";
import { eventClaims } from "./claims.js";
import { setClaims, signSet } from "./set-builder.js";

const randomId = (): string => randomBytes(16).toString("base64url");

export interface EmitterOptions {
  readonly issuer: () => string;
  readonly keys: TransmitterKeys;
  readonly receivers: Receivers;
  readonly streams: StreamStore;
  readonly faults: FaultSet;
}

/** One event the Transmitter observed: its type, subject, and claims the hook gave. */
export interface ObservedEvent {
  readonly name: CaepEventName;
  readonly subject: JsonObject;
  readonly claims?: JsonObject;
  /** Only this stream (the hook named it); otherwise every stream the event is for. */
  readonly stream?: Stream;
}

/**
 * Turns events into SETs, one per stream the event is for (SSF 1.0 §8.1.3: the stream delivers
 * that event type and holds a matching subject), each signed for its stream's Receiver and
 * queued on the stream. Delivery happens later, apart from the caller.
 */
export class Emitter {
  private readonly counters = new WeakMap<Stream, number>();

  constructor(private readonly o: EmitterOptions) {}

  /** Emits `e` to every stream it is for; resolves to how many streams got a SET. */
  async emit(e: ObservedEvent): Promise<number> {
    const { faults } = this.o;
    if (e.name === "assurance-level-change" && faults.has("assurance-level-change-unimplemented")) return 0;
    const uri = `${CAEP_BASE}${e.name}`;
    // Stryker disable next-line ConditionalExpression: the hook's stream_id scoping: a stream's subjects decide what it is sent either way
    const targets = (e.stream !== undefined ? [e.stream] : this.o.streams.live()).filter(
      (s) =>
        s.eventsDelivered.includes(uri) && (faults.has("subjects-ignored") || s.subjects.covers(e.subject)),
    );
    const now = Date.now();
    const timestamp = Math.floor(now / 1000);
    const events: Record<string, JsonObject> = { [uri]: eventClaims(e.name, e.claims, timestamp, faults) };
    if (e.name === "credential-change" && faults.has("two-events"))
      events[`${CAEP_BASE}session-revoked`] = { event_timestamp: timestamp };
    // SSF 1.0 §4.1.9: one txn for every SET of the same underlying event.
    const txn = randomId();
    for (const stream of targets) await this.queue(stream, e.subject, events, txn, now);
    return targets.length;
  }

  /** Queues the verification SET a verification request asks for (SSF 1.0 §8.1.4.1). */
  async verify(stream: Stream, state: string | undefined): Promise<void> {
    const { faults } = this.o;
    // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent: { state: undefined } is signed as {} (JSON leaves undefined out)
    const claims = state !== undefined && !faults.has("verification-no-state") ? { state } : {};
    const id = faults.has("verification-subject-receiver") ? stream.owner.aud : stream.id;
    const subject = { format: "opaque", id };
    await this.queue(stream, subject, { [VERIFICATION_EVENT]: claims }, randomId(), Date.now());
  }

  private async queue(
    stream: Stream,
    subject: JsonObject,
    events: Record<string, JsonObject>,
    txn: string,
    now: number,
  ): Promise<void> {
    const { faults } = this.o;
    const jti = faults.has("jti-per-stream-counter") ? this.count(stream) : randomId();
    // Stryker disable next-line ArrowFunction,ConditionalExpression,EqualityOperator: fault machinery: `other` is read only under the aud-other-receiver fault
    const other = this.o.receivers.all().find((r) => r.id !== stream.owner.id);
    const aud = faults.has("aud-other-receiver") && other !== undefined ? other.aud : stream.owner.aud;
    const claims = setClaims({ issuer: this.o.issuer(), aud, jti, txn, subject, events }, now, faults);
    const token = await signSet(claims, this.o.keys.signing(), faults);
    stream.outbox.offer({ jti, token, attempts: 0 });
  }

  private count(stream: Stream): string {
    const n = (this.counters.get(stream) ?? 0) + 1;
    this.counters.set(stream, n);
    return String(n);
  }
}
