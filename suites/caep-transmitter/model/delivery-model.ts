/**
 * The model of what a Transmitter must deliver on one stream (SSF 1.0 §8.1.2.1 stream status,
 * §8.1.3 subjects, §9.3 removed subjects; RFC 8936 §2.1 acknowledgement, RFC 8935 §2.2), driven
 * by the lifecycle commands (lifecycle-commands.ts) and fed every SET the stream hands out.
 * Pure: no I/O; the check turns its violations into findings.
 *
 * Per triggered event it keeps what the texts make of it:
 * - `never`: the rules its delivery breaks at any time: a subject never added while discovery
 *   says `default_subjects: NONE` (SUBJECTS); the stream disabled when it was triggered
 *   (DISABLED: a disabled stream "will not hold any events for later transmission", so also
 *   not after re-enabling);
 * - handed out while the stream is paused or disabled, it breaks DISABLED ("MUST NOT transmit
 *   events over the stream"; a poll answer is a transmission, of SETs queued before the pause
 *   too). Pushes are asynchronous: one of an event raised before the status changed may land
 *   after it (in flight), and is allowed;
 * - `required`: the rule that wants it to arrive by the end of the run: EXACTLY-ONCE (raised
 *   while enabled about a subject in the stream) or PAUSED (held: raised while paused, or still
 *   queued when the stream was paused; "SHOULD transmit them when the stream's status becomes
 *   enabled");
 * - `optional`: why arriving or not is the Transmitter's choice, noted with what was seen: a
 *   subject removed (§9.3: "MAY continue sending events ... for some amount of time"), an event
 *   in flight when its subject was removed or the stream disabled (a disabled stream holds
 *   nothing), an earlier held event about a subject with a later one (§8.1.2.1: a Transmitter
 *   may "send only the last events"); a push of a SET already answered 202 (RFC 8935 §2: the
 *   Transmitter MAY send the same SET again, regardless of the response).
 */

import { quote } from "../../../src/engine/quote.js";
import type { HttpResponse } from "../../../src/http/client.js";

/** A jti as a finding quotes it (the target chose it: bounded). */
const q = (jti: string | undefined): string => quote(jti, 80);

/** Violations kept per run (the first of each rule is what a finding shows; the rest are counted). */
const MAX_VIOLATIONS = 100;

/** SSF 1.0 §8.1.2.1: the status values. */
export type Status = "enabled" | "paused" | "disabled";
export const STATUSES: readonly Status[] = ["enabled", "paused", "disabled"];

export const LIFECYCLE_IDS = [
  "CAEPT-LIFECYCLE-SUBJECTS",
  "CAEPT-LIFECYCLE-PAUSED",
  "CAEPT-LIFECYCLE-DISABLED",
  "CAEPT-LIFECYCLE-EXACTLY-ONCE",
] as const;
export type LifecycleId = (typeof LIFECYCLE_IDS)[number];
const [SUBJECTS, PAUSED, DISABLED, ONCE] = LIFECYCLE_IDS;

/** SSF 1.0 §7.1 `default_subjects` of the discovery document (absent: unspecified). */
export type DefaultSubjects = "ALL" | "NONE" | undefined;

/** Whether a subject slot is in the stream: never added, added, or added and then removed. */
export type Membership = "never" | "in" | "removed";

/** The slot of the barrier subject: added once, never removed, triggered at the end of each run. */
export const BARRIER = -1;

export interface Trigger {
  /** 1-based, in the order triggered within the run. */
  readonly n: number;
  readonly marker: string;
  readonly slot: number;
  /** The stream's status and the subject's membership when it was triggered. */
  readonly status: Status;
  readonly membership: Membership;
  readonly never: Set<LifecycleId>;
  held: boolean;
  required: LifecycleId | undefined;
  optional: string | undefined;
  /** The jtis it arrived under (more than one: delivered twice as different SETs). */
  readonly jtis: string[];
  /** The status when it first arrived ("changing": while a status request was under way). */
  arrivedWhile?: Status | "changing";
  /**
   * The stream was enabled at some moment after it was raised and before it arrived (raised while
   * enabled, or held and then released): a push started then may land after the next pause.
   */
  sendable: boolean;
}

export interface Violation {
  readonly id: LifecycleId;
  readonly message: string;
  readonly expected: string;
  readonly actual: string;
  /** The answer that handed the SET out (a poll), when there is one to cite. */
  readonly res?: HttpResponse;
}

/** A SET the stream handed out, as the driver matched it. */
export interface Arrival {
  readonly jti: string;
  /** The trigger it answers (by marker, or by subject in order), if any. */
  readonly trigger?: Trigger;
  /** A verification SET (SSF §8.1.4), with the state it carries. */
  readonly verification?: { readonly state: unknown };
  /** The status when it arrived. */
  readonly status: Status | "changing";
  /** The poll answer that carried it (evidence for a finding). */
  readonly res?: HttpResponse;
}

const slotName = (slot: number): string => (slot === BARRIER ? "barrier" : `s${slot}`);

/** One trigger as a finding names it. */
export function triggerText(t: Trigger): string {
  const who =
    t.slot === BARRIER
      ? "the barrier subject"
      : `subject ${slotName(t.slot)} (${t.membership === "in" ? "in the stream" : t.membership === "removed" ? "removed from the stream" : "never added"})`;
  return `event #${t.n} (marker ${t.marker}) about ${who}, triggered while the stream was ${t.status}`;
}

export class DeliveryModel {
  status: Status = "enabled";
  readonly members: Membership[];
  readonly triggers: Trigger[] = [];
  /** jtis acknowledged (poll) or answered 2xx (push): never to be handed out again. */
  readonly acked = new Set<string>();
  /** Every jti handed out, and to what. */
  readonly seen = new Map<string, Trigger | "verification" | "other">();
  readonly violations: Violation[] = [];
  /** Behaviours the texts leave to the Transmitter, by reason: how often each was seen. */
  readonly allowed = new Map<string, { arrived: number; dropped: number }>();
  /** Rules some trigger of the run put to the test. */
  readonly exercised = new Set<LifecycleId>();
  /** Triggers already found handed out while the stream was paused or disabled (one finding each). */
  private readonly stopped = new Set<Trigger>();
  /** Verification requests the Transmitter accepted, and verification SETs seen. */
  verifications = { requested: 0, arrived: 0 };
  /** SETs that are neither a trigger's nor a verification (stream-updated, an earlier run's). */
  others = 0;
  /** Violations past MAX_VIOLATIONS, counted only. */
  dropped = 0;

  /**
   * `push`: deliveries are asynchronous, so a SET of an event raised before a status change may
   * land after it (in flight) without breaking DISABLED.
   */
  constructor(
    slots: number,
    readonly defaultSubjects: DefaultSubjects,
    readonly push: boolean,
  ) {
    this.members = Array.from({ length: slots }, () => "never" as const);
  }

  private membership(slot: number): Membership {
    return slot === BARRIER ? "in" : (this.members[slot] ?? "never");
  }

  /** Whether events about the slot's subject belong on the stream. */
  private inStream(slot: number): boolean {
    const m = this.membership(slot);
    return m === "in" || (m === "never" && this.defaultSubjects === "ALL");
  }

  private violate(
    id: LifecycleId,
    message: string,
    expected: string,
    actual: string,
    res?: HttpResponse,
  ): void {
    // A flood of repeats is bounded: enough to show each rule, the rest only counted.
    if (this.violations.length >= MAX_VIOLATIONS) {
      this.dropped++;
      return;
    }
    this.violations.push({ id, message, expected, actual, ...(res !== undefined ? { res } : {}) });
  }

  private relax(t: Trigger, why: string): void {
    t.required = undefined;
    t.optional ??= why;
  }

  /** POST status_endpoint answered 2xx: the stream is now `to`. */
  setStatus(to: Status): void {
    const from = this.status;
    if (from === to) return;
    const owed = this.triggers.filter((t) => t.jtis.length === 0 && t.required !== undefined);
    if (from === "enabled" && to === "paused")
      // Still queued when the stream is paused: held from now on, as if raised while paused.
      for (const t of owed) {
        t.held = true;
        t.required = PAUSED;
      }
    if (to === "disabled")
      for (const t of owed)
        this.relax(
          t,
          from === "paused"
            ? "held while paused, then the stream was disabled"
            : "in flight when the stream was disabled",
        );
    if (from === "paused" && to === "enabled") {
      // §8.1.2.1: of successive held events about one subject, a Transmitter may send only the last.
      const last = new Map<number, Trigger>();
      for (const t of this.triggers) if (t.held && t.jtis.length === 0) last.set(t.slot, t);
      for (const t of owed)
        if (t.held && last.get(t.slot) !== t)
          this.relax(
            t,
            "held while paused, with a later held event about the same subject (only the last is owed)",
          );
    }
    if (to === "enabled")
      for (const t of this.triggers) {
        t.held = false;
        if (t.jtis.length === 0) t.sendable = true;
      }
    this.status = to;
  }

  /** POST add_subject_endpoint answered 2xx. */
  add(slot: number): void {
    this.members[slot] = "in";
    // An event kept back only because its subject was not in the stream may be handed out once
    // it is (a Transmitter filtering when it delivers rather than when it queues).
    for (const t of this.triggers)
      if (t.slot === slot && t.jtis.length === 0 && t.never.delete(SUBJECTS) && t.never.size === 0)
        t.optional ??= "triggered before its subject was added, handed out after";
  }

  /** POST remove_subject_endpoint answered 2xx. */
  remove(slot: number): void {
    if (this.inStream(slot)) this.members[slot] = "removed";
    for (const t of this.triggers)
      if (t.slot === slot && t.jtis.length === 0 && t.required !== undefined)
        this.relax(t, "in flight when its subject was removed");
  }

  /** The trigger hook answered 2xx: the event occurred now. */
  trigger(slot: number, marker: string): Trigger {
    const membership = this.membership(slot);
    const t: Trigger = {
      n: this.triggers.length + 1,
      marker,
      slot,
      status: this.status,
      membership,
      never: new Set(),
      held: this.status === "paused",
      sendable: this.status === "enabled",
      required: undefined,
      optional: undefined,
      jtis: [],
    };
    if (membership === "never" && this.defaultSubjects === "NONE") t.never.add(SUBJECTS);
    else if (membership === "never" && this.defaultSubjects === undefined)
      t.optional = "about a subject never added, and discovery gives no default_subjects";
    else if (membership === "removed")
      t.optional =
        "about a subject removed from the stream (SSF §9.3: a Transmitter may go on sending for a while)";
    if (this.status === "disabled") t.never.add(DISABLED);
    if (t.never.size === 0 && this.inStream(slot))
      t.required = this.status === "enabled" ? ONCE : this.status === "paused" ? PAUSED : undefined;
    this.triggers.push(t);
    return t;
  }

  /** The Transmitter accepted a verification request (204). */
  verify(): void {
    this.verifications.requested++;
  }

  /** Which trigger an unmarked SET about `slot` answers: the first not yet arrived, in order. */
  inOrder(slot: number, jti: string): Trigger | undefined {
    const mine = this.triggers.filter((t) => t.slot === slot);
    return mine.find((t) => t.jtis.includes(jti)) ?? mine.find((t) => t.jtis.length === 0) ?? mine.at(-1);
  }

  byMarker(marker: string): Trigger | undefined {
    return this.triggers.find((t) => t.marker === marker);
  }

  /** A SET handed out (polled, or pushed to the mock Receiver). */
  arrived(a: Arrival): void {
    // RFC 8935 §2: a Transmitter "MAY transmit the same SET ... multiple times, regardless of the
    // response" (and SHOULD NOT outside a recoverable error): a push of a SET already answered
    // 202 is noted, not a violation. A poll ack releases the SET (RFC 8936 §2.1, §2.2).
    if (this.acked.has(a.jti) && this.push)
      this.note(
        "the same SET pushed again after a 202 answer (RFC 8935 §2: MAY, SHOULD NOT outside a recoverable error)",
      );
    else if (this.acked.has(a.jti))
      this.violate(
        ONCE,
        `SET ${q(a.jti)} was handed out again after it was acknowledged`,
        "an acknowledged SET is never delivered again (RFC 8936 §2.4, RFC 8935 §2)",
        `SET ${q(a.jti)}${a.trigger ? ` (${triggerText(a.trigger)})` : ""} handed out again while the stream was ${a.status}`,
        a.res,
      );
    const first = !this.seen.has(a.jti);
    if (a.verification !== undefined) {
      if (first) this.verifications.arrived++;
      this.seen.set(a.jti, "verification");
      return;
    }
    const t = a.trigger;
    if (t === undefined) {
      if (first) this.others++;
      this.seen.set(a.jti, "other");
      return;
    }
    this.seen.set(a.jti, t);
    if ((a.status === "paused" || a.status === "disabled") && !this.stopped.has(t)) {
      if (this.push && t.sendable)
        this.note(
          "pushed in flight: raised or released while enabled, landed after the stream was paused or disabled",
        );
      else {
        this.stopped.add(t);
        this.violate(
          DISABLED,
          `a SET was handed out while the stream was ${a.status}`,
          `nothing is transmitted while the stream is ${a.status} (SSF §8.1.2.1: MUST NOT transmit events over the stream)`,
          `${triggerText(t)}: handed out as SET ${q(a.jti)} while the stream was ${a.status}`,
          a.res,
        );
      }
    }
    if (t.jtis.includes(a.jti)) return;
    if (t.jtis.length > 0) {
      this.violate(
        ONCE,
        `one event was handed out as two SETs (${q(t.jtis[0])} and ${q(a.jti)})`,
        "each event delivered once, as one SET (a redelivery keeps its jti)",
        `${triggerText(t)}: SETs ${[...t.jtis, a.jti].slice(0, 5).map(q).join(", ")}`,
        a.res,
      );
      t.jtis.push(a.jti);
      return;
    }
    t.jtis.push(a.jti);
    t.arrivedWhile = a.status;
    for (const id of t.never)
      this.violate(
        id,
        id === SUBJECTS
          ? "an event about a subject never added to the stream was delivered (default_subjects NONE)"
          : "an event raised while the stream was disabled was delivered",
        id === SUBJECTS
          ? "events only about subjects added to the stream (SSF §7.1 default_subjects NONE, §8.1.3)"
          : "nothing raised while disabled is ever delivered, also not after re-enabling (SSF §8.1.2.1: a disabled stream holds nothing)",
        `${triggerText(t)}: handed out as SET ${q(a.jti)} while the stream was ${a.status}`,
        a.res,
      );
  }

  /** Counts a behaviour the texts allow, for the check's notes. */
  note(what: string): void {
    const row = this.allowed.get(what) ?? { arrived: 0, dropped: 0 };
    row.arrived++;
    this.allowed.set(what, row);
  }

  /** The stream was read (polled, or its pushes collected) while paused or disabled. */
  readWhileStopped(): void {
    this.exercised.add(DISABLED);
  }

  /** Acknowledged (poll: the request carrying the ack answered 200). */
  ack(jtis: Iterable<string>): void {
    for (const j of jtis) this.acked.add(j);
  }

  /**
   * The stream was drained: every event still owed is lost. The violations of the run. `res`:
   * the last answer of the drain (evidence that the event had not come).
   */
  finish(res?: HttpResponse): Violation[] {
    for (const t of this.triggers) {
      for (const id of t.never) this.exercised.add(id);
      if (t.required !== undefined) this.exercised.add(t.required);
      if (t.required !== undefined && t.jtis.length === 0)
        this.violate(
          t.required,
          t.required === PAUSED
            ? "an event held while paused never arrived after the stream was enabled again"
            : "an event on an enabled stream about a subject in it never arrived",
          t.required === PAUSED
            ? "held events are sent once the stream is enabled again (SSF §8.1.2.1; of successive events about one subject, at least the last)"
            : "every event about a subject in an enabled stream is delivered (none lost)",
          `${triggerText(t)}: not handed out by the end of the run (the stream enabled and drained)`,
          res,
        );
      if (t.optional !== undefined && t.never.size === 0) {
        const row = this.allowed.get(t.optional) ?? { arrived: 0, dropped: 0 };
        if (t.jtis.length > 0) row.arrived++;
        else row.dropped++;
        this.allowed.set(t.optional, row);
      }
    }
    return this.violations;
  }
}
