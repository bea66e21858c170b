import { createHash } from "node:crypto";
import { z } from "zod";

/**
 * The signed evidence bundle (`.idcb`), one UTF-8 JSON object on one line:
 *
 *   { "format": "idconform-bundle/1",
 *     "jws": "<compact JWS, typ idcb-manifest+json, over the manifest>",
 *     "files": { "results.json": "<base64url>", "report.html": "<base64url>", "profile.yaml": "<base64url>" } }
 *
 * The manifest (the JWS payload) names each file with its SHA-256 and length, the run (id,
 * date, suites and targets, profile name and the SHA-256 of the profile as the run read it),
 * the harness version that ran it and the one that bundled it, and the SHA-256 of the
 * harness's package-lock.json. A verifier checks the signature first, then every file against
 * the signed manifest: the base64url must be canonical, so any changed byte of the file is
 * either a broken JSON, a broken signature or a digest mismatch that names the member.
 */
export const BUNDLE_FORMAT = "idconform-bundle/1";
export const BUNDLE_TYP = "idcb-manifest+json";
export const MEMBERS = ["results.json", "report.html", "profile.yaml"] as const;

/** Bounds of what a verifier reads: a 5,000-requirement run's bundle is some tens of MB. */
export const BUNDLE_CAP = 384 * 1024 * 1024;
export const MEMBER_CAP = 128 * 1024 * 1024;
export const JWS_CAP = 64 * 1024;

export const sha256 = (b: Buffer | string): string => createHash("sha256").update(b).digest("hex");
const hex64 = z.string().regex(/^[0-9a-f]{64}$/);

export const manifestSchema = z.object({
  format: z.literal(BUNDLE_FORMAT),
  createdAt: z.string(),
  run: z.object({
    id: z.string(),
    startedAt: z.string(),
    profile: z.object({ name: z.string(), file: z.string(), sha256: z.string() }),
    suites: z.array(z.object({ name: z.string(), target: z.string() })),
    certifiable: z.boolean(),
    exitCode: z.number(),
  }),
  harness: z.object({ name: z.string(), version: z.string() }),
  bundler: z.object({ name: z.string(), version: z.string() }),
  lockfile: z.object({ file: z.string(), sha256: hex64 }).nullable(),
  files: z.array(z.object({ name: z.enum(MEMBERS), sha256: hex64, bytes: z.number().int().nonnegative() })),
});
export type Manifest = z.infer<typeof manifestSchema>;
