import { randomBytes } from "node:crypto";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import type { VciContext } from "../context.js";

/**
 * Signs the metadata (specs/000 Resources: Signed Credential Issuer Metadata): header
 * `typ` from the identifier set, ES256 with the metadata key's `kid`; payload = every
 * metadata member plus `sub` (the issuer identifier), `iat` and `iss`. Faults: HS256 with a
 * random secret (`signed-metadata-mac`), a fresh key under the same kid (`signed-metadata-other-key`),
 * or a fresh key carried in the header's `jwk` (`signed-metadata-embedded-jwk`); no metadata
 * parameters in the payload (`signed-metadata-claims-missing`).
 */
export async function signMetadata(ctx: VciContext, metadata: Record<string, unknown>): Promise<string> {
  const issuer = ctx.issuer();
  const typ = ctx.faults.has("signed-metadata-typ") ? "JWT" : ctx.ids.metadataJwtTyp;
  const jwt = new SignJWT(ctx.faults.has("signed-metadata-claims-missing") ? {} : { ...metadata })
    .setIssuedAt()
    .setIssuer(issuer)
    .setSubject(ctx.faults.has("signed-metadata-sub") ? `${issuer}/` : issuer);
  if (ctx.faults.has("signed-metadata-mac")) {
    return jwt.setProtectedHeader({ alg: "HS256", typ }).sign(randomBytes(32));
  }
  if (ctx.faults.has("signed-metadata-embedded-jwk")) {
    const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
    const jwk = await exportJWK(publicKey);
    return jwt.setProtectedHeader({ alg: "ES256", typ, jwk }).sign(privateKey);
  }
  const key = ctx.faults.has("signed-metadata-other-key")
    ? (await generateKeyPair("ES256")).privateKey
    : ctx.keys.metadata.privateKey;
  return jwt.setProtectedHeader({ alg: "ES256", typ, kid: ctx.keys.metadata.kid }).sign(key);
}
