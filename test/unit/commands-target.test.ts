import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import {
  calculateJwkThumbprint,
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  importJWK,
  jwtVerify,
  SignJWT,
  type JWK,
  type JWTPayload,
} from "jose";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningTarget } from "../../src/engine/target.js";
import { faults as targetFaults, startCommandsTarget } from "../../targets/commands/index.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
type Json = any;

interface Reply {
  status: number;
  headers: Headers;
  body: Json;
}

interface SignOptions {
  header?: Record<string, unknown>;
  jwk?: JWK;
  alg?: string;
  /** Claims to drop from the defaults. */
  without?: string[];
}

interface Event {
  id: string;
  event: string;
  data: Json;
}

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString("base64url");

async function reply(res: Response): Promise<Reply> {
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as unknown) : undefined };
}

/** Parses a text/event-stream body into its events. */
function parseSse(text: string): Event[] {
  return text
    .split("\n\n")
    .filter((block) => block.trim() !== "")
    .map((block) => {
      const fields = Object.fromEntries(
        block.split("\n").map((line) => {
          const at = line.indexOf(": ");
          return [line.slice(0, at), line.slice(at + 2)];
        }),
      ) as Record<string, string>;
      return { id: fields.id ?? "", event: fields.event ?? "", data: JSON.parse(fields.data ?? "null") };
    });
}

/** The OP's side of one running target, as the suite plays it. */
class Op {
  constructor(readonly target: RunningTarget) {}
  get env(): Record<string, string> {
    return this.target.env;
  }
  get endpoint(): string {
    return this.env.IDC_DEMO_COMMANDS_ENDPOINT ?? "";
  }
  get origin(): string {
    return this.target.url;
  }

  async sign(claims: Record<string, unknown>, o: SignOptions = {}): Promise<string> {
    const jwk = o.jwk ?? (JSON.parse(this.env.IDC_DEMO_COMMANDS_OP_KEY ?? "{}") as JWK);
    const alg = o.alg ?? jwk.alg ?? "ES256";
    const now = Math.floor(Date.now() / 1000);
    const payload: Record<string, unknown> = {
      iss: this.env.IDC_DEMO_COMMANDS_OP_ISSUER,
      aud: this.endpoint,
      client_id: this.env.IDC_DEMO_COMMANDS_CLIENT_ID,
      iat: now,
      exp: now + 60,
      jti: randomUUID(),
      tenant: "personal",
      ...claims,
    };
    for (const claim of o.without ?? []) delete payload[claim];
    const header = { alg, typ: "command+jwt", kid: jwk.kid, ...o.header };
    if (header.alg === "none") return `${b64(header)}.${b64(payload)}.`;
    return new SignJWT(payload as JWTPayload)
      .setProtectedHeader(header as { alg: string })
      .sign(await importJWK(jwk, alg));
  }

  async post(form: Record<string, string>, headers: Record<string, string> = {}): Promise<Reply> {
    return reply(await fetch(this.endpoint, { method: "POST", headers, body: new URLSearchParams(form) }));
  }

  async command(claims: Record<string, unknown>, o: SignOptions = {}): Promise<Reply> {
    return this.post({ command_token: await this.sign(claims, o) });
  }

  /** Runs a command that must succeed (200, or 202 for _async) and answers its body. */
  async ok(claims: Record<string, unknown>): Promise<Json> {
    const res = await this.command(claims);
    expect(res.status, JSON.stringify(res.body)).toBe(String(claims.command).endsWith("_async") ? 202 : 200);
    return res.body;
  }

  async audit(sub: string, tenant = "personal"): Promise<Json> {
    return this.ok({ command: "audit", sub, tenant });
  }

  async probe(sub: string): Promise<number> {
    const res = await fetch(
      (this.env.IDC_DEMO_COMMANDS_PROBE ?? "").replace("{sub}", encodeURIComponent(sub)),
    );
    await res.arrayBuffer();
    return res.status;
  }

  /** Starts an audit_tenant stream with undici (no automatic decompression). */
  async stream(tenant: string, headers: Record<string, string> = {}) {
    const token = await this.sign({ command: "audit_tenant", tenant });
    return request(this.endpoint, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        accept: "text/event-stream",
        "cache-control": "no-cache",
        ...headers,
      },
      body: new URLSearchParams({ command_token: token }).toString(),
    });
  }

  async streamEvents(tenant: string, headers: Record<string, string> = {}): Promise<Event[]> {
    const res = await this.stream(tenant, headers);
    expect(res.statusCode).toBe(200);
    const raw = Buffer.from(await res.body.arrayBuffer());
    return parseSse((res.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw).toString("utf8"));
  }
}

/** A local OP notification endpoint: collects the Notification Tokens POSTed to it. */
class NotificationSink {
  private server: Server | undefined;
  readonly received: { contentType: string; body: string }[] = [];
  private waiters: (() => void)[] = [];
  url = "";

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        this.received.push({
          contentType: req.headers["content-type"] ?? "",
          body: Buffer.concat(chunks).toString("utf8"),
        });
        res.writeHead(204).end();
        for (const wake of this.waiters.splice(0)) wake();
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/notify`;
  }

  /** The first notification whose claims match, waiting up to 5 s for it. */
  async next(
    origin: string,
    match: (claims: JWTPayload) => boolean,
  ): Promise<{ claims: JWTPayload; header: Record<string, unknown>; contentType: string }> {
    const jwks = createLocalJWKSet((await (await fetch(`${origin}/jwks`)).json()) as { keys: JWK[] });
    const deadline = Date.now() + 5000;
    for (;;) {
      for (const n of this.received) {
        const { payload } = await jwtVerify(n.body, jwks, { typ: "notification+jwt" });
        if (match(payload)) {
          return { claims: payload, header: decodeProtectedHeader(n.body), contentType: n.contentType };
        }
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error("no matching notification within 5 s");
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server?.close(() => resolve());
      this.server?.closeAllConnections();
    });
  }
}

/** Starts a target with `faults` for the enclosing describe block, closing it afterwards. */
function withTarget(faults: string[], opJwk?: JWK): () => Op {
  let op: Op | undefined;
  beforeAll(async () => {
    op = new Op(await startCommandsTarget({ faults, ...(opJwk ? { opJwk } : {}) }));
  });
  afterAll(async () => {
    await op?.target.close();
  });
  return () => {
    if (op === undefined) throw new Error("target not started");
    return op;
  };
}

/** A sink started for the enclosing describe block. */
function withSink(): NotificationSink {
  const sink = new NotificationSink();
  beforeAll(() => sink.start());
  afterAll(() => sink.close());
  return sink;
}

const sub = (): string => `user-${randomUUID()}`;

const metadata = (tenant: string, notificationEndpoint?: string) => ({
  command: "metadata",
  tenant,
  metadata: notificationEndpoint ? { notification_endpoint: notificationEndpoint } : {},
});

/** Puts a new account into `state` and answers its sub. */
async function accountIn(op: Op, state: string, tenant = "personal"): Promise<string> {
  const s = sub();
  if (state === "unknown") return s;
  await op.ok({ command: "activate", sub: s, tenant, email: `${s}@example.test` });
  if (state === "suspended") await op.ok({ command: "suspend", sub: s, tenant });
  if (state === "archived") await op.ok({ command: "archive", sub: s, tenant });
  return s;
}

describe("commands reference target, clean (specs/002 area A)", () => {
  const t = withTarget([]);

  it("hands out the env contract", () => {
    const env = t().env;
    expect(Object.keys(env).sort()).toEqual([
      "IDC_DEMO_COMMANDS_CLIENT_ID",
      "IDC_DEMO_COMMANDS_ENDPOINT",
      "IDC_DEMO_COMMANDS_OP_ISSUER",
      "IDC_DEMO_COMMANDS_OP_KEY",
      "IDC_DEMO_COMMANDS_PROBE",
    ]);
    expect(env.IDC_DEMO_COMMANDS_ENDPOINT).toBe(`${t().origin}/commands`);
    expect(env.IDC_DEMO_COMMANDS_OP_ISSUER).toBe("https://op.idconform.test");
    expect(env.IDC_DEMO_COMMANDS_CLIENT_ID).toBe("idconform-demo-rp");
    expect(JSON.parse(env.IDC_DEMO_COMMANDS_OP_KEY ?? "{}")).toMatchObject({ kty: "EC", alg: "ES256" });
  });

  it("answers the Metadata Command with the Metadata Response, no-store JSON", async () => {
    const res = await t().command({ ...metadata("org-meta"), metadata: { domains: ["example.test"] } });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.body).toMatchObject({
      context: { iss: "https://op.idconform.test", tenant: "org-meta" },
      command_endpoint: t().endpoint,
      client_id: "idconform-demo-rp",
      aud_sub_required: true,
      jwks_uri: `${t().origin}/jwks`,
    });
    expect(res.body.commands_supported).toEqual(
      expect.arrayContaining(["metadata", "activate", "invalidate", "audit_tenant", "delete_async"]),
    );
    for (const role of res.body.roles)
      expect(role).toMatchObject({ id: expect.any(String), display: expect.any(String) });
  });

  it("ignores unknown metadata members and unknown form parameters", async () => {
    const token = await t().sign({
      ...metadata("org-unknown"),
      metadata: { issuer: "https://op.idconform.test", idc_extension: { a: 1 } },
    });
    const res = await t().post({ command_token: token, idc_unknown: "x" });
    expect(res.status).toBe(200);
  });

  it("refuses malformed requests with 400 invalid_request, every body JSON", async () => {
    const cases: Reply[] = [
      await t().post({}),
      await t().post({ command_token: "not-a-jwt" }),
      await t().post({ command_token: "a.b.c.d.e" }),
      await t().post({ command_token: `${b64({ alg: "ES256" })}.bm90LWpzb24.sig` }),
      await reply(
        await fetch(t().endpoint, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ command_token: await t().sign({ command: "audit", sub: sub() }) }),
        }),
      ),
    ];
    for (const res of cases) {
      expect([res.status, res.body.error]).toEqual([400, "invalid_request"]);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    }
    const big = await t().post({ command_token: "x".repeat(70 * 1024) });
    expect(big.status).toBe(413);
    expect(big.body.error).toBe("invalid_request");
  });

  it("refuses invalid Command Tokens with 400 invalid_request", async () => {
    const other = await generateKeyPair("ES256", { extractable: true });
    const ownKid = (JSON.parse(t().env.IDC_DEMO_COMMANDS_OP_KEY ?? "{}") as JWK).kid ?? "";
    const forged: JWK = { ...(await exportJWK(other.privateKey)), kid: ownKid, alg: "ES256" };
    const stranger: JWK = { ...forged, kid: "unknown-kid" };
    const now = Math.floor(Date.now() / 1000);
    const audit = { command: "audit", sub: sub() };
    const cases: [string, Promise<Reply>][] = [
      ["typ jwt", t().command(audit, { header: { typ: "JWT" } })],
      ["typ application/command+jwt", t().command(audit, { header: { typ: "application/command+jwt" } })],
      ["typ missing", t().command(audit, { header: { typ: undefined } })],
      ["alg none", t().command(audit, { header: { alg: "none" } })],
      ["bad signature", t().command(audit, { jwk: forged })],
      ["unknown kid", t().command(audit, { jwk: stranger })],
      ["expired", t().command({ ...audit, iat: now - 600, exp: now - 300 })],
      ["aud", t().command({ ...audit, aud: `${t().origin}/elsewhere` })],
      ["client_id", t().command({ ...audit, client_id: "someone-else" })],
      ["nonce", t().command({ ...audit, nonce: "n-1" })],
      ["iat in the future", t().command({ ...audit, iat: now + 600, exp: now + 660 })],
      ["metadata with sub", t().command({ ...metadata("org-x"), sub: sub() })],
      ["audit_tenant with sub", t().command({ command: "audit_tenant", sub: sub() })],
      ["metadata without metadata", t().command({ command: "metadata" })],
      ["metadata not an object", t().command({ command: "metadata", metadata: ["x"] })],
      ["http notification_endpoint", t().command(metadata("org-x", "http://op.example.test/n"))],
      ["account command with metadata", t().command({ ...audit, metadata: {} })],
      ["suspend with authentication_provider", t().command({ ...audit, authentication_provider: "op" })],
      ["account command without sub", t().command({ command: "audit" })],
      ["sub not a string", t().command({ command: "audit", sub: 42 })],
    ];
    for (const claim of ["iss", "aud", "client_id", "iat", "exp", "jti", "command", "tenant"]) {
      cases.push([`without ${claim}`, t().command(audit, { without: [claim] })]);
    }
    for (const [name, pending] of cases) {
      const res = await pending;
      expect([res.status, res.body?.error], name).toEqual([400, "invalid_request"]);
    }
  });

  it("answers an unknown issuer with 401 unrecognized_provider", async () => {
    const res = await t().command({ command: "audit", sub: sub(), iss: "https://other-op.example.test" });
    expect([res.status, res.body.error]).toEqual([401, "unrecognized_provider"]);
  });

  it("refuses a replayed jti", async () => {
    const token = await t().sign({ command: "audit", sub: sub() });
    expect((await t().post({ command_token: token })).status).toBe(200);
    const again = await t().post({ command_token: token });
    expect([again.status, again.body.error]).toEqual([400, "invalid_request"]);
  });

  it("answers unsupported commands with 400 unsupported_command", async () => {
    for (const command of ["unauthorize", "suspend_tenant", "invalidate_async", "idc_unknown"]) {
      const res = await t().command({ command, sub: sub() });
      expect([res.status, res.body.error], command).toEqual([400, "unsupported_command"]);
    }
  });

  it("follows the lifecycle table exactly, with 409 incompatible_state bodies", async () => {
    const table: Record<string, Record<string, string | null>> = {
      activate: { unknown: "active", active: null, suspended: null, archived: null },
      maintain: { unknown: null, active: "active", suspended: null, archived: null },
      suspend: { unknown: null, active: "suspended", suspended: null, archived: null },
      reactivate: { unknown: null, active: null, suspended: "active", archived: null },
      archive: { unknown: null, active: "archived", suspended: "archived", archived: null },
      restore: { unknown: null, active: null, suspended: null, archived: "active" },
      delete: { unknown: null, active: "unknown", suspended: "unknown", archived: "unknown" },
      invalidate: { unknown: null, active: "active", suspended: null, archived: null },
    };
    for (const [command, row] of Object.entries(table)) {
      for (const [from, to] of Object.entries(row)) {
        const s = await accountIn(t(), from);
        const res = await t().command({ command, sub: s });
        const what = `${command} from ${from}`;
        if (to === null) {
          expect(res.status, what).toBe(409);
          expect(res.body, what).toMatchObject({ error: "incompatible_state", account_state: from, sub: s });
          expect(res.headers.get("content-type")).toMatch(/^application\/json/);
        } else {
          expect(res.status, what).toBe(200);
          expect(res.headers.get("cache-control")).toBe("no-store");
          expect(res.body, what).toMatchObject({ sub: s, account_state: to, aud_sub: expect.any(String) });
          expect((await t().audit(s)).account_state, what).toBe(to);
        }
      }
    }
  });

  it("lets a deleted sub be activated again, with its old data gone", async () => {
    const s = sub();
    const first = await t().ok({ command: "activate", sub: s, given_name: "Old" });
    await t().ok({ command: "delete", sub: s });
    const second = await t().ok({ command: "activate", sub: s, family_name: "New" });
    expect(second.aud_sub).not.toBe(first.aud_sub);
    const audit = await t().audit(s);
    expect(audit).toMatchObject({ account_state: "active", family_name: "New" });
    expect(audit.given_name).toBeUndefined();
  });

  it("audits the retained claims as last maintained, and unknown accounts as unknown", async () => {
    const s = sub();
    await t().ok({
      command: "activate",
      sub: s,
      given_name: "Ada",
      family_name: "Lovelace",
      email: "ada@example.test",
      email_verified: true,
      groups: ["g1", "g2"],
      idc_custom: "kept",
    });
    await t().ok({ command: "maintain", sub: s, given_name: "Augusta", groups: ["g3"] });
    const audit = await t().audit(s);
    expect(audit).toMatchObject({
      sub: s,
      account_state: "active",
      aud_sub: expect.any(String),
      given_name: "Augusta",
      family_name: "Lovelace",
      email: "ada@example.test",
      email_verified: true,
      groups: ["g3"],
      idc_custom: "kept",
    });
    expect(audit.iss).toBeUndefined();
    const none = await t().command({ command: "audit", sub: sub() });
    expect([none.status, none.body.account_state]).toEqual([200, "unknown"]);
  });

  it("resolves accounts by aud_sub, which takes precedence over sub", async () => {
    const s = sub();
    const { aud_sub: audSub } = await t().ok({ command: "activate", sub: s, email: "a@example.test" });
    expect(audSub).toMatch(/^rp-/);
    const suspended = await t().ok({ command: "suspend", aud_sub: audSub });
    expect(suspended).toEqual({ sub: s, account_state: "suspended", aud_sub: audSub });
    expect((await t().ok({ command: "audit", aud_sub: audSub })).email).toBe("a@example.test");
    const wrong = await t().command({ command: "reactivate", sub: s, aud_sub: "rp-unknown" });
    expect(wrong.status).toBe(409);
    expect(wrong.body).toMatchObject({ error: "incompatible_state", account_state: "unknown", sub: s });
    const conflict = await t().command({ command: "activate", sub: sub(), aud_sub: audSub });
    expect(conflict.body).toMatchObject({ account_state: "suspended", sub: s, aud_sub: audSub });
  });

  it("migrates with op or op_migration, refuses without it, and applies the policy hooks", async () => {
    const s = await accountIn(t(), "active");
    const res = await t().ok({ command: "migrate", sub: s, authentication_provider: "op_migration" });
    expect(res).toMatchObject({ sub: s, account_state: "active", authentication_provider: "op_migration" });
    expect((await t().audit(s)).authentication_provider).toBe("op_migration");
    await t().ok({ command: "migrate", sub: s, authentication_provider: "op" });
    for (const claims of [{}, { authentication_provider: "rp" }]) {
      const bad = await t().command({ command: "migrate", sub: s, ...claims });
      expect([bad.status, bad.body.error]).toEqual([400, "invalid_request"]);
    }
    const unknown = await t().command({ command: "migrate", sub: sub(), authentication_provider: "op" });
    expect(unknown.body).toMatchObject({ error: "incompatible_state", account_state: "unknown" });
    const denied = sub();
    await t().ok({ command: "activate", sub: denied, email: "x@denied.invalid" });
    const refused = await t().command({ command: "migrate", sub: denied, authentication_provider: "op" });
    expect([refused.status, refused.body.error]).toEqual([403, "access_denied"]);
    const external = sub();
    await t().ok({ command: "activate", sub: external, email: "x@external.invalid" });
    const stuck = await t().command({ command: "migrate", sub: external, authentication_provider: "op" });
    expect([stuck.status, stuck.body.error]).toEqual([409, "authentication_not_transferable"]);
  });

  it("revokes sessions on invalidate, suspend, archive and delete; reactivate and restore sign in again", async () => {
    const s = await accountIn(t(), "active");
    expect(await t().probe(s)).toBe(200);
    await t().ok({ command: "invalidate", sub: s });
    expect(await t().probe(s)).toBe(403);
    expect((await t().audit(s)).account_state).toBe("active");
    await t().ok({ command: "suspend", sub: s });
    await t().ok({ command: "reactivate", sub: s });
    expect(await t().probe(s)).toBe(200);
    await t().ok({ command: "suspend", sub: s });
    expect(await t().probe(s)).toBe(403);
    await t().ok({ command: "reactivate", sub: s });
    await t().ok({ command: "archive", sub: s });
    expect(await t().probe(s)).toBe(403);
    await t().ok({ command: "restore", sub: s });
    expect(await t().probe(s)).toBe(200);
    await t().ok({ command: "delete", sub: s });
    expect(await t().probe(s)).toBe(404);
    expect(await t().probe(sub())).toBe(404);
  });

  it("verifies RS256 tokens of an RSA OP key", async () => {
    const { privateKey } = await generateKeyPair("RS256", { extractable: true });
    const jwk = { ...(await exportJWK(privateKey)), alg: "RS256" };
    const rsa = new Op(await startCommandsTarget({ faults: [], opJwk: jwk }));
    try {
      const given = JSON.parse(rsa.env.IDC_DEMO_COMMANDS_OP_KEY ?? "{}") as JWK;
      expect(given.kid).toBe(await calculateJwkThumbprint(jwk));
      expect((await rsa.command({ command: "audit", sub: sub() })).status).toBe(200);
      const es = await rsa.command({ command: "audit", sub: sub() }, { alg: "PS256" });
      expect(es.status).toBe(400);
    } finally {
      await rsa.target.close();
    }
  });
});

describe("commands reference target, asynchronous commands", () => {
  const t = withTarget([]);
  const sink = withSink();
  const second = withSink();

  it("answers 202, shows the pending state, notifies the OP with a signed token, then completes", async () => {
    await t().ok(metadata("org-async", sink.url));
    const s = sub();
    // Signed beforehand, so that both reach the RP well within the pending window.
    const audit = await t().sign({ command: "audit", sub: s, tenant: "org-async" });
    const suspend = await t().sign({ command: "suspend", sub: s, tenant: "org-async" });
    const accepted = await t().command({
      command: "activate_async",
      sub: s,
      tenant: "org-async",
      email: "a@x.test",
    });
    expect(accepted.status).toBe(202);
    expect(accepted.headers.get("cache-control")).toBe("no-store");
    expect(accepted.body).toMatchObject({ sub: s, account_state: "activate_pending" });
    expect((await t().post({ command_token: audit })).body.account_state).toBe("activate_pending");
    const busy = await t().post({ command_token: suspend });
    expect(busy.body).toMatchObject({ error: "incompatible_state", account_state: "activate_pending" });
    const n = await sink.next(t().origin, (c) => c.sub === s);
    expect(n.contentType).toBe("application/jwt");
    expect(n.header).toMatchObject({ typ: "notification+jwt", alg: "ES256", kid: expect.any(String) });
    expect(n.claims).toMatchObject({
      iss: t().origin,
      aud: "https://op.idconform.test",
      client_id: "idconform-demo-rp",
      tenant: "org-async",
      command: "activate_async",
      account_state: "active",
      aud_sub: accepted.body.aud_sub,
    });
    expect(Number(n.claims.exp) - Number(n.claims.iat)).toBe(120);
    expect(await t().audit(s, "org-async")).toMatchObject({ account_state: "active", email: "a@x.test" });

    const auditAgain = await t().sign({ command: "audit", sub: s, tenant: "org-async" });
    await t().ok({ command: "suspend_async", sub: s, tenant: "org-async" });
    expect((await t().post({ command_token: auditAgain })).body.account_state).toBe("suspend_pending");
    await sink.next(t().origin, (c) => c.sub === s && c.command === "suspend_async");
    expect((await t().audit(s, "org-async")).account_state).toBe("suspended");
    expect(await t().probe(s)).toBe(403);
  });

  it("refuses an asynchronous command whose precondition fails with 409 at once", async () => {
    const res = await t().command({ command: "suspend_async", sub: sub() });
    expect(res.body).toMatchObject({ error: "incompatible_state", account_state: "unknown" });
  });

  it("returns a failed operation to the last steady state and notifies operation_failed", async () => {
    await t().ok(metadata("org-fail", sink.url));
    const s = sub();
    await t().ok({ command: "activate", sub: s, tenant: "org-fail", given_name: "Kept" });
    const audit = await t().sign({ command: "audit", sub: s, tenant: "org-fail" });
    await t().ok({ command: "maintain_async", sub: s, tenant: "org-fail", email: "x@fail.invalid" });
    expect((await t().post({ command_token: audit })).body.account_state).toBe("maintain_pending");
    const n = await sink.next(t().origin, (c) => c.sub === s);
    expect(n.claims).toMatchObject({
      error: "operation_failed",
      account_state: "active",
      command: "maintain_async",
    });
    const after = await t().audit(s, "org-fail");
    expect(after).toMatchObject({ account_state: "active", given_name: "Kept" });
    expect(after.email).toBeUndefined();

    const never = sub();
    await t().ok({ command: "activate_async", sub: never, tenant: "org-fail", email: "y@fail.invalid" });
    const failed = await sink.next(t().origin, (c) => c.sub === never);
    expect(failed.claims).toMatchObject({ error: "operation_failed", account_state: "unknown" });
    expect((await t().audit(never, "org-fail")).account_state).toBe("unknown");
  });

  it("sends notifications to the notification_endpoint of the latest metadata", async () => {
    await t().ok(metadata("org-replace", sink.url));
    await t().ok(metadata("org-replace", second.url));
    const s = sub();
    await t().ok({ command: "activate_async", sub: s, tenant: "org-replace" });
    expect((await second.next(t().origin, (c) => c.sub === s)).claims.account_state).toBe("active");
    expect(sink.received.some((r) => decodeJwt(r.body).sub === s)).toBe(false);
  });
});

describe("commands reference target, audit_tenant streams", () => {
  const t = withTarget([]);

  it("streams one account-state per account, then command-complete, with and without gzip", async () => {
    const subs = [await accountIn(t(), "active", "org-s"), await accountIn(t(), "suspended", "org-s")];
    await accountIn(t(), "active", "org-other");
    const res = await t().stream("org-s");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/event-stream");
    expect(res.headers["cache-control"]).toBe("no-cache");
    expect(res.headers.connection).toBe("keep-alive");
    expect(res.headers["content-encoding"]).toBeUndefined();
    const events = parseSse(await res.body.text());
    expect(events.map((e) => e.event)).toEqual(["account-state", "account-state", "command-complete"]);
    expect(events.map((e) => e.data.sub).slice(0, 2)).toEqual(subs);
    expect(events[1]?.data).toMatchObject({ account_state: "suspended", aud_sub: expect.any(String) });
    expect(events[0]?.data.email).toBe(`${subs[0]}@example.test`);
    expect(events[2]?.data).toEqual({ total_accounts: 2 });
    expect(new Set(events.map((e) => e.id)).size).toBe(3);

    const gz = await t().stream("org-s", { "accept-encoding": "gzip, br" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    const unzipped = parseSse(gunzipSync(Buffer.from(await gz.body.arrayBuffer())).toString("utf8"));
    expect(unzipped.map((e) => [e.event, e.data])).toEqual(events.map((e) => [e.event, e.data]));
  });

  it("streams only command-complete with total_accounts 0 for a tenant without accounts", async () => {
    const events = await t().streamEvents("org-empty", { "accept-encoding": "identity" });
    expect(events.map((e) => [e.event, e.data])).toEqual([["command-complete", { total_accounts: 0 }]]);
  });

  it("resumes a dropped stream after Last-Event-Id, losing and repeating nothing", async () => {
    for (let i = 0; i < 6; i++) await accountIn(t(), "active", "org-resume");
    const res = await t().stream("org-resume");
    const seen: Event[] = [];
    let text = "";
    for await (const chunk of res.body) {
      text += (chunk as Buffer).toString("utf8");
      const complete = text.slice(0, text.lastIndexOf("\n\n") + 2);
      if (parseSse(complete).length >= 2) {
        seen.push(...parseSse(complete).slice(0, 2));
        break;
      }
    }
    res.body.destroy();
    const last = seen.at(-1)?.id ?? "";
    const rest = await t().streamEvents("org-resume", { "last-event-id": last });
    const all = [...seen, ...rest];
    expect(all.map((e) => e.event)).toEqual([...Array(6).fill("account-state"), "command-complete"]);
    expect(new Set(all.map((e) => e.id)).size).toBe(7);
    expect(all.at(-1)?.data).toEqual({ total_accounts: 6 });
  });

  it("answers an unknown Last-Event-Id with 404 last-event-id-unavailable", async () => {
    for (const id of ["no-such-event", `${"0".repeat(32)}-1`]) {
      const res = await t().stream("org-resume", { "last-event-id": id });
      expect(res.statusCode).toBe(404);
      expect(await res.body.json()).toMatchObject({ error: "last-event-id-unavailable" });
    }
  });

  it("ends a failing stream with an error event", async () => {
    const first = await accountIn(t(), "active", "org-stream-failure");
    await accountIn(t(), "active", "org-stream-failure");
    const events = await t().streamEvents("org-stream-failure");
    expect(events.map((e) => e.event)).toEqual(["account-state", "error"]);
    expect(events[0]?.data.sub).toBe(first);
    expect(events[1]?.data.error_description).toEqual(expect.any(String));
  });
});

describe("commands reference target faults", () => {
  it("lists its faults and refuses unknown ones", async () => {
    expect(targetFaults.map((f) => f.id)).toContain("typ-unchecked");
    await expect(startCommandsTarget({ faults: ["no-such-fault"] })).rejects.toThrow(
      /unknown commands target fault/,
    );
  });

  describe("typ-unchecked and alg-none-accepted", () => {
    const t = withTarget(["typ-unchecked", "alg-none-accepted"]);
    it("accepts any typ and unsigned tokens, but still checks signatures", async () => {
      expect((await t().command({ command: "audit", sub: sub() }, { header: { typ: "JWT" } })).status).toBe(
        200,
      );
      expect((await t().command({ command: "audit", sub: sub() }, { header: { alg: "none" } })).status).toBe(
        200,
      );
      const { privateKey } = await generateKeyPair("ES256", { extractable: true });
      const kid = (JSON.parse(t().env.IDC_DEMO_COMMANDS_OP_KEY ?? "{}") as JWK).kid ?? "";
      const forged = { ...(await exportJWK(privateKey)), kid, alg: "ES256" };
      expect((await t().command({ command: "audit", sub: sub() }, { jwk: forged })).status).toBe(400);
    });
  });

  describe("activate-existing-succeeds and conflict-without-state", () => {
    const t = withTarget(["activate-existing-succeeds", "conflict-without-state"]);
    it("re-activates an active account and drops account_state from 409s", async () => {
      const s = await accountIn(t(), "active");
      const again = await t().ok({ command: "activate", sub: s, given_name: "Replaced" });
      expect(again.account_state).toBe("active");
      expect((await t().audit(s)).email).toBeUndefined();
      const conflict = await t().command({ command: "suspend", sub: sub() });
      expect(conflict.status).toBe(409);
      expect(conflict.body.account_state).toBeUndefined();
    });
  });

  describe("suspend-keeps-sessions and restore-to-suspended", () => {
    const t = withTarget(["suspend-keeps-sessions", "restore-to-suspended"]);
    it("keeps sessions over suspend and restores to suspended", async () => {
      const s = await accountIn(t(), "suspended");
      expect(await t().probe(s)).toBe(200);
      const a = await accountIn(t(), "archived");
      expect((await t().ok({ command: "restore", sub: a })).account_state).toBe("suspended");
    });
  });

  describe("async-no-pending and pending-kept-after-failure", () => {
    const t = withTarget(["async-no-pending", "pending-kept-after-failure"]);
    const sink = withSink();
    it("shows the old state while pending, and stays pending after a failure", async () => {
      await t().ok(metadata("org-f", sink.url));
      const s = await accountIn(t(), "active", "org-f");
      const audit = await t().sign({ command: "audit", sub: s, tenant: "org-f" });
      await t().ok({ command: "suspend_async", sub: s, tenant: "org-f" });
      expect((await t().post({ command_token: audit })).body.account_state).toBe("active");
      await sink.next(t().origin, (c) => c.sub === s);
      expect((await t().audit(s, "org-f")).account_state).toBe("suspended");
      await t().ok({ command: "reactivate", sub: s, tenant: "org-f" });
      await t().ok({ command: "maintain_async", sub: s, tenant: "org-f", email: "z@fail.invalid" });
      await sink.next(t().origin, (c) => c.sub === s && c.error === "operation_failed");
      const stuck = await t().command({ command: "suspend", sub: s, tenant: "org-f" });
      expect(stuck.status).toBe(409);
    });
  });

  describe("stream-total-wrong, stream-gzip-unoffered and stream-resume-repeats", () => {
    const t = withTarget(["stream-total-wrong", "stream-gzip-unoffered", "stream-resume-repeats"]);
    it("miscounts, gzips unasked and repeats the Last-Event-Id event", async () => {
      await accountIn(t(), "active", "org-w");
      const res = await t().stream("org-w");
      expect(res.headers["content-encoding"]).toBe("gzip");
      const events = parseSse(gunzipSync(Buffer.from(await res.body.arrayBuffer())).toString("utf8"));
      expect(events.at(-1)?.data).toEqual({ total_accounts: 2 });
      const again = await t().streamEvents("org-w", { "last-event-id": events[0]?.id ?? "" });
      expect(again.map((e) => e.id)).toEqual(events.map((e) => e.id));
    });
  });

  describe("metadata-not-replaced", () => {
    const t = withTarget(["metadata-not-replaced"]);
    const first = withSink();
    const second = withSink();
    it("keeps notifying the first notification_endpoint", async () => {
      await t().ok(metadata("org-m", first.url));
      await t().ok(metadata("org-m", second.url));
      const s = sub();
      await t().ok({ command: "activate_async", sub: s, tenant: "org-m" });
      expect((await first.next(t().origin, (c) => c.sub === s)).claims.account_state).toBe("active");
    });
  });

  describe("aud-sub-ignored, unknown-param-rejected and unsupported-as-invalid", () => {
    const t = withTarget(["aud-sub-ignored", "unknown-param-rejected", "unsupported-as-invalid"]);
    it("drops aud_sub, refuses unknown parameters and calls unsupported commands invalid", async () => {
      const s = sub();
      const res = await t().ok({ command: "activate", sub: s });
      expect(res.aud_sub).toBeUndefined();
      const token = await t().sign({ command: "audit", sub: s });
      expect((await t().post({ command_token: token, extra: "1" })).status).toBe(400);
      const unsupported = await t().command({ command: "unauthorize", sub: s });
      expect(unsupported.body.error).toBe("invalid_request");
    });
  });

  describe("no-store-missing, replay-accepted and unknown-issuer-400", () => {
    const t = withTarget(["no-store-missing", "replay-accepted", "unknown-issuer-400"]);
    it("omits no-store, accepts a replay and answers an unknown issuer 400", async () => {
      const token = await t().sign({ command: "audit", sub: sub() });
      const first = await t().post({ command_token: token });
      expect(first.headers.get("cache-control")).toBeNull();
      expect((await t().post({ command_token: token })).status).toBe(200);
      const other = await t().command({ command: "audit", sub: sub(), iss: "https://other.example.test" });
      expect([other.status, other.body.error]).toEqual([400, "invalid_request"]);
    });
  });
});

describe("commands reference target, faults only a read-back or an account command shows", () => {
  const t = withTarget([
    "activate-existing-overwrites",
    "account-commands-trust-embedded-jwk",
    "async-notifies-without-applying",
  ]);
  const sink = withSink();

  it("replaces an existing account's claims although it answers the activate 409", async () => {
    const s = await accountIn(t(), "active");
    const refused = await t().command({ command: "activate", sub: s, given_name: "Replaced" });
    expect([refused.status, refused.body.error, refused.body.account_state]).toEqual([
      409,
      "incompatible_state",
      "active",
    ]);
    const audit = await t().audit(s);
    expect([audit.account_state, audit.given_name, audit.email]).toEqual(["active", "Replaced", undefined]);
  });

  it("trusts a header jwk on account commands, but not on the metadata command", async () => {
    const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
    const jwk: JWK = { ...(await exportJWK(privateKey)), kid: "attacker", alg: "ES256" };
    const header = { jwk: await exportJWK(publicKey) };
    const s = await accountIn(t(), "active");
    expect((await t().command({ command: "suspend", sub: s }, { jwk, header })).status).toBe(200);
    expect((await t().audit(s)).account_state).toBe("suspended");
    const meta = await t().command(metadata("org-j"), { jwk, header });
    expect([meta.status, meta.body.error]).toEqual([400, "invalid_request"]);
  });

  it("notifies the final state of an asynchronous command it never applied", async () => {
    await t().ok(metadata("org-n", sink.url));
    const s = await accountIn(t(), "active", "org-n");
    await t().ok({ command: "suspend_async", sub: s, tenant: "org-n" });
    expect((await sink.next(t().origin, (c) => c.sub === s)).claims.account_state).toBe("suspended");
    expect((await t().audit(s, "org-n")).account_state).toBe("active");
  });
});

describe("commands reference target, token faults", () => {
  const t = withTarget([
    "nonce-accepted",
    "expired-accepted",
    "aud-ignored",
    "client-id-ignored",
    "signature-unchecked",
    "unknown-kid-accepted",
    "tenant-sub-accepted",
  ]);
  it("accepts each token its fault lets through, and still refuses a missing claim", async () => {
    const now = Math.floor(Date.now() / 1000);
    const { privateKey } = await generateKeyPair("ES256", { extractable: true });
    const own = JSON.parse(t().env.IDC_DEMO_COMMANDS_OP_KEY ?? "{}") as JWK;
    const forged: JWK = { ...(await exportJWK(privateKey)), kid: own.kid ?? "", alg: "ES256" };
    const stranger: JWK = { ...forged, kid: "unknown-kid" };
    const audit = () => ({ command: "audit", sub: sub() });
    const accepted: [string, Promise<Reply>][] = [
      ["nonce", t().command({ ...audit(), nonce: "n" })],
      ["expired", t().command({ ...audit(), iat: now - 600, exp: now - 300 })],
      ["aud", t().command({ ...audit(), aud: "https://elsewhere.test/commands" })],
      ["client_id", t().command({ ...audit(), client_id: "other" })],
      ["bad signature", t().command(audit(), { jwk: forged })],
      ["unknown kid", t().command(audit(), { jwk: stranger })],
      ["metadata with sub", t().command({ ...metadata("org-t"), sub: sub() })],
    ];
    for (const [name, pending] of accepted) expect((await pending).status, name).toBe(200);
    for (const claim of ["aud", "client_id", "exp"]) {
      expect((await t().command(audit(), { without: [claim] })).status, claim).toBe(400);
    }
  });
});

describe("commands reference target, response faults", () => {
  const t = withTarget([
    "metadata-context-no-tenant",
    "metadata-unknown-field-rejected",
    "delete-unknown-200",
    "audit-drops-claims",
    "migrate-without-provider",
    "stream-no-complete",
    "stream-no-error-event",
  ]);
  it("bends metadata, delete, audit and migrate as their faults say", async () => {
    expect((await t().ok(metadata("org-r"))).context).toEqual({ iss: "https://op.idconform.test" });
    const unknown = await t().command({ ...metadata("org-r"), metadata: { idc_extra: 1 } });
    expect([unknown.status, unknown.body.error]).toEqual([400, "invalid_request"]);
    const gone = sub();
    expect(await t().ok({ command: "delete", sub: gone })).toEqual({ sub: gone, account_state: "unknown" });
    const s = sub();
    await t().ok({ command: "activate", sub: s, given_name: "Dropped" });
    expect(Object.keys(await t().audit(s)).sort()).toEqual(["account_state", "aud_sub", "sub"]);
    expect((await t().ok({ command: "migrate", sub: s })).account_state).toBe("active");
  });

  it("streams without command-complete, and fails without an error event", async () => {
    await accountIn(t(), "active", "org-nc");
    expect((await t().streamEvents("org-nc")).map((e) => e.event)).toEqual(["account-state"]);
    await accountIn(t(), "active", "org-nc-stream-failure");
    await accountIn(t(), "active", "org-nc-stream-failure");
    const events = await t().streamEvents("org-nc-stream-failure");
    expect(events.map((e) => e.event)).toEqual(["account-state"]);
  });
});

describe("commands reference target, faults beyond the first list", () => {
  const t = withTarget([
    "error-content-type-text",
    "malformed-500",
    "commands-supported-no-metadata",
    "commands-supported-overclaims",
    "metadata-endpoint-wrong",
    "metadata-no-client-id",
    "roles-without-display",
    "jti-optional",
    "account-metadata-accepted",
    "auth-provider-anywhere",
    "success-no-sub",
    "suspend-answers-active",
    "maintain-answers-suspended",
    "audit-unknown-409",
    "migrate-denied-succeeds",
    "async-answers-200",
    "stream-cache-control-no-store",
    "stream-ids-repeat",
  ]);

  it("bends request handling, metadata and lifecycle answers as their faults say", async () => {
    const unsupported = await startCommandsTarget({ faults: ["metadata-unsupported"] });
    try {
      const res = await new Op(unsupported).command(metadata("org-u"));
      expect([res.status, res.body.error]).toEqual([400, "unsupported_command"]);
    } finally {
      await unsupported.close();
    }
    expect((await t().post({})).status).toBe(500);
    const bad = await t().command({ command: "audit", sub: sub() }, { header: { typ: "JWT" } });
    expect([bad.status, bad.headers.get("content-type")]).toEqual([400, "text/plain"]);
    const meta = await t().ok(metadata("org-e"));
    expect(meta.commands_supported).not.toContain("metadata");
    expect(meta.commands_supported).toContain("invalidate_async");
    expect(meta.command_endpoint).toBe(t().origin);
    expect(meta.client_id).toBeUndefined();
    expect(meta.roles[0]).toEqual({ id: "viewer" });
    const s = sub();
    expect(
      await t().ok({ command: "activate", sub: s, given_name: "A", email: "a@denied.invalid" }),
    ).not.toHaveProperty("sub");
    for (const claims of [{ jti: undefined }, { metadata: {} }, { authentication_provider: "op" }]) {
      expect((await t().command({ command: "audit", sub: s, ...claims })).status).toBe(200);
    }
    expect((await t().ok({ command: "maintain", sub: s, given_name: "B" })).account_state).toBe("suspended");
    expect((await t().audit(s)).given_name).toBe("B");
    expect((await t().ok({ command: "suspend", sub: s })).account_state).toBe("active");
    expect((await t().audit(s)).account_state).toBe("suspended");
    expect((await t().command({ command: "audit", sub: sub() })).status).toBe(409);
    await t().ok({ command: "reactivate", sub: s });
    expect((await t().command({ command: "migrate", sub: s, authentication_provider: "op" })).status).toBe(
      200,
    );
    expect((await t().command({ command: "activate_async", sub: sub() })).status).toBe(200);
  });

  it("streams with Cache-Control no-store and a repeated id on command-complete", async () => {
    await accountIn(t(), "active", "org-ids");
    const res = await t().stream("org-ids");
    expect(res.headers["cache-control"]).toBe("no-store");
    const events = parseSse(await res.body.text());
    expect(events.map((e) => e.id)).toEqual([events[0]?.id, events[0]?.id]);
  });
});
