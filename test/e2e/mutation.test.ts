import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, tempDir } from "../helpers/cli.js";

/** Runs `npm run mutation` (its script) as a user would, within `timeoutMs`. */
function mutation(args: string[], timeoutMs: number): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, "scripts", "mutation.mjs"), ...args], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

interface MutantRow {
  readonly status: string;
  readonly mutatorName: string;
  readonly replacement?: string;
  readonly location: { readonly start: { readonly line: number } };
}

// The whole chain of `npm run mutation` (Stryker, its vitest runner, the ignorers, the suite run
// in process) on one small protocol file, so that a Stryker or vitest upgrade cannot break the
// command unnoticed. The full runs are too long for CI (README: mutation scores).
describe("npm run mutation (issue 10 item 7)", () => {
  it("mutates one SCIM target file, runs only the checks that reach each mutant, and reports a score", async () => {
    const dir = tempDir("idc-mutation-");
    const r = await mutation(
      [
        "--suite",
        "scim",
        "--files",
        "targets/scim/service/cursor.ts",
        "--report-dir",
        dir,
        "--concurrency",
        "1",
        "--force",
      ],
      240_000,
    );
    expect(r.code, r.out.slice(-3000)).toBe(0);
    expect(r.out).toMatch(/mutation scim: score \d+\.\d %/);
    const report = JSON.parse(readFileSync(join(dir, "mutation.json"), "utf8")) as {
      files: Record<string, { mutants: MutantRow[] }>;
    };
    const mutants = Object.values(report.files).flatMap((f) => f.mutants);
    expect(mutants.length).toBeGreaterThan(20);
    // The pagination checks walk cursors: most mutants of the cursor coding are seen.
    expect(mutants.filter((m) => m.status === "Killed").length).toBeGreaterThan(10);
    expect(mutants.every((m) => m.status !== "RuntimeError" && m.status !== "CompileError")).toBe(true);
    expect(existsSync(join(dir, "mutation.html"))).toBe(true);
  }, 300_000);

  it("refuses an unknown suite and names the known ones", async () => {
    const r = await mutation(["--suite", "nope"], 30_000);
    expect(r.code).toBe(2);
    expect(r.out).toContain('unknown suite "nope"');
    expect(r.out).toMatch(/--suite <[a-z|-]*scim[a-z|-]*>/);
  });
});
