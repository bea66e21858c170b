import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Results } from "../../src/report/results.js";
import { runCli, tempDir } from "../helpers/cli.js";

describe("idconform demo: one report for all its suites", () => {
  it("runs two suites and writes one report.html with both side by side, printing one path", async () => {
    const out = join(tempDir(), "demo");
    const res = await runCli(["demo", "--suite", "fixture", "--suite", "scim", "--out", out], {
      timeoutMs: 120_000,
    });
    expect(res.code, res.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual(["allure-results", "junit.xml", "report.html", "results.json"]);
    const r = JSON.parse(readFileSync(join(out, "results.json"), "utf8")) as Results;
    expect(r.run.suites.map((s) => s.name)).toEqual(["fixture", "scim"]);
    expect(r.suites.map((s) => s.name)).toEqual(["fixture", "scim"]);
    expect(r.requirements.some((q) => q.suite === "fixture")).toBe(true);
    expect(r.requirements.some((q) => q.suite === "scim")).toBe(true);
    expect(r.run.profile.name).toBe("demo");
    expect(r.run.id).toMatch(/-demo-[0-9a-f]{4}$/);
    // One summary, one report path, one line to open it.
    expect(res.stderr.match(/^report: /gm)).toHaveLength(1);
    expect(res.stderr.match(/^open it: /gm)).toHaveLength(1);
    expect(res.stderr.match(/^exit \d/gm)).toHaveLength(1);
    expect(res.stderr).toMatch(/^fixture: \d+ pass/m);
    expect(res.stderr).toMatch(/^scim: \d+ pass/m);
    const html = readFileSync(join(out, "report.html"), "utf8");
    expect(html).toContain("<td>fixture</td>");
    expect(html).toContain("<td>scim</td>");
    // The profiles' secrets (the demo targets' tokens and keys) stay out of the joined report.
    expect(html).not.toMatch(/"d":"[A-Za-z0-9_-]{20,}/);
  });

  it("without --out writes one folder under reports/", async () => {
    const cwd = tempDir();
    const res = await runCli(["demo", "--suite", "fixture"], { cwd, timeoutMs: 60_000 });
    expect(res.code, res.stderr).toBe(0);
    const dirs = readdirSync(join(cwd, "reports"));
    expect(dirs).toHaveLength(1);
    expect(existsSync(join(cwd, "reports", dirs[0]!, "report.html"))).toBe(true);
  });

  it("stops before any target starts, in one line with what to do, when Chromium is missing", async () => {
    const res = await runCli(["demo", "--suite", "vci", "--out", join(tempDir(), "x")], {
      env: { CHROMIUM_PATH: "/nonexistent/idconform-test/chromium" },
    });
    expect(res.code).toBe(3);
    expect(res.stderr.trim().split("\n")).toEqual([
      "error IDC_SETUP: Chromium is missing at /nonexistent/idconform-test/chromium (the vci suite's browser step needs it): CHROMIUM_PATH names no file; fix it, or unset it to use Debian's chromium",
    ]);
  });
});
