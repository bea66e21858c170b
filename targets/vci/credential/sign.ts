import { SignJWT, type JWTPayload } from "jose";
import type { VciContext } from "../context.js";

/** Flips a bit of the last signature byte of a compact JWS (the `credential-bad-signature` fault). */
// Stryker disable all: runs only under the fault "credential-bad-signature"
function corrupt(jws: string): string {
  const at = jws.lastIndexOf(".");
  const sig = Buffer.from(jws.slice(at + 1), "base64url");
  const last = sig.length - 1;
  sig[last] = (sig[last] ?? 0) ^ 0x01;
  return `${jws.slice(0, at + 1)}${sig.toString("base64url")}`;
}
// Stryker restore all

/**
 * Signs a credential JWT with the issuer's credential key (ES256, its `kid`, `iss` = the
 * issuer identifier, `iat`, `nbf` (VCDM 1.1's issuanceDate in the JWT encoding), `exp`), so
 * wallets find the key through the JWT VC issuer metadata.
 */
export async function signCredential(
  ctx: VciContext,
  typ: string,
  claims: JWTPayload,
  lifetimeSeconds: number,
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const jws = await new SignJWT(claims)
    .setProtectedHeader({ alg: "ES256", typ, kid: ctx.keys.credential.kid })
    .setIssuer(ctx.issuer())
    .setIssuedAt(now)
    .setNotBefore(now)
    .setExpirationTime(now + lifetimeSeconds)
    .sign(ctx.keys.credential.privateKey);
  return ctx.faults.has("credential-bad-signature") ? corrupt(jws) : jws;
}
