import type { CheckContext } from "../../src/engine/check.js";
import { HarnessError } from "../../src/engine/errors.js";
import type { HttpResponse } from "../../src/http/client.js";
import type { CaepTransmitterProvided, Stream } from "./client.js";
import { addPolled } from "./ledger.js";
import type { CaepTransmitterProfile } from "./profile.js";

type Ctx = CheckContext<CaepTransmitterProfile>;

/** A poll request body (RFC 8936 §2.1, §2.4). */
export interface PollBody {
  readonly maxEvents?: number;
  readonly returnImmediately?: boolean;
  readonly ack?: readonly string[];
  readonly setErrs?: Readonly<Record<string, { readonly err: string; readonly description: string }>>;
}

export interface PollOptions {
  /** `null`: no Authorization header; a string: `Bearer <token>`; default the stream's receiver's token. */
  readonly token?: string | null;
  /** The whole Authorization value; wins over `token`. */
  readonly authorization?: string;
  /** Query parameters to add to the poll URL (the token-in-query probe). */
  readonly query?: Record<string, string>;
  /** Send this body as it is instead of `body` (raw text, for malformed-request probes). */
  readonly raw?: string;
  readonly label?: string;
  readonly tags?: readonly string[];
  /** Bound of this request (a long poll); default the profile's request timeout. */
  readonly timeoutMs?: number;
  /** `if-cited`: an empty poll among many; shown only when a finding cites it. */
  readonly evidence?: "if-cited";
}

/** One SET of a poll answer: the member name it was filed under and the value (RFC 8936 §2.2). */
export interface PolledSet {
  readonly jti: string;
  readonly token: string;
  /** When the answer carrying it arrived (ms since the epoch). */
  readonly at: number;
}

export interface PollAnswer {
  readonly res: HttpResponse;
  /**
   * The SETs of an answer shaped as RFC 8936 §2.2 says (200, a JSON object whose `sets` is an
   * object); only members whose value is a string. Undefined when the answer is not that shape
   * (`problem` says why).
   */
  readonly sets?: readonly PolledSet[];
  /** Members of `sets` whose value is not a string (a SET is a compact JWS). */
  readonly notStrings: readonly string[];
  /** `moreAvailable` as sent (undefined when absent). */
  readonly moreAvailable?: unknown;
  /** Why the answer is not a poll response (status, not JSON, no `sets` object). */
  readonly problem?: string;
  /** SETs beyond the harness's bound per answer: counted, not kept. */
  readonly dropped: number;
}

/** At most this many SETs of one answer are read (the rest are counted): the target is hostile. */
export const MAX_SETS_PER_ANSWER = 1000;

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** The poll URL of a stream: the delivery.endpoint_url the Transmitter supplied (SSF §6.1.2). */
export function pollUrlOf(c: Ctx, s: Stream): string {
  const u = s.endpointUrl;
  if (s.method !== "poll" || u === undefined || !URL.canParse(u))
    return c.skip(
      `the poll stream's configuration names no usable delivery.endpoint_url (see CAEPT-STREAM-CREATE): nothing can be polled`,
      "dependency",
    );
  return u;
}

/**
 * One poll request (RFC 8936 §2.1) through the check's recording client, with the stream's
 * receiver's Bearer token in the Authorization header (SSF §7.1.1). Every SET of the answer is
 * noted in the run's ledger, so the every-SET pass judges it whichever check polled it.
 */
export async function poll(c: Ctx, s: Stream, body: PollBody = {}, o: PollOptions = {}): Promise<PollAnswer> {
  const url = new URL(pollUrlOf(c, s));
  for (const [k, v] of Object.entries(o.query ?? {})) url.searchParams.set(k, v);
  const token =
    o.token !== undefined
      ? o.token
      : s.receiver === "first"
        ? c.profile.receiverToken
        : c.profile.secondReceiverToken;
  const headers: Record<string, string> =
    o.authorization !== undefined
      ? { authorization: o.authorization }
      : token === null || token === undefined
        ? {}
        : { authorization: `Bearer ${token}` };
  const res = await c.http.send({
    method: "POST",
    url,
    headers: o.raw !== undefined ? { ...headers, "content-type": "application/json" } : headers,
    ...(o.raw !== undefined ? { body: o.raw } : { json: body }),
    label: o.label ?? "poll",
    tags: ["poll", ...(o.tags ?? [])],
    ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
    ...(o.evidence ? { evidence: o.evidence } : {}),
  });
  return read(c, s, res);
}

/** Reads a poll answer (RFC 8936 §2.2) and notes its SETs in the ledger. */
async function read(c: Ctx, s: Stream, res: HttpResponse): Promise<PollAnswer> {
  const at = Date.now();
  const base = { res, notStrings: [] as string[], dropped: 0 };
  if (res.status !== 200) return { ...base, problem: `answered ${res.status}` };
  if (res.jsonError !== undefined) return { ...base, problem: `the body is not JSON (${res.jsonError})` };
  const j = res.json;
  if (!isObject(j)) return { ...base, problem: "the body is not a JSON object" };
  const sets = j.sets;
  const more = "moreAvailable" in j ? { moreAvailable: j.moreAvailable } : {};
  if (!isObject(sets))
    return { ...base, ...more, problem: `"sets" is ${sets === undefined ? "missing" : "not a JSON object"}` };
  const names = Object.keys(sets);
  const kept: PolledSet[] = [];
  const notStrings: string[] = [];
  for (const jti of names.slice(0, MAX_SETS_PER_ANSWER)) {
    const v = sets[jti];
    if (typeof v === "string") kept.push({ jti, token: v, at });
    else notStrings.push(jti);
  }
  const p = c.provided as unknown as CaepTransmitterProvided;
  await addPolled(
    p.runDir,
    kept.map((k) => ({ token: k.token, streamId: s.id, audience: s.config.aud, check: "poll", at })),
  );
  return { res, sets: kept, notStrings, dropped: Math.max(0, names.length - MAX_SETS_PER_ANSWER), ...more };
}

export interface DrainOptions {
  /** Stop once this is true for what was received so far (default: the first answer with SETs). */
  readonly until?: (got: readonly PolledSet[]) => boolean;
  /** Bound of the whole drain; default the profile's eventTimeoutMs. */
  readonly timeoutMs?: number;
  /** Acknowledge what was received (in the next request, RFC 8936 §2.4); default true. */
  readonly ack?: boolean;
  readonly label?: string;
  /** Hears every answer (a check that must tell "nothing arrived" from "no poll response"). */
  readonly onAnswer?: (a: PollAnswer) => void;
}

/** Pause between two empty short polls (the Transmitter has nothing yet). */
const POLL_INTERVAL_MS = 100;
/** At most this many polls in one drain, whatever the time bound. */
const MAX_POLLS = 300;

/**
 * Polls the stream (short polls, `returnImmediately: true`) until `until` holds or the time
 * bound passes, acknowledging each answer's SETs in the next request and, at the end, in an
 * acknowledge-only request (`maxEvents: 0`, RFC 8936 §2.1). Returns every SET received, in order
 * (a SET delivered twice appears twice). Answers that are no poll response stop nothing: the
 * poll checks judge them; here they are waited past until the bound.
 */
export async function drain(c: Ctx, s: Stream, o: DrainOptions = {}): Promise<PolledSet[]> {
  const deadline = Date.now() + (o.timeoutMs ?? c.profile.eventTimeoutMs);
  const until = o.until ?? ((g) => g.length > 0);
  const ack = o.ack ?? true;
  const got: PolledSet[] = [];
  let pending: string[] = [];
  for (let i = 0; i < MAX_POLLS && !c.signal.aborted; i++) {
    let a: PollAnswer;
    try {
      a = await poll(
        c,
        s,
        { returnImmediately: true, ...(pending.length > 0 ? { ack: pending } : {}) },
        { label: o.label ?? "poll", evidence: "if-cited" },
      );
    } catch (e) {
      // A poll held past the request timeout (returnImmediately ignored) ends the drain with
      // what it has; the poll checks judge the hold.
      if (e instanceof HarnessError && e.code === "IDC_HTTP_TIMEOUT") break;
      throw e;
    }
    o.onAnswer?.(a);
    pending = [];
    for (const x of a.sets ?? []) {
      got.push(x);
      if (ack) pending.push(x.jti);
    }
    if (until(got) || Date.now() >= deadline) break;
    if ((a.sets ?? []).length === 0)
      await new Promise((r) => setTimeout(r, Math.min(POLL_INTERVAL_MS, Math.max(0, deadline - Date.now()))));
  }
  if (pending.length > 0) {
    const a = await poll(
      c,
      s,
      { ack: pending, maxEvents: 0, returnImmediately: true },
      { label: "acknowledge" },
    ).catch((e: unknown) => {
      if (e instanceof HarnessError && e.code === "IDC_HTTP_TIMEOUT") return undefined;
      throw e;
    });
    // A Transmitter that hands out SETs on an acknowledge-only request: they are received all the same.
    got.push(...(a?.sets ?? []));
  }
  return got;
}
