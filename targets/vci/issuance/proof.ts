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

/** The header checks of a `jwt` proof: typ, alg, and exactly one key member, which is `jwk`. */
function checkHeader(ctx: VciContext, header: Record<string, unknown>, algs: readonly string[]) {
  // proof-typ-optional: only a typ that is present is compared.
  const typOptional = ctx.faults.has("proof-typ-optional") && header.typ === undefined;
  if (!ctx.faults.has("proof-typ-unchecked") && !typOptional && header.typ !== ctx.ids.proofTyp) {
    throw invalidProof(`the proof typ must be ${ctx.ids.proofTyp}`);
  }
  const alg = header.alg;
  const unsigned = alg === "none" && ctx.faults.has("proof-alg-none-accepted");
  const hmac = typeof alg === "string" && alg.startsWith("HS") && ctx.faults.has("proof-hmac-accepted");
  if (typeof alg !== "string" || (!unsigned && !hmac && !algs.includes(alg))) {
    throw invalidProof(`the proof alg must be one of ${algs.join(", ")}`);
  }
  if (alg === "EdDSA" && ctx.faults.has("eddsa-proof-refused")) {
    throw invalidProof("EdDSA proofs are not accepted");
  }
  const keyMembers = ["jwk", "kid", "x5c"].filter((m) => m in header);
  if (keyMembers.length !== 1) throw invalidProof("the proof header needs exactly one of jwk, kid and x5c");
  const jwk = header.jwk;
  if (!isObject(jwk)) throw invalidProof("only proofs carrying a jwk header are supported");
  if (hasPrivateMembers(jwk) && !ctx.faults.has("proof-private-key-accepted")) {
    throw invalidProof("the proof jwk carries private key material");
  }
  return { alg, jwk, unsigned };
}

/** Verifies the signature (unless a fault skips it) and answers the payload. */
async function payloadOf(ctx: VciContext, jwt: string, alg: string, jwk: JWK, unsigned: boolean) {
  if (unsigned || ctx.faults.has("proof-signature-unchecked")) {
    try {
      return decodeJwt(jwt) as Record<string, unknown>;
    } catch {
      throw invalidProof("the proof payload is not a JSON object");
    }
  }
  let verified: Uint8Array;
  try {
    // proof-hmac-accepted: an HS* proof is checked with the jwk's public key (PEM) as the secret.
    const key = alg.startsWith("HS")
      ? new TextEncoder().encode(
          createPublicKey({ key: jwk as JsonWebKey, format: "jwk" })
            .export({ type: "spki", format: "pem" })
            .toString(),
        )
      : await importJWK(jwk, alg);
    verified = (await compactVerify(jwt, key, { algorithms: [alg] })).payload;
  } catch {
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
  if (typeof proof !== "string" || proof.length > LIMITS.maxProofChars || proof.split(".").length !== 3) {
    throw invalidProof("a jwt proof must be a compact JWS");
  }
  let header: Record<string, unknown>;
  try {
    header = decodeProtectedHeader(proof) as Record<string, unknown>;
  } catch {
    throw invalidProof("the proof header is not a JSON object");
  }
  const { alg, jwk, unsigned } = checkHeader(ctx, header, algs);
  const key = publicJwk(jwk);
  const payload = await payloadOf(ctx, proof, alg, key, unsigned);
  const audOptional = ctx.faults.has("proof-aud-optional") && payload.aud === undefined;
  if (!ctx.faults.has("proof-aud-unchecked") && !audOptional) {
    const aud = payload.aud;
    const ok = aud === ctx.issuer() || (Array.isArray(aud) && aud.includes(ctx.issuer()));
    if (!ok) throw invalidProof("the proof aud must be the credential issuer identifier");
  }
  const iat = payload.iat;
  const now = Date.now() / 1000;
  // proof-iat-unchecked: iat is read if present, never required nor held to a window.
  if (!ctx.faults.has("proof-iat-unchecked") && (typeof iat !== "number" || !Number.isFinite(iat)))
    throw invalidProof("the proof has no numeric iat");
  if (
    !ctx.faults.has("proof-iat-unchecked") &&
    ((iat as number) < now - LIMITS.proofIatPastSeconds ||
      (iat as number) > now + LIMITS.proofIatFutureSeconds)
  ) {
    throw invalidProof("the proof iat is outside the accepted window");
  }
  const nonce = payload.nonce;
  if (nonce === undefined) {
    if (!ctx.faults.has("nonce-optional")) throw invalidProof("the proof has no nonce");
    return { jwk: key, nonce: undefined };
  }
  if (typeof nonce !== "string") throw invalidProof("the proof nonce must be a string");
  return { jwk: key, nonce };
}
