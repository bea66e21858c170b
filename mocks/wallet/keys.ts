import { randomBytes } from "node:crypto";
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from "jose";

/** Signature algorithms the Wallet can hold a key for (proofs and DPoP). */
export type HolderAlg = "ES256" | "ES384" | "EdDSA" | "PS256";

/** A key the Wallet proves possession of; the credential gets bound to its public half. */
export interface HolderKey {
  readonly alg: HolderAlg;
  readonly privateKey: CryptoKey;
  /** Public members only, with `alg`: what goes into a proof's `jwk` header. */
  readonly publicJwk: JWK;
  /** RFC 7638 thumbprint of `publicJwk`, to compare with the credential's `cnf`. */
  readonly thumbprint: string;
}

/**
 * Makes a fresh holder key. Extractable, because a fault probe sends the private members in
 * the proof header (public-spec-facts §1, F.1: the issuer must reject that).
 */
export async function holderKey(alg: HolderAlg = "ES256"): Promise<HolderKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), alg };
  return { alg, privateKey, publicJwk, thumbprint: await calculateJwkThumbprint(publicJwk) };
}

/** The Wallet's key for `credential_response_encryption` (ECDH-ES on P-256). */
export interface EncryptionKey {
  readonly privateKey: CryptoKey;
  /** Public members, `alg` ECDH-ES, `use` enc and a random `kid`. */
  readonly publicJwk: JWK;
}

/** Makes a fresh response-encryption key; a random kid lets an issuer echo which key it used. */
export async function encryptionKey(): Promise<EncryptionKey> {
  const { privateKey, publicKey } = await generateKeyPair("ECDH-ES", { crv: "P-256", extractable: true });
  const publicJwk: JWK = {
    ...(await exportJWK(publicKey)),
    alg: "ECDH-ES",
    use: "enc",
    kid: randomBytes(12).toString("base64url"),
  };
  return { privateKey, publicJwk };
}
