import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runFixture } from "../helpers/cli.js";

function allFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? allFiles(p) : [p];
  });
}

describe("hostile targets: caps and timeouts end in findings and the run ends (design: honesty rule 5)", () => {
  it("a target streaming 100 MB is cut at the size cap", async () => {
    const { cli, results } = await runFixture({
      faults: ["hello-flood"],
      options: "  maxResponseBytes: 1048576",
    });
    expect(cli.code).toBe(3);
    const f = results?.requirements.find((r) => r.id === "FIX-HELLO-STATUS")?.findings[0];
    expect(f?.code).toBe("IDC_HTTP_TOO_LARGE");
    expect(f?.message).toContain("1048576-byte cap");
  });

  it("a target that never answers is given up at the request timeout", async () => {
    const { cli, results } = await runFixture({
      faults: ["hello-hang"],
      options: "  timeouts:\n    requestMs: 800",
    });
    expect(cli.code).toBe(3);
    const q = results?.requirements.find((r) => r.id === "FIX-HELLO-JSON");
    expect(q?.verdict).toBe("error");
    expect(q?.findings[0]?.message).toContain("no complete response within 800 ms");
    const check = results?.checks.find((c) => c.check === "fixture.hello-shape");
    expect(check?.exchanges[0]?.error?.code).toBe("IDC_HTTP_TIMEOUT");
  });

  it("a redirect loop is a finding of the check that follows redirects", async () => {
    const { results } = await runFixture({ faults: ["docs-redirect-loop"] });
    const q = results?.requirements.find((r) => r.id === "FIX-DOCS-REACHABLE");
    expect(q?.verdict).toBe("fail");
    expect(q?.findings[0]?.actual).toContain("loop back to");
  });

  it("the run timeout stops a run and the report keeps what finished", async () => {
    const { cli, results } = await runFixture({
      faults: ["hello-hang"],
      options: "  timeouts:\n    requestMs: 30000\n    runMs: 2500",
    });
    expect(cli.code).toBe(3);
    expect(cli.stderr).toContain("options.timeouts.runMs");
    expect(results?.run.interrupted).toBe(true);
    expect(results?.outcome.reason).toContain("interrupted");
  });
});

describe("secrets never reach an output (design: honesty rule 6)", () => {
  it("the profile's token appears in no output file, even though the target echoes it", async () => {
    // auth-rejects-valid makes the target echo the presented token in a failing 401 body.
    const { cli, dir, token } = await runFixture({ faults: ["auth-rejects-valid"] });
    expect(cli.code).toBe(1);
    const files = allFiles(join(dir, "out"));
    expect(files.length).toBeGreaterThan(4);
    for (const f of files) expect(readFileSync(f, "utf8").includes(token), f).toBe(false);
    expect(cli.stderr.includes(token) || cli.stdout.includes(token)).toBe(false);
    const results = readFileSync(join(dir, "out", "results.json"), "utf8");
    expect(results).toContain("Bearer ${IDC_DEMO_FIXTURE_TOKEN}");
    expect(readFileSync(join(dir, "out", "report.html"), "utf8")).toContain("${IDC_DEMO_FIXTURE_TOKEN}");
  });
});

/** Every output file and the console, for a search of leaked values. */
function outputs(dir: string, cli: { stdout: string; stderr: string }): { name: string; text: string }[] {
  return [
    ...allFiles(join(dir, "out")).map((f) => ({ name: f, text: readFileSync(f, "utf8") })),
    { name: "console", text: cli.stdout + cli.stderr },
  ];
}

describe("hostile targets: secrets of any size and number stay out of every output (hostile targets item 1)", () => {
  it("a 1 MB access token the target mints and echoes leaves no trace, not even a part of it", async () => {
    const { cli, dir, results, issued, token } = await runFixture({ faults: ["mint-huge-token"] });
    expect(cli.code, cli.stderr).toBe(0);
    const huge = [...issued].filter((t) => t !== token);
    expect(huge.length).toBeGreaterThan(0);
    expect(huge.every((t) => t.length > 1_000_000)).toBe(true);
    for (const o of outputs(dir, cli)) {
      for (const t of huge) {
        expect(o.text.includes(t.slice(0, 40)), `${o.name} holds the start of the token`).toBe(false);
        expect(o.text.includes(t.slice(500_000, 500_040)), `${o.name} holds a part of the token`).toBe(false);
      }
      // The evidence keeps a bounded start of each body: no output grows with the token.
      expect(o.text.length, o.name).toBeLessThan(4 * 1024 * 1024);
    }
    const revoke = results?.checks.find((c) => c.check === "fixture.auth-revoke");
    const bodies = revoke?.exchanges.map((e) => e.response?.body ?? "").join("\n");
    expect(bodies).toContain('"seen":"${ACCESS_TOKEN}');
    expect(JSON.stringify(results)).not.toContain("IDC_INTERNAL");
  });

  it("1,000 live tokens a target lists and then echoes in plain text appear in no output", async () => {
    const { cli, dir, issued, token } = await runFixture({ faults: ["mint-many-secrets"] });
    expect(cli.code, cli.stderr).toBe(0);
    const live = [...issued].filter((t) => t !== token);
    expect(live.length).toBeGreaterThan(1000);
    const all = outputs(dir, cli);
    const leaked = live.filter((t) => all.some((o) => o.text.includes(t)));
    expect(leaked).toEqual([]);
    const results = readFileSync(join(dir, "out", "results.json"), "utf8");
    expect(results).toContain("valid tokens: ${ACCESS_TOKEN}");
  });
});

describe("hostile targets: garbage is a finding about the target (hostile targets item 4)", () => {
  it("JSON nested 100,000 deep fails the requirement it breaks, with no harness fault", async () => {
    const { cli, results } = await runFixture({ faults: ["hello-deep-json"] });
    expect(cli.code, cli.stderr).toBe(1);
    const q = results?.requirements.find((r) => r.id === "FIX-HELLO-JSON");
    expect(q?.verdict).toBe("fail");
    expect(q?.findings[0]?.actual).toContain("nested deeper than 128 levels");
    expect(JSON.stringify(results)).not.toContain("IDC_INTERNAL");
    expect(JSON.stringify(results)).not.toContain("harness fault");
  });
});

describe("hostile targets: the run is bounded and always reported (hostile targets items 2 and 3)", () => {
  it("a slow clean-up ends at runMs, and the report says what was not deleted", async () => {
    // 1,000 leftovers at 250 ms each would take over four minutes; the run has 8 s in all.
    const { cli, results } = await runFixture({
      faults: ["slow-cleanup"],
      options: "  timeouts:\n    runMs: 8000\n    cleanupMs: 2000",
      timeoutMs: 60_000,
    });
    expect(cli.code, cli.stderr).toBe(0);
    const left = results?.cleanup.find((c) => c.suite === "fixture")?.leftovers.join("\n") ?? "";
    expect(left).toMatch(/^\d+ of 1000 things of this run were not deleted \(the clean-up's share/);
    expect(left).toContain("and ");
  });

  it("a test worker that dies makes its unfinished checks an error with the reason, and the rest still run", async () => {
    const { cli, results } = await runFixture({ extra: "    killWorkerAt: fixture.hello-shape" });
    expect(cli.code, cli.stderr).toBe(3);
    const v = Object.fromEntries((results?.requirements ?? []).map((r) => [r.id, r]));
    expect(v["FIX-HELLO-STATUS"]?.verdict).toBe("error");
    expect(v["FIX-HELLO-STATUS"]?.findings[0]?.message).toContain("test worker");
    expect(v["FIX-AUTH-ACCEPTS"]?.verdict).toBe("pass");
    expect(results?.coverage.notRun.map((r) => r.id)).not.toContain("FIX-HELLO-STATUS");
  });
});
