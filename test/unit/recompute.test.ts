import { describe, expect, it } from "vitest";
import type { CheckResult } from "../../src/engine/check.js";
import type { Outcome } from "../../src/engine/verdict.js";
import { recompute } from "../../src/report/recompute.js";
import { buildResults, type CatalogEntry } from "../../src/report/results.js";

const catalog: CatalogEntry[] = [
  { id: "R-MUST", suite: "s", level: "MUST", text: "t", source: "§1" },
  { id: "R-SHOULD", suite: "s", level: "SHOULD", text: "t", source: "§1" },
  { id: "R-MAY", suite: "s", level: "MAY", text: "t", source: "§1" },
  { id: "R-ERR", suite: "s", level: "MUST", text: "t", source: "§1" },
];

function run(outcomes: Record<string, Outcome>, opts: { strict?: boolean; known?: readonly string[] } = {}) {
  const checks: CheckResult[] = Object.entries(outcomes).map(([id, o]) => ({
    check: `c.${id}`,
    suite: "s",
    title: id,
    section: "§1",
    requirements: { [id]: o },
    findings: [],
    exchanges: [],
    notes: [],
    durationMs: 1,
  }));
  return buildResults({
    meta: {
      id: "r",
      harness: { name: "idconform", version: "0" },
      profile: { name: "p", file: "p.yaml", sha256: "0".repeat(64) },
      suites: [{ name: "s", title: "s", document: "d", target: "https://t.example" }],
      seed: 1,
      strict: opts.strict ?? false,
      grep: [],
      startedAt: "2026-11-25T00:00:00.000Z",
      durationMs: 1,
      notCertifiable: [],
      interrupted: false,
    },
    catalog,
    covered: new Set(catalog.map((c) => c.id)),
    checks,
    knownFailures: (opts.known ?? []).map((id) => ({ id, reason: "tracked" })),
  });
}

describe("verify recomputes verdicts, summary and exit code from levels and outcomes (issue 12 item 7)", () => {
  it.each([
    ["a violated MUST fails the run", { "R-MUST": "violated" }, {}, 1],
    ["a violated SHOULD warns: exit 0", { "R-SHOULD": "violated" }, {}, 0],
    ["a violated SHOULD under --strict fails", { "R-SHOULD": "violated" }, { strict: true }, 1],
    ["a violated MAY is informational", { "R-MAY": "violated" }, {}, 0],
    ["an errored requirement: exit 3", { "R-MUST": "met", "R-ERR": "errored" }, {}, 3],
    ["a known failure does not fail the run", { "R-MUST": "violated" }, { known: ["R-MUST"] }, 0],
    ["a known failure that now passes fails the run (stale)", { "R-MUST": "met" }, { known: ["R-MUST"] }, 1],
  ] as const)("%s; the results buildResults wrote agree with it", (_t, outcomes, opts, exit) => {
    const r = run(outcomes, opts);
    const c = recompute(r);
    expect(c.disagreements).toEqual([]);
    expect(c.exitCode).toBe(exit);
    expect(r.outcome.exitCode).toBe(exit);
  });

  it("names a verdict its level cannot give, and every figure that follows from it", () => {
    const r = run({ "R-SHOULD": "violated", "R-MUST": "met" });
    const forged = {
      ...r,
      requirements: r.requirements.map((q) => (q.id === "R-SHOULD" ? { ...q, verdict: "fail" as const } : q)),
      summary: { ...r.summary, warn: 0, fail: 1 },
      suites: [{ name: "s", summary: { ...r.suites[0]!.summary, warn: 0, fail: 1 } }],
      outcome: { exitCode: 1 as const, reason: "1 requirement(s) failed" },
    };
    expect(recompute(forged).disagreements).toEqual([
      "R-SHOULD (SHOULD): stored verdict fail, its checks' outcomes give warn",
      "summary.fail: stored 1, recomputed 0",
      "summary.warn: stored 0, recomputed 1",
      "suites[s].summary.fail: stored 1, recomputed 0",
      "suites[s].summary.warn: stored 0, recomputed 1",
      "outcome.exitCode: stored 1, recomputed 0",
    ]);
  });
});
