import { compactVerify, importJWK, type JWK } from "jose";
import type { FaultSet } from "../faults.js";
import { SET_TYP } from "../ssf.js";
import { invalidKey, invalidRequest } from "./errors.js";
import { verifiesAsHmacOfPublicKey, verifiesWithEmbeddedJwk } from "./fault-shortcuts.js";
import type { TransmitterKeys } from "./transmitter-keys.js";

/** Asymmetric JWS algorithms this Receiver verifies (never none, never a MAC: RFC 8725 §3.1, §3.2). */
// Stryker disable all: which key types each algorithm takes: a run's Transmitter signs with one algorithm, and compactVerify refuses a mismatch anyway
const ALGORITHMS: Readonly<Record<string, (jwk: JWK) => boolean>> = {
  RS256: (k) => k.kty === "RSA",
  RS384: (k) => k.kty === "RSA",
  RS512: (k) => k.kty === "RSA",
  PS256: (k) => k.kty === "RSA",
  PS384: (k) => k.kty === "RSA",
  PS512: (k) => k.kty === "RSA",
  ES256: (k) => k.kty === "EC" && k.crv === "P-256",
  ES384: (k) => k.kty === "EC" && k.crv === "P-384",
  ES512: (k) => k.kty === "EC" && k.crv === "P-521",
  EdDSA: (k) => k.kty === "OKP" && k.crv === "Ed25519",
  Ed25519: (k) => k.kty === "OKP" && k.crv === "Ed25519",
};
// Stryker restore all

/**
 * The JOSE header of a SET: `typ` secevent+jwt (RFC 8417 §2.3, SSF; compared
 * case-insensitively, with or without the application/ prefix, RFC 7515 §4.1.9) and no
 * critical extension this Receiver would have to understand (RFC 7515 §4.1.11).
 */
export function checkHeader(header: Record<string, unknown>, faults: FaultSet): void {
  // Stryker disable next-line Regex,StringLiteral: equivalent: application/ stands only as the prefix of a typ a Transmitter writes, and a typ that is no string reads as any value but secevent+jwt, refused the same
  const typ = typeof header.typ === "string" ? header.typ.toLowerCase().replace(/^application\//, "") : "";
  if (typ !== SET_TYP && !faults.has("typ-unchecked")) {
    throw invalidRequest(`the SET's typ header must be ${SET_TYP}`);
  }
  // Stryker disable next-line ConditionalExpression: equivalent but for the code: compactVerify refuses a crit it does not understand too (RFC 7515 §4.1.11), as invalid_key
  if (header.crit !== undefined && !faults.has("crit-ignored"))
    throw invalidRequest("no critical header extension is understood");
}

/**
 * The crit-ignored fault: the verifier is told it understands every extension the SET lists in
 * crit (a hand-written verifier that never looks at crit behaves so).
 */
function ignoredCrit(header: Record<string, unknown>, faults: FaultSet): { crit?: Record<string, boolean> } {
  if (!faults.has("crit-ignored") || !Array.isArray(header.crit)) return {};
  const names = header.crit.filter((n): n is string => typeof n === "string").slice(0, 16);
  return { crit: Object.fromEntries(names.map((n) => [n, false])) };
}

export interface SignatureContext {
  readonly keys: TransmitterKeys;
  readonly faults: FaultSet;
}

/**
 * Verifies the SET's signature (RFC 8417 §5, SSF 1.0 §11): an asymmetric algorithm from the
 * allow-list, a kid the Transmitter publishes (read again once when unknown), an algorithm
 * that fits that key, and a signature that verifies with it. Keys the token carries itself
 * (jwk, x5c, jku) are never used. Every failure is invalid_key (RFC 8935 §2.4).
 */
export async function verifySignature(
  token: string,
  header: Record<string, unknown>,
  ctx: SignatureContext,
): Promise<void> {
  const { faults } = ctx;
  // Stryker disable next-line StringLiteral: equivalent: an alg that is no string reads as a name the allow-list lacks, refused with the same invalid_key
  const alg = typeof header.alg === "string" ? header.alg : "";
  if (alg === "none" && faults.has("alg-none-accepted")) return;
  if (faults.has("embedded-jwk-trusted") && (await verifiesWithEmbeddedJwk(token, header))) return;
  if (faults.has("hmac-public-key") && (await verifiesAsHmacOfPublicKey(token, header, ctx.keys))) return;
  const fits = Object.hasOwn(ALGORITHMS, alg) ? ALGORITHMS[alg] : undefined;
  // Stryker disable next-line ConditionalExpression: equivalent in a run: the mock publishes each key with its alg, so an algorithm outside the list never fits the key and is refused below with the same invalid_key
  if (fits === undefined)
    throw invalidKey(`the algorithm ${JSON.stringify(alg.slice(0, 16))} is not accepted`);
  // Stryker disable next-line LogicalOperator,ConditionalExpression,StringLiteral: equivalent: a kid that is no non-empty string names no published key, refused below with the same invalid_key
  if (typeof header.kid !== "string" || header.kid === "") throw invalidKey("the SET's header names no kid");
  const jwk = await ctx.keys.find(header.kid);
  if (jwk === undefined) {
    if (faults.has("unknown-kid-accepted")) return;
    throw invalidKey("the kid names no key the Transmitter publishes");
  }
  if (faults.has("signature-unchecked")) return;
  // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,BlockStatement: equivalent: importJWK and compactVerify below refuse a key of another algorithm with the same invalid_key
  if ((jwk.alg !== undefined && jwk.alg !== alg) || !fits(jwk)) {
    throw invalidKey("the algorithm does not fit the Transmitter's key");
  }
  try {
    // Stryker disable next-line ObjectLiteral: equivalent: algorithms pins the header's own alg, already held to the allow-list above; crit is passed only under the crit-ignored fault
    await compactVerify(token, await importJWK(jwk, alg), {
      algorithms: [alg],
      ...ignoredCrit(header, faults),
    });
  } catch {
    throw invalidKey("the SET's signature does not verify");
  }
}
