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
  // Stryker disable next-line ConditionalExpression: holder is undefined only under the faults proof-optional and deferred-unbound (every configuration binds a key)
  const sub = holder !== undefined ? await calculateJwkThumbprintUri(holder) : undefined;
  return signCredential(
    ctx,
    "JWT",
    {
      // Stryker disable next-line ConditionalExpression,LogicalOperator: holder and sub are both set, or both undefined (only under the faults proof-optional and deferred-unbound)
      ...(holder !== undefined && sub !== undefined ? { sub, cnf: { jwk: holder } } : {}),
      vc: {
        "@context": ["https://www.w3.org/2018/credentials/v1"],
        type: ["VerifiableCredential", "IdentityCredential"],
        credentialSubject: {
          // Stryker disable next-line ConditionalExpression,EqualityOperator,ObjectLiteral: VCDM 1.1 §6.3.1 carries credentialSubject.id as the JWT's sub, so a subject without id beside sub is the same credential (and sub is undefined only under the faults proof-optional and deferred-unbound)
          ...(sub !== undefined ? { id: sub } : {}),
          ...SUBJECT,
        },
      },
    },
    LIMITS.credentialLifetimeSeconds,
  );
}
