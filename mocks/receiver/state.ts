import { randomBytes } from "node:crypto";
import type { JSONWebKeySet } from "jose";
import { Notifier } from "../transmitter/notifier.js";
import { decodeSet } from "./validator.js";
import type {
  AuthSeen,
  FloodStats,
  ReceivedSet,
  ReceiverStats,
  RespondBehaviour,
  SetProblem,
  SetRule,
  SlotStats,
} from "./types.js";

/** The log keeps the last 1000 pushes of a slot, 5000 in all, and at most 32 MiB (sizeOf). */
export const MAX_PER_SLOT = 1000;
export const MAX_STORED = 5000;
export const MAX_STORED_BYTES = 32 * 1024 * 1024;
/** Slots the mock holds at once (a check makes one per stream). */
export const MAX_SLOTS = 200;
/** jtis each slot remembers for "jti-unique" (the oldest are forgotten beyond). */
export const MAX_JTIS = 20_000;
/** Behaviours armed per slot and not yet used. */
const MAX_ARMED = 100;

/** What an entry costs the log, roughly in bytes (body, headers, problem messages). */
export function sizeOf(e: StoredSet): number {
  let n = e.token.length + 200;
  for (const [k, v] of Object.entries(e.headers)) n += k.length + v.length;
  for (const p of e.problems ?? []) n += p.message.length + 20;
  for (const u of e.events ?? []) n += u.length;
  return n;
}

/** What a slot judges SETs against; keys may be fetched lazily (standalone `--issuer`). */
export interface SlotJudgeSource {
  readonly issuer: string | null;
  readonly audience?: string | readonly string[];
  keys(kid?: string): Promise<JSONWebKeySet | null>;
}

/** A push as stored: the body and the verdict, decoded claims only on reading (memory). */
export type StoredSet = Omit<ReceivedSet, "header" | "payload">;

class Counter implements FloodStats {
  count = 0;
  bytes = 0;
  overCap = 0;
  snapshot(): FloodStats {
    return { count: this.count, bytes: this.bytes, overCap: this.overCap };
  }
}

/** One push endpoint (one stream): its Authorization, its judge, armed behaviours, its log. */
export class Slot {
  readonly flood = new Counter();
  readonly log: StoredSet[] = [];
  evicted = 0;
  readonly answered: Record<string, number> = {};
  judged = 0;
  withProblems = 0;
  readonly byRule: Partial<Record<SetRule, number>> = {};
  /** jti → claims fingerprint (validator.ts), bounded by MAX_JTIS. */
  readonly seenJtis = new Map<string, string>();
  private readonly armed: { b: RespondBehaviour; left: number }[] = [];

  constructor(
    readonly id: string,
    readonly endpointUrl: string,
    /** The value pushes must carry (a secret: never logged, printed or returned). */
    readonly authorization: string | undefined,
    readonly judge: SlotJudgeSource,
  ) {}

  arm(b: RespondBehaviour): boolean {
    if (this.armed.length >= MAX_ARMED) return false;
    this.armed.push({ b, left: b.times ?? 1 });
    return true;
  }

  disarm(): void {
    this.armed.length = 0;
  }

  /** The behaviour for this push, if one is armed (each applies to its next `times` pushes). */
  take(): RespondBehaviour | undefined {
    const first = this.armed[0];
    if (!first) return undefined;
    if (--first.left <= 0) this.armed.shift();
    return first.b;
  }

  get armedCount(): number {
    return this.armed.length;
  }

  countVerdict(problems: readonly SetProblem[]): void {
    this.judged++;
    if (problems.length > 0) this.withProblems++;
    for (const r of new Set(problems.map((p) => p.rule))) this.byRule[r] = (this.byRule[r] ?? 0) + 1;
    while (this.seenJtis.size > MAX_JTIS) this.seenJtis.delete(this.seenJtis.keys().next().value!);
  }

  stats(): SlotStats {
    return {
      slot: this.id,
      endpointUrl: this.endpointUrl,
      flood: this.flood.snapshot(),
      stored: this.log.length,
      evicted: this.evicted,
      answered: { ...this.answered },
      judged: this.judged,
      withProblems: this.withProblems,
      byRule: { ...this.byRule },
      armed: this.armedCount,
    };
  }
}

/** The push as the control API shows it: header and claims decoded from the stored body. */
export function received(s: StoredSet): ReceivedSet {
  const d = decodeSet(s.token);
  return {
    ...s,
    ...(d.header ? { header: d.header } : {}),
    ...(d.payload ? { payload: d.payload } : {}),
  };
}

/**
 * The mock Receiver's state: slots, the bounded log of pushes across them, exact counters of
 * everything (over-cap bodies and pushes to unknown slots included). Memory stays flat under a
 * flood: the log drops its oldest entries past its bounds, counters are numbers.
 */
export class ReceiverState {
  readonly slots = new Map<string, Slot>();
  readonly flood = new Counter();
  unknownSlot = 0;
  readonly changes = new Notifier();
  private seq = 0;
  private stored = 0;
  private storedBytes = 0;

  constructor(private readonly base: () => string) {}

  endpointOf(id: string): string {
    return `${this.base()}/push/${encodeURIComponent(id)}`;
  }

  /** A new slot; undefined when the mock holds as many as it keeps or the id is taken. */
  addSlot(o: { id?: string; authorization?: string; judge: SlotJudgeSource }): Slot | undefined {
    if (this.slots.size >= MAX_SLOTS) return undefined;
    const id = o.id ?? randomBytes(12).toString("base64url");
    if (this.slots.has(id)) return undefined;
    const slot = new Slot(id, this.endpointOf(id), o.authorization, o.judge);
    this.slots.set(id, slot);
    return slot;
  }

  deleteSlot(id: string): boolean {
    const s = this.slots.get(id);
    if (!s) return false;
    this.stored -= s.log.length;
    for (const e of s.log) this.storedBytes -= sizeOf(e);
    this.slots.delete(id);
    this.changes.notify();
    return true;
  }

  nextSeq(): number {
    return ++this.seq;
  }

  /** Stores a push within the body cap, then drops the oldest entries past the bounds. */
  store(slot: Slot, e: StoredSet): void {
    if (this.slots.get(slot.id) !== slot) return;
    slot.log.push(e);
    this.stored++;
    this.storedBytes += sizeOf(e);
    if (slot.log.length > MAX_PER_SLOT) this.evict(slot);
    while (this.stored > MAX_STORED || this.storedBytes > MAX_STORED_BYTES) {
      const oldest = this.oldestSlot();
      if (!oldest) break;
      this.evict(oldest);
    }
    this.changes.notify();
  }

  private evict(slot: Slot): void {
    const gone = slot.log.shift();
    if (!gone) return;
    slot.evicted++;
    this.stored--;
    this.storedBytes -= sizeOf(gone);
  }

  private oldestSlot(): Slot | undefined {
    let best: Slot | undefined;
    for (const s of this.slots.values()) {
      const first = s.log[0];
      if (first && (!best || first.seq < best.log[0]!.seq)) best = s;
    }
    return best;
  }

  stats(): ReceiverStats {
    return {
      flood: this.flood.snapshot(),
      unknownSlot: this.unknownSlot,
      stored: this.stored,
      slots: [...this.slots.values()].map((s) => s.stats()),
    };
  }

  /** The stored bytes now (for tests of the bounds). */
  get bytesStored(): number {
    return this.storedBytes;
  }

  close(): void {
    this.changes.close();
  }
}

/** Request headers as recorded: Authorization as present/absent/wrong, cookies dropped, values bounded. */
export function recordedHeaders(h: Headers, auth: AuthSeen): Record<string, string> {
  const out: Record<string, string> = {};
  let n = 0;
  h.forEach((v, k) => {
    if (k === "cookie" || k === "authorization" || k === "proxy-authorization" || n++ >= 50) return;
    out[k] = v.length > 512 ? `${v.slice(0, 512)}...` : v;
  });
  out.authorization = auth;
  return out;
}
