import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCheck, type CheckEnvironment } from "../../src/engine/check-runner.js";
import { defineCheck, type CheckResult, type Finding } from "../../src/engine/check.js";
import type { Level } from "../../src/engine/requirement.js";
import type { SkipKind } from "../../src/engine/verdict.js";
import { DEFAULT_CLIENT_OPTIONS } from "../../src/http/client.js";
import { writeAllureResults } from "../../src/report/allure.js";
import { diffResults } from "../../src/report/diff.js";
import { renderHtml } from "../../src/report/html.js";
import { renderJunit } from "../../src/report/junit.js";
import { mergeResults } from "../../src/report/merge.js";
import { mustCoverage, mustCoverageLine, mustOf, mustPercent } from "../../src/report/must-coverage.js";
import { recompute } from "../../src/report/recompute.js";
import { buildResults, type CatalogEntry, type Results } from "../../src/report/results.js";
import { resultsProblems } from "../../src/report/validate.js";
import { tempDir } from "../helpers/cli.js";

/** What one requirement is in a made-up run: an outcome, a skip of some kinds, not run, or uncovered. */
type Spec =
  "met" | "violated" | "errored" | { skipped: readonly (SkipKind | undefined)[] } | "not-run" | "uncovered";

function run(
  specs: Record<string, Spec | { level: Level; spec: Spec }>,
  meta: { certify?: boolean; notCertifiable?: string[]; shard?: string } = {},
): Results {
  const catalog: CatalogEntry[] = [];
  const checks: CheckResult[] = [];
  const covered = new Set<string>();
  for (const [id, s] of Object.entries(specs)) {
    const { level, spec } = typeof s === "object" && "level" in s ? s : { level: "MUST" as Level, spec: s };
    catalog.push({ id, suite: "t", level, text: `rule ${id}`, source: "t §1" });
    if (spec === "uncovered") continue;
    covered.add(id);
    if (spec === "not-run") continue;
    // A skip of several kinds: one check per kind, each skipping the requirement.
    const parts: { outcome: CheckResult["requirements"][string]; kind?: SkipKind }[] =
      typeof spec === "object"
        ? spec.skipped.map((k) => ({ outcome: "skipped", ...(k ? { kind: k } : {}) }))
        : [{ outcome: spec }];
    parts.forEach((p, i) => {
      const findings: Finding[] =
        p.outcome === "met"
          ? []
          : [
              {
                requirements: [id],
                outcome: p.outcome,
                message: `why ${id} ${i}`,
                exchanges: [],
                ...(p.kind ? { skipKind: p.kind } : {}),
              },
            ];
      checks.push({
        check: `c.${id}.${i}`,
        suite: "t",
        title: id,
        section: "§1",
        requirements: { [id]: p.outcome },
        findings,
        exchanges: [],
        notes: [],
        durationMs: 1,
      });
    });
  }
  return buildResults({
    meta: {
      id: "run",
      harness: { name: "idconform", version: "test" },
      profile: { name: "p", file: "p.yaml", sha256: "a".repeat(64) },
      suites: [{ name: "t", title: "t", document: "t", target: "https://t.example" }],
      seed: 1,
      strict: false,
      grep: [],
      ...(meta.shard ? { shard: meta.shard } : {}),
      startedAt: "2026-11-25T00:00:00.000Z",
      durationMs: 1,
      notCertifiable: meta.notCertifiable ?? [],
      interrupted: false,
      ...(meta.certify ? { certify: true } : {}),
    },
    catalog,
    covered,
    checks,
    knownFailures: [],
  });
}

/** A static-token run: every MUST met but the OAuth ones (not exercised) and revocation (needs probe). */
const staticToken = {
  "A-PASS": "met",
  "A-OFFERED": { skipped: ["not-offered"] },
  "A-STATIC": { skipped: ["not-declared"] },
  "A-PROBE": { skipped: ["needs-probe"] },
  "A-SHOULD": { level: "SHOULD", spec: { skipped: ["not-declared"] } },
} as const;

describe("MUST coverage: skipped MUSTs are not passes (issue 12 item 1)", () => {
  it("counts decided MUSTs out of applicable ones: not-offered does not apply, every other skip is not exercised", () => {
    const r = run({
      "M-PASS": "met",
      "M-FAIL": "violated",
      "M-OFFERED": { skipped: ["not-offered"] },
      "M-DECL": { skipped: ["not-declared"] },
      "M-PROBE": { skipped: ["needs-probe"] },
      "M-HOOK": { skipped: ["needs-hook"] },
      "M-SETUP": { skipped: ["not-exercised"] },
      "M-DEP": { skipped: ["dependency"] },
      "M-OTHER": { skipped: ["other"] },
      "M-OLD": { skipped: [undefined] },
      // Not offered for one check, needs a probe for another: it applies, and was not exercised.
      "M-MIXED": { skipped: ["not-offered", "needs-probe"] },
      "M-ERR": "errored",
      "M-NOCHECK": "uncovered",
      "M-GREP": "not-run",
      "S-SKIP": { level: "SHOULD", spec: { skipped: ["needs-probe"] } },
      "Y-FAIL": { level: "MAY", spec: "violated" },
    });
    const m = mustCoverage(r.requirements, r.coverage.uncovered);
    expect(m).toEqual(r.coverage.must);
    expect(m.decided).toBe(2);
    expect(m.notOffered).toBe(1);
    expect(m.applicable).toBe(12);
    expect(Object.fromEntries(m.notExercised.map((x) => [x.id, x.why.join(",")]))).toEqual({
      "M-DECL": "not-declared",
      "M-PROBE": "needs-probe",
      "M-HOOK": "needs-hook",
      "M-SETUP": "not-exercised",
      "M-DEP": "dependency",
      "M-OTHER": "other",
      "M-OLD": "unspecified",
      "M-MIXED": "needs-probe",
      "M-ERR": "error",
      "M-NOCHECK": "uncovered",
    });
    // The reason is the skip's own message, not the not-offered one beside it.
    expect(m.notExercised.find((x) => x.id === "M-MIXED")?.reason).toBe("why M-MIXED 1");
    expect(mustPercent(m)).toBe(16);
    expect(mustCoverageLine(m)).toBe(
      "MUST coverage: 2/12 (16 %) decided; 10 not exercised; 1 not offered by the target",
    );
  });

  it("rounds down: 199 of 200 is 99 %, never 100 %; no applicable MUST is 100 %", () => {
    expect(mustPercent({ applicable: 200, decided: 199, notOffered: 0, notExercised: [] })).toBe(99);
    expect(mustPercent({ applicable: 0, decided: 0, notOffered: 3, notExercised: [] })).toBe(100);
  });

  it("a run with an applicable MUST not exercised is not certifiable and says which; without --certify it exits 0", () => {
    const r = run(staticToken);
    expect(r.outcome.exitCode).toBe(0);
    expect(r.outcome.reason).toBe(
      "every MUST requirement exercised passed; 2 applicable MUST requirement(s) not exercised",
    );
    expect(r.run.certifiable).toBe(false);
    expect(r.run.notCertifiable).toEqual([
      "2 applicable MUST requirement(s) not exercised: A-STATIC (not-declared), A-PROBE (needs-probe)",
    ]);
    // Only not-offered skips and passes: certifiable, with the usual reason.
    const full = run({ "A-PASS": "met", "A-OFFERED": { skipped: ["not-offered"] } });
    expect(full.run.certifiable).toBe(true);
    expect(full.outcome.reason).toBe("every selected MUST requirement passed");
    expect(mustCoverageLine(full.coverage.must!)).toBe(
      "MUST coverage: 1/1 (100 %) decided; 1 not offered by the target",
    );
  });

  it("--certify: a run that is not certifiable exits 1 and says why; a certifiable one exits 0; failures and errors keep their codes", () => {
    const r = run(staticToken, { certify: true });
    expect(r.run.certify).toBe(true);
    expect(r.outcome.exitCode).toBe(1);
    expect(r.outcome.reason).toMatch(/^--certify: the run is not certifiable \(2 applicable MUST .*A-STATIC/);
    // Any reason the run is not certifiable counts: a certification run over plain http is none.
    const plain = run({ "A-PASS": "met" }, { certify: true, notCertifiable: ["plain http was allowed"] });
    expect(plain.outcome).toEqual({
      exitCode: 1,
      reason: "--certify: the run is not certifiable (plain http was allowed)",
    });
    expect(run({ "A-PASS": "met" }, { certify: true }).outcome.exitCode).toBe(0);
    const failed = run({ ...staticToken, "A-FAIL": "violated" }, { certify: true });
    expect(failed.outcome).toEqual({ exitCode: 1, reason: "1 requirement(s) failed" });
    expect(run({ ...staticToken, "A-ERR": "errored" }, { certify: true }).outcome.exitCode).toBe(3);
  });

  it("an error is listed once among the reasons, not again as not exercised", () => {
    const r = run({ "A-PASS": "met", "A-ERR": "errored" });
    expect(r.run.notCertifiable).toEqual(["1 requirement(s) could not be decided (error)"]);
    expect(r.coverage.must?.notExercised.map((x) => x.id)).toEqual(["A-ERR"]);
  });

  it("names at most 20 requirements in the reason, and counts the rest", () => {
    const many = Object.fromEntries(
      Array.from(
        { length: 23 },
        (_, i) => [`B-${String(i).padStart(2, "0")}`, { skipped: ["needs-hook"] }] as const,
      ),
    );
    const reason = run(many).run.notCertifiable[0]!;
    expect(reason).toMatch(/^23 applicable MUST requirement\(s\) not exercised: B-00 \(needs-hook\),/);
    expect(reason).toMatch(/B-19 \(needs-hook\), and 3 more$/);
    expect(reason).not.toContain("B-20");
  });

  it("results.json: the schema takes coverage.must, run.certify and the new kinds, and a file from before them", () => {
    const r = run(
      { ...staticToken, "A-HOOK": { skipped: ["needs-hook"] }, "A-SET": { skipped: ["not-exercised"] } },
      { certify: true },
    );
    expect(resultsProblems(JSON.parse(JSON.stringify(r)))).toEqual([]);
    const older = olderFile(run(staticToken));
    expect(resultsProblems(older)).toEqual([]);
    expect(
      resultsProblems({ ...r, coverage: { ...r.coverage, must: { ...r.coverage.must, extra: 1 } } }),
    ).not.toEqual([]);
    // An older file is read as it is: its coverage is computed from its verdicts.
    expect(mustOf(older)).toEqual(run(staticToken).coverage.must);
    expect(mustOf(older).notExercised.map((x) => x.id)).toEqual(["A-STATIC", "A-PROBE"]);
  });

  it("verify recomputes MUST coverage and the --certify exit code, and names a stored figure that disagrees", () => {
    for (const r of [
      run(staticToken),
      run(staticToken, { certify: true }),
      run({ "A-PASS": "met" }, { certify: true }),
    ]) {
      const c = recompute(r);
      expect(c.disagreements).toEqual([]);
      expect(c.exitCode).toBe(r.outcome.exitCode);
      expect(c.must).toEqual(r.coverage.must);
    }
    // A file from before coverage.must: judged as then, no disagreement for what it could not store.
    expect(recompute(olderFile(run(staticToken))).disagreements).toEqual([]);
    const r = run(staticToken, { certify: true });
    const forged: Results = {
      ...r,
      run: { ...r.run, notCertifiable: [], certifiable: true },
      coverage: { ...r.coverage, must: { ...r.coverage.must!, decided: 3, notExercised: [] } },
      outcome: { exitCode: 0, reason: "every selected MUST requirement passed" },
    };
    const d = recompute(forged).disagreements.join("\n");
    expect(d).toContain("coverage.must.decided: stored 3, recomputed 1");
    expect(d).toContain(
      "coverage.must.notExercised: stored 0 requirement(s), recomputed 2 (A-STATIC, A-PROBE)",
    );
    expect(d).toContain("outcome.exitCode: stored 0, recomputed 1");
    expect(d).toContain("run.certifiable: stored true");
  });

  it("a merge of shards counts the derived reasons once, from the merged verdicts", () => {
    const one = run(
      { "A-PASS": "met", "A-STATIC": { skipped: ["not-declared"] }, "A-PROBE": "not-run" },
      { shard: "1/2", notCertifiable: ["shard 1/2: merge"] },
    );
    const two = run(
      { "A-PASS": "not-run", "A-STATIC": "not-run", "A-PROBE": { skipped: ["needs-probe"] } },
      { shard: "2/2", notCertifiable: ["shard 2/2: merge"] },
    );
    const m = mergeResults([one, two]);
    expect(m.run.notCertifiable).toEqual([
      "2 applicable MUST requirement(s) not exercised: A-STATIC (not-declared), A-PROBE (needs-probe)",
    ]);
    expect(m.coverage.must?.applicable).toBe(3);
    expect(recompute(m).disagreements).toEqual([]);
  });

  it("report.html, junit, Allure and diff show MUST coverage and each MUST not exercised with why", () => {
    const r = run(staticToken);
    const html = renderHtml(r);
    expect(html).toContain('id="must-coverage"');
    expect(html).toContain("MUST coverage: 1/3 (33 %) decided; 2 not exercised; 1 not offered by the target");
    const list = html.slice(html.indexOf('id="not-exercised-list"'));
    expect(list).toContain(
      '<code>A-PROBE</code> (t) <span class="why">needs-probe: the profile gives no probe for it</span> — why A-PROBE 0',
    );
    expect(list).toContain("<code>A-STATIC</code>");
    expect(renderHtml(run({ "A-PASS": "met" }))).toContain(
      "Applicable MUST requirements not exercised (0)</h3><p>None.</p>",
    );

    const junit = renderJunit(r);
    expect(junit).toContain(
      '<property name="idconform.mustCoverage" value="MUST coverage: 1/3 (33 %) decided; 2 not exercised; 1 not offered by the target"/>',
    );
    expect(junit).toContain('<property name="idconform.mustNotExercised" value="A-STATIC A-PROBE"/>');
    expect(junit).toContain(
      '<skipped message="NOT EXERCISED (needs-probe: the profile gives no probe for it): why A-PROBE 0"/>',
    );
    expect(junit).toContain('<skipped message="not-offered: why A-OFFERED 0"/>');

    const dir = tempDir();
    writeAllureResults(r, dir);
    const env = readFileSync(join(dir, "environment.properties"), "utf8");
    expect(env).toContain("mustCoverage=MUST coverage: 1/3 (33 %) decided");
    expect(env).toContain("mustNotExercised=A-STATIC A-PROBE");
    const allure = readdirSync(dir)
      .filter((f) => f.endsWith("-result.json"))
      .map(
        (f) =>
          JSON.parse(readFileSync(join(dir, f), "utf8")) as {
            fullName: string;
            statusDetails: { message: string };
            labels: { name: string; value: string }[];
          },
      );
    const probe = allure.find((a) => a.fullName === "t.A-PROBE")!;
    expect(probe.statusDetails.message).toMatch(/^NOT EXERCISED \(needs-probe: /);
    expect(probe.labels).toContainEqual({ name: "tag", value: "not-exercised" });
    expect(allure.find((a) => a.fullName === "t.A-OFFERED")!.labels).not.toContainEqual({
      name: "tag",
      value: "not-exercised",
    });

    const d = diffResults(run({ ...staticToken, "A-PROBE": "met" }), r);
    expect(d.notes).toContain("MUST coverage changed: old 2/3 (66 %), new 1/3 (33 %)");
  });

  it("features.<name>: false skips as not-offered; a feature left out is not-declared", async () => {
    const env: CheckEnvironment = {
      suite: "unit",
      section: "§1",
      profile: {},
      features: { cursor: false },
      probes: {},
      client: { ...DEFAULT_CLIENT_OPTIONS, allowInsecureHttp: true },
      secrets: [],
      seed: 1,
      runId: "r",
      provided: {},
    };
    const def = (feature: string) =>
      defineCheck({ id: "unit.f", title: "t", requirements: ["U-F"], feature, async run() {} });
    const off = await runCheck(def("cursor"), env);
    expect(off.findings[0]).toMatchObject({ skipKind: "not-offered" });
    expect(off.findings[0]?.message).toContain("suites.unit.features.cursor: false");
    expect((await runCheck(def("other"), env)).findings[0]).toMatchObject({ skipKind: "not-declared" });
  });
});

/** The file a run wrote before MUST coverage was stored: no coverage.must, no run.certify. */
function olderFile(r: Results): Results {
  const { must: _must, ...coverage } = r.coverage;
  const { certify: _certify, ...meta } = r.run;
  return JSON.parse(
    JSON.stringify({
      ...r,
      run: {
        ...meta,
        notCertifiable: meta.notCertifiable.filter((x) => !x.includes("not exercised")),
        certifiable: true,
      },
      coverage,
      outcome: { ...r.outcome, reason: "every selected MUST requirement passed" },
    }),
  ) as Results;
}
