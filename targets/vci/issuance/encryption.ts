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

const AGREEMENT_CURVES: Readonly<Record<string, string>> = {
  "P-256": "EC",
  "P-384": "EC",
  "P-521": "EC",
  X25519: "OKP",
};

/**
 * Validates `credential_response_encryption`: an object with a public ECDH `jwk` (alg, if
 * named, ECDH-ES) and an advertised `enc`; `zip` is not supported. Answers undefined when
 * the member is absent; the caller decides whether that is allowed.
 */
export async function readEncryption(value: unknown): Promise<ResponseEncryption | undefined> {
  if (value === undefined) return undefined;
  if (!isObject(value)) throw invalid("credential_response_encryption must be an object");
  const { jwk, enc, zip } = value;
  if (zip !== undefined) throw invalid("compression (zip) is not supported");
  if (
    typeof enc !== "string" ||
    !(RESPONSE_ENCRYPTION.enc_values_supported as readonly string[]).includes(enc)
  ) {
    throw invalid(`enc must be one of ${RESPONSE_ENCRYPTION.enc_values_supported.join(", ")}`);
  }
  if (!isObject(jwk) || hasPrivateMembers(jwk)) throw invalid("jwk must be one public JWK");
  const crv = typeof jwk.crv === "string" ? jwk.crv : "";
  if (AGREEMENT_CURVES[crv] === undefined || AGREEMENT_CURVES[crv] !== jwk.kty) {
    throw invalid("jwk must be an EC (P-256, P-384, P-521) or X25519 key");
  }
  if (jwk.alg !== undefined && jwk.alg !== "ECDH-ES") throw invalid("jwk alg must be ECDH-ES");
  if (jwk.use !== undefined && jwk.use !== "enc") throw invalid("jwk use must be enc");
  try {
    const key = await importJWK(publicJwk(jwk), "ECDH-ES");
    return { key, enc, kid: typeof jwk.kid === "string" ? jwk.kid : undefined };
  } catch {
    throw invalid("jwk is not a usable key");
  }
}

/** Encrypts a response body as a compact JWE (alg ECDH-ES, the requested enc). */
export async function encryptResponse(body: unknown, e: ResponseEncryption): Promise<string> {
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(body)))
    .setProtectedHeader({ alg: "ECDH-ES", enc: e.enc, ...(e.kid !== undefined ? { kid: e.kid } : {}) })
    .encrypt(e.key);
}
