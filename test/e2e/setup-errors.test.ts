import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Results } from "../../src/report/results.js";
import { startVciTarget } from "../../targets/vci/start.js";
import { ROOT, runCli, tempDir, writeProfile } from "../helpers/cli.js";

/** The demo profile with one setting broken, run on the offer and metadata requirements. */
async function runBroken(
  replace: (yaml: string) => string,
): Promise<{ code: number | null; stderr: string; r: Results; html: string }> {
  const yaml = replace(readFileSync(join(ROOT, "profiles", "demo", "vci.yaml"), "utf8"));
  const t = await startVciTarget({ faults: [] });
  try {
    const dir = tempDir();
    const out = join(dir, "out");
    const cli = await runCli(
      ["run", writeProfile(dir, yaml), "--grep", "VCI-OFFER", "--grep", "VCI-META", "--out", out],
      { env: t.env, timeoutMs: 120_000 },
    );
    const r = JSON.parse(readFileSync(join(out, "results.json"), "utf8")) as Results;
    return { code: cli.code, stderr: cli.stderr, r, html: readFileSync(join(out, "report.html"), "utf8") };
  } finally {
    await t.close();
  }
}

/** What a newcomer must see: one setup problem naming the path, nothing blamed on the target. */
function expectOneSetupProblem(
  o: Awaited<ReturnType<typeof runBroken>>,
  path: string,
  problem: RegExp,
): void {
  expect(o.code, o.stderr).toBe(3);
  const setup = o.r.setup ?? [];
  expect(setup.map((p) => p.path)).toEqual([path]);
  expect(setup[0]!.problem).toMatch(problem);
  // The first check that met it stopped the others that need an offer, without asking again.
  expect(setup[0]!.checks.length).toBeGreaterThan(1);
  const stopped = o.r.checks.flatMap((c) => c.findings.filter((f) => f.setup !== undefined));
  expect(new Set(stopped.map((f) => f.setup!.foundBy))).toEqual(new Set([setup[0]!.check]));
  // Every requirement left undecided is the setup's: no harness fault, nothing failed.
  const errored = o.r.requirements.filter((q) => q.verdict === "error");
  expect(errored.length).toBeGreaterThan(0);
  expect(errored.map((q) => q.id).sort()).toEqual([...setup[0]!.requirements].sort());
  expect(o.r.requirements.filter((q) => q.verdict === "fail")).toEqual([]);
  expect(JSON.stringify(o.r)).not.toMatch(/harness fault|IDC_INTERNAL/);
  // Metadata needs no offer: it is still judged.
  expect(o.r.requirements.find((q) => q.id === "VCI-META-WELL-KNOWN")?.verdict).toBe("pass");
  // The console: one SETUP line with the path, no ERROR line per requirement, exit 3 saying why.
  const lines = o.stderr.split("\n");
  expect(lines.filter((l) => l.includes("SETUP"))).toEqual([
    expect.stringContaining(`SETUP       ${path}: `),
  ]);
  expect(lines.filter((l) => /^\s+ERROR\s/.test(l))).toEqual([]);
  expect(o.stderr).toMatch(new RegExp(`^exit 3: setup: ${path.replaceAll(".", "\\.")}: `, "m"));
  // The report lists it under "setup", before the target's results.
  expect(o.html).toContain('<section id="setup">');
  expect(o.html.indexOf('<section id="setup">')).toBeLessThan(o.html.indexOf("<h2>Summary</h2>"));
  expect(o.html).toContain(`<span class="path">${path}</span>`);
}

describe("setup errors apart from the target's failures (issue 12 item 2)", () => {
  it("a wrong offers.trigger.offerMember: one setup problem naming the path and the members the hook gave, exit 3", async () => {
    const o = await runBroken((y) =>
      y.replace("      trigger:\n", "      trigger:\n        offerMember: invitation\n"),
    );
    expectOneSetupProblem(
      o,
      "suites.vci.offers.trigger.offerMember",
      /^the hook answered members [a-z_, ]*offer[a-z_, ]*; none is "invitation"/,
    );
  });

  it("a hook URL that answers 404: one setup problem naming suites.vci.offers.trigger.url, exit 3", async () => {
    const o = await runBroken((y) =>
      y.replace("url: ${IDC_DEMO_VCI_HOOK_URL}", "url: ${IDC_DEMO_VCI_HOOK_URL}/no-such-hook"),
    );
    expectOneSetupProblem(o, "suites.vci.offers.trigger.url", /^the offer hook answered 404\b/);
  });
});
