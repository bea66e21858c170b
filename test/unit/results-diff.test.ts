import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CheckResult, Finding } from "../../src/engine/check.js";
import type { SkipKind } from "../../src/engine/verdict.js";
import { buildResults, type CatalogEntry, type Results } from "../../src/report/results.js";
import { diffResults, readResultsForDiff } from "../../src/report/diff.js";
import { codeSpan, diffMarkdown, diffText } from "../../src/report/diff-format.js";
import { renderHtml } from "../../src/report/html.js";
import { tempDir } from "../helpers/cli.js";

/** What one requirement is in a made-up run. */
type Spec =
  | "met"
  | "violated"
  | "errored"
  | `skipped:${SkipKind}`
  | "not-run"
  | "uncovered"
  | { level: "MUST" | "SHOULD"; outcome: "met" | "violated"; message?: string };

function run(
  specs: Record<string, Spec>,
  opts: { strict?: boolean; sha?: string; id?: string; grep?: string[]; known?: string[] } = {},
): Results {
  const catalog: CatalogEntry[] = [];
  const checks: CheckResult[] = [];
  const covered = new Set<string>();
  for (const [id, spec] of Object.entries(specs)) {
    const level = typeof spec === "object" ? spec.level : "MUST";
    catalog.push({ id, suite: "t", level, text: `rule ${id}`, source: "t §1" });
    if (spec === "uncovered") continue;
    covered.add(id);
    if (spec === "not-run") continue;
    const outcome = typeof spec === "object" ? spec.outcome : spec.startsWith("skipped") ? "skipped" : spec;
    const findings: Finding[] =
      outcome === "met"
        ? []
        : [
            {
              requirements: [id],
              outcome: outcome as Finding["outcome"],
              message: typeof spec === "object" ? (spec.message ?? "not met") : `why ${id}`,
              exchanges: [],
              ...(typeof spec === "string" && spec.startsWith("skipped:")
                ? { skipKind: spec.slice(8) as SkipKind }
                : {}),
            },
          ];
    checks.push({
      check: `c.${id}`,
      suite: "t",
      title: id,
      section: "§1",
      requirements: { [id]: outcome as CheckResult["requirements"][string] },
      findings,
      exchanges: [],
      notes: [],
      durationMs: 1,
    });
  }
  return buildResults({
    meta: {
      id: opts.id ?? "run",
      harness: { name: "idconform", version: "test" },
      profile: { name: "p", file: "p.yaml", sha256: (opts.sha ?? "a").repeat(64) },
      suites: [{ name: "t", title: "t", document: "t", target: "http://127.0.0.1" }],
      seed: 1,
      strict: opts.strict ?? false,
      grep: opts.grep ?? [],
      startedAt: "2026-01-01T00:00:00.000Z",
      durationMs: 1,
      notCertifiable: [],
      interrupted: false,
    },
    catalog,
    covered,
    checks,
    knownFailures: (opts.known ?? []).map((id) => ({ id, reason: "tracked" })),
  });
}

const byChange = (d: ReturnType<typeof diffResults>) =>
  Object.fromEntries(d.entries.map((e) => [e.id, `${e.change}: ${e.before} -> ${e.after}`]));

describe("idconform diff: requirement by requirement (issue 12 item 8)", () => {
  it("classifies every transition into exactly one kind, and exits 1 only on a regression", () => {
    const old = run({
      "T-PASS-FAIL": "met",
      "T-PASS-ERROR": "met",
      "T-FAIL-PASS": "violated",
      "T-ERROR-FAIL": "errored",
      "T-PASS-SKIP": "met",
      "T-SKIP-FAIL": "skipped:not-declared",
      "T-SKIP-KIND": "skipped:not-declared",
      "T-NOTRUN-PASS": "not-run",
      "T-UNCOVERED-NOTRUN": "uncovered",
      "T-SAME-FAIL": "violated",
      "T-SAME-SKIP": "skipped:needs-probe",
      "T-GONE": "met",
    });
    const now = run({
      "T-PASS-FAIL": "violated",
      "T-PASS-ERROR": "errored",
      "T-FAIL-PASS": "met",
      "T-ERROR-FAIL": "violated",
      "T-PASS-SKIP": "skipped:dependency",
      "T-SKIP-FAIL": "violated",
      "T-SKIP-KIND": "skipped:needs-probe",
      "T-NOTRUN-PASS": "met",
      "T-UNCOVERED-NOTRUN": "not-run",
      "T-SAME-FAIL": "violated",
      "T-SAME-SKIP": "skipped:needs-probe",
      "T-NEW": "violated",
    });
    const d = diffResults(old, now);
    expect(byChange(d)).toEqual({
      "T-PASS-FAIL": "regressed: pass -> fail",
      "T-PASS-ERROR": "regressed: pass -> error",
      "T-FAIL-PASS": "fixed: fail -> pass",
      "T-ERROR-FAIL": "verdict-changed: error -> fail",
      "T-PASS-SKIP": "coverage-changed: pass -> skip (dependency)",
      "T-SKIP-FAIL": "coverage-changed: skip (not-declared) -> fail",
      "T-SKIP-KIND": "coverage-changed: skip (not-declared) -> skip (needs-probe)",
      "T-NOTRUN-PASS": "coverage-changed: not run -> pass",
      "T-UNCOVERED-NOTRUN": "coverage-changed: uncovered -> not run",
      "T-NEW": "appeared: absent -> fail",
      "T-GONE": "disappeared: pass -> absent",
    });
    expect(d.counts).toEqual({
      regressed: 2,
      fixed: 1,
      "verdict-changed": 1,
      "coverage-changed": 5,
      appeared: 1,
      disappeared: 1,
      unchanged: 2,
    });
    expect(d.entries.map((e) => e.change)).toEqual([
      "regressed",
      "regressed",
      "fixed",
      "verdict-changed",
      ...Array(5).fill("coverage-changed"),
      "appeared",
      "disappeared",
    ]);
    expect(d.exitCode).toBe(1);
    expect(d.entries.find((e) => e.id === "T-PASS-FAIL")?.message).toBe("why T-PASS-FAIL");
    expect(diffResults(old, old).exitCode).toBe(0);
    expect(diffResults(old, old).entries).toEqual([]);
    expect(diffResults(now, old).counts.regressed).toBe(1); // T-FAIL-PASS read backwards
  });

  it("a regression the new profile excuses as a known failure is still a regression, marked known", () => {
    const d = diffResults(run({ "T-A": "met" }), run({ "T-A": "violated" }, { known: ["T-A"] }));
    expect(d.entries).toMatchObject([{ id: "T-A", change: "regressed", known: true }]);
    expect(d.exitCode).toBe(1);
    expect(diffText(d)).toContain("T-A (MUST, t): pass → fail (known failure) — why T-A");
  });

  it("a broken SHOULD is a regression (warn), and warn -> fail under --strict is a verdict change noted as such", () => {
    const old = run({ "T-SHOULD": { level: "SHOULD", outcome: "met" } });
    const warn = run({ "T-SHOULD": { level: "SHOULD", outcome: "violated" } });
    const strict = run({ "T-SHOULD": { level: "SHOULD", outcome: "violated" } }, { strict: true });
    expect(byChange(diffResults(old, warn))).toEqual({ "T-SHOULD": "regressed: pass -> warn" });
    const d = diffResults(warn, strict);
    expect(byChange(d)).toEqual({ "T-SHOULD": "verdict-changed: warn -> fail" });
    expect(d.exitCode).toBe(0);
    expect(d.notes.join(" ")).toContain("only the new run is --strict");
    expect(diffResults(old, run({ "T-SHOULD": "met" }, { sha: "b" })).notes).toEqual([
      "the runs used different profiles (SHA-256 differs)",
    ]);
  });

  it("prints every entry as text, and Markdown that no hostile text can turn into a mention, link or HTML", () => {
    const hostile = "@octocat <img src=x onerror=alert(1)> [x](http://evil) `tick` |pipe|\n\u001b[31mred";
    const d = diffResults(
      run({ "T-A": "met" }),
      run({ "T-A": { level: "MUST", outcome: "violated", message: hostile } }),
    );
    const text = diffText(d);
    expect(text).toContain("T-A (MUST, t): pass → fail — @octocat");
    expect(text).not.toMatch(/[\u001b\n]red/);
    expect(text).toMatch(/exit 1: 1 requirement\(s\) regressed\n$/);
    const md = diffMarkdown(d);
    expect(md).toContain("### idconform: 1 requirement(s) regressed");
    const line = md.split("\n").find((l) => l.startsWith("- `T-A`"))!;
    // The message is one code span, its fence longer than the backticks inside.
    expect(line).toContain("— ``@octocat <img src=x onerror=alert(1)> [x](http://evil) `tick` |pipe| ");
    expect(line.endsWith("``")).toBe(true);
    expect(codeSpan("`a`")).toBe("`` `a` ``");
    // A selection read from the file keeps only what an id prefix is made of.
    const g = diffResults(run({ "T-A": "met" }), run({ "T-A": "met" }, { grep: ["T-A*", "@x<b>"] }));
    expect(g.notes).toEqual(["the runs selected different checks (old: all; new: --grep T-A* --grep ?x?b?)"]);
    expect(diffMarkdown(g)).toContain(
      "> note: the runs selected different checks (old: all; new: --grep T-A\\* --grep ?x?b?)",
    );
    expect(codeSpan("x".repeat(500)).length).toBeLessThan(170);
  });

  it("keeps a Markdown comment under GitHub's size limit however many entries there are", () => {
    const specs = (v: Spec) => Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`T-MANY-${i}`, v]));
    const d = diffResults(
      run(specs("met")),
      run(specs({ level: "MUST", outcome: "violated", message: "m".repeat(400) })),
    );
    const md = diffMarkdown(d);
    expect(md.length).toBeLessThan(65_536);
    expect(md).toContain("- … and 2950 more (`idconform diff` lists them all)");
    expect(
      diffText(d)
        .split("\n")
        .filter((l) => l.startsWith("  T-MANY-")).length,
    ).toBe(3000);
  });

  it("report.html opens with the comparison when given one, and escapes what it shows", () => {
    const now = run({ "T-A": { level: "MUST", outcome: "violated", message: "<script>x</script>" } });
    const html = renderHtml(now, { compare: diffResults(run({ "T-A": "met" }), now) });
    expect(html.indexOf('<section id="compare">')).toBeGreaterThan(html.indexOf("<main>"));
    expect(html.indexOf('<section id="compare">')).toBeLessThan(html.indexOf('<section class="meta">'));
    expect(html).toContain("1 requirement(s) regressed");
    expect(html).toContain("&#60;script&#62;x&#60;/script&#62;");
    expect(renderHtml(now)).not.toContain('id="compare"');
  });
});

describe("idconform diff reads only results.json files, bounded", () => {
  const dir = tempDir();
  const file = (name: string, content: string): string => {
    const p = join(dir, name);
    writeFileSync(p, content);
    return p;
  };
  const problem = (p: string): string => {
    try {
      readResultsForDiff(p);
      return "read";
    } catch (e) {
      return `${(e as { code?: string }).code}: ${(e as Error).message}`;
    }
  };

  it("names the file and what is wrong, never quoting it", () => {
    expect(problem(file("a.json", "SECRET-KEY-MATERIAL {"))).toBe(
      `IDC_RESULTS_INVALID: ${join(dir, "a.json")}: not JSON`,
    );
    expect(problem(file("b.json", '{"keys":[]}'))).toContain(
      "not an idconform results.json (no schemaVersion, run and requirements members)",
    );
    expect(problem(file("c.json", '{"schemaVersion":"9.9","run":{},"requirements":[]}'))).toContain(
      'results schema version "9.9" is not one this idconform reads (1.0)',
    );
    const r = JSON.parse(JSON.stringify(run({ "T-A": "met" }))) as { requirements: { verdict: string }[] };
    r.requirements[0]!.verdict = "maybe";
    expect(problem(file("d.json", JSON.stringify(r)))).toContain(
      "does not match results.schema.json:\n  - /requirements/0/verdict must be equal to one of the allowed values",
    );
    expect(problem(join(dir, "missing.json"))).toContain("missing.json: no such file");
    expect(problem(dir)).toContain(`${join(dir, "results.json")}: no such file`);
  });

  it("refuses a file over the size bound before reading it", () => {
    const p = file("big.json", JSON.stringify(run({ "T-A": "met" })));
    expect(readResultsForDiff(p).requirements).toHaveLength(1);
    expect(() => readResultsForDiff(p, 100)).toThrow(
      /big\.json: \d+ bytes, more than the 100 a results\.json may have here/,
    );
  });

  it("refuses a requirement listed twice, and reads a directory's results.json", () => {
    const r = run({ "T-A": "met", "T-B": "not-run" });
    const twice = { ...r, coverage: { ...r.coverage, notRun: [...r.coverage.notRun, r.coverage.notRun[0]] } };
    expect(problem(file("e.json", JSON.stringify(twice)))).toContain(
      "coverage.notRun[1]: requirement T-B is listed more than once in the file",
    );
    const sub = join(dir, "run1");
    mkdirSync(sub);
    writeFileSync(join(sub, "results.json"), JSON.stringify(r));
    expect(readResultsForDiff(sub).requirements.map((q) => q.id)).toEqual(["T-A"]);
  });
});
