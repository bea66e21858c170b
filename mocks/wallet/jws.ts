import { exportJWK, type JWK } from "jose";
import { b64url, fromB64url } from "./b64.js";
import type { HolderKey } from "./keys.js";

/**
 * The `jwk` header of a holder-signed JWT: the public key, or (fault probe) the key with its
 * private members, which an issuer must refuse.
 */
export async function headerJwk(key: HolderKey, includePrivateKey: boolean): Promise<JWK> {
  if (!includePrivateKey) return key.publicJwk;
  return { ...(await exportJWK(key.privateKey)), alg: key.alg };
}

/** An unsigned JWT (`alg` none, empty signature segment), for probing issuers that must refuse it. */
export function unsignedJwt(header: Record<string, unknown>, payload: Record<string, unknown>): string {
  return `${b64url(JSON.stringify({ ...header, alg: "none" }))}.${b64url(JSON.stringify(payload))}.`;
}

/**
 * Alters the signature bytes (not a base64url character, whose low bits may be ignored by a
 * decoder), so the JWT stays well formed and never verifies.
 */
export function corruptSignature(jwt: string): string {
  const dot = jwt.lastIndexOf(".");
  const sig = fromB64url(jwt.slice(dot + 1));
  if (!sig || sig.length === 0) return `${jwt.slice(0, dot + 1)}${b64url("x")}`;
  sig[0] = (sig[0] ?? 0) ^ 0xff;
  return `${jwt.slice(0, dot + 1)}${b64url(sig)}`;
}
