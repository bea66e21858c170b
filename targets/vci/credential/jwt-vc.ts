import { calculateJwkThumbprintUri, type JWK } from "jose";
import { SUBJECT } from "../configurations.js";
import type { VciContext } from "../context.js";
import { LIMITS } from "../limits.js";
import { signCredential } from "./sign.js";

/**
 * A W3C VCDM 1.1 credential as a JWT (`jwt_vc_json`) of the demo End-User, bound to
 * `holder` (`cnf.jwk`; `sub` is the key's RFC 9278 thumbprint URI); without a holder
 * (the `proof-optional` fault) it has neither cnf nor sub.
 */
export async function jwtVcCredential(ctx: VciContext, holder: JWK | undefined): Promise<string> {
  const sub = holder !== undefined ? await calculateJwkThumbprintUri(holder) : undefined;
  return signCredential(
    ctx,
    "JWT",
    {
      ...(holder !== undefined && sub !== undefined ? { sub, cnf: { jwk: holder } } : {}),
      vc: {
        "@context": ["https://www.w3.org/2018/credentials/v1"],
        type: ["VerifiableCredential", "IdentityCredential"],
        credentialSubject: { ...(sub !== undefined ? { id: sub } : {}), ...SUBJECT },
      },
    },
    LIMITS.credentialLifetimeSeconds,
  );
}
