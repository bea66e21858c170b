import type { PollOutcome, PollStats } from "./types.js";

/** SETs one stream holds at most (delivered and settled ones included; the oldest settled go first). */
export const MAX_QUEUED = 10_000;
/** What a poll answer holds at most unless the harness sets another page size. */
export const DEFAULT_PAGE = 50;
const MAX_TEXT = 200;

interface Item {
  readonly jti: string;
  token: string;
  /** queued: never delivered in this round; delivered: handed out, no outcome yet; settled: acked or reported. */
  state: "queued" | "delivered" | "settled";
  deliveries: number;
  acks: number;
  errs: number;
  unsolicited: number;
  /** The outcome of the current round: undefined while none, else whether it was an error. */
  roundError?: boolean;
  err?: string;
  description?: string;
  /** Deliver once more after its next acknowledgement (a lost-ack replay). */
  replay: boolean;
}

const clip = (v: unknown): string | undefined => {
  if (v === undefined) return undefined;
  const s = typeof v === "string" ? v : (JSON.stringify(v) ?? String(v));
  return s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT - 3)}...` : s;
};

/**
 * The SETs queued for one poll stream (RFC 8936 §2): handed out in enqueue order, at most a
 * page at a time with `moreAvailable`; a SET handed out and neither acknowledged nor reported
 * in `setErrs` is handed out again by a later poll, so no SET is lost to a Receiver that
 * drops one. Re-enqueueing a jti starts a new round for it (a re-sent SET).
 */
export class PollQueue {
  private readonly items = new Map<string, Item>();
  /** The mock's own page size (`/__idc/poll/config`). */
  maxPerPoll = DEFAULT_PAGE;
  /** Anomalies of SETs evicted to keep the queue bounded. */
  private readonly evicted = { unsolicited: 0, overAcked: 0 };

  /** Queues SETs (a known jti is queued again, as a new delivery of the same SET). */
  enqueue(sets: readonly { jti: string; token: string }[]): void {
    const fresh = sets.filter((s) => !this.items.has(s.jti)).length;
    this.evict(this.items.size + fresh - MAX_QUEUED);
    if (this.items.size + fresh > MAX_QUEUED)
      throw new Error(
        `the stream already holds ${this.items.size} SETs not yet settled (at most ${MAX_QUEUED})`,
      );
    for (const s of sets) {
      const old = this.items.get(s.jti);
      this.items.delete(s.jti);
      const item: Item = old ?? {
        jti: s.jti,
        token: s.token,
        state: "queued",
        deliveries: 0,
        acks: 0,
        errs: 0,
        unsolicited: 0,
        replay: false,
      };
      item.token = s.token;
      this.requeue(item);
      this.items.set(s.jti, item);
    }
  }

  private requeue(item: Item): void {
    item.state = "queued";
    delete item.roundError;
  }

  private evict(n: number): void {
    if (n <= 0) return;
    for (const [jti, item] of this.items) {
      if (n <= 0) return;
      if (item.state === "settled" && !item.replay) {
        // What it showed still counts (anomalies), though the SET itself is gone.
        if (item.unsolicited > 0) this.evicted.unsolicited++;
        else if (item.acks > item.deliveries) this.evicted.overAcked++;
        this.items.delete(jti);
        n--;
      }
    }
  }

  /** Marks acknowledged SETs to be delivered once more after their acknowledgement. */
  replayAfterAck(jtis: readonly string[]): string[] {
    const unknown: string[] = [];
    for (const jti of jtis) {
      const item = this.items.get(jti);
      if (!item) unknown.push(jti);
      else if (item.state === "settled" && item.roundError === false) this.again(item);
      else item.replay = true;
    }
    return unknown;
  }

  private again(item: Item): void {
    item.replay = false;
    this.items.delete(item.jti);
    this.requeue(item);
    this.items.set(item.jti, item);
  }

  /**
   * Applies a poll's `ack` and `setErrs` (RFC 8936 §2.1, §2.4): each settles the current
   * delivery of a SET handed out; one naming a SET never handed out is counted as unsolicited.
   * Returns the jtis this stream never held.
   */
  settle(
    ack: readonly string[],
    setErrs: Readonly<Record<string, { err?: unknown; description?: unknown }>>,
  ): string[] {
    const unknown: string[] = [];
    const touch = (jti: string, error: boolean): Item | undefined => {
      const item = this.items.get(jti);
      if (!item) {
        unknown.push(jti);
        return undefined;
      }
      // Queued: not handed out in this round, so the Receiver cannot be answering for it.
      if (item.state === "queued") item.unsolicited++;
      else {
        item.state = "settled";
        // An error reported for a delivery makes that delivery an error, whatever else came.
        item.roundError = error || item.roundError === true;
      }
      return item;
    };
    for (const jti of ack) {
      const item = touch(jti, false);
      if (item) item.acks++;
    }
    for (const [jti, e] of Object.entries(setErrs)) {
      const item = touch(jti, true);
      if (!item) continue;
      item.errs++;
      const err = clip(e.err);
      const description = clip(e.description);
      if (err !== undefined) item.err = err;
      if (description !== undefined) item.description = description;
    }
    for (const item of this.items.values())
      if (item.replay && item.state === "settled" && item.roundError === false) this.again(item);
    return unknown;
  }

  /** Whether a poll would get at least one SET now. */
  available(): boolean {
    for (const item of this.items.values()) if (item.state !== "settled") return true;
    return false;
  }

  /**
   * Hands out up to `max` SETs: queued ones and earlier deliveries still without an outcome, in
   * turn: each SET handed out goes to the back, so one the Receiver never settles does not keep
   * a small page to itself and starve the SETs queued after it.
   */
  take(max: number): { sets: Record<string, string>; moreAvailable: boolean } {
    const sets: Record<string, string> = {};
    const taken: Item[] = [];
    let more = false;
    for (const item of this.items.values()) {
      if (item.state === "settled") continue;
      if (taken.length >= max) {
        more = true;
        break;
      }
      sets[item.jti] = item.token;
      item.state = "delivered";
      item.deliveries++;
      taken.push(item);
    }
    for (const item of taken) {
      this.items.delete(item.jti);
      this.items.set(item.jti, item);
    }
    return { sets, moreAvailable: more };
  }

  /**
   * SETs acknowledged or reported while not handed out, and SETs acknowledged more often than
   * handed out: counts over every SET the stream holds, with the first few of each.
   */
  anomalies(examples = 5): PollStats["ackAnomalies"] {
    const unsolicited = { count: this.evicted.unsolicited, examples: [] as { jti: string; times: number }[] };
    const overAcked = {
      count: this.evicted.overAcked,
      examples: [] as { jti: string; acks: number; deliveries: number }[],
    };
    for (const item of this.items.values()) {
      if (item.unsolicited > 0) {
        unsolicited.count++;
        if (unsolicited.examples.length < examples)
          unsolicited.examples.push({ jti: item.jti, times: item.unsolicited });
      } else if (item.acks > item.deliveries) {
        overAcked.count++;
        if (overAcked.examples.length < examples)
          overAcked.examples.push({ jti: item.jti, acks: item.acks, deliveries: item.deliveries });
      }
    }
    return { unsolicited, overAcked };
  }

  has(jti: string): boolean {
    return this.items.has(jti);
  }

  /** What became of a jti; a jti the stream never held is pending with no delivery. */
  outcome(jti: string): PollOutcome {
    const item = this.items.get(jti);
    if (!item) return { kind: "pending", deliveries: 0, acks: 0, errs: 0, unsolicited: 0 };
    const kind = item.state === "settled" ? (item.roundError ? "error" : "acked") : "pending";
    return {
      kind,
      ...(item.err !== undefined ? { err: item.err } : {}),
      ...(item.description !== undefined ? { description: item.description } : {}),
      deliveries: item.deliveries,
      acks: item.acks,
      errs: item.errs,
      unsolicited: item.unsolicited,
    };
  }
}
