import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startFixtureTarget } from "../fixture/target.js";
import { ROOT, fixtureProfile, runFixture, tempDir, writeProfile } from "../helpers/cli.js";

const tlsDir = join(ROOT, "test", "fixture", "tls");

/** `idconform run` as a child whose signals a test sends itself. */
function spawnRun(profile: string, dir: string, env: Record<string, string>): ReturnType<typeof spawn> {
  return spawn(
    process.execPath,
    [join(ROOT, "bin", "idconform.js"), "run", profile, "--out", join(dir, "out")],
    {
      cwd: ROOT,
      env: { ...process.env, ...env, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
}
const tls = {
  key: readFileSync(join(tlsDir, "server.key"), "utf8"),
  cert: readFileSync(join(tlsDir, "server.pem"), "utf8"),
};

describe("TLS is verified, with an optional CA from the profile (core issue §4)", () => {
  it("with the profile's CA an https target is checked, and the run is certifiable", async () => {
    const { cli, results } = await runFixture({
      tls,
      options: `  allowInsecureHttp: false\n  tls:\n    caFile: ${join(tlsDir, "ca.pem")}`,
    });
    expect(cli.code, cli.stderr).toBe(0);
    expect(results?.run.certifiable).toBe(true);
  });

  it("without it, certificate verification fails and nothing is decided (error, exit 3)", async () => {
    const { cli, results } = await runFixture({ tls, options: "  allowInsecureHttp: false" });
    expect(cli.code).toBe(3);
    const f = results?.requirements.find((r) => r.id === "FIX-HELLO-STATUS")?.findings[0];
    expect(f?.code).toBe("IDC_HTTP_TLS");
  });
});

describe("Ctrl-C keeps what finished (core issue: nothing lost)", () => {
  it("an interrupted run stops the check in flight, still writes its report, marked interrupted, exit 3", async () => {
    let child: ReturnType<typeof spawn> | undefined;
    let sent = false;
    // Interrupt exactly when the target has received the request it will never answer.
    const target = await startFixtureTarget({
      faults: ["hello-hang"],
      onRequest: (path) => {
        if (path === "/hello" && !sent && child) {
          sent = true;
          child.kill("SIGINT");
        }
      },
    });
    try {
      const dir = tempDir();
      const profile = writeProfile(dir, fixtureProfile({ options: "  timeouts:\n    requestMs: 30000" }));
      child = spawnRun(profile, dir, target.env);
      let stderr = "";
      child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise<number | null>((resolve) => child?.on("close", resolve));
      expect(sent).toBe(true);
      expect(code, stderr).toBe(3);
      const results = JSON.parse(readFileSync(join(dir, "out", "results.json"), "utf8"));
      expect(results.run.interrupted).toBe(true);
      // The check in flight was aborted, not left to run into its 30 s timeout.
      const hello = results.requirements.find((r: { id: string }) => r.id === "FIX-HELLO-STATUS");
      expect(hello.findings[0].message).toContain("aborted: the run or the check was stopped");
      expect(existsSync(join(dir, "out", "report.html"))).toBe(true);
    } finally {
      await target.close();
    }
  });
});

describe("a second Ctrl-C writes the report of what finished (hostile targets item 3)", () => {
  it("interrupted twice during a slow clean-up, the run stops waiting and still writes its report", async () => {
    let child: ReturnType<typeof spawn> | undefined;
    let deletes = 0;
    // The first Ctrl-C lets the clean-up go on; the second stops waiting for it.
    const target = await startFixtureTarget({
      faults: ["slow-cleanup"],
      onRequest: (path) => {
        if (!path.startsWith("/things/") || !child) return;
        deletes++;
        if (deletes === 1 || deletes === 3) child.kill("SIGINT");
      },
    });
    try {
      const dir = tempDir();
      // Left alone, the clean-up would have a minute (its share of runMs).
      const profile = writeProfile(dir, fixtureProfile({ options: "  timeouts:\n    runMs: 600000" }));
      child = spawnRun(profile, dir, target.env);
      let stderr = "";
      child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise<number | null>((resolve) => child?.on("close", resolve));
      expect(deletes).toBeGreaterThanOrEqual(3);
      expect(deletes).toBeLessThan(200);
      expect(stderr).toContain("writing the report of what finished now");
      const results = JSON.parse(readFileSync(join(dir, "out", "results.json"), "utf8"));
      expect(code, stderr).toBe(3);
      expect(results.run.interrupted).toBe(true);
      // Every check had finished: the report keeps all of them.
      expect(results.requirements.every((r: { verdict: string }) => r.verdict === "pass")).toBe(true);
      expect(results.coverage.notRun).toEqual([]);
      expect(JSON.stringify(results.cleanup)).toContain("halted");
    } finally {
      await target.close();
    }
  });
});
