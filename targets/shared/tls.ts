import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generate } from "selfsigned";

/** A certificate for the target's HTTPS listener, and the file a client trusts it from. */
export interface TargetCertificate {
  readonly key: string;
  readonly cert: string;
  /** PEM file of `cert`, in a fresh temporary directory. */
  readonly caFile: string;
  /** Deletes the temporary directory. */
  remove(): Promise<void>;
}

/**
 * A fresh self-signed P-256 certificate for 127.0.0.1 (SAN IP:127.0.0.1, DNS:localhost),
 * valid for a day, written to a new temporary directory named after `target`. For the reference
 * targets that serve HTTPS only (credential issuance, specs/000 Authentication 5; federation,
 * specs/001 Rules 1): clients trust exactly this certificate.
 */
export async function makeCertificate(target: string): Promise<TargetCertificate> {
  const now = new Date();
  const pems = await generate([{ name: "commonName", value: "127.0.0.1" }], {
    keyType: "ec",
    curve: "P-256",
    algorithm: "sha256",
    notBeforeDate: new Date(now.getTime() - 60_000),
    notAfterDate: new Date(now.getTime() + 24 * 3600_000),
    extensions: [
      { name: "basicConstraints", cA: true, critical: true },
      { name: "keyUsage", digitalSignature: true, keyCertSign: true, critical: true },
      { name: "extKeyUsage", serverAuth: true },
      {
        name: "subjectAltName",
        altNames: [
          { type: 7, ip: "127.0.0.1" },
          { type: 2, value: "localhost" },
        ],
      },
    ],
  });
  const dir = await mkdtemp(join(tmpdir(), `idconform-${target}-`));
  const caFile = join(dir, "ca.pem");
  await writeFile(caFile, pems.cert, { mode: 0o600 });
  return {
    key: pems.private,
    cert: pems.cert,
    caFile,
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
