import { createHash } from "node:crypto";
import type { JWK } from "jose";

/** RFC 7638 §3.2: the required members of each key type, the only ones a thumbprint covers. */
const REQUIRED: Readonly<Record<string, readonly string[]>> = {
  EC: ["crv", "kty", "x", "y"],
  OKP: ["crv", "kty", "x"],
  RSA: ["e", "kty", "n"],
};

/**
 * RFC 7638 thumbprint, synchronously (node:crypto), of the public members only; undefined
 * for a key that is not a public-key JWK or lacks a required member. Symmetric keys have no
 * business in key binding, so they never match.
 */
export function jwkThumbprint(jwk: unknown): string | undefined {
  if (typeof jwk !== "object" || jwk === null || Array.isArray(jwk)) return undefined;
  const k = jwk as Record<string, unknown>;
  const members = typeof k.kty === "string" ? REQUIRED[k.kty] : undefined;
  if (!members) return undefined;
  const canonical: Record<string, string> = {};
  for (const m of members) {
    const v = k[m];
    if (typeof v !== "string") return undefined;
    canonical[m] = v;
  }
  return createHash("sha256").update(JSON.stringify(canonical)).digest("base64url");
}

/** Whether two JWKs are the same public key (by thumbprint); false when `a` is absent or unusable. */
export function sameKey(a: JWK | undefined, b: JWK): boolean {
  const ta = jwkThumbprint(a);
  return ta !== undefined && ta === jwkThumbprint(b);
}
