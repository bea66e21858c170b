import { exportJWK, generateKeyPair, calculateJwkThumbprint, type JWK } from "jose";
import { Hono } from "hono";
import { serveApp } from "../../src/http/serve.js";
import type { MockModule } from "../../src/engine/mock.js";
import type { RunningServer } from "../../src/engine/target.js";
import { publicJwk } from "./assertion.js";

export interface IdentityService extends RunningServer {
  readonly jwksUri: string;
  /** The private signing key (never leaves the harness; redacted wherever it could appear). */
  readonly privateJwk: JWK;
}

/** Makes an ES256 signing key with a thumbprint kid. */
export async function newSigningKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, alg: "ES256", use: "sig", kid: await calculateJwkThumbprint(jwk) };
}

/**
 * The Identity Service idconform plays toward a SCIM Application (specs/002 area C
 * Authentication 5): it publishes its `jwks_uri` and client metadata so the Application can
 * verify the client assertions it signs. The assertions themselves are signed by the checks
 * (assertion.ts) with the same key.
 */
export async function startIdentityService(
  opts: { privateJwk?: JWK; clientId?: string; port?: number; publicUrl?: string } = {},
): Promise<IdentityService> {
  const privateJwk = opts.privateJwk ?? (await newSigningKey());
  const jwks = { keys: [publicJwk(privateJwk)] };
  const app = new Hono();
  let base = opts.publicUrl?.replace(/\/$/, "");
  app.get("/jwks", (c) => c.json(jwks, 200, { "cache-control": "max-age=300" }));
  app.get("/client-metadata", (c) =>
    c.json({
      client_id: opts.clientId ?? "idconform-identity-service",
      jwks_uri: `${base}/jwks`,
      token_endpoint_auth_method: "private_key_jwt",
      token_endpoint_auth_signing_alg: privateJwk.alg ?? "ES256",
      scope: "scim",
    }),
  );
  const server = await serveApp(app, opts.port !== undefined ? { port: opts.port } : {});
  base ??= server.url;
  return { ...server, jwksUri: `${base}/jwks`, privateJwk };
}

const mock: MockModule = {
  role: "identity-service",
  description:
    "the Identity Service (SCIM client): serves jwks_uri and client metadata for RFC 7523 assertions",
  start: (opts) => startIdentityService(opts.port !== undefined ? { port: opts.port } : {}),
};
export default mock;
