import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resultsProblems } from "../../src/report/validate.js";
import { startFixtureTarget } from "../fixture/target.js";
import { fixtureProfile, runCli, runFixture, tempDir, verdicts, writeProfile } from "../helpers/cli.js";

describe("demo and report outputs (core issue §7)", () => {
  it("demo writes report.html, results.json (valid against its schema), junit.xml and allure-results", async () => {
    const out = join(tempDir(), "demo");
    const res = await runCli(["demo", "--suite", "fixture", "--out", out]);
    expect(res.code, res.stderr).toBe(0);
    for (const f of ["report.html", "results.json", "junit.xml", "allure-results"])
      expect(existsSync(join(out, f)), f).toBe(true);
    const results = JSON.parse(readFileSync(join(out, "results.json"), "utf8")) as {
      run: { certifiable: boolean; notCertifiable: string[] };
    };
    expect(resultsProblems(results)).toEqual([]);
    expect(results.run.certifiable).toBe(false);
    expect(results.run.notCertifiable.join(" ")).toContain("plain http");
    const html = readFileSync(join(out, "report.html"), "utf8");
    expect(html).toContain("Not certifiable");
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=["']?https?:/);
    expect(readFileSync(join(out, "junit.xml"), "utf8")).toContain(
      '<testcase classname="fixture" name="FIX-HELLO-STATUS (MUST)',
    );
  });

  it("a warned SHOULD is marked in junit and allure, never a plain pass; report --allure builds one HTML file", async () => {
    const { dir, cli } = await runFixture({ faults: ["hello-cacheable"] });
    expect(cli.code).toBe(0);
    const junit = readFileSync(join(dir, "out", "junit.xml"), "utf8");
    expect(junit).toMatch(/FIX-HELLO-NO-STORE \(SHOULD\)[^"]*\[WARNING\]/);
    expect(junit).toContain('<property name="idconform.verdict" value="warn"/>');
    const res = await runCli(["report", join(dir, "out", "results.json"), "--allure"], {
      timeoutMs: 120_000,
    });
    expect(res.code, res.stderr).toBe(0);
    const index = join(dir, "out", "allure-report", "index.html");
    expect(existsSync(index)).toBe(true);
    expect(readFileSync(index, "utf8").length).toBeGreaterThan(10_000);
  });

  it("--grep runs only the matching requirements; the rest are listed as not run and the run is not certifiable", async () => {
    const { results } = await runFixture({ args: ["--grep", "FIX-AUTH"] });
    expect(Object.keys(verdicts(results)).sort()).toEqual([
      "FIX-AUTH-ACCEPTS",
      "FIX-AUTH-REQUIRED",
      "FIX-AUTH-REVOKE",
    ]);
    expect(results?.coverage.notRun.map((r) => r.id)).toContain("FIX-HELLO-STATUS");
    expect(results?.coverage.uncovered.map((r) => r.id)).toEqual(["FIX-CALLBACK-SIGNED"]);
    expect(results?.run.notCertifiable.join(" ")).toContain("--grep FIX-AUTH");
  });

  it("shards merge into the verdicts of a single run", async () => {
    // error-trace: the observer sees the violation in one shard only; the merge must keep it.
    const target = await startFixtureTarget({ faults: ["error-trace", "hello-cacheable"] });
    try {
      const dir = tempDir();
      const profile = writeProfile(dir, fixtureProfile());
      const whole = await runCli(["run", profile, "--out", join(dir, "whole")], { env: target.env });
      const s1 = await runCli(["run", profile, "--shard", "1/2", "--out", join(dir, "s1")], {
        env: target.env,
      });
      const s2 = await runCli(["run", profile, "--shard", "2/2", "--out", join(dir, "s2")], {
        env: target.env,
      });
      expect(whole.code).toBe(1);
      expect(s1.code === 1 || s2.code === 1).toBe(true);
      const merged = await runCli([
        "report",
        "--merge",
        join(dir, "s1"),
        join(dir, "s2"),
        "--out",
        join(dir, "merged"),
      ]);
      expect(merged.code).toBe(1);
      const read = (d: string) => JSON.parse(readFileSync(join(dir, d, "results.json"), "utf8"));
      const m = read("merged");
      expect(resultsProblems(m)).toEqual([]);
      expect(verdicts(m)).toEqual(verdicts(read("whole")));
      expect(verdicts(m)["FIX-ERROR-NO-TRACE"]).toBe("fail");
      // In either order: an observer's violation seen by one shard is the run's.
      await runCli(["report", "--merge", join(dir, "s2"), join(dir, "s1"), "--out", join(dir, "reversed")]);
      expect(verdicts(read("reversed"))).toEqual(verdicts(read("whole")));
      expect(m.run.notCertifiable.join(" ")).not.toContain("shard");
      const partial = await runCli(["report", "--merge", join(dir, "s1"), "--out", join(dir, "partial")]);
      expect(
        JSON.parse(readFileSync(join(dir, "partial", "results.json"), "utf8")).run.notCertifiable.join(" "),
      ).toContain("2/2 missing");
      expect([0, 1]).toContain(partial.code);
    } finally {
      await target.close();
    }
  });
});

describe("known-failure baseline (core issue §8)", () => {
  const known = "knownFailures:\n  - id: FIX-HELLO-JSON\n    reason: vendor ticket 42";

  it("a listed failure keeps the run green and is reported as known", async () => {
    const { cli, results } = await runFixture({ faults: ["hello-not-json"], knownFailures: known });
    expect(cli.code).toBe(0);
    expect(results?.requirements.find((r) => r.id === "FIX-HELLO-JSON")).toMatchObject({
      verdict: "fail",
      known: { stale: false },
    });
    expect(results?.knownFailures[0]?.status).toBe("held");
    expect(results?.run.certifiable).toBe(false);
  });

  it("a listed failure that now passes fails the run, so stale entries are caught", async () => {
    const { cli, results } = await runFixture({ knownFailures: known });
    expect(cli.code).toBe(1);
    expect(results?.knownFailures[0]?.status).toBe("stale");
    expect(cli.stderr).toContain("STALE KNOWN");
  });
});
