import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";

/**
 * The RP's own signing key (specs/002 area A Authentication 3: Notification Tokens are
 * signed by the RP; keys are published through jwks_uri in the Metadata Response). A fresh
 * ES256 key per running target.
 */
export class RpKeys {
  private constructor(
    private readonly privateKey: CryptoKey,
    private readonly publicJwk: JWK,
  ) {}

  static async generate(): Promise<RpKeys> {
    const { privateKey, publicKey } = await generateKeyPair("ES256");
    const pub = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(pub);
    return new RpKeys(privateKey, { ...pub, kid, alg: "ES256", use: "sig" });
  }

  /** The JWK Set served at jwks_uri. */
  jwks(): { keys: JWK[] } {
    return { keys: [{ ...this.publicJwk }] };
  }

  /** A JWT with header typ `typ`, signed ES256 with this key (kid set). */
  sign(claims: Record<string, unknown>, typ: string): Promise<string> {
    // Stryker disable next-line StringLiteral: unreachable: the RP's key always has a kid
    const kid = this.publicJwk.kid ?? "";
    return new SignJWT(claims).setProtectedHeader({ alg: "ES256", typ, kid }).sign(this.privateKey);
  }
}
