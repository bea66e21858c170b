import { calculateJwkThumbprintUri, exportJWK, generateKeyPair, type JWK } from "jose";
import { SUBJECT } from "../configurations.js";
import type { VciContext } from "../context.js";
import { LIMITS } from "../limits.js";
import { signCredential } from "./sign.js";

/**
 * The `sub` of a credential bound to `holder`: its RFC 9278 thumbprint URI (sha-256); under
 * `jwt-vc-thumbprint-other-key` the thumbprint URI of a key the issuer made.
 */
async function subjectOf(ctx: VciContext, holder: JWK): Promise<string> {
  // Stryker disable next-line all: runs only under the fault "jwt-vc-thumbprint-other-key"
  if (ctx.faults.has("jwt-vc-thumbprint-other-key"))
    return calculateJwkThumbprintUri(await exportJWK((await generateKeyPair("ES256")).publicKey));
  return calculateJwkThumbprintUri(holder);
}

/**
 * A W3C VCDM 1.1 credential as a JWT (`jwt_vc_json`) of the demo End-User, bound to
 * `holder` (`cnf.jwk`; `sub` is the key's RFC 9278 thumbprint URI); without a holder
 * (the `proof-optional` fault) it has neither cnf nor sub. The holder is named by `sub` alone
 * (no cnf) under `jwt-vc-thumbprint-subject` and `jwt-vc-thumbprint-other-key`.
 */
export async function jwtVcCredential(ctx: VciContext, holder: JWK | undefined): Promise<string> {
  // Stryker disable next-line ConditionalExpression: holder is undefined only under the faults proof-optional and deferred-unbound (every configuration binds a key)
  const sub = holder !== undefined ? await subjectOf(ctx, holder) : undefined;
  // Stryker disable next-line all: false only under the faults jwt-vc-thumbprint-subject and jwt-vc-thumbprint-other-key
  const cnf = !ctx.faults.has("jwt-vc-thumbprint-subject") && !ctx.faults.has("jwt-vc-thumbprint-other-key");
  return signCredential(
    ctx,
    "JWT",
    {
      // Stryker disable next-line ConditionalExpression,LogicalOperator,ObjectLiteral: holder and sub are both set, or both undefined (only under the faults proof-optional and deferred-unbound); without sub, cnf.jwk alone binds the credential (VCDM 1.1 §6.3.1 makes sub optional)
      ...(holder !== undefined && sub !== undefined ? { sub } : {}),
      // Stryker disable next-line all: equivalent: sub, the RFC 9278 thumbprint URI of the same key, binds the credential without cnf (cnf is left out only under the faults jwt-vc-thumbprint-subject and jwt-vc-thumbprint-other-key)
      ...(holder !== undefined && cnf ? { cnf: { jwk: holder } } : {}),
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
