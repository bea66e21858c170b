import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { faults } from "../../targets/scim/faults.js";
import type { ResultsDiff } from "../../src/report/diff.js";
import { fixtureProfile, runCli, runDemoProfile, tempDir, writeProfile } from "../helpers/cli.js";

const FAULT = "deleted-username-reserved";
const breaks = [...(faults.find((f) => f.id === FAULT)?.breaks ?? [])].sort();

// Issue 12 item 8: the diff of a clean and a faulted demo run names exactly the fault's breaks.
describe("idconform diff and run --compare on SCIM demo runs (issue 12 item 8)", () => {
  let clean = "";
  let clean2 = "";
  let faulted = "";
  let faultedDir = "";
  beforeAll(async () => {
    const a = await runDemoProfile("scim", []);
    expect(a.cli.code, a.cli.stderr).toBe(0);
    clean = join(a.dir, "out", "results.json");
    const b = await runDemoProfile("scim", []);
    expect(b.cli.code, b.cli.stderr).toBe(0);
    clean2 = join(b.dir, "out", "results.json");
    const f = await runDemoProfile("scim", [FAULT], ["--compare", clean]);
    expect(f.cli.code, f.cli.stderr).toBe(1);
    faultedDir = join(f.dir, "out");
    faulted = join(faultedDir, "results.json");
    expect(f.cli.stderr).toContain(`compared with ${clean}: ${breaks.length} requirement(s) regressed`);
  }, 400_000);

  it("lists exactly the requirements the fault breaks as regressions, and exits 1", async () => {
    expect(breaks.length).toBeGreaterThan(0);
    const json = await runCli(["diff", clean, faulted, "--json"]);
    expect(json.code, json.stderr).toBe(1);
    const d = JSON.parse(json.stdout) as ResultsDiff;
    const regressed = d.entries.filter((e) => e.change === "regressed");
    expect(regressed.map((e) => e.id).sort()).toEqual(breaks);
    expect(regressed.every((e) => e.before === "pass" && (e.after === "fail" || e.after === "warn"))).toBe(
      true,
    );
    expect(d.counts.regressed).toBe(breaks.length);

    const text = await runCli(["diff", clean, faultedDir]);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(`Regressed (pass → fail, warn or error): ${breaks.length}`);
    for (const id of breaks)
      expect(text.stdout).toMatch(new RegExp(`^  ${id} \\(MUST, scim\\): pass → fail`, "m"));
    expect(text.stdout).toMatch(/exit 1: \d+ requirement\(s\) regressed\n$/);

    // Read the other way round, the fault's requirements are fixed, nothing regressed.
    const back = await runCli(["diff", faulted, clean, "--json"]);
    expect(back.code).toBe(0);
    const fixed = (JSON.parse(back.stdout) as ResultsDiff).entries.filter((e) => e.change === "fixed");
    expect(fixed.map((e) => e.id).sort()).toEqual(breaks);
  });

  it("exits 0 for two clean runs", async () => {
    const r = await runCli(["diff", clean, clean2]);
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toContain("0 regressed · 0 fixed");
  });

  it("writes a Markdown summary for a pull request comment", async () => {
    const r = await runCli(["diff", clean, faulted, "--markdown"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^### idconform: \d+ requirement\(s\) regressed\n/);
    expect(r.stdout).toContain("| regressed | fixed | verdict changed |");
    for (const id of breaks)
      expect(r.stdout).toMatch(new RegExp(`^- \`${id}\` MUST · \`scim\`: pass → \\*\\*fail\\*\\*`, "m"));
  });

  it("puts the same diff at the top of the faulted run's report.html", () => {
    const html = readFileSync(join(faultedDir, "report.html"), "utf8");
    const at = html.indexOf('<section id="compare">');
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan(html.indexOf('<section class="meta">'));
    const section = html.slice(at, html.indexOf("</section>", at));
    expect(section).toContain(`${breaks.length} requirement(s) regressed`);
    for (const id of breaks) expect(section).toContain(`<td class="id">${id}</td>`);
  });
});

describe("idconform diff refuses what is not a results.json (exit 2)", () => {
  const dir = tempDir();
  const good = join(dir, "good.json");

  it("names the file and the problem; a usage mistake is exit 2 too", async () => {
    writeFileSync(join(dir, "not.json"), "not json at all");
    writeFileSync(join(dir, "other.json"), JSON.stringify({ keys: [] }));
    const r = await runCli(["diff", join(dir, "not.json"), join(dir, "other.json")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error IDC_RESULTS_INVALID: ${join(dir, "not.json")}: not JSON\n`);
    expect(r.stdout).toBe("");
    const r2 = await runCli(["diff", join(dir, "other.json"), join(dir, "other.json")]);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain("not an idconform results.json");
    const one = await runCli(["diff", good]);
    expect(one.code).toBe(2);
    expect(one.stderr).toContain("usage: idconform diff <old results.json|dir> <new results.json|dir>");
  });

  it("run --compare with a bad file stops before the run starts (exit 2)", async () => {
    writeFileSync(join(dir, "bad.json"), "{");
    const profile = writeProfile(dir, fixtureProfile());
    const r = await runCli(["run", profile, "--compare", join(dir, "bad.json"), "--out", join(dir, "out")], {
      env: { IDC_DEMO_FIXTURE_URL: "http://127.0.0.1:9", IDC_DEMO_FIXTURE_TOKEN: "t" },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error IDC_USAGE: --compare: ${join(dir, "bad.json")}: not JSON`);
  });
});
