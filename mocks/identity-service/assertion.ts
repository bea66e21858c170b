import { randomUUID } from "node:crypto";
import { importJWK, SignJWT, type JWK } from "jose";

/** Claims of an RFC 7523 client assertion; any of them may be overridden for negative checks. */
export interface AssertionOptions {
  readonly clientId: string;
  /** The token endpoint URL (RFC 7523 §3: aud identifies the authorization server's token endpoint). */
  readonly audience: string;
  readonly lifetimeSeconds?: number;
  readonly jti?: string;
  /** Claims to set or replace (`{ exp: 0 }` for an expired assertion). */
  readonly claims?: Record<string, unknown>;
}

/**
 * Signs a client assertion (RFC 7523 §2.2, §3) with the identity service's private JWK:
 * iss and sub are the client id, aud the token endpoint, a fresh jti, iat and exp.
 */
export async function signAssertion(privateJwk: JWK, o: AssertionOptions): Promise<string> {
  const alg = privateJwk.alg ?? "ES256";
  const key = await importJWK(privateJwk, alg);
  const now = Math.floor(Date.now() / 1000);
  const claims: Record<string, unknown> = {
    iss: o.clientId,
    sub: o.clientId,
    aud: o.audience,
    jti: o.jti ?? randomUUID(),
    iat: now,
    exp: now + (o.lifetimeSeconds ?? 120),
    ...o.claims,
  };
  return new SignJWT(claims)
    .setProtectedHeader({ alg, typ: "JWT", ...(privateJwk.kid ? { kid: privateJwk.kid } : {}) })
    .sign(key);
}

/** Flips one character of the signature: a well-formed JWT whose signature does not verify. */
export function breakSignature(jwt: string): string {
  const i = jwt.lastIndexOf(".") + 5;
  const c = jwt[i] === "A" ? "B" : "A";
  return `${jwt.slice(0, i)}${c}${jwt.slice(i + 1)}`;
}

/** The public half of a private JWK. */
export function publicJwk(jwk: JWK): JWK {
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...pub } = jwk;
  return pub;
}
