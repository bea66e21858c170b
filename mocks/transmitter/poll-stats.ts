import type { AuthSeen, PollLogEntry, PollStats, PollTally } from "./types.js";

/** Examples kept per kind of poll request counted. */
const EXAMPLES = 5;
/** The first poll requests of a stream kept whole (the shared poll log keeps the latest). */
const FIRST = 50;
/** Distinct setErrs entries (err and description) kept per stream. */
const MAX_DISTINCT_ERRS = 500;
const MAX_TEXT = 2048;

/** What one poll request was, for the counts: the kinds it falls under. */
export interface PollKinds {
  readonly authorization: AuthSeen;
  /** A POST whose body the mock read (authorized, not too large). */
  readonly read?: boolean;
  /** Answered 200 (its ack and setErrs applied). */
  readonly answered?: boolean;
  /** Not a POST (the poll route takes POST only). */
  readonly otherMethod?: boolean;
  /** RFC 8936 §2.1 form problems the mock found in its body. */
  readonly formProblems?: boolean;
  /** Over one of the mock's bounds (body size, ack or setErrs length): not read or not applied. */
  readonly overLimit?: boolean;
  /** Its ack or setErrs named a jti this stream never held. */
  readonly unknownJtis?: boolean;
  /** The setErrs entries it reported, as read. */
  readonly setErrs?: Readonly<Record<string, { err?: unknown; description?: unknown }>>;
}

class Tally {
  count = 0;
  readonly examples: PollLogEntry[] = [];
  add(e: PollLogEntry): void {
    this.count++;
    if (this.examples.length < EXAMPLES) this.examples.push(e);
  }
  view(): PollTally {
    return { count: this.count, examples: [...this.examples] };
  }
}

const text = (v: unknown): string | undefined => {
  if (v === undefined) return undefined;
  const s = typeof v === "string" ? v : (JSON.stringify(v) ?? String(v));
  return s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT - 3)}...` : s;
};

/**
 * Counts over EVERY poll request of one stream (RFC 8936 §2.1; SSF §7.1.1 authorization), which
 * the shared poll log cannot: it keeps only the latest requests, and a Receiver polling in a
 * tight loop pushes its early ones out. Each kind keeps its count and its first examples; the
 * first requests are kept whole, and the distinct setErrs entries (bounded; the jti a description
 * names replaced by `<jti>`) with how often each came.
 */
export class PollStatsRecorder {
  private polls = 0;
  private read = 0;
  private answered = 0;
  private readonly first: PollLogEntry[] = [];
  private readonly absent = new Tally();
  private readonly wrong = new Tally();
  private readonly other = new Tally();
  private readonly form = new Tally();
  private readonly limits = new Tally();
  private readonly unknown = new Tally();
  private errsTotal = 0;
  private errsDropped = 0;
  private readonly distinct = new Map<
    string,
    { err?: string; description?: string; count: number; firstSeq: number }
  >();

  constructor(readonly streamId: string) {}

  add(e: PollLogEntry, k: PollKinds): void {
    this.polls++;
    if (this.first.length < FIRST) this.first.push(e);
    if (k.read) this.read++;
    if (k.answered) this.answered++;
    // A request by another method is no poll: its authorization is not a poll's.
    if (k.otherMethod) this.other.add(e);
    else if (k.authorization === "absent") this.absent.add(e);
    else if (k.authorization === "wrong") this.wrong.add(e);
    if (k.formProblems) this.form.add(e);
    if (k.overLimit) this.limits.add(e);
    if (k.unknownJtis) this.unknown.add(e);
    for (const [jti, v] of Object.entries(k.setErrs ?? {})) {
      this.errsTotal++;
      const err = text(v.err);
      // A description naming its SET's jti is the same description for every SET.
      const description = text(
        typeof v.description === "string" ? v.description.split(jti).join("<jti>") : v.description,
      );
      const key = JSON.stringify([err ?? null, description ?? null]);
      const known = this.distinct.get(key);
      if (known) known.count++;
      else if (this.distinct.size >= MAX_DISTINCT_ERRS) this.errsDropped++;
      else
        this.distinct.set(key, {
          ...(err !== undefined ? { err } : {}),
          ...(description !== undefined ? { description } : {}),
          count: 1,
          firstSeq: e.seq,
        });
    }
  }

  view(last: readonly PollLogEntry[], ackAnomalies: PollStats["ackAnomalies"]): PollStats {
    return {
      streamId: this.streamId,
      polls: this.polls,
      read: this.read,
      answered: this.answered,
      first: [...this.first],
      last: [...last],
      authAbsent: this.absent.view(),
      authWrong: this.wrong.view(),
      otherMethods: this.other.view(),
      formProblems: this.form.view(),
      overLimit: this.limits.view(),
      unknownJtis: this.unknown.view(),
      setErrs: {
        total: this.errsTotal,
        distinct: [...this.distinct.values()].map((d) => ({ ...d })),
        dropped: this.errsDropped,
      },
      ackAnomalies,
    };
  }
}
