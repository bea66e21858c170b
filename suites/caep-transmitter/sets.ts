import type { JSONWebKeySet } from "jose";
import { HarnessError } from "../../src/engine/errors.js";
import { quote } from "../../src/engine/quote.js";
import { decodeCompact } from "../../src/engine/token-attacks.js";
import type { AuthSeen, ReceivedSet } from "../../mocks/receiver/types.js";
import type { StreamClient, Stream } from "./client.js";
import { drain, type PollAnswer } from "./poller.js";

/** A SET the run received on a stream, pushed to the mock Receiver or polled. */
export interface CollectedSet {
  readonly token: string;
  /** The payload's jti when it is a string; for a polled SET without one, the member name it came under. */
  readonly jti?: string;
  readonly header?: Record<string, unknown>;
  readonly payload?: Record<string, unknown>;
  readonly via: "push" | "poll";
  readonly streamId: string;
  /** When it arrived (ms since the epoch). */
  readonly at: number;
  /** Push: the mock Receiver's sequence number (`since` takes it), the status it answered, how the request looked. */
  readonly seq?: number;
  readonly status?: number;
  readonly authorization?: AuthSeen;
  readonly contentType?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** Header and claims of a compact SET, or nothing for what is no decodable JWS (judged malformed elsewhere). */
export function decodeSet(token: string): {
  header?: Record<string, unknown>;
  payload?: Record<string, unknown>;
} {
  try {
    const { header, payload } = decodeCompact(token);
    return { header, payload };
  } catch {
    return {};
  }
}

/** A push the mock Receiver recorded, as a collected SET of the stream. */
export function fromPush(p: ReceivedSet, streamId: string): CollectedSet {
  const d = p.payload !== undefined ? { header: p.header, payload: p.payload } : decodeSet(p.token);
  const jti = typeof d.payload?.jti === "string" ? d.payload.jti : p.jti;
  return {
    token: p.token,
    ...(jti !== undefined ? { jti } : {}),
    ...(d.header ? { header: d.header } : {}),
    ...(d.payload ? { payload: d.payload } : {}),
    via: "push",
    streamId,
    at: Date.parse(p.at),
    seq: p.seq,
    status: p.status,
    authorization: p.authorization,
    ...(p.contentType !== undefined ? { contentType: p.contentType } : {}),
  };
}

/** A polled SET as a collected SET of the stream. */
export function fromPoll(p: { jti: string; token: string; at: number }, streamId: string): CollectedSet {
  const d = decodeSet(p.token);
  const jti = typeof d.payload?.jti === "string" ? d.payload.jti : p.jti;
  return {
    token: p.token,
    jti,
    ...(d.header ? { header: d.header } : {}),
    ...(d.payload ? { payload: d.payload } : {}),
    via: "poll",
    streamId,
    at: p.at,
  };
}

/** The event a SET carries: the first member of `events` (SSF §4.2.1: one event). */
export function eventOf(s: CollectedSet): { uri: string; claims: unknown } | undefined {
  const ev = s.payload?.events;
  if (!isObject(ev)) return undefined;
  const uri = Object.keys(ev)[0];
  return uri === undefined ? undefined : { uri, claims: ev[uri] };
}

/** The event type URIs a SET carries. */
export const eventsOf = (s: CollectedSet): string[] =>
  isObject(s.payload?.events) ? Object.keys(s.payload.events) : [];

/** One line naming a SET in a finding (never its signature). */
export function describeSet(s: CollectedSet): string {
  const ev = eventsOf(s)
    .map((u) => u.slice(u.lastIndexOf("/") + 1))
    .join("+");
  return `SET ${quote(s.jti ?? "(no jti)", 60)} (${ev || "no event"}, ${s.via}${s.seq !== undefined ? ` #${s.seq}` : ""})`;
}

/**
 * The mock Receiver's newest sequence number on the stream's slot (0 when none): pass it as
 * `since` to collect only what arrives after an action. Poll streams have no mark (0).
 */
export async function mark(k: StreamClient, s: Stream): Promise<number> {
  if (s.method !== "push" || s.slot === undefined) return 0;
  const seen = await k.mock.sets(s.slot, 0);
  return seen.reduce((m, x) => Math.max(m, x.seq), 0);
}

export interface CollectOptions {
  /** Stop once this holds for what was collected (default: at least one SET). */
  readonly until?: (got: readonly CollectedSet[]) => boolean;
  /** Bound of the wait; default the profile's eventTimeoutMs. */
  readonly timeoutMs?: number;
  /** Push: only pushes after this sequence number (`mark`). */
  readonly since?: number;
  /** Poll: acknowledge what was received (default true). */
  readonly ack?: boolean;
  readonly label?: string;
  /** Poll: hears every poll answer (to tell "nothing arrived" from "no poll response"). */
  readonly onPollAnswer?: (a: PollAnswer) => void;
}

/**
 * The SETs that arrive on a stream until `until` holds or the time bound passes: pushes the mock
 * Receiver records on the stream's slot (waited for, not slept for), or SETs polled from the
 * stream (acknowledged unless `ack: false`). Every push is returned, whatever the mock answered
 * it (a push it answered 401 or 503 is in the list, with its status).
 */
export async function collect(k: StreamClient, s: Stream, o: CollectOptions = {}): Promise<CollectedSet[]> {
  const timeoutMs = o.timeoutMs ?? k.c.profile.eventTimeoutMs;
  const until = o.until ?? ((g) => g.length > 0);
  if (s.method === "poll") {
    const got: CollectedSet[] = [];
    const raw = await drain(k.c, s, {
      timeoutMs,
      ...(o.ack !== undefined ? { ack: o.ack } : {}),
      ...(o.label !== undefined ? { label: o.label } : {}),
      ...(o.onPollAnswer !== undefined ? { onAnswer: o.onPollAnswer } : {}),
      until: (p) => {
        got.length = 0;
        got.push(...p.map((x) => fromPoll(x, s.id)));
        return until(got);
      },
    });
    return raw.map((x) => fromPoll(x, s.id));
  }
  if (s.slot === undefined) return [];
  const deadline = Date.now() + timeoutMs;
  const got: CollectedSet[] = [];
  let since = o.since ?? 0;
  while (!k.c.signal.aborted) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    const batch = await k.mock.wait(s.slot, 1, left, since);
    if (batch.length === 0) break;
    for (const p of batch) {
      got.push(fromPush(p, s.id));
      since = Math.max(since, p.seq);
    }
    if (until(got)) break;
  }
  return got;
}

const keySets = new Map<string, Promise<JSONWebKeySet | undefined>>();

/**
 * The Transmitter's public keys from its jwks_uri (SSF §4.1.4), read once per run and worker
 * through the check's recording client; undefined when there is no usable key set (the
 * discovery checks say why).
 */
export async function transmitterKeys(k: StreamClient): Promise<JSONWebKeySet | undefined> {
  const key = `${k.c.runId}|${k.issuer}`;
  let p = keySets.get(key);
  if (p === undefined) {
    p = (async () => {
      const uri = (await k.discovery()).doc.jwks_uri;
      if (typeof uri !== "string" || !URL.canParse(uri)) return undefined;
      // A jwks_uri that does not answer is CAEPT-DISC-JWKS's finding; here there are no keys.
      const res = await k.c.http.get(uri, { label: "jwks_uri", tags: ["jwks"] }).catch((e: unknown) => {
        if (e instanceof HarnessError && !k.c.signal.aborted) return undefined;
        throw e;
      });
      if (res === undefined) return undefined;
      const j = res.json;
      if (res.status !== 200 || !isObject(j) || !Array.isArray(j.keys)) return undefined;
      return { keys: j.keys.filter(isObject).slice(0, 100) } as JSONWebKeySet;
    })();
    keySets.set(key, p);
    // A failed read is not kept: the next check asks again.
    p.catch(() => keySets.delete(key));
  }
  const got = await p;
  if (got === undefined) keySets.delete(key);
  return got;
}
