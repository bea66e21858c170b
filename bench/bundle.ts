// `idconform verify` of a signed evidence bundle of a large run (issue 12 item 7: a
// 5,000-requirement run under 2 s), timed as a user runs it: the command, start to exit.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { exportJWK, generateKeyPair } from "jose";
import { createBundle } from "../src/report/bundle.js";
import { loadSigningKey } from "../src/report/bundle-keys.js";
import { renderHtml } from "../src/report/html.js";
import type { Results } from "../src/report/results.js";

const ROOT = resolve(import.meta.dirname, "..");

/** Bundles `results` (signed ES256) and returns the median wall time of `idconform verify` over `rounds`. */
export async function verifyBench(
  results: Results,
  rounds = 5,
): Promise<{ ms: number; bundleBytes: number; code: number | null }> {
  const dir = mkdtempSync(join(tmpdir(), "idc-bench-bundle-"));
  const profileText = "name: bench\nsuites:\n  bench:\n    baseUrl: https://target.example/\n";
  const sha256 = createHash("sha256").update(profileText).digest("hex");
  const run = join(dir, "run");
  mkdirSync(run);
  const r = { ...results, run: { ...results.run, profile: { ...results.run.profile, sha256 } } };
  writeFileSync(join(run, "results.json"), `${JSON.stringify(r, null, 2)}\n`);
  writeFileSync(join(run, "report.html"), renderHtml(r));
  writeFileSync(join(dir, "profile.yaml"), profileText);
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  writeFileSync(join(dir, "k.jwk"), JSON.stringify({ ...(await exportJWK(privateKey)), kid: "bench" }));
  writeFileSync(
    join(dir, "k.jwks"),
    JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: "bench" }] }),
  );
  const { text } = await createBundle({
    runDir: run,
    profile: join(dir, "profile.yaml"),
    key: await loadSigningKey(join(dir, "k.jwk")),
  });
  const file = join(dir, "run.idcb");
  writeFileSync(file, text);
  const times: number[] = [];
  let code: number | null = null;
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    const child = spawn(
      process.execPath,
      [join(ROOT, "bin", "idconform.js"), "verify", file, "--jwks", join(dir, "k.jwks")],
      { stdio: "ignore" },
    );
    code = await new Promise<number | null>((res) => child.on("close", res));
    times.push(performance.now() - t);
  }
  const ms = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? NaN;
  return { ms, bundleBytes: statSync(file).size, code };
}
