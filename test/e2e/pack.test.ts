import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Results } from "../../src/report/results.js";
import { fixtureProfile, ROOT, tempDir, writeProfile } from "../helpers/cli.js";

interface Ran {
  readonly code: number | null;
  readonly out: string;
}

/**
 * Runs npm or npx as a vendor would in its own project. npm's own variables of the outer
 * `npm test` (npm_config_*, npm_package_*) are left out, so the project's npm settings rule.
 */
function sh(
  cmd: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
  timeoutMs = 150_000,
): Promise<Ran> {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith("npm_")),
  );
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd,
      env: { ...base, NO_COLOR: "1", ...env },
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

describe("as a dependency: npm pack, installed into an empty project", () => {
  it(
    "installs the tarball, runs `npx idconform demo` and `npx idconform run <its profile>`",
    { timeout: 420_000 },
    async () => {
      const work = tempDir("idc-pack-");
      const packed = await sh("npm", ["pack", "--json", "--pack-destination", work], ROOT);
      expect(packed.code, packed.out).toBe(0);
      const info = JSON.parse(packed.out.slice(packed.out.indexOf("["))) as {
        filename: string;
        files: { path: string }[];
      }[];
      const files = info[0]!.files.map((f) => f.path);
      // What the installed command needs to run the demo is in the tarball; the harness's own
      // tests, benches and scripts are not.
      for (const needed of [
        "bin/idconform.js",
        "src/cli/main.ts",
        "src/report/results.schema.json",
        "suites/vci/suite.ts",
        "targets/scim/index.ts",
        "mocks/wallet/browser.ts",
        "mocks/federation/index.ts",
        "targets/federation/index.ts",
        "profiles/demo/vci.yaml",
        "profiles/examples/template.yaml",
        "test/fixture/suite.ts",
      ])
        expect(files, needed).toContain(needed);
      expect(files.filter((f) => /^(test\/(unit|e2e|browser)|bench|scripts)\//.test(f))).toEqual([]);

      const vendor = join(work, "vendor");
      mkdirSync(vendor);
      writeFileSync(
        join(vendor, "package.json"),
        `${JSON.stringify({ name: "vendor", version: "1.0.0", private: true })}\n`,
      );
      // Its dependencies come from npm's cache where `npm ci` left them, else from the registry.
      const installed = await sh(
        "npm",
        ["install", "--prefer-offline", "--no-audit", "--no-fund", join(work, info[0]!.filename)],
        vendor,
      );
      expect(installed.code, installed.out).toBe(0);
      expect(existsSync(join(vendor, "node_modules", "idconform", "bin", "idconform.js"))).toBe(true);

      // The demo, from the installed package: one report folder, one path printed.
      const demo = await sh("npx", ["--no", "idconform", "demo"], vendor, {}, 240_000);
      expect(demo.code, demo.out).toBe(0);
      const runs = readdirSync(join(vendor, "reports"));
      expect(runs).toHaveLength(1);
      expect(demo.out.match(/^report: /gm)).toHaveLength(1);
      const r = JSON.parse(
        readFileSync(join(vendor, "reports", runs[0]!, "results.json"), "utf8"),
      ) as Results;
      expect(r.run.suites.map((s) => s.name).sort()).toEqual([
        "caep-receiver",
        "caep-transmitter",
        "commands",
        "federation",
        "scim",
        "vci",
      ]);
      expect(r.summary.fail + r.summary.error).toBe(0);

      // The vendor's own profile, outside the package, against a target it runs.
      const { loadTarget } = await import("../../src/engine/discovery.js");
      const target = await (await loadTarget("fixture")).start({ faults: [] });
      try {
        const profile = writeProfile(vendor, fixtureProfile(), "vendor.yaml");
        const run = await sh(
          "npx",
          ["--no", "idconform", "run", profile, "--out", "ci-out"],
          vendor,
          target.env,
        );
        expect(run.code, run.out).toBe(0);
        const res = JSON.parse(readFileSync(join(vendor, "ci-out", "results.json"), "utf8")) as Results;
        expect(res.run.profile.name).toBe("test-fixture");
        expect(existsSync(join(vendor, "ci-out", "junit.xml"))).toBe(true);
        expect(existsSync(join(vendor, "ci-out", "report.html"))).toBe(true);
      } finally {
        await target.close();
      }
    },
  );
});
