import { createHmac, createPublicKey, timingSafeEqual, type JsonWebKey } from "node:crypto";
import { compactVerify, importJWK, type JWK } from "jose";
import type { TransmitterKeys } from "./transmitter-keys.js";

/**
 * The embedded-jwk-trusted fault: the verifier takes the key the token carries in its header
 * jwk, so anyone can sign. True when the token verifies with that key.
 */
export async function verifiesWithEmbeddedJwk(
  token: string,
  header: Record<string, unknown>,
): Promise<boolean> {
  if (typeof header.jwk !== "object" || header.jwk === null) return false;
  return importJWK(header.jwk as JWK, String(header.alg))
    .then((key) => compactVerify(token, key))
    .then(
      () => true,
      () => false,
    );
}

/**
 * The hmac-public-key fault (algorithm confusion): the token chooses HS256/384/512 and the
 * verifier keys the MAC with the Transmitter's public key as PEM, which anyone can read at
 * jwks_uri. True when the MAC matches.
 */
export async function verifiesAsHmacOfPublicKey(
  token: string,
  header: Record<string, unknown>,
  keys: TransmitterKeys,
): Promise<boolean> {
  const alg = String(header.alg);
  if (!/^HS(256|384|512)$/.test(alg) || typeof header.kid !== "string") return false;
  const jwk = await keys.find(header.kid);
  if (jwk === undefined) return false;
  const pem = createPublicKey({ key: jwk as JsonWebKey, format: "jwk" }).export({
    type: "spki",
    format: "pem",
  });
  const [h = "", p = "", s = ""] = token.split(".");
  const mac = createHmac(`sha${alg.slice(2)}`, pem)
    .update(`${h}.${p}`)
    .digest();
  const given = Buffer.from(s, "base64url");
  return given.length === mac.length && timingSafeEqual(given, mac);
}
