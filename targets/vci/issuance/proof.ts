import { createPublicKey, type JsonWebKey } from "node:crypto";
import { compactVerify, decodeJwt, decodeProtectedHeader, importJWK, type JWK } from "jose";
import type { VciContext } from "../context.js";
import { badRequest, type VciError } from "../http/errors.js";
import { LIMITS } from "../limits.js";
import { hasPrivateMembers, isObject, publicJwk } from "./jwk.js";

/** A proof that passed every check but its nonce, which the caller compares across the batch. */
export interface VerifiedProof {
  /** The holder key to bind the credential to (public members only). */
  readonly jwk: JWK;
  /** The proof's `nonce`, when it has one. */
  readonly nonce: string | undefined;
}

const invalidProof = (description: string): VciError => badRequest("invalid_proof", description);

/**
 * The `batch-first-proof-only` fault: a proof after the first of a batch whose header `jwk` is
 * taken as the holder key without the proof being verified.
 */
// Stryker disable all: reached only under the batch-first-proof-only fault
export function unverifiedProofKey(proof: unknown): VerifiedProof {
  if (typeof proof !== "string") throw invalidProof("a jwt proof must be a compact JWS");
  let header: Record<string, unknown>;
  try {
    header = decodeProtectedHeader(proof) as Record<string, unknown>;
  } catch {
    throw invalidProof("the proof header is not a JSON object");
  }
  if (typeof header.jwk !== "object" || header.jwk === null) throw invalidProof("the proof has no jwk");
  return { jwk: publicJwk(header.jwk as JWK), nonce: undefined };
}
// Stryker restore all

/** Whether the header `typ` is the proof typ (faults: `proof-typ-unchecked`, `proof-typ-optional`). */
function typAccepted(ctx: VciContext, typ: unknown): boolean {
  if (ctx.faults.has("proof-typ-unchecked")) return true;
  // proof-typ-optional: only a typ that is present is compared.
  if (ctx.faults.has("proof-typ-optional") && typ === undefined) return true;
  return typ === ctx.ids.proofTyp;
}

/** Whether the header `alg` is one of `algs` (faults: `proof-alg-none-accepted`, `proof-hmac-accepted`). */
function algAccepted(ctx: VciContext, alg: unknown, algs: readonly string[]): alg is string {
  if (alg === "none" && ctx.faults.has("proof-alg-none-accepted")) return true;
  if (typeof alg === "string" && alg.startsWith("HS") && ctx.faults.has("proof-hmac-accepted")) return true;
  return (algs as readonly unknown[]).includes(alg);
}

/** The header checks of a `jwt` proof: typ, alg, and exactly one key member, which is `jwk`. */
function checkHeader(ctx: VciContext, header: Record<string, unknown>, algs: readonly string[]) {
  if (!typAccepted(ctx, header.typ)) throw invalidProof(`the proof typ must be ${ctx.ids.proofTyp}`);
  const alg = header.alg;
  // Stryker disable next-line ConditionalExpression: when false, none and HS* still fail the key import below with the same invalid_proof; taking an unadvertised asymmetric alg is local policy (OID4VCI F.4), no requirement refuses it
  if (!algAccepted(ctx, alg, algs)) throw invalidProof(`the proof alg must be one of ${algs.join(", ")}`);
  if (alg === "EdDSA" && ctx.faults.has("eddsa-proof-refused")) {
    throw invalidProof("EdDSA proofs are not accepted");
  }
  // Stryker disable next-line StringLiteral: public F.1 has the Wallet put exactly one of kid, jwk, x5c in the header, but states no issuer duty to refuse a kid or x5c beside a jwk that verifies the proof
  const keyMembers = ["jwk", "kid", "x5c"].filter((m) => m in header);
  // Stryker disable next-line ConditionalExpression: when false, only a kid or x5c beside the jwk passes (a header without jwk is refused below): public F.1 states no issuer duty to refuse that
  if (keyMembers.length !== 1) throw invalidProof("the proof header needs exactly one of jwk, kid and x5c");
  const jwk = header.jwk;
  if (!isObject(jwk)) throw invalidProof("only proofs carrying a jwk header are supported");
  if (hasPrivateMembers(jwk) && !ctx.faults.has("proof-private-key-accepted")) {
    throw invalidProof("the proof jwk carries private key material");
  }
  return { alg, jwk };
}

// Stryker disable all: reached only under the proof-alg-none-accepted and proof-signature-unchecked faults
/** The payload of a proof whose signature a fault leaves unverified. */
function unverifiedPayload(jwt: string): Record<string, unknown> {
  try {
    return decodeJwt(jwt) as Record<string, unknown>;
  } catch {
    throw invalidProof("the proof payload is not a JSON object");
  }
}
// Stryker restore all

/** Verifies the signature (unless a fault skips it) and answers the payload. */
async function payloadOf(ctx: VciContext, jwt: string, alg: string, jwk: JWK) {
  if (alg === "none" && ctx.faults.has("proof-alg-none-accepted")) return unverifiedPayload(jwt);
  if (ctx.faults.has("proof-signature-unchecked")) return unverifiedPayload(jwt);
  let verified: Uint8Array;
  try {
    // proof-hmac-accepted: an HS* proof is checked with the jwk's public key (PEM) as the secret.
    const key =
      ctx.faults.has("proof-hmac-accepted") && alg.startsWith("HS")
        ? new TextEncoder().encode(
            createPublicKey({ key: jwk as JsonWebKey, format: "jwk" })
              .export({ type: "spki", format: "pem" })
              .toString(),
          )
        : await importJWK(jwk, alg);
    // Stryker disable next-line ObjectLiteral: equivalent: the key is imported for the header's own alg, so no other alg can verify with it, listed or not
    verified = (await compactVerify(jwt, key, { algorithms: [alg] })).payload;
  } /* Stryker disable next-line BlockStatement: equivalent: without the throw, the undefined payload fails JSON.parse below and is refused with the same 400 invalid_proof */ catch {
    throw invalidProof("the proof signature does not verify with its jwk");
  }
  try {
    const payload: unknown = JSON.parse(new TextDecoder().decode(verified));
    if (!isObject(payload)) throw new Error("not an object");
    return payload;
  } catch {
    throw invalidProof("the proof payload is not a JSON object");
  }
}

/**
 * Checks one `jwt` proof (specs/000 Resources: Credential Request, rules for proofs;
 * public-spec-facts §1, appendix F.1): header typ, an allowed asymmetric alg, a public
 * `jwk`, a signature by that key, `aud` = the issuer identifier, `iat` within the window,
 * and a `nonce` (its validity is judged by the caller). Failures are `invalid_proof`.
 */
export async function verifyProof(
  ctx: VciContext,
  proof: unknown,
  algs: readonly string[],
): Promise<VerifiedProof> {
  if (typeof proof !== "string") throw invalidProof("a jwt proof must be a compact JWS");
  // Stryker disable next-line all: a defensive bound on proof length that no requirement states
  if (proof.length > LIMITS.maxProofChars) throw invalidProof("the proof is too long");
  // Stryker disable next-line ConditionalExpression: equivalent when false: compactVerify refuses anything but three segments with the same 400 invalid_proof
  if (proof.split(".").length !== 3) throw invalidProof("a jwt proof must be a compact JWS");
  let header: Record<string, unknown>;
  try {
    header = decodeProtectedHeader(proof) as Record<string, unknown>;
  } catch {
    throw invalidProof("the proof header is not a JSON object");
  }
  const { alg, jwk } = checkHeader(ctx, header, algs);
  const key = publicJwk(jwk);
  const payload = await payloadOf(ctx, proof, alg, key);
  if (!audAccepted(ctx, payload.aud))
    throw invalidProof("the proof aud must be the credential issuer identifier");
  if (!iatAccepted(ctx, payload.iat)) throw invalidProof("the proof has no iat, or one outside the window");
  const nonce = payload.nonce;
  if (nonce === undefined && ctx.faults.has("nonce-optional")) return { jwk: key, nonce: undefined };
  // A nonce that is present but not a string: public §8.3.1 would let it be invalid_nonce too.
  if (typeof nonce !== "string") throw invalidProof("the proof has no nonce, or not a string one");
  return { jwk: key, nonce };
}

/** Whether `aud` names this issuer (faults: `proof-aud-unchecked`, `proof-aud-optional`). */
function audAccepted(ctx: VciContext, aud: unknown): boolean {
  if (ctx.faults.has("proof-aud-unchecked")) return true;
  if (ctx.faults.has("proof-aud-optional") && aud === undefined) return true;
  // Stryker disable next-line ConditionalExpression: public F.1 gives aud as the issuer identifier (a string); whether an array holding it is accepted is left open
  return aud === ctx.issuer() || (Array.isArray(aud) && aud.includes(ctx.issuer()));
}

/**
 * Whether `iat` is a number within LIMITS' window around now (public F.1; the
 * `proof-iat-unchecked` fault takes any iat, or none).
 */
function iatAccepted(ctx: VciContext, iat: unknown): boolean {
  if (ctx.faults.has("proof-iat-unchecked")) return true;
  // A NumericDate (RFC 7519 §2); JSON gives no NaN, and an infinite one fails the window.
  if (typeof iat !== "number") return false;
  const now = Date.now() / 1000;
  // Stryker disable next-line ConditionalExpression,EqualityOperator,BooleanLiteral: OID4VCI F.4 lets an issuer with a nonce endpoint judge freshness by the c_nonce instead of iat, so an old iat is not refused by any requirement; the exact edge is this target's own window
  if (iat < now - LIMITS.proofIatPastSeconds) return false;
  // Stryker disable next-line EqualityOperator: the exact edge of the future window is this target's own choice (public F.1: a slightly future iat MAY pass)
  return iat <= now + LIMITS.proofIatFutureSeconds;
}
