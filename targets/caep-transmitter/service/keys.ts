import { calculateJwkThumbprint, exportJWK, generateKeyPair, type CryptoKey, type JWK } from "jose";
import type { FaultSet } from "../faults.js";

/** One ES256 signing key and its public JWK (kid = RFC 7638 thumbprint). */
export interface SigningKey {
  readonly privateKey: CryptoKey;
  readonly publicJwk: JWK;
  readonly kid: string;
}

async function newKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair("ES256");
  const pub = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(pub);
  return { privateKey, publicJwk: { ...pub, kid, alg: "ES256", use: "sig" }, kid };
}

/**
 * The Transmitter's SET signing keys (SSF 1.0 §4.1.5: found through jwks_uri): the current
 * key, and the next one a rotation will bring in (generated ahead, published only once it
 * signs). The `signing-key-unpublished` fault signs with the next key before publishing it.
 */
export class TransmitterKeys {
  private constructor(
    private readonly current: SigningKey,
    private readonly next: SigningKey,
    private readonly faults: FaultSet,
  ) {}

  static async generate(faults: FaultSet): Promise<TransmitterKeys> {
    return new TransmitterKeys(await newKey(), await newKey(), faults);
  }

  /** The key that signs SETs. */
  signing(): SigningKey {
    return this.faults.has("signing-key-unpublished") ? this.next : this.current;
  }

  /** The JWK Set served at jwks_uri (RFC 7517 §5): public members only. */
  jwks(): { keys: JWK[] } {
    const key = this.faults.has("jwks-alg-mismatch")
      ? { ...this.current.publicJwk, alg: "RS256" }
      : this.current.publicJwk;
    return { keys: [key] };
  }
}
