import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const ROOT = resolve(import.meta.dirname, "../..");
const BIN = join(ROOT, "bin", "idconform.js");

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/** Runs the idconform command as a user would; the child is killed if it outlives `timeoutMs`. */
export function runCli(
  args: string[],
  opts: { env?: Record<string, string>; timeoutMs?: number; cwd?: string } = {},
): Promise<CliResult> {
  const started = Date.now();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: opts.cwd ?? ROOT,
      env: { ...process.env, NO_COLOR: "1", ...opts.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs ?? 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

const made: string[] = [];
// Temporary folders go when the test worker ends; keep them with IDC_KEEP_TMP=1 to look inside.
process.once("exit", () => {
  if (!process.env.IDC_KEEP_TMP) for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** A fresh temporary folder for one test's profiles and reports. */
export function tempDir(prefix = "idc-"): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  made.push(d);
  return d;
}

/** Writes a profile into `dir` and returns its path. */
export function writeProfile(dir: string, yaml: string, name = "profile.yaml"): string {
  const p = join(dir, name);
  writeFileSync(p, yaml);
  return p;
}

/** The fixture profile pointed at a running target, with options merged in. */
export function fixtureProfile(
  opts: { options?: string; extra?: string; knownFailures?: string } = {},
): string {
  const insecure = opts.options?.includes("allowInsecureHttp") ? "" : "  allowInsecureHttp: true";
  return `name: test-fixture
options:
  seed: 7
${insecure}
${opts.options ?? ""}
${opts.knownFailures ?? ""}
suites:
  fixture:
    baseUrl: \${IDC_DEMO_FIXTURE_URL}
    token: \${IDC_DEMO_FIXTURE_TOKEN}
    callbackTimeoutMs: 1500
    features:
      echo: true
    probes:
      tokenActive:
        path: /private/probe
${opts.extra ?? ""}`;
}

/** Starts the fixture target with `faults`, runs `idconform run` on a fixture profile, reads the results. */
export async function runFixture(opts: {
  faults?: string[];
  options?: string;
  knownFailures?: string;
  /** More members of `suites.fixture`, indented as such. */
  extra?: string;
  args?: string[];
  tls?: { key: string; cert: string };
  timeoutMs?: number;
}): Promise<{
  cli: CliResult;
  dir: string;
  results: import("../../src/report/results.js").Results | undefined;
  token: string;
  /** Every token the target issued during the run. */
  issued: ReadonlySet<string>;
}> {
  const { startFixtureTarget } = await import("../fixture/target.js");
  const { existsSync, readFileSync } = await import("node:fs");
  const target = await startFixtureTarget({
    faults: opts.faults ?? [],
    ...(opts.tls ? { tls: opts.tls } : {}),
  });
  try {
    const dir = tempDir();
    const profile = writeProfile(
      dir,
      fixtureProfile({
        ...(opts.options ? { options: opts.options } : {}),
        ...(opts.knownFailures ? { knownFailures: opts.knownFailures } : {}),
        ...(opts.extra ? { extra: opts.extra } : {}),
      }),
    );
    const cli = await runCli(["run", profile, "--out", join(dir, "out"), ...(opts.args ?? [])], {
      env: target.env,
      ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
    });
    const file = join(dir, "out", "results.json");
    const results = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined;
    return { cli, dir, results, token: target.token, issued: target.issued };
  } finally {
    await target.close();
  }
}

/** requirement id -> verdict */
export function verdicts(
  r: { requirements: readonly { id: string; verdict: string }[] } | undefined,
): Record<string, string> {
  return Object.fromEntries((r?.requirements ?? []).map((q) => [q.id, q.verdict]));
}

/** Starts a suite's reference target with `faults` and runs the suite's demo profile against it. */
export async function runDemoProfile(
  suite: string,
  faults: string[],
  args: string[] = [],
): Promise<{
  cli: CliResult;
  results: import("../../src/report/results.js").Results | undefined;
  dir: string;
}> {
  const { loadTarget } = await import("../../src/engine/discovery.js");
  const { existsSync, readFileSync } = await import("node:fs");
  const target = await (await loadTarget(suite)).start({ faults });
  try {
    const dir = tempDir();
    const cli = await runCli(
      ["run", join(ROOT, "profiles", "demo", `${suite}.yaml`), "--out", join(dir, "out"), ...args],
      {
        env: target.env,
        timeoutMs: 120_000,
      },
    );
    const file = join(dir, "out", "results.json");
    return { cli, results: existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined, dir };
  } finally {
    await target.close();
  }
}
