import { HarnessError } from "../../../src/engine/errors.js";
import { quote } from "../../../src/engine/quote.js";
import type { HttpResponse } from "../../../src/http/client.js";
import { SSF_VERIFICATION_EVENT } from "../../../src/protocols/caep.js";
import type { ReceivedSet } from "../../../mocks/receiver/types.js";
import type { Stream, StreamClient } from "../client.js";
import { poll } from "../poller.js";
import { eventOf, fromPoll, fromPush, type CollectedSet } from "../sets.js";
import type { SubId } from "../subjects.js";
import { BARRIER, type DeliveryModel, type Status, type Trigger } from "./delivery-model.js";
import { freshMarker, isAbout, markerOf, type MarkedEvent } from "./markers.js";

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** Most polls (or waits on the mock Receiver) one end-of-run drain makes, whatever the time bound. */
const MAX_DRAIN_STEPS = 60;
/**
 * A returnImmediately poll not answered within this is read as empty (a Transmitter that holds
 * it like a long poll, which CAEPT-POLL-RETURN-IMMEDIATELY judges, would otherwise hold every
 * read of the model): what it handed out unacknowledged is handed out again later.
 */
export const SHORT_POLL_MS = 1_500;
/** How long a read of the pushes waits for events still owed on an enabled stream. */
const PUSH_READ_WAIT_MS = 1_000;

/** What one read of the stream gave. */
export interface Received {
  readonly count: number;
  /** SETs not handed out before on this stream. */
  readonly fresh: number;
  /** The poll answer said moreAvailable true. */
  readonly more: boolean;
}

/**
 * The real side of the lifecycle model: carries each command out on the Transmitter through the
 * check's client (status, subjects, the trigger hook, verification, polls or the mock
 * Receiver's slot), and feeds the model what the stream hands out. A Transmitter that refuses
 * a management call the model needs ends the check as a skip naming the requirement that judges
 * that call; what it hands out is judged by the model, never thrown.
 */
export class StreamDriver {
  model!: DeliveryModel;
  private subjects: readonly SubId[] = [];
  /** Poll: SETs handed out and not yet acknowledged (by member name). */
  private readonly unacked = new Set<string>();
  /** Push: the newest mock Receiver sequence number read. */
  private since: number;
  /** Push: status changes of the run, with when each request was sent and answered. */
  private changes: { to: Status; sentAt: number; answeredAt: number }[] = [];
  private markers = 0;
  /** SETs matched to a trigger by subject and order, for want of a marker. */
  unmarked = 0;
  /** Poll: the latest poll answer (what a finding about a lost event cites). */
  lastAnswer: HttpResponse | undefined;
  /** returnImmediately polls not answered within SHORT_POLL_MS. */
  heldPolls = 0;
  /** Verification requests the Transmitter did not accept (a 429 for min_verification_interval, say). */
  verifyRefused: string[] = [];

  constructor(
    readonly k: StreamClient,
    readonly s: Stream,
    readonly event: MarkedEvent,
    private readonly barrier: SubId,
    since: number,
  ) {
    this.since = since;
  }

  get push(): boolean {
    return this.s.method === "push";
  }

  /** A new run: a fresh model and fresh subjects; the stream is enabled (the last drain left it so). */
  begin(model: DeliveryModel, subjects: readonly SubId[]): void {
    this.model = model;
    this.lastAnswer = undefined;
    this.subjects = subjects;
    this.changes = [];
  }

  private refused(what: string, res: HttpResponse, id: string): never {
    return this.k.c.skip(
      `the Transmitter refused to ${what} during the lifecycle run (answered ${res.status}${res.text ? ` ${quote(res.text, 120)}` : ""}; see ${id})`,
      "dependency",
    );
  }

  private subject(slot: number): SubId {
    const s = slot === BARRIER ? this.barrier : this.subjects[slot];
    if (s === undefined) throw new Error(`no subject in slot ${slot}`);
    return s;
  }

  async setStatus(to: Status): Promise<void> {
    const sentAt = Date.now();
    const res = await this.k.setStatus(this.s.id, to, {
      label: `lifecycle: status ${to}`,
      evidence: "if-cited",
    });
    const answeredAt = Date.now();
    if (res.status < 200 || res.status > 299) this.refused(`set the status ${to}`, res, "CAEPT-STATUS");
    this.model.setStatus(to);
    this.changes.push({ to, sentAt, answeredAt });
  }

  async add(slot: number): Promise<void> {
    const res = await this.k.addSubject(this.s.id, this.subject(slot), {
      verified: true,
      label: `lifecycle: add s${slot}`,
      evidence: "if-cited",
    });
    if (res.status < 200 || res.status > 299) this.refused("add a subject", res, "CAEPT-SUBJECT-ADD");
    this.model.add(slot);
  }

  async remove(slot: number): Promise<void> {
    const res = await this.k.removeSubject(this.s.id, this.subject(slot), {
      label: `lifecycle: remove s${slot}`,
      evidence: "if-cited",
    });
    if (res.status < 200 || res.status > 299) this.refused("remove a subject", res, "CAEPT-SUBJECT-REMOVE");
    this.model.remove(slot);
  }

  /**
   * The hook makes the event (about the slot's subject, for whichever streams hold it: no
   * stream_id, so the Transmitter's own subject filter decides); its 2xx is when it occurred.
   */
  async trigger(slot: number): Promise<Trigger> {
    const marker = freshMarker(++this.markers);
    await this.k.trigger(this.event.uri, this.subject(slot), {
      claims: this.event.claims(marker),
      label: `lifecycle: trigger ${slot === BARRIER ? "barrier" : `s${slot}`}`,
      evidence: "if-cited",
    });
    return this.model.trigger(slot, marker);
  }

  async verify(): Promise<void> {
    const res = await this.k.verify(this.s.id, freshMarker(++this.markers), {
      label: "lifecycle: verify",
      evidence: "if-cited",
    });
    if (res.status >= 200 && res.status <= 299) this.model.verify();
    else if (this.verifyRefused.length < 5) this.verifyRefused.push(String(res.status));
  }

  /** The slot whose subject a SET names (the barrier's included), if any. */
  private slotOf(set: CollectedSet): number | undefined {
    if (isAbout(set, this.barrier)) return BARRIER;
    const i = this.subjects.findIndex((s) => isAbout(set, s));
    return i < 0 ? undefined : i;
  }

  /** Hands one SET to the model, matched to its trigger by marker, else by subject in order. */
  private observe(set: CollectedSet, jti: string, status: Status | "changing", res?: HttpResponse): void {
    const ev = eventOf(set);
    const evidence = res !== undefined ? { res } : {};
    if (ev?.uri === SSF_VERIFICATION_EVENT) {
      const state = isObject(ev.claims) ? ev.claims.state : undefined;
      this.model.arrived({ jti, verification: { state }, status, ...evidence });
      return;
    }
    const marker = markerOf(set);
    let t = marker !== undefined ? this.model.byMarker(marker) : undefined;
    if (t === undefined && marker === undefined) {
      const slot = this.slotOf(set);
      if (slot !== undefined) {
        t = this.model.inOrder(slot, jti);
        this.unmarked++;
      }
    }
    this.model.arrived({ jti, status, ...(t !== undefined ? { trigger: t } : {}), ...evidence });
  }

  /** Push: the status at a moment (`changing` while a status request was under way). */
  private statusAt(ms: number): Status | "changing" {
    let status: Status = "enabled";
    for (const c of this.changes) {
      if (ms < c.sentAt) break;
      if (ms <= c.answeredAt) return "changing";
      status = c.to;
    }
    return status;
  }

  private takePushes(batch: readonly ReceivedSet[]): number {
    for (const p of batch) {
      this.since = Math.max(this.since, p.seq);
      const set = fromPush(p, this.s.id);
      const jti = set.jti ?? `(no jti, push #${p.seq})`;
      this.observe(set, jti, this.statusAt(Date.parse(p.at)));
      // RFC 8935 §2.2: a 2xx answer acknowledges the SET.
      if (p.status >= 200 && p.status <= 299) this.model.ack([jti]);
    }
    return batch.length;
  }

  /**
   * One read of the stream: a poll (acknowledging, with `ack`, every SET handed out and not yet
   * acknowledged) or the pushes the mock Receiver recorded since the last read. `waitMs` > 0: a
   * long poll bounded by it (an answer that does not come in time reads as empty).
   */
  async receive(ack: boolean, waitMs = 0): Promise<Received> {
    const c = this.k.c;
    if (this.model.status !== "enabled") this.model.readWhileStopped();
    if (this.push) {
      const slot = this.s.slot;
      if (slot === undefined) return { count: 0, fresh: 0, more: false };
      let n = this.takePushes(await this.k.mock.sets(slot, this.since));
      // Pushes are asynchronous: on an enabled stream, what is owed gets a short while to land
      // (waited for at the mock, not slept), so a status change right after does not find it in flight.
      const owed = (): boolean =>
        this.model.status === "enabled" &&
        this.model.triggers.some((t) => t.required !== undefined && t.jtis.length === 0);
      const deadline = Date.now() + Math.min(PUSH_READ_WAIT_MS, c.profile.eventTimeoutMs);
      while (owed() && Date.now() < deadline && !c.signal.aborted) {
        const batch = await this.k.mock.wait(slot, 1, deadline - Date.now(), this.since);
        if (batch.length === 0) break;
        n += this.takePushes(batch);
      }
      return { count: n, fresh: n, more: false };
    }
    const acks = ack ? [...this.unacked] : [];
    let a;
    try {
      a = await poll(
        c,
        this.s,
        { returnImmediately: waitMs <= 0, ...(acks.length > 0 ? { ack: acks } : {}) },
        {
          label: `lifecycle: poll${acks.length > 0 ? " and acknowledge" : ""}`,
          evidence: "if-cited",
          timeoutMs: waitMs > 0 ? waitMs : SHORT_POLL_MS,
        },
      );
    } catch (e) {
      if (e instanceof HarnessError && e.code === "IDC_HTTP_TIMEOUT") {
        if (waitMs <= 0) this.heldPolls++;
        return { count: 0, fresh: 0, more: false };
      }
      throw e;
    }
    if (a.sets === undefined)
      return c.skip(
        `a poll during the lifecycle run was not answered as RFC 8936 §2.2 says (${a.problem ?? "no sets"}; see CAEPT-POLL-RESPONSE)`,
        "dependency",
      );
    this.lastAnswer = a.res;
    this.model.ack(acks);
    for (const j of acks) this.unacked.delete(j);
    let fresh = 0;
    for (const p of a.sets) {
      if (!this.model.seen.has(p.jti)) fresh++;
      this.observe(fromPoll(p, this.s.id), p.jti, this.model.status, a.res);
      if (!this.model.acked.has(p.jti)) this.unacked.add(p.jti);
    }
    return { count: a.sets.length, fresh, more: a.moreAvailable === true };
  }

  /**
   * The end of a run: the stream enabled (held events are then owed), a barrier event about a
   * subject always in the stream triggered, and the stream read until the barrier arrived and
   * nothing more came (events raised before it are then in, on a Transmitter that keeps order);
   * when events are still owed, a second barrier gives a Transmitter that reorders one more
   * round. Bounded by the profile's eventTimeoutMs. Everything handed out is acknowledged.
   */
  async drain(): Promise<void> {
    const c = this.k.c;
    if (this.model.status !== "enabled") await this.setStatus("enabled");
    const deadline = Date.now() + c.profile.eventTimeoutMs;
    const barriers = [await this.trigger(BARRIER)];
    const owed = (): boolean =>
      this.model.triggers.some((t) => t.required !== undefined && t.jtis.length === 0);
    let wait = false;
    for (let i = 0; i < MAX_DRAIN_STEPS && !c.signal.aborted; i++) {
      const barrierIn = barriers.at(-1)!.jtis.length > 0;
      if (barrierIn && owed() && barriers.length < 2) {
        barriers.push(await this.trigger(BARRIER));
        continue;
      }
      const left = deadline - Date.now();
      if (this.push) {
        if (barrierIn || left <= 0 || this.s.slot === undefined) break;
        const batch = await this.k.mock.wait(this.s.slot, 1, left, this.since);
        if (this.takePushes(batch) === 0) break;
        continue;
      }
      const got = await this.receive(true, wait ? left : 0);
      // Done once the barrier is in and an answer brings nothing new nor says more wait (one
      // repeating SETs acknowledged before ends it too: the model has judged the repetition).
      if (barrierIn && got.fresh === 0 && !got.more) break;
      if (Date.now() >= deadline) break;
      wait = got.count === 0 && !got.more;
    }
    if (!this.push && this.unacked.size > 0) {
      const acks = [...this.unacked];
      const a = await poll(
        c,
        this.s,
        { ack: acks, maxEvents: 0, returnImmediately: true },
        {
          label: "lifecycle: acknowledge",
          evidence: "if-cited",
        },
      );
      if (a.sets !== undefined) {
        this.model.ack(acks);
        for (const j of acks) this.unacked.delete(j);
        for (const p of a.sets) {
          this.observe(fromPoll(p, this.s.id), p.jti, this.model.status, a.res);
          if (!this.model.acked.has(p.jti)) this.unacked.add(p.jti);
        }
      }
    }
  }
}
