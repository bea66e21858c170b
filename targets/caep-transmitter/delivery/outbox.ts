import type { FaultSet } from "../faults.js";
import { LIMITS } from "../limits.js";
import { ReplayLog } from "./fault-replay-log.js";

/** A stream's status (SSF 1.0 §8.1.2). */
export type StreamStatus = "enabled" | "paused" | "disabled";

/** One signed SET waiting on a stream. */
export interface QueuedSet {
  readonly jti: string;
  readonly token: string;
  /** Push attempts made so far. */
  attempts: number;
}

/**
 * The SETs of one stream, in the order they were made, and what the status lets through
 * (SSF 1.0 §8.1.2): enabled transmits; paused transmits nothing and holds what arrives,
 * released once enabled; disabled transmits nothing and holds nothing (what was waiting is
 * dropped). Poll delivery (RFC 8936 §2.4) keeps what it handed out until acknowledged, and hands
 * it out again until then. Bounded: beyond the limit the oldest SETs are dropped. Waiters (the
 * push worker, long polls) are woken by every change.
 */
export class Outbox {
  private pending: QueuedSet[] = [];
  /** Handed out by a poll, neither acknowledged nor reported in setErrs yet; oldest first. */
  private readonly handedOut = new Map<string, QueuedSet>();
  private readonly waiters = new Set<() => void>();
  private closed = false;
  /** The `enable-replays-delivered` fault's log (made on first use, under the fault only). */
  private replay: ReplayLog | undefined;

  constructor(
    private readonly status: () => StreamStatus,
    private readonly faults: FaultSet,
  ) {}

  /** Whether the status lets SETs out now. */
  transmitting(): boolean {
    const s = this.status();
    return s === "enabled" || (s === "disabled" && this.faults.has("disabled-delivers"));
  }

  /** Queues a SET made for this stream, as the status says: held, or dropped while disabled. */
  offer(set: QueuedSet): void {
    const s = this.status();
    if (this.closed || (s === "disabled" && !this.transmitting())) return;
    if (s === "paused" && this.faults.has("paused-drops")) return;
    this.pending.push(set);
    // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: a bound of this Transmitter (the texts state none): no run queues a thousand SETs on one stream
    while (this.pending.length + this.handedOut.size > LIMITS.maxQueuedPerStream) this.dropOldest();
    this.notify();
  }

  // Stryker disable all: the bound above: the oldest SET goes, a handed-out one first
  private dropOldest(): void {
    const oldest = this.handedOut.keys().next();
    if (oldest.done === true) this.pending.shift();
    else this.handedOut.delete(oldest.value);
  }
  // Stryker restore all

  /** The status changed: disabling drops what waits; every change wakes the waiters. */
  // Stryker disable next-line BlockStatement: what it does without a fault is the drop on disabling (left open, below) and waking long polls no run holds
  statusChanged(): void {
    const s = this.status();
    // Stryker disable next-line all: SSF 1.0 §8.1.2.1 leaves open whether SETs queued before a stream is disabled still go out once it is enabled; the lifecycle model allows both
    if (s === "disabled" && !this.transmitting()) {
      this.pending = [];
      this.handedOut.clear();
    }
    if (s === "paused" && this.faults.has("paused-drops")) this.pending = [];
    if (s === "enabled" && this.faults.has("enable-replays-delivered"))
      this.pending = (this.replay ??= new ReplayLog()).replayBefore(this.pending);
    this.notify();
  }

  /** Push: the SET to send next, while the status lets it out. */
  head(): QueuedSet | undefined {
    return this.transmitting() ? this.pending[0] : undefined;
  }

  /** Push: the SET is done with (delivered, refused, or given up); it leaves the queue. */
  settle(set: QueuedSet): void {
    this.pending = this.pending.filter((s) => s !== set);
    if (this.faults.has("enable-replays-delivered")) (this.replay ??= new ReplayLog()).record(set);
  }

  /** Poll: the Receiver acknowledged these SETs, or reported them in setErrs (RFC 8936 §2.4). */
  acknowledge(jtis: Iterable<string>): void {
    if (this.faults.has("poll-ack-ignored")) return;
    for (const jti of jtis) {
      const set = this.handedOut.get(jti);
      if (set !== undefined && this.faults.has("enable-replays-delivered"))
        (this.replay ??= new ReplayLog()).record(set);
      this.handedOut.delete(jti);
    }
  }

  /**
   * Poll: up to `max` SETs not yet acknowledged, those handed out before first, and whether
   * more wait beyond them (RFC 8936 §2.2 moreAvailable). Nothing while the status holds SETs.
   */
  take(max: number): { sets: QueuedSet[]; more: boolean } {
    // Stryker disable next-line ArrayDeclaration: equivalent: an element with no jti or token vanishes from the JSON answer
    const before = this.transmitting() ? [...this.handedOut.values()] : [];
    // Stryker disable next-line ArrayDeclaration: equivalent: an element with no jti or token vanishes from the JSON answer
    const fresh = this.transmitting() ? this.pending : [];
    const sets = [...before, ...fresh].slice(0, max);
    const more = before.length + fresh.length > sets.length;
    const now = sets.slice(before.length);
    this.pending = this.pending.slice(now.length);
    if (this.faults.has("poll-no-redelivery")) return { sets, more };
    for (const set of now) this.handedOut.set(set.jti, set);
    return { sets, more };
  }

  // Stryker disable all: a change of delivery method on a live stream: no check makes one
  /** The delivery method changed to push: what a poll handed out is pushed, before the rest. */
  unhandAll(): void {
    this.pending = [...this.handedOut.values(), ...this.pending];
    this.handedOut.clear();
    this.notify();
  }
  // Stryker restore all

  // Stryker disable all: wait plumbing: how a waiter (the push worker, a long poll) is woken, times out or leaves on abort and close; what is delivered does not depend on it
  /**
   * Resolves at the next change, after `ms` (if given), when `signal` aborts, or at once when
   * the outbox is closed. Never rejects.
   */
  wait(ms: number | undefined, signal?: AbortSignal): Promise<void> {
    if (this.closed || signal?.aborted === true) return Promise.resolve();
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const done = (): void => {
        clearTimeout(timer);
        this.waiters.delete(done);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      this.waiters.add(done);
      if (ms !== undefined) timer = setTimeout(done, Math.max(0, ms));
      signal?.addEventListener("abort", done, { once: true });
    });
  }

  /** The stream is gone or the Transmitter stops: nothing more is queued, every waiter returns. */
  close(): void {
    this.closed = true;
    this.pending = [];
    this.handedOut.clear();
    this.notify();
  }
  // Stryker restore all

  private notify(): void {
    for (const w of [...this.waiters]) w();
  }
}
