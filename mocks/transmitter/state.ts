import { randomUUID, timingSafeEqual } from "node:crypto";
import type { JWK } from "jose";
import { Agent } from "undici";
import type { MockLogEntry } from "../../src/http/mock-control.js";
import { SSF_VERIFICATION_EVENT } from "../../src/protocols/caep.js";
import { Notifier } from "./notifier.js";
import { PollQueue } from "./poll-queue.js";
import { PollStatsRecorder, type PollKinds } from "./poll-stats.js";
import { pushSet } from "./push.js";
import { buildSet, exampleSubject, setEventUri, signSet, type SetEvent } from "./set.js";
import { MAX_STREAMS, streamView, type StreamRecord } from "./streams.js";
import type { AuthSeen, DeliveryKind, EmitAnswer, PollLogEntry, PollStats, StreamView } from "./types.js";

const MAX_POLL_LOG = 500;
/** The latest poll requests of a stream its counts (`pollStatsOf`) show whole. */
const LAST_POLLS = 50;
const MAX_SETUP_LOG = 1000;
const MAX_FETCH_TIMES = 200;

/** What a Transmitter's signing side needs that the routes share. */
export interface TransmitterConfig {
  readonly issuer: string;
  /** The base URL endpoints are published under (publicUrl). */
  readonly base: string;
  readonly deliveryMethods: readonly DeliveryKind[];
  readonly eventsSupported: readonly string[];
  /** Bearer token stream management and poll calls must carry; undefined: any Bearer token. */
  readonly receiverToken?: string;
  readonly audience?: string;
  /** How long a poll without returnImmediately waits for SETs (RFC 8936 long polling). */
  readonly longPollMs: number;
}

/**
 * The mock Transmitter's state: streams, the key it signs its own SETs with, the key set it
 * publishes, the poll log and jwks fetches. Routes (ssf-routes.ts, control-routes.ts) read and
 * change it; `emit` is how anything (the control route, the verification endpoint) sends a SET.
 */
export class TransmitterState {
  readonly streams = new Map<string, StreamRecord>();
  /** Wakes long polls, outcome waits and stream waits. */
  readonly changes = new Notifier();
  readonly pollLog: PollLogEntry[] = [];
  /** Per stream, counts over every poll request (the poll log keeps only the latest). */
  private readonly pollStats = new Map<string, PollStatsRecorder>();
  /** The Receiver's requests other than polls (discovery, jwks, stream management), bounded. */
  readonly setupLog: MockLogEntry[] = [];
  private pollSeq = 0;
  jwksFetches = 0;
  readonly fetchTimes: string[] = [];
  /** Pushes in flight (verification SETs after a 204), aborted by close. */
  readonly inFlight = new AbortController();
  private readonly pending = new Set<Promise<unknown>>();
  /** Its own connections to Receivers, so closing the mock leaves no keep-alive socket behind. */
  private readonly agent = new Agent({ connections: 16 });

  constructor(
    readonly config: TransmitterConfig,
    public signingKey: JWK,
    public jwks: { keys: JWK[] },
  ) {}

  pollUrl = (id: string): string => `${this.config.base}/ssf/poll/${encodeURIComponent(id)}`;

  /** How a request's Authorization compares with the Receiver's token (RFC 6750 Bearer). */
  authOf(header: string | undefined): AuthSeen {
    if (header === undefined || header === "") return "absent";
    const m = /^Bearer +(\S+) *$/i.exec(header);
    if (!m) return "wrong";
    const want = this.config.receiverToken;
    if (want === undefined) return "present";
    const a = Buffer.from(m[1]!);
    const b = Buffer.from(want);
    return a.length === b.length && timingSafeEqual(a, b) ? "present" : "wrong";
  }

  views(): StreamView[] {
    return [...this.streams.values()].map((s) => streamView(s, this));
  }

  get eventsSupported(): readonly string[] {
    return this.config.eventsSupported;
  }

  /** A new stream; undefined when the mock holds as many as it keeps. */
  addStream(s: Omit<StreamRecord, "id" | "subjects" | "status"> & { id?: string }): StreamRecord | undefined {
    if (this.streams.size >= MAX_STREAMS) return undefined;
    const id = s.id ?? randomUUID();
    const rec: StreamRecord = { ...s, id, subjects: [], status: "enabled" };
    if (rec.delivery === "poll") rec.queue ??= new PollQueue();
    this.streams.set(id, rec);
    this.changes.notify();
    return rec;
  }

  deleteStream(id: string): boolean {
    const had = this.streams.delete(id);
    this.changes.notify();
    return had;
  }

  /** The stream named, or the first one when none is named. */
  stream(id?: string): StreamRecord | undefined {
    return id === undefined ? this.streams.values().next().value : this.streams.get(id);
  }

  recordFetch(): void {
    this.jwksFetches++;
    this.fetchTimes.push(new Date().toISOString());
    if (this.fetchTimes.length > MAX_FETCH_TIMES) this.fetchTimes.shift();
    // A check waiting for the Receiver to read a rotated key set wakes up.
    this.changes.notify();
  }

  /**
   * Keeps a request other than a poll in a log of its own: a Receiver polling in a tight loop
   * pushes the shared log's oldest entries out, and the stream set-up must stay judgeable.
   */
  keepSetup(e: MockLogEntry): void {
    this.setupLog.push(e);
    if (this.setupLog.length > MAX_SETUP_LOG) this.setupLog.shift();
  }

  /**
   * Logs a poll request (the latest MAX_POLL_LOG are kept whole) and counts it for its stream,
   * when the stream exists, under the kinds it falls in (`PollKinds`; its authorization, form
   * problems and unknown jtis are read from the entry).
   */
  logPoll(e: Omit<PollLogEntry, "seq" | "at">, kinds: Omit<PollKinds, "authorization"> = {}): PollLogEntry {
    const entry = { seq: ++this.pollSeq, at: new Date().toISOString(), ...e };
    this.pollLog.push(entry);
    if (this.pollLog.length > MAX_POLL_LOG) this.pollLog.shift();
    if (this.streams.has(e.streamId)) {
      let stats = this.pollStats.get(e.streamId);
      if (stats === undefined) {
        // Streams deleted since leave their counts; the oldest go first.
        if (this.pollStats.size >= MAX_STREAMS) this.pollStats.delete(this.pollStats.keys().next().value!);
        stats = new PollStatsRecorder(e.streamId);
        this.pollStats.set(e.streamId, stats);
      }
      stats.add(entry, {
        authorization: e.authorization,
        formProblems: e.problems.length > 0,
        unknownJtis: e.unknownJtis.length > 0,
        ...(e.overLimit !== undefined ? { overLimit: true } : {}),
        ...kinds,
      });
    }
    return entry;
  }

  /** The counts over every poll request of a stream; undefined when it was never polled. */
  pollStatsOf(id: string): PollStats | undefined {
    const stats = this.pollStats.get(id);
    if (stats === undefined) return undefined;
    const s = this.streams.get(id);
    const none = { count: 0, examples: [] };
    return stats.view(
      this.pollLog.filter((p) => p.streamId === id).slice(-LAST_POLLS),
      s?.queue?.anomalies() ?? { unsolicited: none, overAcked: none },
    );
  }

  /**
   * Signs a SET of the event for the stream with the mock's current key and delivers it:
   * push to the stream's endpoint with its authorization, or queue it for the stream's polls.
   */
  async emit(
    s: StreamRecord,
    o: { event: SetEvent; subject?: Record<string, unknown>; claims?: Record<string, unknown> },
  ): Promise<EmitAnswer> {
    const uri = setEventUri(o.event);
    const payload = buildSet({
      issuer: this.config.issuer,
      audience: s.aud,
      event: o.event,
      ...(o.claims !== undefined ? { claims: o.claims } : {}),
      // The verification event's subject is the stream (SSF verification).
      subject:
        o.subject ??
        (uri === SSF_VERIFICATION_EVENT ? { format: "opaque", id: s.id } : exampleSubject("email", s.id)),
    });
    const token = await signSet(payload, this.signingKey);
    const jti = payload.jti as string;
    if (s.delivery === "poll") {
      (s.queue ??= new PollQueue()).enqueue([{ jti, token }]);
      this.changes.notify();
      return { jti, token, streamId: s.id, delivery: { method: "poll" } };
    }
    const push = pushSet(s.endpointUrl!, token, {
      ...(s.authorization !== undefined ? { authorization: s.authorization } : {}),
      signal: this.inFlight.signal,
      dispatcher: this.agent,
    });
    this.pending.add(push);
    try {
      return { jti, token, streamId: s.id, delivery: { method: "push", ...(await push) } };
    } finally {
      this.pending.delete(push);
    }
  }

  /**
   * The SSF verification request: remember the state, answer 204, then send the verification
   * SET carrying it: poll streams have it queued before the 204 (a poll right after finds
   * it); push streams get it pushed after the answer, so a Receiver that waits for its 204
   * is not pushed to first.
   */
  async verify(s: StreamRecord, state: string | undefined): Promise<void> {
    const v = { requests: (s.verification?.requests ?? 0) + 1, ...(state !== undefined ? { state } : {}) };
    s.verification = v;
    const claims = state !== undefined ? { state } : {};
    const send = (): Promise<void> =>
      this.emit(s, { event: "verification", claims })
        .then((a) => {
          // A newer verification request owns the record now.
          if (s.verification !== v) return;
          const { method, ...delivery } = a.delivery;
          s.verification = { ...v, jti: a.jti, ...(method === "push" ? { delivery } : {}) };
        })
        .catch((e: unknown) => {
          // Settled all the same, so nobody waits for an answer that cannot come.
          if (s.verification === v)
            s.verification = {
              ...v,
              delivery: { error: `the mock could not send it: ${String(e).slice(0, 200)}` },
            };
        })
        .finally(() => this.changes.notify());
    if (s.delivery === "poll") return send();
    const later = new Promise<void>((resolve) => setImmediate(resolve)).then(send);
    this.pending.add(later);
    void later.finally(() => this.pending.delete(later));
  }

  /** Stops pushes in flight and releases every waiter. */
  async close(): Promise<void> {
    this.inFlight.abort();
    this.changes.close();
    await Promise.allSettled([...this.pending]);
    await this.agent.destroy();
  }
}
