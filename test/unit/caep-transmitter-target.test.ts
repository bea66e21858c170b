import { EventEmitter } from "node:events";
import { Hono } from "hono";
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer, RunningTarget } from "../../src/engine/target.js";
import { serveApp } from "../../src/http/serve.js";
import { faults as targetFaults, startCaepTransmitterTarget } from "../../targets/caep-transmitter/index.js";

// The names are written out here, as a Receiver's developer would (the target has its own copy).
const CAEP = "https://schemas.openid.net/secevent/caep/event-type/";
const VERIFICATION = "https://schemas.openid.net/secevent/ssf/event-type/verification";
const PUSH = "urn:ietf:rfc:8935";
const POLL = "urn:ietf:rfc:8936";

interface Pushed {
  readonly slot: string;
  readonly token: string;
  readonly at: number;
  readonly headers: Record<string, string>;
}

/** One armed answer of the test Receiver's push endpoint. */
interface Armed {
  status: number;
  retryAfter?: string;
  body?: unknown;
}

/**
 * A push endpoint played by the test (RFC 8935): it records every push and answers 202, or
 * what a test armed for the next pushes. Waiting is on its events, with a deadline.
 */
class TestReceiver {
  url = "";
  readonly pushes: Pushed[] = [];
  private readonly armed = new Map<string, Armed[]>();
  private readonly changed = new EventEmitter();
  private server: RunningServer | undefined;

  async start(): Promise<void> {
    const app = new Hono();
    app.post("/push/:slot", async (c) => {
      const slot = c.req.param("slot");
      const headers: Record<string, string> = {};
      c.req.raw.headers.forEach((v, k) => (headers[k] = v));
      this.pushes.push({ slot, token: await c.req.text(), at: Date.now(), headers });
      this.changed.emit("change");
      const next = this.armed.get(slot)?.shift();
      if (next === undefined) return c.body(null, 202);
      return new Response(next.body === undefined ? null : JSON.stringify(next.body), {
        status: next.status,
        headers: next.retryAfter !== undefined ? { "retry-after": next.retryAfter } : {},
      });
    });
    this.server = await serveApp(app);
    this.url = this.server.url;
  }

  arm(slot: string, ...answers: Armed[]): void {
    this.armed.set(slot, answers);
  }

  of(slot: string): Pushed[] {
    return this.pushes.filter((p) => p.slot === slot);
  }

  /** Waits (at most `ms`) until `slot` received `count` pushes. */
  async until(slot: string, count: number, ms = 5000): Promise<Pushed[]> {
    const deadline = Date.now() + ms;
    while (this.of(slot).length < count) {
      if (Date.now() >= deadline) throw new Error(`no ${count} pushes on ${slot} within ${ms} ms`);
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          this.changed.off("change", done);
          resolve();
        };
        const timer = setTimeout(done, deadline - Date.now());
        this.changed.on("change", done);
      });
    }
    return this.of(slot);
  }

  async close(): Promise<void> {
    await this.server?.close();
  }
}

interface Answer {
  status: number;
  headers: Headers;
  json: unknown;
}

/** The running target as a Receiver drives it: management calls, the hook, polls, SET checks. */
class Rig {
  private jwks: JSONWebKeySet | undefined;
  private n = 0;

  constructor(
    readonly target: RunningTarget,
    readonly receiver: TestReceiver,
  ) {}

  get env(): Record<string, string> {
    return this.target.env;
  }
  get issuer(): string {
    return this.env.IDC_DEMO_CAEP_TRANSMITTER_ISSUER ?? "";
  }

  async call(
    method: string,
    url: string,
    o: { token?: string | null; body?: unknown; query?: Record<string, string> } = {},
  ): Promise<Answer> {
    const u = new URL(url);
    for (const [k, v] of Object.entries(o.query ?? {})) u.searchParams.set(k, v);
    const token = o.token === undefined ? this.env.IDC_DEMO_CAEP_TRANSMITTER_TOKEN : o.token;
    const res = await fetch(u, {
      method,
      headers: {
        ...(token === null ? {} : { authorization: `Bearer ${token}` }),
        ...(o.body !== undefined ? { "content-type": "application/json" } : {}),
      },
      ...(o.body !== undefined ? { body: JSON.stringify(o.body) } : {}),
    });
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      json: text === "" ? undefined : (JSON.parse(text) as unknown),
    };
  }

  async discovery(): Promise<Record<string, string>> {
    const u = new URL(this.issuer);
    const res = await this.call("GET", `${u.origin}/.well-known/ssf-configuration${u.pathname}`, {
      token: null,
    });
    expect(res.status).toBe(200);
    return res.json as Record<string, string>;
  }

  async endpoint(name: string): Promise<string> {
    return (await this.discovery())[name] ?? "";
  }

  /** A push stream to a fresh slot of the test Receiver, or a poll stream, with one subject added. */
  async stream(method: "push" | "poll", events = [`${CAEP}session-revoked`, `${CAEP}credential-change`]) {
    const slot = `s${++this.n}`;
    const authorization = `Bearer push-${slot}`;
    const delivery =
      method === "push"
        ? {
            method: PUSH,
            endpoint_url: `${this.receiver.url}/push/${slot}`,
            authorization_header: authorization,
          }
        : undefined;
    const res = await this.call("POST", await this.endpoint("configuration_endpoint"), {
      body: { events_requested: events, ...(delivery !== undefined ? { delivery } : {}) },
    });
    expect(res.status).toBe(201);
    const config = res.json as {
      stream_id: string;
      aud: string;
      events_requested: string[];
      delivery: { method: string; endpoint_url: string };
    };
    const subject = { format: "email", email: `user-${slot}@example.com` };
    const added = await this.call("POST", await this.endpoint("add_subject_endpoint"), {
      body: { stream_id: config.stream_id, subject, verified: true },
    });
    expect(added.status).toBe(200);
    return { id: config.stream_id, config, slot, authorization, subject };
  }

  async trigger(event: string, subject: unknown, extra: Record<string, unknown> = {}): Promise<number> {
    const res = await this.call("POST", this.env.IDC_DEMO_CAEP_TRANSMITTER_HOOK ?? "", {
      token: null,
      body: { event: `${CAEP}${event}`, subject, ...extra },
    });
    expect(res.status).toBe(202);
    return (res.json as { streams: number }).streams;
  }

  async setStatus(id: string, status: string): Promise<void> {
    const res = await this.call("POST", await this.endpoint("status_endpoint"), {
      body: { stream_id: id, status },
    });
    expect(res.json).toMatchObject({ stream_id: id, status });
  }

  async poll(
    url: string,
    body: Record<string, unknown>,
    token?: string | null,
  ): Promise<{ status: number; sets: Record<string, string>; more?: boolean; ms: number }> {
    const t0 = Date.now();
    const res = await this.call("POST", url, { body, ...(token !== undefined ? { token } : {}) });
    const j = res.json as { sets?: Record<string, string>; moreAvailable?: boolean } | undefined;
    return {
      status: res.status,
      sets: j?.sets ?? {},
      ...(j?.moreAvailable !== undefined ? { more: j.moreAvailable } : {}),
      ms: Date.now() - t0,
    };
  }

  /** Verifies a SET with the keys at jwks_uri and returns its header and claims. */
  async verified(
    token: string,
  ): Promise<{ header: Record<string, unknown>; claims: Record<string, unknown> }> {
    this.jwks ??= (await this.call("GET", await this.endpoint("jwks_uri"), { token: null }))
      .json as JSONWebKeySet;
    const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(this.jwks), {
      issuer: this.issuer,
      typ: "secevent+jwt",
    });
    return { header: protectedHeader as Record<string, unknown>, claims: payload as Record<string, unknown> };
  }
}

function withRig(faults: string[] = []): () => Rig {
  let rig: Rig | undefined;
  beforeAll(async () => {
    const receiver = new TestReceiver();
    await receiver.start();
    rig = new Rig(await startCaepTransmitterTarget({ faults }), receiver);
  });
  afterAll(async () => {
    await rig?.target.close();
    await rig?.receiver.close();
  });
  return () => {
    if (rig === undefined) throw new Error("rig not started");
    return rig;
  };
}

describe("caep-transmitter reference target: fault catalog", () => {
  it("has at least 25 faults with unique ids, each naming the requirements it breaks", () => {
    const ids = targetFaults.map((f) => f.id);
    expect(ids.length).toBeGreaterThanOrEqual(25);
    expect(new Set(ids).size).toBe(ids.length);
    for (const f of targetFaults) expect(f.breaks.length, f.id).toBeGreaterThan(0);
  });

  it("refuses an unknown fault id", async () => {
    await expect(startCaepTransmitterTarget({ faults: ["no-such-fault"] })).rejects.toThrow(
      /unknown caep-transmitter/,
    );
  });
});

describe("caep-transmitter reference target (SSF 1.0, RFC 8935, RFC 8936)", () => {
  const rig = withRig();

  it("publishes discovery with the well-known segment inserted before the issuer path, and a JWK Set", async () => {
    const r = rig();
    expect(Object.keys(r.env).sort()).toEqual([
      "IDC_DEMO_CAEP_TRANSMITTER_AUDIENCE",
      "IDC_DEMO_CAEP_TRANSMITTER_HOOK",
      "IDC_DEMO_CAEP_TRANSMITTER_ISSUER",
      "IDC_DEMO_CAEP_TRANSMITTER_TOKEN",
      "IDC_DEMO_CAEP_TRANSMITTER_TOKEN_2",
    ]);
    const doc = await r.discovery();
    expect(doc).toMatchObject({ issuer: r.issuer, spec_version: "1_0", default_subjects: "NONE" });
    expect(doc.delivery_methods_supported).toEqual([PUSH, POLL]);
    for (const e of [
      "configuration_endpoint",
      "status_endpoint",
      "add_subject_endpoint",
      "remove_subject_endpoint",
      "verification_endpoint",
    ])
      expect(doc[e], e).toMatch(new RegExp(`^${r.issuer}/`));
    const appended = await r.call("GET", `${r.issuer}/.well-known/ssf-configuration`, { token: null });
    expect(appended.status).toBe(404);
    const jwks = (await r.call("GET", doc.jwks_uri ?? "", { token: null })).json as JSONWebKeySet;
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({
      kty: "EC",
      alg: "ES256",
      use: "sig",
      kid: expect.any(String) as string,
    });
    expect(jwks.keys[0]).not.toHaveProperty("d");
  });

  it("refuses management without a valid token (401 with a challenge) and a token in the query", async () => {
    const r = rig();
    const url = await r.endpoint("configuration_endpoint");
    for (const token of [null, "wrong"]) {
      const res = await r.call("GET", url, { token });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer realm=/);
    }
    const query = await r.call("GET", url, {
      token: null,
      query: { access_token: r.env.IDC_DEMO_CAEP_TRANSMITTER_TOKEN ?? "" },
    });
    expect(query.status).toBe(401);
    expect((await r.call("GET", url, { query: { access_token: "x" } })).status).toBe(400);
  });

  it("pushes a triggered event, asynchronously, as a signed SET with the stream's authorization", async () => {
    const r = rig();
    const s = await r.stream("push");
    expect(s.config).toMatchObject({
      iss: r.issuer,
      aud: r.env.IDC_DEMO_CAEP_TRANSMITTER_AUDIENCE,
      delivery: { method: PUSH, endpoint_url: `${r.receiver.url}/push/${s.slot}` },
      events_delivered: [`${CAEP}session-revoked`, `${CAEP}credential-change`],
    });
    expect(JSON.stringify(s.config)).not.toContain(s.authorization);
    expect(await r.trigger("credential-change", s.subject)).toBe(1);
    const [pushed] = await r.receiver.until(s.slot, 1);
    expect(pushed?.headers["content-type"]).toBe("application/secevent+jwt");
    expect(pushed?.headers.authorization).toBe(s.authorization);
    const { header, claims } = await r.verified(pushed?.token ?? "");
    expect(header).toMatchObject({ alg: "ES256", typ: "secevent+jwt" });
    expect(claims).toMatchObject({ aud: s.config.aud, sub_id: s.subject, txn: expect.any(String) as string });
    expect(claims).not.toHaveProperty("sub");
    expect(claims).not.toHaveProperty("exp");
    const events = claims.events as Record<string, Record<string, unknown>>;
    expect(Object.keys(events)).toEqual([`${CAEP}credential-change`]);
    expect(events[`${CAEP}credential-change`]).toMatchObject({
      credential_type: expect.any(String) as string,
      change_type: "create",
    });
  });

  it("sends nothing about a subject not added, nor an event type the stream does not deliver", async () => {
    const r = rig();
    const s = await r.stream("push");
    expect(await r.trigger("session-revoked", { format: "email", email: "stranger@example.com" })).toBe(0);
    expect(await r.trigger("risk-level-change", s.subject)).toBe(0);
    await r.trigger("session-revoked", s.subject, { claims: { reason_admin: { en: "marker" } } });
    const pushes = await r.receiver.until(s.slot, 1);
    const claims = decodeJwt(pushes[0]?.token ?? "");
    expect(claims.events).toEqual({
      [`${CAEP}session-revoked`]: expect.objectContaining({ reason_admin: { en: "marker" } }) as object,
    });
  });

  it("retries a 503 after Retry-After, and does not resend a SET refused with 400", async () => {
    const r = rig();
    const s = await r.stream("push");
    r.receiver.arm(
      s.slot,
      { status: 503, retryAfter: "1" },
      { status: 400, body: { err: "invalid_request" } },
    );
    await r.trigger("session-revoked", s.subject);
    const [first, again] = await r.receiver.until(s.slot, 2, 4000);
    expect(again?.token).toBe(first?.token);
    expect((again?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(950);
    await r.trigger("credential-change", s.subject);
    const third = (await r.receiver.until(s.slot, 3))[2];
    expect(Object.keys(decodeJwt(third?.token ?? "").events as object)).toEqual([`${CAEP}credential-change`]);
  });

  it("verifies: 204, then a verification SET on that stream carrying the state", async () => {
    const r = rig();
    const s = await r.stream("push");
    const res = await r.call("POST", await r.endpoint("verification_endpoint"), {
      body: { stream_id: s.id, state: "st-1" },
    });
    expect(res.status).toBe(204);
    const [pushed] = await r.receiver.until(s.slot, 1);
    const { claims } = await r.verified(pushed?.token ?? "");
    expect(claims).toMatchObject({
      sub_id: { format: "opaque", id: s.id },
      events: { [VERIFICATION]: { state: "st-1" } },
    });
  });

  it("holds a paused stream's events and releases them when enabled; a disabled stream drops them", async () => {
    const r = rig();
    const s = await r.stream("push");
    await r.setStatus(s.id, "paused");
    await r.trigger("session-revoked", s.subject);
    const status = await r.call("GET", await r.endpoint("status_endpoint"), { query: { stream_id: s.id } });
    expect(status.json).toMatchObject({ status: "paused" });
    expect(r.receiver.of(s.slot)).toHaveLength(0);
    await r.setStatus(s.id, "enabled");
    await r.receiver.until(s.slot, 1);
    await r.setStatus(s.id, "disabled");
    await r.trigger("session-revoked", s.subject);
    await r.setStatus(s.id, "enabled");
    await r.trigger("credential-change", s.subject);
    const pushes = await r.receiver.until(s.slot, 2);
    expect(Object.keys(decodeJwt(pushes[1]?.token ?? "").events as object)).toEqual([
      `${CAEP}credential-change`,
    ]);
  });

  it("polls (RFC 8936): long poll wakes on an event, maxEvents, moreAvailable, ack and redelivery", async () => {
    const r = rig();
    const s = await r.stream("poll");
    expect(s.config.delivery.method).toBe(POLL);
    const url = s.config.delivery.endpoint_url;
    const empty = await r.poll(url, { returnImmediately: true });
    expect(empty).toMatchObject({ status: 200, sets: {}, more: false });
    const held = r.poll(url, {});
    await r.trigger("session-revoked", s.subject);
    const first = await held;
    expect(Object.keys(first.sets)).toHaveLength(1);
    const [jti1, token1] = Object.entries(first.sets)[0] ?? [];
    expect((await r.verified(token1 ?? "")).claims.jti).toBe(jti1);
    await r.trigger("credential-change", s.subject);
    await r.trigger("session-revoked", s.subject);
    const page = await r.poll(url, { maxEvents: 2, returnImmediately: true });
    expect(Object.keys(page.sets)).toHaveLength(2);
    expect(page.sets[jti1 ?? ""]).toBe(token1);
    expect(page.more).toBe(true);
    const acked = await r.poll(url, { ack: Object.keys(page.sets), returnImmediately: true });
    expect(Object.keys(acked.sets)).toHaveLength(1);
    expect(acked.sets[jti1 ?? ""]).toBeUndefined();
    expect(acked.more).toBe(false);
    const last = await r.poll(url, { ack: Object.keys(acked.sets), returnImmediately: true });
    expect(last.sets).toEqual({});
    expect(last.ms).toBeLessThan(1000);
  });

  it("keeps one Receiver's streams from the other, in management and in poll", async () => {
    const r = rig();
    const s = await r.stream("poll");
    const other = r.env.IDC_DEMO_CAEP_TRANSMITTER_TOKEN_2 ?? "";
    const config = await r.endpoint("configuration_endpoint");
    const listed = await r.call("GET", config, { token: other });
    expect(listed.status).toBe(200);
    expect((listed.json as { stream_id: string }[]).map((x) => x.stream_id)).not.toContain(s.id);
    expect((await r.call("GET", config, { token: other, query: { stream_id: s.id } })).status).toBe(404);
    expect(
      (await r.call("PATCH", config, { token: other, body: { stream_id: s.id, description: "x" } })).status,
    ).toBe(404);
    expect((await r.call("DELETE", config, { token: other, query: { stream_id: s.id } })).status).toBe(404);
    await r.trigger("session-revoked", s.subject);
    expect((await r.poll(s.config.delivery.endpoint_url, { returnImmediately: true }, other)).status).toBe(
      404,
    );
    const noToken = await r.poll(s.config.delivery.endpoint_url, { returnImmediately: true }, null);
    expect(noToken.status).toBe(401);
    const mine = await r.poll(s.config.delivery.endpoint_url, { returnImmediately: true });
    expect(Object.keys(mine.sets)).toHaveLength(1);
    expect((await r.call("GET", config, { query: { stream_id: s.id } })).status).toBe(200);
  });

  it("updates, replaces and deletes a stream", async () => {
    const r = rig();
    const s = await r.stream("poll");
    const config = await r.endpoint("configuration_endpoint");
    const patched = await r.call("PATCH", config, { body: { stream_id: s.id, description: "d1" } });
    expect(patched.json).toMatchObject({ description: "d1", events_requested: s.config.events_requested });
    const put = await r.call("PUT", config, {
      body: { stream_id: s.id, delivery: { method: POLL }, events_requested: [`${CAEP}session-revoked`] },
    });
    expect(put.status).toBe(200);
    expect(put.json).not.toHaveProperty("description");
    expect(put.json).toMatchObject({ events_delivered: [`${CAEP}session-revoked`] });
    const bad = await r.call("PATCH", config, { body: { stream_id: s.id, iss: "https://other.example" } });
    expect(bad.status).toBe(400);
    const deleted = await r.call("DELETE", config, { query: { stream_id: s.id } });
    expect(deleted.status).toBe(204);
    expect((await r.call("GET", config, { query: { stream_id: s.id } })).status).toBe(404);
  });
});

describe("caep-transmitter reference target with faults", () => {
  const rig = withRig(["exp-claim", "paused-drops", "poll-ack-ignored", "typ-missing"]);

  it("signs SETs with exp and without typ, drops events while paused, and ignores acknowledgements", async () => {
    const r = rig();
    const s = await r.stream("poll");
    const url = s.config.delivery.endpoint_url;
    await r.setStatus(s.id, "paused");
    await r.trigger("session-revoked", s.subject);
    await r.setStatus(s.id, "enabled");
    expect((await r.poll(url, { returnImmediately: true })).sets).toEqual({});
    await r.trigger("session-revoked", s.subject);
    const got = await r.poll(url, { returnImmediately: true });
    const [jti, token] = Object.entries(got.sets)[0] ?? [];
    expect(decodeJwt(token ?? "")).toHaveProperty("exp");
    expect(decodeProtectedHeader(token ?? "")).not.toHaveProperty("typ");
    const again = await r.poll(url, { ack: [jti], returnImmediately: true });
    expect(again.sets[jti ?? ""]).toBe(token);
  });
});

describe("caep-transmitter reference target: close", () => {
  it("ends waiting long polls and push retries at once", async () => {
    const receiver = new TestReceiver();
    await receiver.start();
    const r = new Rig(await startCaepTransmitterTarget({ faults: [] }), receiver);
    try {
      const push = await r.stream("push");
      receiver.arm(push.slot, { status: 503, retryAfter: "60" });
      await r.trigger("session-revoked", push.subject);
      await receiver.until(push.slot, 1);
      const poll = await r.stream("poll");
      const held = r.poll(poll.config.delivery.endpoint_url, {}).catch(() => undefined);
      const t0 = Date.now();
      await r.target.close();
      await held;
      expect(Date.now() - t0).toBeLessThan(1000);
    } finally {
      await receiver.close();
    }
  });
});
