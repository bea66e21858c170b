import { randomBytes } from "node:crypto";
import { sha256b64url } from "./b64.js";

/**
 * A PKCE pair (RFC 7636 §4.1, §4.2): a 43-character verifier from 32 random bytes and its
 * S256 challenge. The Wallet is a public client in the Authorization Code Flow (specs/000
 * Rules 4), so it always uses PKCE.
 */
export function pkce(): { verifier: string; challenge: string; method: "S256" } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: sha256b64url(verifier), method: "S256" };
}
