import { randomUUID } from "node:crypto";
import { base64url, importJWK, SignJWT, type JWK } from "jose";

/** The claims every Command Token carries (specs/002 area A Command Token; public-spec-facts §3). */
export interface CommandBase {
  readonly iss: string;
  /** The RP's Command Endpoint URL. */
  readonly aud: string;
  readonly clientId: string;
  readonly tenant: string;
}

/**
 * The claim set of one command: iss, aud, client_id, iat, exp (60 s, as the public examples),
 * a fresh jti, command and tenant, then `extra` (sub, account claims, metadata, or overrides;
 * an override whose value is `undefined` removes that claim).
 */
export function commandClaims(
  base: CommandBase,
  command: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  const claims: Record<string, unknown> = {
    iss: base.iss,
    aud: base.aud,
    client_id: base.clientId,
    iat: now,
    exp: now + 60,
    jti: randomUUID(),
    command,
    tenant: base.tenant,
  };
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete claims[k];
    else claims[k] = v;
  }
  return claims;
}

export interface SignOptions {
  /** Header members to set or replace (`typ`, `kid`, `alg` as text only). */
  readonly header?: Record<string, unknown>;
  /** An unsigned token: header alg none, empty signature. */
  readonly unsigned?: boolean;
  /** Flip one character of the signature: well-formed, does not verify. */
  readonly breakSignature?: boolean;
}

/**
 * Signs a Command Token (header typ command+jwt, the key's alg and kid) with the OP's private
 * JWK; every header member and claim can be changed for negative checks.
 */
export async function signCommandToken(
  privateJwk: JWK,
  claims: Record<string, unknown>,
  o: SignOptions = {},
): Promise<string> {
  const alg = privateJwk.alg ?? "ES256";
  const header = { alg, typ: "command+jwt", ...(privateJwk.kid ? { kid: privateJwk.kid } : {}), ...o.header };
  if (o.unsigned) {
    const enc = (v: unknown): string => base64url.encode(JSON.stringify(v));
    return `${enc({ ...header, alg: "none" })}.${enc(claims)}.`;
  }
  const jwt = await new SignJWT(claims)
    .setProtectedHeader(header as { alg: string })
    .sign(await importJWK(privateJwk, alg));
  if (!o.breakSignature) return jwt;
  const i = jwt.lastIndexOf(".") + 5;
  return `${jwt.slice(0, i)}${jwt[i] === "A" ? "B" : "A"}${jwt.slice(i + 1)}`;
}
