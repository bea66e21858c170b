import type { Context, Hono } from "hono";
import type { JWK } from "jose";
import { CAEP_EVENT_NAMES } from "../../src/protocols/caep.js";
import { readBoundedBody } from "../../src/http/bounded-body.js";
import type { MockControl, MockLogEntry } from "../../src/http/mock-control.js";
import { discoveryDocument, discoveryPath } from "./discovery.js";
import { completeKey } from "./set.js";
import type { TransmitterState } from "./state.js";
import type { StreamRecord } from "./streams.js";
import type { OutcomesAnswer, PollLogEntry, PollSummary } from "./types.js";

/** Control bodies are the harness's own (a batch of SETs), still bounded. */
const MAX_CONTROL_BODY = 4 * 1024 * 1024;
const MAX_WAIT_MS = 120_000;
const MAX_KEYS = 20;
const MAX_SETS = 1000;
const MAX_POLLS = 200;
const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "k", "oth"];

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);
const bad = (c: Context, error: string, status: 400 | 404 | 409 = 400): Response => c.json({ error }, status);
const waitMs = (v: unknown, fallback: number): number => {
  const n = Number(v ?? fallback);
  return Number.isFinite(n) ? Math.max(0, Math.min(n, MAX_WAIT_MS)) : fallback;
};

/** A poll request without what only the poll log keeps (headers, body). */
const summary = (p: PollLogEntry): PollSummary => ({
  seq: p.seq,
  at: p.at,
  streamId: p.streamId,
  status: p.status,
  ...(p.maxEvents !== undefined ? { maxEvents: p.maxEvents } : {}),
  ...(p.returnImmediately !== undefined ? { returnImmediately: p.returnImmediately } : {}),
  ...(p.ack !== undefined ? { ack: p.ack } : {}),
  ...(p.setErrs !== undefined ? { setErrs: p.setErrs } : {}),
  delivered: p.delivered,
  ...(p.moreAvailable !== undefined ? { moreAvailable: p.moreAvailable } : {}),
  authorization: p.authorization,
});

/**
 * The mock Transmitter's control routes (under `/__idc/`, header `x-idc-control`): what the
 * caep-receiver checks use to see the Receiver's streams and polls and to make the mock act.
 * Harness-internal: nothing here is the Receiver's traffic.
 */
export function mountControlRoutes(app: Hono, control: MockControl, t: TransmitterState): void {
  const guard = (c: Context): boolean => c.req.header("x-idc-control") === control.token;

  async function json(c: Context): Promise<Record<string, unknown> | Response> {
    const text = await readBoundedBody(c.req.raw, MAX_CONTROL_BODY);
    if (text === "too-large" || text === "not-text") return bad(c, `the body is ${text}`);
    try {
      const v = JSON.parse(text) as unknown;
      return isObject(v) ? v : bad(c, "the body is not a JSON object");
    } catch {
      return bad(c, "the body is not JSON");
    }
  }

  const pollStream = (c: Context, id: unknown): StreamRecord | Response => {
    if (id !== undefined && typeof id !== "string") return bad(c, "streamId is not a string");
    const s = id === undefined ? [...t.streams.values()].find((x) => x.queue) : t.streams.get(id);
    if (!s) return bad(c, id === undefined ? "there is no poll stream" : "no stream with this streamId", 404);
    if (!s.queue) return bad(c, "the stream delivers by push, not poll", 409);
    return s;
  };

  // MockControl's log route, with the set-up requests polls may have pushed out of its log.
  app.get("/__idc/log", (c) => {
    if (!guard(c)) return c.body(null, 403);
    const path = c.req.query("path") ?? "";
    const since = Number(c.req.query("since") ?? 0);
    const after = Number.isFinite(since) ? since : 0;
    const merged = new Map<number, MockLogEntry>();
    for (const e of t.setupLog) if (e.seq > after && e.path.startsWith(path)) merged.set(e.seq, e);
    for (const e of control.entries(path, after)) merged.set(e.seq, e);
    return c.json([...merged.values()].sort((a, b) => a.seq - b.seq));
  });

  // What discovery serves, read without a request the Receiver could be blamed for.
  app.get("/__idc/configuration", (c) =>
    guard(c)
      ? c.json({
          ...discoveryDocument(t.config),
          events_supported: [...t.config.eventsSupported],
          discoveryPath: discoveryPath(t.config),
        })
      : c.body(null, 403),
  );

  app.get("/__idc/streams", (c) => (guard(c) ? c.json(t.views()) : c.body(null, 403)));

  app.get("/__idc/streams/wait", async (c) => {
    if (!guard(c)) return c.body(null, 403);
    await t.changes.wait(() => t.streams.size > 0, waitMs(c.req.query("timeoutMs"), 5000));
    const first = t.views()[0];
    return first ? c.json(first) : c.json({ error: "no stream was created before the timeout" }, 404);
  });

  app.post("/__idc/jwks", async (c) => {
    if (!guard(c)) return c.body(null, 403);
    const b = await json(c);
    if (b instanceof Response) return b;
    const keys = b.keys;
    if (!Array.isArray(keys) || keys.length > MAX_KEYS || !keys.every(isObject))
      return bad(c, `keys is not an array of at most ${MAX_KEYS} JWKs`);
    if (keys.some((k) => PRIVATE_MEMBERS.some((m) => m in k)))
      return bad(c, "keys holds a private or symmetric key member: jwks_uri publishes public keys only");
    if (b.signingKey !== undefined) {
      if (!isObject(b.signingKey) || typeof b.signingKey.d !== "string")
        return bad(c, "signingKey is not a private JWK");
      t.signingKey = await completeKey(b.signingKey as JWK);
    }
    t.jwks = { keys: keys as JWK[] };
    return c.body(null, 204);
  });

  app.get("/__idc/jwks/fetches", (c) =>
    guard(c) ? c.json({ count: t.jwksFetches, times: [...t.fetchTimes] }) : c.body(null, 403),
  );

  // Resolves once jwks_uri was fetched more than `after` times in all, or at the timeout: a
  // check waits on the Receiver reading a rotated key set instead of sleeping.
  app.get("/__idc/jwks/fetches/wait", async (c) => {
    if (!guard(c)) return c.body(null, 403);
    const after = Number(c.req.query("after") ?? 0);
    if (!Number.isInteger(after) || after < 0) return bad(c, "after is not a non-negative integer");
    await t.changes.wait(() => t.jwksFetches > after, waitMs(c.req.query("timeoutMs"), 5000));
    return c.json({ count: t.jwksFetches, times: [...t.fetchTimes] });
  });

  // Resolves once the stream's latest verification request has its SET settled (pushed and
  // answered, or polled and acknowledged or reported), or at the timeout: the stream as it is then.
  app.get("/__idc/verification/wait", async (c) => {
    if (!guard(c)) return c.body(null, 403);
    const id = c.req.query("streamId");
    const s = id === undefined ? undefined : t.streams.get(id);
    if (!s) return bad(c, "no stream with this streamId", 404);
    const settled = (): boolean => {
      const v = s.verification;
      if (v === undefined) return false;
      if (v.delivery !== undefined) return true;
      return v.jti !== undefined && s.queue !== undefined && s.queue.outcome(v.jti).kind !== "pending";
    };
    await t.changes.wait(
      () => settled() || t.streams.get(s.id) !== s,
      waitMs(c.req.query("timeoutMs"), 5000),
    );
    return c.json(t.views().find((x) => x.streamId === s.id) ?? null);
  });

  app.get("/__idc/poll/stats", (c) => {
    if (!guard(c)) return c.body(null, 403);
    const s = pollStream(c, c.req.query("streamId"));
    if (s instanceof Response) return s;
    return c.json(t.pollStatsOf(s.id) ?? null);
  });

  app.post("/__idc/poll/enqueue", async (c) => {
    if (!guard(c)) return c.body(null, 403);
    const b = await json(c);
    if (b instanceof Response) return b;
    const s = pollStream(c, b.streamId);
    if (s instanceof Response) return s;
    const sets = b.sets;
    const ok =
      Array.isArray(sets) &&
      sets.length <= MAX_SETS &&
      sets.every(
        (x) => isObject(x) && typeof x.jti === "string" && x.jti !== "" && typeof x.token === "string",
      );
    if (!ok) return bad(c, `sets is not an array of at most ${MAX_SETS} {jti, token} with strings`);
    try {
      s.queue!.enqueue(sets as { jti: string; token: string }[]);
    } catch (e) {
      return bad(c, (e as Error).message, 409);
    }
    t.changes.notify();
    return c.json({ streamId: s.id, queued: sets.length });
  });

  app.post("/__idc/poll/outcomes", async (c) => {
    if (!guard(c)) return c.body(null, 403);
    const b = await json(c);
    if (b instanceof Response) return b;
    const s = pollStream(c, b.streamId);
    if (s instanceof Response) return s;
    const jtis = b.jtis;
    if (!Array.isArray(jtis) || jtis.length > MAX_SETS || !jtis.every((j) => typeof j === "string"))
      return bad(c, "jtis is not an array of strings");
    const queue = s.queue!;
    await t.changes.wait(
      () => (jtis as string[]).every((j) => queue.outcome(j).kind !== "pending"),
      waitMs(b.timeoutMs, 5000),
    );
    const set = new Set(jtis as string[]);
    const names = (v: unknown): string[] =>
      Array.isArray(v) ? v.filter((x) => typeof x === "string") : isObject(v) ? Object.keys(v) : [];
    const polls = t.pollLog
      .filter(
        (p) =>
          p.streamId === s.id &&
          [...p.delivered, ...names(p.ack), ...names(p.setErrs)].some((j) => set.has(j)),
      )
      .slice(-MAX_POLLS)
      .map(summary);
    const answer: OutcomesAnswer = {
      outcomes: Object.fromEntries((jtis as string[]).map((j) => [j, queue.outcome(j)])),
      polls,
    };
    return c.json(answer);
  });

  app.get("/__idc/poll/log", (c) => {
    if (!guard(c)) return c.body(null, 403);
    const since = Number(c.req.query("since") ?? 0);
    const id = c.req.query("streamId");
    return c.json(
      t.pollLog.filter(
        (p) => p.seq > (Number.isFinite(since) ? since : 0) && (id === undefined || p.streamId === id),
      ),
    );
  });

  app.post("/__idc/poll/config", async (c) => {
    if (!guard(c)) return c.body(null, 403);
    const b = await json(c);
    if (b instanceof Response) return b;
    const s = pollStream(c, b.streamId);
    if (s instanceof Response) return s;
    const { maxPerPoll, redeliverAcked } = b;
    if (
      maxPerPoll !== undefined &&
      maxPerPoll !== null &&
      !(Number.isInteger(maxPerPoll) && (maxPerPoll as number) >= 1 && (maxPerPoll as number) <= 1000)
    )
      return bad(c, "maxPerPoll is not an integer from 1 to 1000 (or null for the default)");
    if (
      redeliverAcked !== undefined &&
      (!Array.isArray(redeliverAcked) || !redeliverAcked.every((j) => typeof j === "string"))
    )
      return bad(c, "redeliverAcked is not an array of jti strings");
    const queue = s.queue!;
    if (maxPerPoll === null) queue.maxPerPoll = 50;
    else if (typeof maxPerPoll === "number") queue.maxPerPoll = maxPerPoll;
    const unknown = queue.replayAfterAck((redeliverAcked as string[] | undefined) ?? []);
    t.changes.notify();
    return c.json({ streamId: s.id, maxPerPoll: queue.maxPerPoll, unknown });
  });

  app.post("/__idc/emit", async (c) => {
    if (!guard(c)) return c.body(null, 403);
    const b = await json(c);
    if (b instanceof Response) return b;
    const { event, subject, claims, streamId } = b;
    const known = event === "verification" || (CAEP_EVENT_NAMES as readonly unknown[]).includes(event);
    if (typeof event !== "string" || !(known || URL.canParse(event)))
      return bad(
        c,
        `event is not one of ${[...CAEP_EVENT_NAMES, "verification"].join(", ")} or an event type URI`,
      );
    if (subject === undefined && event !== "verification")
      return bad(c, "subject (a sub_id object) is missing");
    if (subject !== undefined && !isObject(subject)) return bad(c, "subject is not a JSON object");
    if (claims !== undefined && !isObject(claims)) return bad(c, "claims is not a JSON object");
    if (streamId !== undefined && typeof streamId !== "string") return bad(c, "streamId is not a string");
    const s = t.stream(streamId);
    if (!s)
      return bad(c, streamId === undefined ? "there is no stream yet" : "no stream with this streamId", 404);
    if (s.status !== "enabled")
      return bad(
        c,
        `the stream is ${s.status}: a Transmitter sends nothing on it until it is enabled again`,
        409,
      );
    const a = await t.emit(s, {
      event,
      ...(subject !== undefined ? { subject } : {}),
      ...(claims !== undefined ? { claims } : {}),
    });
    return c.json(a);
  });
}
