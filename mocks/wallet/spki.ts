import { createHash, X509Certificate } from "node:crypto";

const PEM = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * The base64 SHA-256 hashes of the public keys (SPKI) of every certificate in a PEM bundle:
 * what Chromium's certificate pinning takes, so the browser step trusts exactly the private
 * CA a profile trusts (options.tls.caFile) and nothing else.
 */
export function spkiHashes(pem: string): string[] {
  return (pem.match(PEM) ?? []).map((block) =>
    createHash("sha256")
      .update(new X509Certificate(block).publicKey.export({ type: "spki", format: "der" }))
      .digest("base64"),
  );
}
