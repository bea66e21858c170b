import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { CompactSign } from "jose";
import { HarnessError } from "../engine/errors.js";
import { ROOT } from "../engine/discovery.js";
import { HARNESS } from "../engine/version.js";
import type { SigningKey } from "./bundle-keys.js";
import {
  BUNDLE_CAP,
  BUNDLE_FORMAT,
  BUNDLE_TYP,
  MEMBER_CAP,
  MEMBERS,
  sha256,
  type Manifest,
} from "./bundle-format.js";
import { redactProfile } from "./profile-redact.js";
import { readResults } from "./validate.js";

/** Writing a bundle (`idconform bundle`); its format is src/report/bundle-format.ts. */
export interface BundleInput {
  readonly runDir: string;
  readonly profile: string;
  readonly key: SigningKey;
  readonly now?: Date;
}

function readMember(path: string, what: string): Buffer {
  if (!existsSync(path) || !statSync(path).isFile())
    throw new HarnessError("IDC_USAGE", `${what} not found: ${path}`);
  if (statSync(path).size > MEMBER_CAP)
    throw new HarnessError("IDC_USAGE", `${path} is larger than ${MEMBER_CAP} bytes`);
  return readFileSync(path);
}

/** Builds and signs a bundle of a run directory; `warnings` say what a certifier should know. */
export async function createBundle(
  input: BundleInput,
): Promise<{ text: string; manifest: Manifest; warnings: string[] }> {
  const resultsFile = join(input.runDir, "results.json");
  const resultsBytes = readMember(resultsFile, "results.json");
  const results = readResults(resultsFile);
  const html = readMember(join(input.runDir, "report.html"), "report.html");
  const profileBytes = readMember(input.profile, "--profile");
  if (sha256(profileBytes) !== results.run.profile.sha256)
    throw new HarnessError(
      "IDC_USAGE",
      `--profile ${input.profile}: its SHA-256 differs from the profile the run read (results.json run.profile.sha256 ${results.run.profile.sha256}, file ${results.run.profile.file}): not the profile of this run, or changed since`,
    );
  const profile = Buffer.from(redactProfile(profileBytes.toString("utf8"), input.profile));
  const lock = join(ROOT, "package-lock.json");
  const warnings: string[] = [];
  if (!results.run.certifiable)
    warnings.push(`the run is not certifiable: ${results.run.notCertifiable.join("; ")}`);
  if (results.run.harness.version !== HARNESS.version)
    warnings.push(
      `the run was made by idconform ${results.run.harness.version}, this is ${HARNESS.version}: the lockfile hash is this installation's`,
    );
  const files = { "results.json": resultsBytes, "report.html": html, "profile.yaml": profile };
  const manifest: Manifest = {
    format: BUNDLE_FORMAT,
    createdAt: (input.now ?? new Date()).toISOString(),
    run: {
      id: results.run.id,
      startedAt: results.run.startedAt,
      profile: {
        name: results.run.profile.name,
        file: basename(results.run.profile.file),
        sha256: results.run.profile.sha256,
      },
      suites: results.run.suites.map((s) => ({ name: s.name, target: s.target })),
      certifiable: results.run.certifiable,
      exitCode: results.outcome.exitCode,
    },
    harness: { name: results.run.harness.name, version: results.run.harness.version },
    bundler: { name: HARNESS.name, version: HARNESS.version },
    lockfile: existsSync(lock) ? { file: "package-lock.json", sha256: sha256(readFileSync(lock)) } : null,
    files: MEMBERS.map((name) => ({ name, sha256: sha256(files[name]), bytes: files[name].length })),
  };
  if (manifest.lockfile === null)
    warnings.push("no package-lock.json beside the harness: the bundle names no lockfile hash");
  const jws = await new CompactSign(Buffer.from(JSON.stringify(manifest)))
    .setProtectedHeader({ alg: input.key.alg, kid: input.key.kid, typ: BUNDLE_TYP })
    .sign(input.key.key);
  const encoded = Object.fromEntries(MEMBERS.map((m) => [m, files[m].toString("base64url")]));
  const text = `${JSON.stringify({ format: BUNDLE_FORMAT, jws, files: encoded })}\n`;
  // What a verifier would refuse to read is never written.
  if (text.length > BUNDLE_CAP)
    throw new HarnessError(
      "IDC_USAGE",
      `the bundle would be larger than ${BUNDLE_CAP} bytes, the most verify reads`,
    );
  return { text, manifest, warnings };
}
