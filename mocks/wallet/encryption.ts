import { compactDecrypt, type JWEHeaderParameters, type JWK } from "jose";
import { quote } from "../../src/engine/quote.js";
import { parseJsonBounded } from "../../src/http/json-bounds.js";
import type { EncryptionKey } from "./keys.js";
import { WalletError } from "./errors.js";

// The key and the member that announces it belong together for callers: one import.
export { encryptionKey, type EncryptionKey } from "./keys.js";

/** An encrypted Credential Response is a few KiB; anything past this is hostile. */
const MAX_JWE = 512 * 1024;

/** Content encryption the Wallet accepts (it asks for one of these). */
const ENC_VALUES = ["A128GCM", "A256GCM"];

/**
 * Decrypts an encrypted Credential Response (public-spec-facts §1, 8.3: `application/jwt`):
 * a compact JWE made with ECDH-ES to the Wallet's key, no compression, whose plaintext is the
 * JSON response. Everything about it is untrusted; any failure is a WalletError that says what
 * was wrong, never the plaintext.
 */
export async function decryptResponse(
  jwe: string,
  key: EncryptionKey,
): Promise<{ payload: unknown; header: JWEHeaderParameters }> {
  if (typeof jwe !== "string") throw new WalletError("encrypted response is not a string");
  if (jwe.length > MAX_JWE) throw new WalletError(`encrypted response is over ${MAX_JWE} bytes`);
  const compact = jwe.trim();
  if (compact.split(".").length !== 5) throw new WalletError("encrypted response is not a compact JWE");
  let plaintext: Uint8Array;
  let header: JWEHeaderParameters;
  try {
    const out = await compactDecrypt(compact, key.privateKey, {
      keyManagementAlgorithms: ["ECDH-ES"],
      contentEncryptionAlgorithms: ENC_VALUES,
    });
    plaintext = out.plaintext;
    header = out.protectedHeader;
  } catch (e) {
    throw new WalletError(`encrypted response does not decrypt: ${(e as Error).message}`);
  }
  if (header.zip !== undefined) throw new WalletError(`encrypted response uses zip ${quote(header.zip, 40)}`);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(plaintext);
  } catch {
    throw new WalletError("decrypted response is not JSON");
  }
  // Within the same bounds as any body a target sends (src/http/json-bounds.ts).
  const p = parseJsonBounded(text);
  if (!p.ok)
    throw new WalletError(`decrypted response is ${p.error.startsWith("not read") ? p.error : "not JSON"}`);
  return { payload: p.value, header };
}

/**
 * The `credential_response_encryption` member of a Credential Request (specs/000): the
 * Wallet's public key and the `enc` it wants; no `zip`, so no compression.
 */
export function encryptionRequest(key: EncryptionKey, enc: string): { jwk: JWK; enc: string } {
  return { jwk: key.publicJwk, enc };
}
