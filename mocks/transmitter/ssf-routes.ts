import type { Context, Hono } from "hono";
import { subjectProblems } from "../../src/protocols/caep.js";
import type { MockControl, MockLogEntry } from "../../src/http/mock-control.js";
import { discoveryDocument, discoveryPath } from "./discovery.js";
import { readPoll } from "./poll-request.js";
import type { TransmitterState } from "./state.js";
import {
  addSubject,
  applyConfig,
  readReceiverConfig,
  removeSubject,
  streamConfig,
  type StreamRecord,
} from "./streams.js";
import type { AuthSeen, StreamStatus } from "./types.js";

/** What MockControl.record keeps of a body; a body that reaches it was cut: refused as too large. */
const MAX_BODY = 64 * 1024;
const MAX_STATE = 2048;
const STATUSES: readonly StreamStatus[] = ["enabled", "paused", "disabled"];
const REALM = 'Bearer realm="idconform mock transmitter"';

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** A stream management error (SSF gives only the status; the body is the OAuth error shape). */
const mgmtError = (c: Context, status: 400 | 404 | 409 | 413, description: string): Response =>
  c.json({ error: status === 404 ? "not_found" : "invalid_request", error_description: description }, status);

/** A poll error, in the RFC 8935 §2.4 error shape RFC 8936 reuses. */
const pollError = (c: Context, status: 400 | 404 | 413, description: string): Response =>
  c.json({ err: "invalid_request", description }, status);

function unauthorized(c: Context, auth: AuthSeen): Response {
  c.header("WWW-Authenticate", auth === "wrong" ? `${REALM}, error="invalid_token"` : REALM);
  return c.json(
    {
      error: auth === "wrong" ? "invalid_token" : "invalid_request",
      error_description: "a Bearer token the Transmitter issued to this Receiver is required",
    },
    401,
  );
}

function parseJson(text: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return { error: "the body is not JSON" };
  }
}

/** A path segment decoded, or as sent when it is no valid percent-encoding. */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

const tooLarge = (e: MockLogEntry): boolean =>
  Number(e.headers["content-length"] ?? 0) > MAX_BODY || Buffer.byteLength(e.body) >= MAX_BODY;

/**
 * The Transmitter's side a Receiver talks to (SSF 1.0; public-spec-facts §4): discovery at the
 * well-known segment after the host, `jwks_uri`, stream management (configuration, status,
 * add/remove subject, verification) and a poll endpoint per poll stream (RFC 8936). Every
 * request is recorded in the mock's log (bounded; its Authorization only as present, absent or
 * wrong) before anything else, so checks judge what the Receiver sent even when it was refused.
 */
export function mountSsfRoutes(app: Hono, control: MockControl, t: TransmitterState): void {
  const prefix = new URL(t.config.base).pathname.replace(/\/$/, "");
  const cfg = t.config;

  /** Records the request with its Authorization replaced by how it compares, never the token. */
  async function receive(c: Context): Promise<{ entry: MockLogEntry; auth: AuthSeen }> {
    const raw = c.req.raw;
    const auth = t.authOf(raw.headers.get("authorization") ?? undefined);
    const headers = new Headers(raw.headers);
    if (headers.has("authorization")) headers.set("authorization", auth);
    headers.delete("cookie");
    const copy = new Request(raw.url, {
      method: raw.method,
      headers,
      body: raw.body,
      duplex: "half",
    } as RequestInit);
    const entry = await control.record({
      req: { raw: copy, method: raw.method, url: raw.url },
    } as unknown as Context);
    if (!entry.path.startsWith(`${prefix}/ssf/poll/`)) t.keepSetup(entry);
    return { entry, auth };
  }

  /** Records, authenticates and reads a JSON body of a stream management call. */
  async function managed(c: Context, withBody: boolean): Promise<{ response: Response } | { body: unknown }> {
    const { entry, auth } = await receive(c);
    if (auth !== "present") return { response: unauthorized(c, auth) };
    if (!withBody) return { body: undefined };
    if (tooLarge(entry)) return { response: mgmtError(c, 413, `the body is over ${MAX_BODY} bytes`) };
    const parsed = parseJson(entry.body);
    if ("error" in parsed) return { response: mgmtError(c, 400, parsed.error) };
    return { body: parsed.value };
  }

  const config = (s: StreamRecord): Record<string, unknown> =>
    streamConfig(s, { issuer: cfg.issuer, eventsSupported: cfg.eventsSupported, pollUrl: t.pollUrl });
  const named = (c: Context, id: unknown): StreamRecord | Response => {
    if (typeof id !== "string" || id === "") return mgmtError(c, 400, "stream_id is missing or not a string");
    return t.streams.get(id) ?? mgmtError(c, 404, "no stream with this stream_id");
  };

  app.get(discoveryPath(cfg), async (c) => {
    await receive(c);
    return c.json(discoveryDocument(cfg));
  });

  app.get(`${prefix}/jwks`, async (c) => {
    await receive(c);
    t.recordFetch();
    // The key set changes during a run (the key rotation check): a Receiver is told not to keep
    // it without asking again, so one that caches by HTTP rules is not failed for obeying them.
    return c.json(t.jwks, 200, { "cache-control": "no-cache" });
  });

  app.post(`${prefix}/ssf/stream`, async (c) => {
    const r = await managed(c, true);
    if ("response" in r) return r.response;
    const rc = readReceiverConfig(r.body, cfg.deliveryMethods);
    if (typeof rc === "string") return mgmtError(c, 400, rc);
    const aud =
      cfg.audience ?? (rc.delivery === "push" ? new URL(rc.endpointUrl!).origin : "idconform-receiver");
    const s = t.addStream({
      delivery: rc.delivery!,
      ...(rc.endpointUrl !== undefined ? { endpointUrl: rc.endpointUrl } : {}),
      ...(rc.authorization !== undefined ? { authorization: rc.authorization } : {}),
      ...(rc.eventsRequested !== undefined ? { eventsRequested: rc.eventsRequested } : {}),
      ...(rc.description !== undefined ? { description: rc.description } : {}),
      aud,
      createdBy: "receiver",
      request: r.body,
    });
    if (!s) return mgmtError(c, 409, "the Transmitter holds as many streams as it keeps");
    return c.json(config(s), 201);
  });

  app.get(`${prefix}/ssf/stream`, async (c) => {
    const r = await managed(c, false);
    if ("response" in r) return r.response;
    const id = c.req.query("stream_id");
    if (id === undefined) return c.json([...t.streams.values()].map(config));
    const s = named(c, id);
    return s instanceof Response ? s : c.json(config(s));
  });

  const change = (replace: boolean) => async (c: Context) => {
    const r = await managed(c, true);
    if ("response" in r) return r.response;
    if (!isObject(r.body)) return mgmtError(c, 400, "the request body is not a JSON object");
    const s = named(c, r.body.stream_id);
    if (s instanceof Response) return s;
    const rc = readReceiverConfig(r.body, cfg.deliveryMethods, !replace);
    if (typeof rc === "string") return mgmtError(c, 400, rc);
    applyConfig(s, rc, replace);
    t.changes.notify();
    return c.json(config(s));
  };
  app.patch(`${prefix}/ssf/stream`, change(false));
  app.put(`${prefix}/ssf/stream`, change(true));

  app.delete(`${prefix}/ssf/stream`, async (c) => {
    const r = await managed(c, false);
    if ("response" in r) return r.response;
    const s = named(c, c.req.query("stream_id"));
    if (s instanceof Response) return s;
    t.deleteStream(s.id);
    return c.body(null, 204);
  });

  app.get(`${prefix}/ssf/status`, async (c) => {
    const r = await managed(c, false);
    if ("response" in r) return r.response;
    const s = named(c, c.req.query("stream_id"));
    if (s instanceof Response) return s;
    return c.json({ stream_id: s.id, status: s.status, ...(s.reason ? { reason: s.reason } : {}) });
  });

  app.post(`${prefix}/ssf/status`, async (c) => {
    const r = await managed(c, true);
    if ("response" in r) return r.response;
    if (!isObject(r.body)) return mgmtError(c, 400, "the request body is not a JSON object");
    const s = named(c, r.body.stream_id);
    if (s instanceof Response) return s;
    const { status, reason } = r.body;
    if (!STATUSES.includes(status as StreamStatus))
      return mgmtError(c, 400, `status is not one of ${STATUSES.join(", ")}`);
    if (reason !== undefined && (typeof reason !== "string" || reason.length > MAX_STATE))
      return mgmtError(c, 400, "reason is not a string");
    s.status = status as StreamStatus;
    if (reason !== undefined) s.reason = reason;
    else delete s.reason;
    t.changes.notify();
    return c.json({ stream_id: s.id, status: s.status, ...(s.reason ? { reason: s.reason } : {}) });
  });

  const subjects = (add: boolean) => async (c: Context) => {
    const r = await managed(c, true);
    if ("response" in r) return r.response;
    if (!isObject(r.body)) return mgmtError(c, 400, "the request body is not a JSON object");
    const s = named(c, r.body.stream_id);
    if (s instanceof Response) return s;
    const problems = subjectProblems(r.body.subject, "subject");
    if (problems.length > 0) return mgmtError(c, 400, problems.slice(0, 3).join("; "));
    if (add && r.body.verified !== undefined && typeof r.body.verified !== "boolean")
      return mgmtError(c, 400, "verified is not a boolean");
    if (add) addSubject(s, r.body.subject);
    else removeSubject(s, r.body.subject);
    return c.body(null, add ? 200 : 204);
  };
  app.post(`${prefix}/ssf/subjects/add`, subjects(true));
  app.post(`${prefix}/ssf/subjects/remove`, subjects(false));

  app.post(`${prefix}/ssf/verify`, async (c) => {
    const r = await managed(c, true);
    if ("response" in r) return r.response;
    if (!isObject(r.body)) return mgmtError(c, 400, "the request body is not a JSON object");
    const s = named(c, r.body.stream_id);
    if (s instanceof Response) return s;
    const state = r.body.state;
    if (state !== undefined && (typeof state !== "string" || state.length > MAX_STATE))
      return mgmtError(c, 400, `state is not a string of at most ${MAX_STATE} characters`);
    await t.verify(s, state);
    return c.body(null, 204);
  });

  app.post(`${prefix}/ssf/poll/:streamId`, async (c) => {
    const { entry, auth } = await receive(c);
    const streamId = c.req.param("streamId");
    const headers = { ...entry.headers };
    const base = { streamId, method: entry.method, headers, authorization: auth, delivered: [] as string[] };
    const s = t.streams.get(streamId);
    if (!s?.queue) {
      t.logPoll({ ...base, status: 404, problems: [], unknownJtis: [] });
      return pollError(c, 404, "no poll stream with this id");
    }
    if (auth !== "present") {
      t.logPoll({ ...base, status: 401, problems: [], unknownJtis: [] });
      return unauthorized(c, auth);
    }
    if (tooLarge(entry)) {
      const overLimit = `the body is over ${MAX_BODY} bytes`;
      t.logPoll({ ...base, status: 413, problems: [], overLimit, unknownJtis: [] });
      return pollError(c, 413, overLimit);
    }
    const p = readPoll(entry.body);
    const seen = {
      ...base,
      ...(p.body !== undefined ? { body: p.body } : {}),
      ...(p.parseError !== undefined ? { parseError: p.parseError } : {}),
      ...p.members,
      problems: p.problems,
      ...(p.overLimit !== undefined ? { overLimit: p.overLimit } : {}),
    };
    if (p.problems.length > 0 || p.overLimit !== undefined) {
      t.logPoll({ ...seen, status: 400, unknownJtis: [] }, { read: true });
      return pollError(c, 400, [...p.problems.slice(0, 3), ...(p.overLimit ? [p.overLimit] : [])].join("; "));
    }
    const queue = s.queue;
    const unknownJtis = queue.settle(p.ack, p.setErrs);
    t.changes.notify();
    const max = Math.min(p.maxEvents ?? Infinity, queue.maxPerPoll);
    const signal = c.req.raw.signal;
    if (max > 0 && p.returnImmediately !== true && !queue.available())
      await t.changes.wait(() => queue.available() || t.streams.get(streamId) !== s, cfg.longPollMs, signal);
    // A Receiver that went away gets nothing handed out: what it would have lost stays queued.
    const { sets, moreAvailable } =
      max > 0 && !signal.aborted && t.streams.get(streamId) === s
        ? queue.take(max)
        : { sets: {}, moreAvailable: queue.available() };
    t.logPoll(
      { ...seen, status: 200, delivered: Object.keys(sets), moreAvailable, unknownJtis },
      { read: true, answered: true, setErrs: p.setErrs },
    );
    t.changes.notify();
    return c.json({ sets, moreAvailable });
  });

  // Whatever else the Receiver asks for (a discovery URL in the wrong place, say) is recorded too.
  const pollPath = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/ssf/poll/([^/]+)$`);
  app.notFound(async (c) => {
    const path = new URL(c.req.url).pathname;
    if (!path.startsWith("/__idc/")) {
      const { entry, auth } = await receive(c);
      // A poll by another method than POST: counted with the stream's polls (RFC 8936 §2.1).
      const id = pollPath.exec(path)?.[1];
      if (id !== undefined)
        t.logPoll(
          {
            streamId: decoded(id),
            method: entry.method,
            headers: { ...entry.headers },
            authorization: auth,
            delivered: [],
            status: 404,
            problems: [],
            unknownJtis: [],
          },
          { otherMethod: true },
        );
    }
    return c.json({ error: "not_found", error_description: "no such endpoint at this Transmitter" }, 404);
  });
  app.onError((_e, c) =>
    c.json({ error: "server_error", error_description: "the mock Transmitter failed" }, 500),
  );
}
