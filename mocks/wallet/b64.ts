import { createHash } from "node:crypto";

/** base64url of UTF-8 text or bytes, without padding (RFC 7515 §2). */
export function b64url(data: string | Uint8Array): string {
  return Buffer.from(data).toString("base64url");
}

/** base64url(SHA-256(ascii)): PKCE S256, DPoP `ath`, SD-JWT disclosure digests all use it. */
export function sha256b64url(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("base64url");
}

/** Strict base64url (no padding, no other alphabet), decoded; undefined when it is not. */
export function fromB64url(s: string): Buffer | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(s) || s.length % 4 === 1) return undefined;
  return Buffer.from(s, "base64url");
}
