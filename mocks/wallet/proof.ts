import { SignJWT } from "jose";
import type { VciIdentifiers } from "../../src/protocols/vci.js";
import type { HolderKey } from "./keys.js";
import { corruptSignature, headerJwk, unsignedJwt } from "./jws.js";

/** A `jwt` proof's ingredients; everything past `aud` exists to probe an issuer's rejections. */
export interface ProofOptions {
  key: HolderKey;
  /** The identifier set; the header `typ` is `ids.proofTyp` unless `typ` is given. */
  ids: VciIdentifiers;
  /** The Credential Issuer identifier. */
  aud: string;
  /** The `c_nonce`; the claim is left out when undefined. */
  nonce?: string;
  /** The client_id; left out when undefined (anonymous pre-authorized access). */
  iss?: string;
  /** Seconds since the epoch; now by default. */
  iat?: number;
  /** Overrides `typ` (fault probing). */
  typ?: string;
  /** Unsigned: header `alg` none, empty signature segment, still with `jwk`. */
  algNone?: boolean;
  /** Well formed, but the signature does not verify. */
  corruptSignature?: boolean;
  /** The `jwk` header carries the private members too. */
  includePrivateKey?: boolean;
  /** Claims added last, so they may replace the defaults. */
  extraClaims?: Record<string, unknown>;
}

/**
 * Builds a `jwt` proof of possession (specs/000 Credential Request: proofs;
 * public-spec-facts §1, F.1): header `typ`, `alg` and the key as `jwk` (exactly one of
 * kid/jwk/x5c), payload `aud`, `iat`, and `nonce` / `iss` when given.
 */
export async function jwtProof(o: ProofOptions): Promise<string> {
  const header = {
    alg: o.key.alg,
    typ: o.typ ?? o.ids.proofTyp,
    jwk: await headerJwk(o.key, o.includePrivateKey === true),
  };
  const payload: Record<string, unknown> = {
    aud: o.aud,
    iat: o.iat ?? Math.floor(Date.now() / 1000),
    ...(o.nonce !== undefined ? { nonce: o.nonce } : {}),
    ...(o.iss !== undefined ? { iss: o.iss } : {}),
    ...o.extraClaims,
  };
  if (o.algNone) return unsignedJwt(header, payload);
  const jwt = await new SignJWT(payload).setProtectedHeader(header).sign(o.key.privateKey);
  return o.corruptSignature ? corruptSignature(jwt) : jwt;
}
