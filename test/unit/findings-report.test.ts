import { afterEach, describe, expect, it, vi } from "vitest";
import type { CheckResult, Finding } from "../../src/engine/check.js";
import { printSummary } from "../../src/cli/output.js";
import { notableRequirements, shownFinding } from "../../src/report/findings.js";
import { renderHtml } from "../../src/report/html.js";
import { renderJunit } from "../../src/report/junit.js";
import { resultsProblems } from "../../src/report/validate.js";
import { buildResults, type CatalogEntry, type Results } from "../../src/report/results.js";

const entry = (id: string): CatalogEntry => ({
  id,
  suite: "s",
  level: "MUST",
  text: `rule ${id}`,
  source: "doc §1",
});
const check = (id: string, requirements: CheckResult["requirements"], findings: Finding[]): CheckResult => ({
  check: id,
  suite: "s",
  title: `check ${id}`,
  section: "§1",
  requirements,
  findings,
  exchanges: [],
  notes: [],
  durationMs: 1,
});
const setup = {
  path: "suites.s.probes.access",
  problem: "the probe answered 403 for a fresh subject",
  foundBy: "s.first",
};

/** A run: a wrong status (A), an acceptance (B, later in the catalog), a requirement whose first
 * finding is another check's skip note (C), two requirements a setup problem stopped (D, E). */
function results(): Results {
  const catalog = ["T-A", "T-B", "T-C", "T-D", "T-E", "T-F"].map(entry);
  return buildResults({
    meta: {
      id: "run",
      harness: { name: "idconform", version: "0.1.0" },
      profile: { name: "p", file: "/p.yaml", sha256: "0".repeat(64) },
      suites: [{ name: "s", title: "s", document: "doc", target: "https://t.example/" }],
      seed: 1,
      strict: false,
      grep: [],
      startedAt: "2026-11-25T06:00:00.000Z",
      durationMs: 10,
      notCertifiable: [],
      interrupted: false,
    },
    catalog,
    covered: new Set(catalog.map((c) => c.id)),
    knownFailures: [],
    checks: [
      check("s.a", { "T-A": "violated" }, [
        {
          requirements: ["T-A"],
          outcome: "violated",
          message: "not met",
          expected: "400",
          actual: "401",
          kind: "wrong-status",
          exchanges: [],
        },
      ]),
      check("s.b", { "T-B": "violated" }, [
        {
          requirements: ["T-B"],
          outcome: "violated",
          message: "the forged token was accepted",
          expected: "401",
          actual: "200",
          kind: "accepted",
          exchanges: [],
        },
      ]),
      check("s.c1", { "T-C": "skipped" }, [
        {
          requirements: ["T-C"],
          outcome: "skipped",
          message: "a skip note of another check",
          skipKind: "other",
          exchanges: [],
        },
      ]),
      check("s.c2", { "T-C": "violated" }, [
        {
          requirements: ["T-C"],
          outcome: "violated",
          message: "no Location header",
          actual: "(absent)",
          kind: "missing",
          exchanges: [],
        },
      ]),
      check("s.first", { "T-D": "errored" }, [
        {
          requirements: ["T-D"],
          outcome: "errored",
          message: `setup: ${setup.path}: ${setup.problem}`,
          code: "IDC_SETUP",
          setup,
          exchanges: [],
        },
      ]),
      check("s.later", { "T-E": "errored" }, [
        {
          requirements: ["T-E"],
          outcome: "errored",
          message: "setup: not run",
          code: "IDC_SETUP",
          setup,
          exchanges: [],
        },
      ]),
      check("s.f", { "T-F": "met" }, []),
    ],
  });
}

afterEach(() => vi.restoreAllMocks());

describe("findings say how bad, setup problems apart (issue 12 items 2 and 5)", () => {
  it("a requirement shows its violation, never another check's skip note; acceptances come first", () => {
    const r = results();
    const c = r.requirements.find((q) => q.id === "T-C")!;
    expect(c.findings[0]!.outcome).toBe("skipped");
    expect(shownFinding(c)?.message).toBe("no Location header");
    expect(notableRequirements(r).map((q) => q.id)).toEqual(["T-B", "T-A", "T-C"]);
  });

  it("a setup problem is listed once with every check it stopped, and the run exits 3 naming the path", () => {
    const r = results();
    expect(r.setup).toEqual([
      {
        suite: "s",
        path: setup.path,
        problem: setup.problem,
        check: "s.first",
        checks: ["s.first", "s.later"],
        requirements: ["T-D", "T-E"],
      },
    ]);
    expect(r.outcome.exitCode).toBe(1);
    expect(resultsProblems(JSON.parse(JSON.stringify(r)))).toEqual([]);
    const noFailures = buildResults({
      meta: r.run,
      catalog: r.requirements.filter((q) => q.id >= "T-D"),
      covered: new Set(["T-D", "T-E", "T-F"]),
      checks: r.checks.filter((c) => c.check === "s.first" || c.check === "s.later" || c.check === "s.f"),
      knownFailures: [],
    });
    expect(noFailures.outcome.exitCode).toBe(3);
    expect(noFailures.outcome.reason).toBe(
      `setup: ${setup.path}: ${setup.problem}; 2 requirement(s) not decided until the profile is fixed`,
    );
  });

  it("the console: one SETUP entry, then acceptances first, each with its kind and its own violation", () => {
    const lines: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((s) => (lines.push(String(s)), true));
    printSummary(results(), undefined);
    const out = lines.join("");
    expect(out.match(/SETUP/g)).toHaveLength(1);
    expect(out).toContain(`SETUP       ${setup.path}: ${setup.problem}`);
    const b = out.indexOf(" T-B (MUST) — [accepted] the forged token was accepted");
    const a = out.indexOf(" T-A (MUST) — [wrong-status]");
    const cc = out.indexOf(" T-C (MUST) — [missing] no Location header");
    expect(b).toBeGreaterThan(-1);
    expect(a).toBeGreaterThan(b);
    expect(cc).toBeGreaterThan(a);
    expect(out).not.toContain("a skip note of another check");
    expect(out).not.toMatch(/ERROR\s+T-[DE] /);
  });

  it("junit: the failure text is the requirement's violation with its kind; a setup error says so", () => {
    const xml = renderJunit(results());
    expect(xml).toMatch(/name="T-C \(MUST\)[^"]*"[^>]*>.*<failure message="\[missing\] no Location header"/);
    expect(xml).toContain('<property name="idconform.kind" value="accepted"/>');
    expect(xml).toMatch(/<error message="setup: [^"]*" type="setup">/);
  });

  it("report.html: the setup section first, what to fix first with acceptances on top, a kind filter", () => {
    const html = renderHtml(results());
    expect(html.indexOf('<section id="setup">')).toBeLessThan(html.indexOf("<h2>Summary</h2>"));
    const first = html.slice(
      html.indexOf('<section id="first">'),
      html.indexOf("</section>", html.indexOf('<section id="first">')),
    );
    expect(first.indexOf("<code>T-B</code>")).toBeLessThan(first.indexOf("<code>T-A</code>"));
    expect(first).toContain('<span class="kind k-accepted"');
    expect(first).toContain("1 requirement(s) where the target accepted what it must refuse");
    expect(html).toContain('<select id="f-kind">');
    expect(html).toContain('data-kind="accepted"');
    expect(html).toContain("error · setup");
  });
});
