import { existsSync, readFileSync, statSync } from "node:fs";
import { calculateJwkThumbprint, compactVerify, decodeProtectedHeader, importJWK, type JWK } from "jose";
import { HarnessError } from "../engine/errors.js";
import { BUNDLE_ALGS, algAgrees, algFor, type TrustedKeys } from "./bundle-keys.js";
import {
  BUNDLE_CAP,
  BUNDLE_FORMAT,
  BUNDLE_TYP,
  JWS_CAP,
  MEMBERS,
  manifestSchema,
  sha256,
  type Manifest,
} from "./bundle-format.js";
import { recompute, type Recomputed } from "./recompute.js";
import type { Results } from "./results.js";
import { resultsProblems } from "./validate.js";

/** Checking a bundle (`idconform verify`): signature, then files, then the run's own arithmetic. */

const MAX_CANDIDATE_KEYS = 20;
const B64U = /^[A-Za-z0-9_-]*$/;

export interface Verification {
  /** Signature, every digest and the results' own arithmetic hold. */
  readonly ok: boolean;
  /** What failed, each naming the member or the part of the bundle. */
  readonly problems: readonly string[];
  readonly manifest?: Manifest;
  readonly signer?: { readonly alg: string; readonly kid: string | undefined; readonly source: string };
  readonly results?: Results;
  readonly recomputed?: Recomputed;
  /** The verified files, by member name (only those whose digest matched). */
  readonly files?: Readonly<Record<string, Buffer>>;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** A hostile key set may hold a JWK without the members a thumbprint needs: it then matches no kid. */
async function thumbprint(k: JWK): Promise<string | undefined> {
  try {
    return await calculateJwkThumbprint(k);
  } catch {
    return undefined;
  }
}

/** The keys that may have signed: those with the header's kid (or, kid-less, the thumbprint it names), of the algorithm's type. */
async function candidates(keys: readonly JWK[], alg: string, kid: string | undefined): Promise<JWK[]> {
  const out: JWK[] = [];
  for (const k of keys) {
    if (k.use !== undefined && k.use !== "sig") continue;
    if (algFor(k) !== alg || !algAgrees(k, alg)) continue;
    if (kid !== undefined && k.kid !== kid && (k.kid !== undefined || (await thumbprint(k)) !== kid))
      continue;
    out.push(k);
    if (out.length >= MAX_CANDIDATE_KEYS) break;
  }
  return out;
}

async function verifySignature(
  jws: string,
  trusted: TrustedKeys,
): Promise<{ payload: Uint8Array; alg: string; kid: string | undefined } | string> {
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(jws);
  } catch {
    return "jws: not a compact JWS (the manifest's signature is damaged)";
  }
  const alg = header.alg;
  if (typeof alg !== "string" || !(BUNDLE_ALGS as readonly string[]).includes(alg))
    return `jws: alg ${JSON.stringify(alg)} is not one of ${BUNDLE_ALGS.join(", ")}`;
  if (header.typ !== BUNDLE_TYP) return `jws: typ ${JSON.stringify(header.typ)}, expected ${BUNDLE_TYP}`;
  const kid = typeof header.kid === "string" ? header.kid : undefined;
  const keys = await candidates(trusted.keys, alg, kid);
  if (keys.length === 0)
    return `jws: no ${alg} key${kid !== undefined ? ` with kid ${JSON.stringify(kid)}` : ""} in ${trusted.source}`;
  for (const k of keys) {
    try {
      const { payload } = await compactVerify(jws, await importJWK(k, alg), { algorithms: [alg] });
      return { payload, alg, kid };
    } catch {
      // The next key of the same kid may be the one.
    }
  }
  return `jws: the manifest's signature does not verify with ${trusted.source} (the manifest or its signature was changed, or another key signed it)`;
}

/** Decodes a member only if its base64url is canonical: a changed character never decodes to the same bytes. */
function decodeMember(s: string): Buffer | undefined {
  if (!B64U.test(s) || s.length % 4 === 1) return undefined;
  const b = Buffer.from(s, "base64url");
  return b.toString("base64url") === s ? b : undefined;
}

/** The bundle as `bundle` writes it; a base64url member needs no escaping, so no 30 MB stringify. */
function canonicalText(format: unknown, jws: string, files: Record<string, unknown>): string {
  const members = Object.entries(files).map(
    ([k, v]) =>
      `${JSON.stringify(k)}:${typeof v === "string" && B64U.test(v) ? `"${v}"` : JSON.stringify(v)}`,
  );
  return `{"format":${JSON.stringify(format)},"jws":${JSON.stringify(jws)},"files":{${members.join(",")}}}\n`;
}

/** Verifies a bundle's text against the trusted keys; never throws for a damaged bundle. */
export async function verifyBundle(text: string, trusted: TrustedKeys): Promise<Verification> {
  const fail = (...problems: string[]): Verification => ({ ok: false, problems });
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return fail("the bundle is not JSON (damaged, or not an .idcb file)");
  }
  if (!isObject(doc)) return fail("the bundle is not a JSON object");
  if (doc.format !== BUNDLE_FORMAT)
    return fail(`format: expected ${BUNDLE_FORMAT}, got ${JSON.stringify(doc.format)?.slice(0, 80)}`);
  const extra = Object.keys(doc).filter((k) => !["format", "jws", "files"].includes(k));
  if (extra.length > 0) return fail(`unexpected member(s) of the bundle: ${extra.join(", ").slice(0, 200)}`);
  if (typeof doc.jws !== "string" || doc.jws.length > JWS_CAP)
    return fail("jws: missing, not a string, or too long");
  if (!isObject(doc.files)) return fail("files: missing or not an object");
  // Written as one canonical line: a byte changed outside every member (a space, the newline,
  // an escape) fails too; said last, when no member or signature names the change better.
  const canonical = canonicalText(doc.format, doc.jws, doc.files) === text;
  const sig = await verifySignature(doc.jws, trusted);
  if (typeof sig === "string") return fail(sig);
  let manifest: Manifest;
  try {
    const parsed = manifestSchema.safeParse(JSON.parse(Buffer.from(sig.payload).toString("utf8")));
    if (!parsed.success) return fail(`manifest: signed, but not a ${BUNDLE_FORMAT} manifest`);
    manifest = parsed.data;
  } catch {
    return fail("manifest: signed, but not JSON");
  }
  const signer = { alg: sig.alg, kid: sig.kid, source: trusted.source };
  const problems: string[] = [];
  const files: Record<string, Buffer> = {};
  const listed = new Set(manifest.files.map((f) => f.name));
  for (const name of Object.keys(doc.files))
    if (!listed.has(name as (typeof MEMBERS)[number]))
      problems.push(`${name.slice(0, 100)}: in the bundle but not in the signed manifest`);
  for (const f of manifest.files) {
    const raw = doc.files[f.name];
    if (typeof raw !== "string") {
      problems.push(`${f.name}: named by the signed manifest, missing from the bundle`);
      continue;
    }
    const bytes = decodeMember(raw);
    if (bytes === undefined) problems.push(`${f.name}: changed (its base64url encoding is damaged)`);
    else if (bytes.length !== f.bytes || sha256(bytes) !== f.sha256)
      problems.push(`${f.name}: changed (SHA-256 ${sha256(bytes)} differs from the signed ${f.sha256})`);
    else files[f.name] = bytes;
  }
  for (const m of MEMBERS) if (!listed.has(m)) problems.push(`${m}: not in the signed manifest`);
  if (!canonical && problems.length === 0)
    problems.push("the bundle's text is not as written (changed outside its members)");
  const rbytes = files["results.json"];
  let results: Results | undefined;
  let recomputed: Recomputed | undefined;
  if (rbytes !== undefined) {
    let r: unknown;
    try {
      r = JSON.parse(rbytes.toString("utf8"));
    } catch {
      r = undefined;
    }
    const schema = r === undefined ? ["not JSON"] : resultsProblems(r);
    if (schema.length > 0)
      problems.push(`results.json: signed, but not valid results (${schema.slice(0, 3).join("; ")})`);
    else {
      results = r as Results;
      const run = results.run;
      if (
        run.id !== manifest.run.id ||
        run.startedAt !== manifest.run.startedAt ||
        run.profile.sha256 !== manifest.run.profile.sha256
      )
        problems.push("results.json: its run (id, date, profile hash) differs from the signed manifest's");
      recomputed = recompute(results);
      for (const d of recomputed.disagreements) problems.push(`results.json: ${d}`);
      if (manifest.run.exitCode !== recomputed.exitCode)
        problems.push(
          `manifest: exit code ${manifest.run.exitCode}, the verdicts give ${recomputed.exitCode}`,
        );
    }
  }
  return {
    ok: problems.length === 0,
    problems,
    manifest,
    signer,
    ...(results ? { results } : {}),
    ...(recomputed ? { recomputed } : {}),
    files,
  };
}

/** Reads a bundle file within bounds, then verifies it. */
export async function verifyBundleFile(path: string, trusted: TrustedKeys): Promise<Verification> {
  if (!existsSync(path) || !statSync(path).isFile())
    throw new HarnessError("IDC_USAGE", `no such bundle: ${path}`);
  if (statSync(path).size > BUNDLE_CAP)
    return { ok: false, problems: [`the bundle is larger than ${BUNDLE_CAP} bytes`] };
  return verifyBundle(readFileSync(path, "utf8"), trusted);
}
