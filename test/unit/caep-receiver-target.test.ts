import { EventEmitter } from "node:events";
import { randomUUID } from "node:crypto";
import { Hono } from "hono";
import { calculateJwkThumbprint, CompactSign, exportJWK, generateKeyPair, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer, RunningTarget } from "../../src/engine/target.js";
import { tokenAttacks } from "../../src/engine/token-attacks.js";
import { serveApp } from "../../src/http/serve.js";
import { faults as targetFaults, startCaepReceiverTarget } from "../../targets/caep-receiver/index.js";

// The names are written out here, as a Transmitter's developer would (the target has its own copy).
const CAEP = "https://schemas.openid.net/secevent/caep/event-type/";
const VERIFICATION = "https://schemas.openid.net/secevent/ssf/event-type/verification";
const PUSH = "urn:ietf:rfc:8935";
const POLL = "urn:ietf:rfc:8936";
const EVENT_NAMES = [
  "session-revoked",
  "token-claims-change",
  "credential-change",
  "assurance-level-change",
  "device-compliance-change",
  "session-established",
  "session-presented",
  "risk-level-change",
];

interface SigningKey {
  readonly privateKey: CryptoKey;
  readonly privateJwk: JWK;
  readonly publicJwk: JWK;
}

async function newKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const pub = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(pub);
  return {
    privateKey,
    privateJwk: { ...(await exportJWK(privateKey)), kid, alg: "ES256" },
    publicJwk: { ...pub, kid, alg: "ES256", use: "sig" },
  };
}

interface Logged {
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: unknown;
}

interface PollOutcome {
  acks: number;
  err?: { err?: string; description?: string };
}

/**
 * A tiny Transmitter played by the test (SSF 1.0 discovery, jwks, stream creation,
 * verification, an RFC 8936 poll endpoint). Everything the target sends it is logged, and
 * waiting is on those events, with a deadline.
 */
class TestTransmitter {
  url = "";
  key!: SigningKey;
  published: JWK[] = [];
  jwksFetches = 0;
  readonly log: Logged[] = [];
  readonly outcomes = new Map<string, PollOutcome>();
  private readonly queue = new Map<string, string>();
  private readonly changed = new EventEmitter();
  private server: RunningServer | undefined;

  constructor(readonly delivery: "push" | "poll") {
    this.changed.setMaxListeners(100);
  }

  private record(path: string, headers: Headers, body: unknown): void {
    const flat: Record<string, string> = {};
    headers.forEach((value, name) => (flat[name] = value));
    this.log.push({ path, headers: flat, body });
    this.changed.emit("change");
  }

  async start(): Promise<void> {
    this.key = await newKey();
    this.published = [this.key.publicJwk];
    const app = new Hono();
    app.get("/.well-known/ssf-configuration", (c) => {
      this.record("/.well-known/ssf-configuration", c.req.raw.headers, undefined);
      return c.json({
        issuer: this.url,
        jwks_uri: `${this.url}/jwks`,
        delivery_methods_supported: [this.delivery === "push" ? PUSH : POLL],
        configuration_endpoint: `${this.url}/streams`,
        verification_endpoint: `${this.url}/verify`,
        spec_version: "1_0",
      });
    });
    app.get("/jwks", (c) => {
      this.jwksFetches++;
      return c.json({ keys: this.published });
    });
    app.post("/streams", async (c) => {
      const body = (await c.req.json()) as { delivery: Record<string, unknown>; events_requested: string[] };
      this.record("/streams", c.req.raw.headers, body);
      const streamId = `stream-${this.log.filter((l) => l.path === "/streams").length}`;
      const delivery =
        this.delivery === "poll"
          ? { method: POLL, endpoint_url: `${this.url}/poll/${streamId}` }
          : body.delivery;
      return c.json(
        { stream_id: streamId, iss: this.url, delivery, events_delivered: body.events_requested },
        201,
      );
    });
    app.post("/verify", async (c) => {
      this.record("/verify", c.req.raw.headers, await c.req.json());
      return c.body(null, 204);
    });
    app.post("/poll/:id", async (c) => {
      const body = (await c.req.json()) as {
        ack?: string[];
        setErrs?: Record<string, PollOutcome["err"]>;
        returnImmediately?: boolean;
      };
      for (const jti of body.ack ?? []) this.outcome(jti).acks++;
      for (const [jti, err] of Object.entries(body.setErrs ?? {})) this.outcome(jti).err = err ?? {};
      this.record("/poll", c.req.raw.headers, body);
      if (this.queue.size === 0 && body.returnImmediately !== true) await this.nextChange(300);
      const sets = Object.fromEntries(this.queue);
      this.queue.clear();
      return c.json({ sets, moreAvailable: false });
    });
    this.server = await serveApp(app);
    this.url = this.server.url;
  }

  private outcome(jti: string): PollOutcome {
    const o = this.outcomes.get(jti) ?? { acks: 0 };
    this.outcomes.set(jti, o);
    return o;
  }

  enqueue(jti: string, token: string): void {
    this.queue.set(jti, token);
    this.changed.emit("change");
  }

  private nextChange(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.changed.off("change", done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.changed.on("change", done);
    });
  }

  /** Waits (at most `ms`) until `find` answers something. */
  async until<T>(find: () => T | undefined, what: string, ms = 5000): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = find();
      if (found !== undefined) return found;
      if (Date.now() >= deadline) throw new Error(`no ${what} within ${ms} ms`);
      await this.nextChange(deadline - Date.now());
    }
  }

  requests(path: string): Logged[] {
    return this.log.filter((l) => l.path === path);
  }

  async close(): Promise<void> {
    await this.server?.close();
  }
}

/** Signs a payload as a SET (typ secevent+jwt) with `key` unless told otherwise. */
async function signSet(
  payload: Record<string, unknown>,
  key: SigningKey,
  header: Record<string, unknown> = {},
): Promise<string> {
  return new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({ alg: "ES256", typ: "secevent+jwt", kid: key.publicJwk.kid ?? "", ...header })
    .sign(key.privateKey);
}

interface Reply {
  status: number;
  type: string;
  text: string;
}

/** The running target with its Transmitter, as a test drives it. */
class Rig {
  constructor(
    readonly transmitter: TestTransmitter,
    readonly target: RunningTarget,
  ) {}

  get env(): Record<string, string> {
    return this.target.env;
  }

  payload(
    event: string,
    claims: Record<string, unknown>,
    subject: unknown,
    extra: Record<string, unknown> = {},
  ) {
    return {
      iss: this.transmitter.url,
      aud: this.env.IDC_DEMO_CAEP_RECEIVER_AUDIENCE,
      iat: Math.floor(Date.now() / 1000),
      jti: randomUUID(),
      txn: randomUUID(),
      sub_id: subject,
      events: { [event.startsWith("https:") ? event : `${CAEP}${event}`]: claims },
      ...extra,
    };
  }

  async set(event: string, claims: Record<string, unknown>, subject: unknown = EMAIL, extra = {}) {
    return signSet(this.payload(event, claims, subject, extra), this.transmitter.key);
  }

  async push(token: string, o: { auth?: string | null; type?: string } = {}): Promise<Reply> {
    const auth = o.auth === undefined ? this.env.IDC_DEMO_CAEP_RECEIVER_PUSH_AUTH : o.auth;
    const res = await fetch(this.env.IDC_DEMO_CAEP_RECEIVER_PUSH_URL ?? "", {
      method: "POST",
      headers: {
        "content-type": o.type ?? "application/secevent+jwt",
        ...(auth === null || auth === undefined ? {} : { authorization: auth }),
      },
      body: token,
    });
    return { status: res.status, type: res.headers.get("content-type") ?? "", text: await res.text() };
  }

  async refusal(token: string): Promise<{ err: string; description: string }> {
    const r = await this.push(token);
    expect(r.status, r.text).toBe(400);
    expect(r.type).toMatch(/^application\/json/);
    return JSON.parse(r.text) as { err: string; description: string };
  }

  async session(n: string): Promise<{ user: string; session: string }> {
    const user = `user-${n}@example.com`;
    const session = `s-${n}`;
    const res = await fetch(this.env.IDC_DEMO_CAEP_RECEIVER_SESSION_HOOK ?? "", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        user: { format: "email", email: user },
        session: { format: "opaque", id: session },
      }),
    });
    expect(res.status).toBe(201);
    return { user, session };
  }

  async probe(kind: "session" | "user", value: string): Promise<number> {
    const url =
      kind === "session"
        ? (this.env.IDC_DEMO_CAEP_RECEIVER_SESSION_PROBE ?? "").replace(
            "{session}",
            encodeURIComponent(value),
          )
        : (this.env.IDC_DEMO_CAEP_RECEIVER_ACCESS_PROBE ?? "").replace("{user}", encodeURIComponent(value));
    const res = await fetch(url);
    await res.arrayBuffer();
    return res.status;
  }
}

const EMAIL = { format: "email", email: "nobody@example.com" };

/** A Transmitter and a target trusting it, for the enclosing describe block. */
function withRig(delivery: "push" | "poll", faults: string[] = []): () => Rig {
  let rig: Rig | undefined;
  beforeAll(async () => {
    const transmitter = new TestTransmitter(delivery);
    await transmitter.start();
    const target = await startCaepReceiverTarget({ faults, transmitterUrl: transmitter.url });
    rig = new Rig(transmitter, target);
    // The target has read the keys by the time it creates its stream.
    await transmitter.until(() => transmitter.requests("/streams")[0], "stream creation");
  });
  afterAll(async () => {
    await rig?.target.close();
    await rig?.transmitter.close();
  });
  return () => {
    if (rig === undefined) throw new Error("rig not started");
    return rig;
  };
}

describe("caep-receiver reference target: fault catalog", () => {
  it("has at least 25 faults with unique ids, each naming the requirements it breaks", () => {
    const ids = targetFaults.map((f) => f.id);
    expect(ids.length).toBeGreaterThanOrEqual(25);
    expect(new Set(ids).size).toBe(ids.length);
    for (const f of targetFaults) expect(f.breaks.length, f.id).toBeGreaterThan(0);
  });

  it("refuses an unknown fault id", async () => {
    await expect(startCaepReceiverTarget({ faults: ["no-such-fault"] })).rejects.toThrow(
      /unknown caep-receiver/,
    );
  });
});

describe("caep-receiver reference target, push delivery (SSF 1.0 §8, RFC 8935)", () => {
  const rig = withRig("push");

  it("hands out the env contract", () => {
    expect(Object.keys(rig().env).sort()).toEqual([
      "IDC_DEMO_CAEP_RECEIVER_ACCESS_PROBE",
      "IDC_DEMO_CAEP_RECEIVER_AUDIENCE",
      "IDC_DEMO_CAEP_RECEIVER_BASE",
      "IDC_DEMO_CAEP_RECEIVER_PUSH_AUTH",
      "IDC_DEMO_CAEP_RECEIVER_PUSH_URL",
      "IDC_DEMO_CAEP_RECEIVER_SESSION_HOOK",
      "IDC_DEMO_CAEP_RECEIVER_SESSION_PROBE",
      "IDC_DEMO_CAEP_RECEIVER_TRANSMITTER_PORT",
      "IDC_DEMO_CAEP_RECEIVER_TRANSMITTER_TOKEN",
      "IDC_DEMO_CAEP_RECEIVER_TRANSMITTER_URL",
    ]);
    expect(rig().env.IDC_DEMO_CAEP_RECEIVER_TRANSMITTER_URL).toBe(rig().transmitter.url);
  });

  it("reads discovery, creates a push stream with its Bearer token and JSON, then asks for verification", async () => {
    const t = rig().transmitter;
    await t.until(() => t.requests("/verify")[0], "verification request");
    const token = `Bearer ${rig().env.IDC_DEMO_CAEP_RECEIVER_TRANSMITTER_TOKEN}`;
    const [create] = t.requests("/streams");
    expect(create?.headers.authorization).toBe(token);
    expect(create?.headers["content-type"]).toMatch(/^application\/json/);
    const body = create?.body as { delivery: Record<string, unknown>; events_requested: string[] };
    expect(body.delivery.method).toBe(PUSH);
    expect(body.delivery.endpoint_url).toBe(rig().env.IDC_DEMO_CAEP_RECEIVER_PUSH_URL);
    expect(body.delivery.authorization_header).toMatch(/^Bearer \S+$/);
    expect([...body.events_requested].sort()).toEqual(EVENT_NAMES.map((n) => `${CAEP}${n}`).sort());
    const [verify] = t.requests("/verify");
    expect(verify?.headers.authorization).toBe(token);
    expect(verify?.body).toMatchObject({ stream_id: "stream-1", state: expect.any(String) as string });
  });

  it("accepts a valid SET with 202 and an empty body, with the stream's or the static authorization", async () => {
    const stream = rig().transmitter.requests("/streams")[0]?.body as {
      delivery: { authorization_header: string };
    };
    const set = () => rig().set("session-presented", { event_timestamp: 1_700_000_000 });
    expect(await rig().push(await set(), { auth: stream.delivery.authorization_header })).toMatchObject({
      status: 202,
      text: "",
    });
    expect(await rig().push(await set())).toMatchObject({ status: 202, text: "" });
  });

  it("accepts every event type with its required claims, an aud array, aliases, unknown events and members", async () => {
    const r = rig();
    const required: Record<string, Record<string, unknown>> = {
      "session-revoked": {},
      "token-claims-change": { claims: { role: "ro-admin" } },
      "credential-change": { credential_type: "fido2-roaming", change_type: "create" },
      "assurance-level-change": { namespace: "NIST-AAL", current_level: "nist-aal2" },
      "device-compliance-change": { previous_status: "compliant", current_status: "compliant" },
      "session-established": {},
      "session-presented": {},
      "risk-level-change": { principal: "USER", current_level: "LOW" },
    };
    for (const [name, claims] of Object.entries(required)) {
      expect((await r.push(await r.set(name, claims))).status, name).toBe(202);
    }
    const aud = [r.env.IDC_DEMO_CAEP_RECEIVER_AUDIENCE, "https://other.example"];
    expect((await r.push(await r.set("session-presented", {}, EMAIL, { aud }))).status).toBe(202);
    const aliases = {
      format: "aliases",
      identifiers: [EMAIL, { format: "phone_number", phone_number: "+12065550100" }],
    };
    expect((await r.push(await r.set("session-presented", {}, aliases))).status).toBe(202);
    const both = r.payload("session-presented", { x_vendor: 1 }, { ...EMAIL, extra: true });
    (both.events as Record<string, unknown>)["https://example.com/event-type/unknown"] = { anything: true };
    expect((await r.push(await signSet(both, r.transmitter.key))).status).toBe(202);
    expect((await r.push(await r.set(VERIFICATION, {}, { format: "opaque", id: "stream-1" }))).status).toBe(
      202,
    );
  });

  it("answers a re-sent SET as if new", async () => {
    const token = await rig().set("session-presented", {});
    expect((await rig().push(token)).status).toBe(202);
    expect((await rig().push(token)).status).toBe(202);
  });

  it("refuses a push without the authorization (401 authentication_failed) or with another Content-Type", async () => {
    const token = await rig().set("session-presented", {});
    for (const auth of [null, "Bearer wrong"]) {
      const r = await rig().push(token, { auth });
      expect(r.status).toBe(401);
      expect(JSON.parse(r.text)).toMatchObject({ err: "authentication_failed" });
    }
    const r = await rig().push(token, { type: "application/jwt" });
    expect(r.status).toBe(400);
    expect(JSON.parse(r.text)).toMatchObject({ err: "invalid_request" });
  });

  it("refuses bodies over 64 KiB and bodies that are no SET, without a 5xx or a stack", async () => {
    const big = await rig().set("session-presented", { pad: "x".repeat(70 * 1024) });
    expect((await rig().push(big)).status).toBe(413);
    for (const body of ["not a jws", "a.b.c", `${Buffer.from("{}").toString("base64url")}.bm90IGpzb24.sig`]) {
      const e = await rig().refusal(body);
      expect(e.err).toBe("invalid_request");
      expect(e.description).not.toMatch(/at |\/work\//);
    }
  });

  it("refuses the token attack family with invalid_key, invalid_issuer, invalid_audience or invalid_request", async () => {
    const r = rig();
    const token = await r.set("session-presented", {});
    const attacks = await tokenAttacks({
      token,
      signingKey: r.transmitter.key.privateJwk,
      requiredClaims: ["jti", "iat", "events", "sub_id"],
      omit: ["nbf-future"],
    });
    const expected: Record<string, string> = {
      "wrong-iss": "invalid_issuer",
      "wrong-aud": "invalid_audience",
      expired: "invalid_request",
      "iat-future": "invalid_request",
      "typ-absent": "invalid_request",
      "typ-JWT": "invalid_request",
    };
    expect(attacks.length).toBeGreaterThan(12);
    for (const a of attacks) {
      const code = expected[a.id] ?? (a.id.startsWith("missing-") ? "invalid_request" : "invalid_key");
      expect((await r.refusal(a.token)).err, a.id).toBe(code);
    }
  });

  it("refuses sub, unknown subject formats, missing REQUIRED event claims and values outside closed sets", async () => {
    const r = rig();
    const bad: [string, Record<string, unknown>, unknown, Record<string, unknown>?][] = [
      ["session-presented", {}, EMAIL, { sub: "someone" }],
      ["session-presented", {}, { format: "catalog_item", id: "x" }],
      ["session-presented", {}, { format: "iss_sub", iss: "https://idp.example" }],
      ["session-presented", {}, { format: "complex", tenant: { format: "opaque" } }],
      ["token-claims-change", {}, EMAIL],
      ["risk-level-change", { current_level: "HIGH" }, EMAIL],
      ["risk-level-change", { principal: "USER", current_level: "EXTREME" }, EMAIL],
      ["credential-change", { credential_type: "password", change_type: "reset" }, EMAIL],
      ["session-presented", { initiating_entity: "robot" }, EMAIL],
      ["session-presented", { reason_admin: {} }, EMAIL],
    ];
    for (const [name, claims, subject, extra] of bad) {
      expect((await r.refusal(await r.set(name, claims, subject, extra))).err, JSON.stringify(claims)).toBe(
        "invalid_request",
      );
    }
  });

  it("ends the sessions session-revoked names, and only those, before it answers 202", async () => {
    const r = rig();
    const a = await r.session("a1");
    const a2 = await r.session("a2");
    const b = await r.session("b1");
    expect(await r.probe("session", a.session)).toBe(200);
    const complex = {
      format: "complex",
      user: { format: "email", email: a.user },
      session: { format: "opaque", id: a.session },
    };
    expect((await r.push(await r.set("session-revoked", {}, complex))).status).toBe(202);
    expect(await r.probe("session", a.session)).toBe(401);
    expect(await r.probe("session", a2.session)).toBe(200);
    expect(await r.probe("session", b.session)).toBe(200);
    // session-established does not bring a revoked session back
    expect((await r.push(await r.set("session-established", {}, complex))).status).toBe(202);
    expect(await r.probe("session", a.session)).toBe(401);
    // iss_sub of the Transmitter names the user: all of b's sessions end
    const issSub = { format: "iss_sub", iss: r.transmitter.url, sub: b.user };
    expect((await r.push(await r.set("session-revoked", {}, issSub))).status).toBe(202);
    expect(await r.probe("session", b.session)).toBe(401);
    expect(await r.probe("session", a2.session)).toBe(200);
  });

  it("reduces the user's access on the access-reducing events", async () => {
    const r = rig();
    const events: [string, Record<string, unknown>][] = [
      ["credential-change", { credential_type: "password", change_type: "revoke" }],
      [
        "assurance-level-change",
        { namespace: "NIST-AAL", current_level: "nist-aal1", change_direction: "decrease" },
      ],
      ["device-compliance-change", { previous_status: "compliant", current_status: "not-compliant" }],
      ["risk-level-change", { principal: "USER", current_level: "HIGH" }],
    ];
    for (const [i, [name, claims]] of events.entries()) {
      const u = await r.session(`acc${i}`);
      const other = await r.session(`other${i}`);
      expect(await r.probe("user", u.user)).toBe(200);
      expect((await r.push(await r.set(name, claims, { format: "email", email: u.user }))).status).toBe(202);
      expect(await r.probe("user", u.user), name).toBe(403);
      expect(await r.probe("user", other.user), name).toBe(200);
    }
    const calm = await r.session("calm");
    const increase = { namespace: "NIST-AAL", current_level: "nist-aal2", change_direction: "increase" };
    expect(
      (await r.push(await r.set("assurance-level-change", increase, { format: "email", email: calm.user })))
        .status,
    ).toBe(202);
    expect(await r.probe("user", calm.user)).toBe(200);
  });

  it("follows a key rotation at jwks_uri and stops trusting the removed key", async () => {
    const r = rig();
    const t = r.transmitter;
    const old = t.key;
    const next = await newKey();
    t.published = [next.publicJwk];
    const before = t.jwksFetches;
    const rotated = await signSet(r.payload("session-presented", {}, EMAIL), next);
    expect((await r.push(rotated)).status).toBe(202);
    expect(t.jwksFetches).toBe(before + 1);
    expect((await r.refusal(await signSet(r.payload("session-presented", {}, EMAIL), old))).err).toBe(
      "invalid_key",
    );
    const stranger = await newKey();
    expect((await r.refusal(await signSet(r.payload("session-presented", {}, EMAIL), stranger))).err).toBe(
      "invalid_key",
    );
    t.key = next;
  });

  it("does not let a stream of made-up kids hammer jwks_uri", async () => {
    const r = rig();
    const before = r.transmitter.jwksFetches;
    const stranger = await newKey();
    for (let i = 0; i < 30; i++) {
      const token = await signSet(r.payload("session-presented", {}, EMAIL), stranger, {
        kid: `garbage-${i}`,
      });
      expect((await r.refusal(token)).err).toBe("invalid_key");
    }
    expect(r.transmitter.jwksFetches - before).toBeLessThanOrEqual(10);
  });
});

describe("caep-receiver reference target, poll delivery (RFC 8936)", () => {
  const rig = withRig("poll");

  it("creates a poll stream and polls it with its token, long polling", async () => {
    const t = rig().transmitter;
    const body = t.requests("/streams")[0]?.body as { delivery: Record<string, unknown> };
    expect(body.delivery).toEqual({ method: POLL });
    const poll = await t.until(() => t.requests("/poll")[0], "poll request");
    expect(poll.headers.authorization).toBe(`Bearer ${rig().env.IDC_DEMO_CAEP_RECEIVER_TRANSMITTER_TOKEN}`);
    expect(poll.body).toMatchObject({ maxEvents: expect.any(Number) as number, returnImmediately: false });
  });

  it("acknowledges valid SETs after acting on them, and reports invalid ones in setErrs, never acknowledged", async () => {
    const r = rig();
    const t = r.transmitter;
    const s = await r.session("p1");
    const revoke = r.payload("session-revoked", {}, { format: "opaque", id: s.session });
    const badAud = r.payload("session-presented", {}, EMAIL, { aud: "https://other.example" });
    const noClaims = r.payload("token-claims-change", {}, EMAIL);
    t.enqueue(revoke.jti, await signSet(revoke, t.key));
    t.enqueue(badAud.jti, await signSet(badAud, t.key));
    t.enqueue(noClaims.jti, await signSet(noClaims, t.key));
    const all = [revoke.jti, badAud.jti, noClaims.jti];
    await t.until(
      () =>
        all.every((j) => (t.outcomes.get(j)?.acks ?? 0) > 0 || t.outcomes.get(j)?.err) ? true : undefined,
      "outcomes",
    );
    expect(t.outcomes.get(revoke.jti)).toEqual({ acks: 1 });
    expect(await r.probe("session", s.session)).toBe(401);
    expect(t.outcomes.get(badAud.jti)).toMatchObject({ acks: 0, err: { err: "invalid_audience" } });
    expect(t.outcomes.get(noClaims.jti)).toMatchObject({ acks: 0, err: { err: "invalid_request" } });
    expect(t.outcomes.get(noClaims.jti)?.err?.description).toEqual(expect.any(String));
  });
});

describe("caep-receiver reference target, faults change what it answers", () => {
  const rig = withRig("push", ["aud-ignored", "success-200-json", "stream-auth-on-challenge"]);

  it("accepts another audience and answers 200 with a JSON body", async () => {
    const token = await rig().set("session-presented", {}, EMAIL, { aud: "https://other.example" });
    const r = await rig().push(token);
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text)).toEqual({ status: "accepted" });
  });

  it("sends its stream creation without the token first (the test Transmitter takes it anyway)", () => {
    expect(rig().transmitter.requests("/streams")[0]?.headers.authorization).toBeUndefined();
  });
});

describe("caep-receiver reference target, poll faults", () => {
  const rig = withRig("poll", ["poll-own-err-codes", "poll-get-probe"]);

  it("reports setErrs with its own codes", async () => {
    const r = rig();
    const t = r.transmitter;
    const bad = r.payload("session-presented", {}, EMAIL, { iss: "https://other.example" });
    t.enqueue(bad.jti, await signSet(bad, t.key));
    const o = await t.until(() => t.outcomes.get(bad.jti)?.err, "setErrs");
    expect(o.err).toBe("unknown_issuer");
  });
});
