import { existsSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { HarnessError } from "../engine/errors.js";
import { loadEntityKeys, loadJwks, loadSigningKey, type TrustedKeys } from "../report/bundle-keys.js";
import type { Verification } from "../report/bundle-verify.js";
import { parse } from "./args.js";
import { bold, err, green, red, yellow } from "./output.js";
import { mustCoverageLine } from "../report/must-coverage.js";

const BUNDLE_USAGE =
  "idconform bundle <run dir> --key <jwk file | ${ENV}> --profile <profile.yaml> [--out run.idcb]";
const VERIFY_USAGE =
  "idconform verify <run.idcb> (--jwks <file | https URL> | --entity <entity id>) [--allow-insecure-http] [--json]";

/** `idconform bundle`: signs a run directory's results, report and redacted profile into one .idcb file. */
export async function bundleCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(
    argv,
    { key: { type: "string" }, profile: { type: "string" }, out: { type: "string" } },
    BUNDLE_USAGE,
  );
  const [runDir, ...extra] = positionals;
  if (!runDir || extra.length > 0)
    throw new HarnessError("IDC_USAGE", `expected exactly one run directory\n\nusage: ${BUNDLE_USAGE}`);
  if (!existsSync(runDir) || !statSync(runDir).isDirectory())
    throw new HarnessError("IDC_USAGE", `not a run directory: ${runDir}`);
  if (!values.key) throw new HarnessError("IDC_USAGE", `--key is required\n\nusage: ${BUNDLE_USAGE}`);
  if (!values.profile)
    throw new HarnessError(
      "IDC_USAGE",
      `--profile is required: the run directory holds only the profile's hash; give the profile the run read, its redacted copy goes in the bundle\n\nusage: ${BUNDLE_USAGE}`,
    );
  const key = await loadSigningKey(values.key);
  // Each command loads only its half (verify has a speed goal; yaml and discovery are bundle's).
  const { createBundle } = await import("../report/bundle.js");
  const { text, manifest, warnings } = await createBundle({ runDir, profile: values.profile, key });
  const out = resolve(values.out ?? join(runDir, `${manifest.run.id}.idcb`));
  writeFileSync(out, text);
  for (const w of warnings) err(yellow(`warning: ${w}`));
  err(
    `signed ${key.alg} (kid ${key.kid}): ${manifest.files.map((f) => `${f.name} ${f.bytes} bytes`).join(", ")}`,
  );
  err(green(`bundle: ${out}`));
  return 0;
}

/** `idconform verify`: 0 when the signature, every digest and the verdicts' arithmetic hold, 1 when not. */
export async function verifyCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse(
    argv,
    {
      jwks: { type: "string" },
      entity: { type: "string" },
      "allow-insecure-http": { type: "boolean" },
      json: { type: "boolean" },
    },
    VERIFY_USAGE,
  );
  const [file, ...extra] = positionals;
  if (!file || extra.length > 0)
    throw new HarnessError("IDC_USAGE", `expected exactly one bundle\n\nusage: ${VERIFY_USAGE}`);
  if ((values.jwks === undefined) === (values.entity === undefined))
    throw new HarnessError("IDC_USAGE", `give one of --jwks or --entity\n\nusage: ${VERIFY_USAGE}`);
  const net = { allowInsecureHttp: values["allow-insecure-http"] ?? false };
  if (net.allowInsecureHttp)
    err(yellow("warning: --allow-insecure-http: the verifying keys may come over plain http"));
  let trusted: TrustedKeys;
  try {
    trusted =
      values.jwks !== undefined
        ? await loadJwks(values.jwks, net)
        : await loadEntityKeys(values.entity!, net);
  } finally {
    if (values.jwks === undefined || /^https?:/i.test(values.jwks))
      await (await import("../http/client.js")).closeAgents();
  }
  const { verifyBundleFile } = await import("../report/bundle-verify.js");
  const v = await verifyBundleFile(file, trusted);
  printVerification(file, v);
  if (values.json) process.stdout.write(`${JSON.stringify(asJson(v), null, 2)}\n`);
  return v.ok ? 0 : 1;
}

/** `--json`: what was verified, as data on stdout (the files themselves are left out). */
function asJson(v: Verification): unknown {
  const r = v.results;
  return {
    ok: v.ok,
    problems: v.problems,
    ...(v.signer ? { signer: v.signer } : {}),
    ...(v.manifest ? { manifest: v.manifest } : {}),
    ...(v.recomputed && r
      ? {
          recomputed: {
            summary: v.recomputed.summary,
            exitCode: v.recomputed.exitCode,
            mustCoverage: v.recomputed.must,
          },
          coverage: { notRun: r.coverage.notRun.length, uncovered: r.coverage.uncovered.length },
          certifiable: r.run.certifiable,
          notCertifiable: r.run.notCertifiable,
        }
      : {}),
  };
}

function printVerification(file: string, v: Verification): void {
  const m = v.manifest;
  if (m && v.signer) {
    err(
      bold(
        `${file}: signed ${v.signer.alg}${v.signer.kid !== undefined ? ` by kid ${v.signer.kid}` : ""}, key from ${v.signer.source}`,
      ),
    );
    err(`  run ${m.run.id}, started ${m.run.startedAt}; bundled ${m.createdAt}`);
    for (const s of m.run.suites) err(`  suite ${s.name}: target ${s.target}`);
    err(`  profile ${m.run.profile.name} (${m.run.profile.file}, SHA-256 ${m.run.profile.sha256})`);
    err(
      `  harness ${m.harness.name} ${m.harness.version}; bundled by ${m.bundler.version}; lockfile ${m.lockfile ? `${m.lockfile.file} SHA-256 ${m.lockfile.sha256}` : "not recorded"}`,
    );
  }
  const r = v.results;
  const c = v.recomputed;
  if (r && c) {
    const s = c.summary;
    err(
      `  coverage: ${s.total} requirement(s) decided (${s.pass} pass · ${s.fail} fail · ${s.warn} warn · ${s.skip} skip · ${s.error} error); ${r.coverage.notRun.length} not run; ${r.coverage.uncovered.length} without a check`,
    );
    err(`  ${mustCoverageLine(c.must)} (recomputed from the verdicts)`);
    err(
      `  ${r.run.certifiable ? "certifiable" : `not certifiable: ${r.run.notCertifiable.join("; ")}`}; run exit code (recomputed from the verdicts) ${c.exitCode}`,
    );
  }
  for (const p of v.problems.slice(0, 50)) err(red(`  ${p}`));
  if (v.problems.length > 50) err(red(`  … and ${v.problems.length - 50} more`));
  err(
    v.ok
      ? green("verified: signature, every file's digest and the verdicts' arithmetic hold")
      : red("verification FAILED"),
  );
}
