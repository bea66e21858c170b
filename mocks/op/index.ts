import { Hono } from "hono";
import type { JWK } from "jose";
import { MockControl, type MockLogEntry } from "../../src/http/mock-control.js";
import { serveApp } from "../../src/http/serve.js";
import type { MockModule } from "../../src/engine/mock.js";
import type { RunningServer } from "../../src/engine/target.js";
import { newSigningKey } from "../identity-service/index.js";
import { publicJwk } from "../identity-service/assertion.js";

export interface MockOp extends RunningServer {
  /** The issuer the OP signs as (the profile's, or where it listens). */
  readonly issuer: string;
  /** Where the RP reaches it (the profile's publicUrl, or where it listens). */
  readonly publicUrl: string;
  readonly privateJwk: JWK;
  readonly control: MockControl;
}

/**
 * The OP idconform plays toward an RP's Command Endpoint (specs/002 area A): OpenID
 * discovery and a `jwks_uri` with the key its Command Tokens are signed with (the checks
 * sign them, with the same key), and notification endpoints under `/notifications/<slot>`
 * that record the RP's Notification Tokens and answer 204 (Events 2). Each check uses its own
 * slot, so it reads only what was meant for it.
 */
export async function startOp(
  opts: { privateJwk?: JWK; issuer?: string; port?: number; host?: string; publicUrl?: string } = {},
): Promise<MockOp> {
  const privateJwk = opts.privateJwk ?? (await newSigningKey());
  const jwks = { keys: [publicJwk(privateJwk)] };
  const control = new MockControl();
  const app = new Hono();
  control.mount(app);
  let base = opts.publicUrl?.replace(/\/$/, "");
  let issuer = opts.issuer;
  app.get("/.well-known/openid-configuration", (c) =>
    c.json({
      issuer,
      jwks_uri: `${base}/jwks`,
      id_token_signing_alg_values_supported: [privateJwk.alg ?? "ES256"],
      subject_types_supported: ["public"],
      response_types_supported: ["code"],
    }),
  );
  app.get("/jwks", (c) => c.json(jwks, 200, { "cache-control": "max-age=300" }));
  app.post("/notifications/:slot", async (c) => {
    await control.record(c);
    return c.body(null, 204);
  });
  const server = await serveApp(app, {
    ...(opts.port !== undefined ? { port: opts.port } : {}),
    ...(opts.host !== undefined ? { host: opts.host } : {}),
  });
  base ??= server.url;
  issuer ??= base;
  return { ...server, issuer, publicUrl: base, privateJwk, control };
}

/**
 * The Notification Token in a request the RP sent: a JWT body (application/jwt), a form or
 * JSON member `notification_token`, or a Bearer token; undefined when there is none.
 */
export function notificationToken(e: MockLogEntry): string | undefined {
  const jwt = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
  const body = e.body.trim();
  if (jwt.test(body)) return body;
  const type = e.headers["content-type"] ?? "";
  if (type.includes("application/x-www-form-urlencoded")) {
    const t = new URLSearchParams(body).get("notification_token");
    if (t && jwt.test(t)) return t;
  }
  if (type.includes("json")) {
    try {
      const t = (JSON.parse(body) as { notification_token?: unknown }).notification_token;
      if (typeof t === "string" && jwt.test(t)) return t;
    } catch {
      // not JSON: no token here
    }
  }
  const bearer = /^Bearer\s+(\S+)$/i.exec(e.headers.authorization ?? "")?.[1];
  return bearer && jwt.test(bearer) ? bearer : undefined;
}

const mock: MockModule = {
  role: "op",
  description:
    "the OP (account commands): OpenID discovery, jwks_uri, notification endpoints under /notifications/<slot>",
  start: (opts) =>
    startOp({
      ...(opts.port !== undefined ? { port: opts.port } : {}),
      ...(opts.host ? { host: opts.host } : {}),
    }),
};
export default mock;
