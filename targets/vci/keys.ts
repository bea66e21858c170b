import { calculateJwkThumbprint, exportJWK, generateKeyPair, type CryptoKey, type JWK } from "jose";

/** One ES256 signing key with its public JWK (carrying kid and alg). */
export interface SigningKey {
  readonly privateKey: CryptoKey;
  readonly publicJwk: JWK;
  readonly kid: string;
}

/** The issuer's keys: one signs credentials, one signs issuer metadata. */
export interface IssuerKeys {
  readonly credential: SigningKey;
  readonly metadata: SigningKey;
}

/** A fresh ES256 key pair, kid = its RFC 7638 thumbprint. */
export async function generateSigningKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair("ES256");
  const pub = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(pub);
  return { privateKey, publicJwk: { ...pub, kid, alg: "ES256", use: "sig" }, kid };
}

/** The keys of one running target, generated at start. */
export async function generateIssuerKeys(): Promise<IssuerKeys> {
  return { credential: await generateSigningKey(), metadata: await generateSigningKey() };
}
