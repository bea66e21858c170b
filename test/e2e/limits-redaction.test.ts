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
