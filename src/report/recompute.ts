import { emptySummary, verdictFor, worst, type Summary, type Verdict } from "../engine/verdict.js";
import { certifiableReasons, type Results } from "./results.js";
import { mustCoverage, type MustCoverage } from "./must-coverage.js";

export interface Recomputed {
  readonly summary: Summary & { readonly total: number };
  readonly exitCode: 0 | 1 | 3;
  /** MUST coverage as the recomputed verdicts give it. */
  readonly must: MustCoverage;
  /** Each place where the stored results say something their own verdicts do not give. */
  readonly disagreements: readonly string[];
}

const VERDICT_KEYS: readonly Verdict[] = ["pass", "fail", "warn", "skip", "error"];

/**
 * Recomputes a results document's verdicts, summary and exit code from what lies beneath them:
 * each requirement's verdict from its level and its checks' outcomes (the rule of
 * src/engine/verdict.ts, `--strict` as the run recorded it), the summaries from those verdicts,
 * the exit code as buildResults decides it. A verifier trusts the recomputation, and lists
 * every stored figure that disagrees with it.
 */
export function recompute(r: Results): Recomputed {
  const disagreements: string[] = [];
  const summary = emptySummary();
  const perSuite = new Map<string, Summary>();
  let realFailures = 0;
  let stale = 0;
  let held = 0;
  for (const q of r.requirements) {
    const fromChecks = worst(q.checks.map((c) => verdictFor(q.level, c.outcome, r.run.strict))) ?? "error";
    if (fromChecks !== q.verdict)
      disagreements.push(
        `${q.id} (${q.level}): stored verdict ${q.verdict}, its checks' outcomes give ${fromChecks}`,
      );
    const v = fromChecks;
    summary[v]++;
    const s = perSuite.get(q.suite) ?? perSuite.set(q.suite, emptySummary()).get(q.suite)!;
    s[v]++;
    const isStale = q.known !== undefined && q.checks.every((c) => c.outcome === "met");
    if (q.known !== undefined && q.known.stale !== isStale)
      disagreements.push(
        `${q.id}: stored as ${q.known.stale ? "" : "not "}a stale known failure, its checks say otherwise`,
      );
    if (isStale) stale++;
    if (q.known !== undefined && (v === "fail" || v === "warn")) held++;
    if (v === "fail" && q.known === undefined) realFailures++;
  }
  const total = r.requirements.length;
  for (const k of VERDICT_KEYS)
    if (r.summary[k] !== summary[k])
      disagreements.push(`summary.${k}: stored ${r.summary[k]}, recomputed ${summary[k]}`);
  if (r.summary.total !== total)
    disagreements.push(`summary.total: stored ${r.summary.total}, recomputed ${total}`);
  if (r.summary.knownFailures !== held)
    disagreements.push(`summary.knownFailures: stored ${r.summary.knownFailures}, recomputed ${held}`);
  if (r.summary.staleKnownFailures !== stale)
    disagreements.push(
      `summary.staleKnownFailures: stored ${r.summary.staleKnownFailures}, recomputed ${stale}`,
    );
  for (const s of r.suites) {
    const mine = perSuite.get(s.name) ?? emptySummary();
    for (const k of VERDICT_KEYS)
      if (s.summary[k] !== mine[k])
        disagreements.push(`suites[${s.name}].summary.${k}: stored ${s.summary[k]}, recomputed ${mine[k]}`);
  }
  for (const name of perSuite.keys())
    if (!r.suites.some((s) => s.name === name))
      disagreements.push(`suite ${name} has requirements but no entry in suites[]`);
  const failed: 0 | 1 | 3 =
    realFailures > 0 || stale > 0 ? 1 : summary.error > 0 || r.run.interrupted ? 3 : 0;
  // MUST coverage from the verdicts recomputed above; a file from before it was stored has none.
  const must = mustCoverage(
    r.requirements.map((q) => ({
      ...q,
      verdict: worst(q.checks.map((c) => verdictFor(q.level, c.outcome, r.run.strict))) ?? "error",
    })),
    r.coverage.uncovered,
  );
  if (r.coverage.must !== undefined) disagreements.push(...mustDisagreements(r.coverage.must, must));
  const reasons = certifiableReasons(r.run, summary.error, must);
  const exitCode: 0 | 1 | 3 = r.run.certify === true && failed === 0 && reasons.length > 0 ? 1 : failed;
  if (r.outcome.exitCode !== exitCode)
    disagreements.push(`outcome.exitCode: stored ${r.outcome.exitCode}, recomputed ${exitCode}`);
  // Older files stored no MUST coverage: their certifiable flag is judged as it was then.
  const certifiable =
    r.run.notCertifiable.length === 0 &&
    summary.error === 0 &&
    !r.run.interrupted &&
    (r.coverage.must === undefined || must.notExercised.every((x) => x.why.includes("error")));
  if (r.run.certifiable && !certifiable)
    disagreements.push(
      "run.certifiable: stored true, but the run has undecided requirements, applicable MUSTs not exercised, was interrupted or lists reasons",
    );
  return { summary: { ...summary, total }, exitCode, must, disagreements };
}

function mustDisagreements(stored: MustCoverage, mine: MustCoverage): string[] {
  const out: string[] = [];
  for (const k of ["applicable", "decided", "notOffered"] as const)
    if (stored[k] !== mine[k]) out.push(`coverage.must.${k}: stored ${stored[k]}, recomputed ${mine[k]}`);
  const ids = (m: MustCoverage): string =>
    m.notExercised
      .map((x) => x.id)
      .sort()
      .join(",");
  if (ids(stored) !== ids(mine))
    out.push(
      `coverage.must.notExercised: stored ${stored.notExercised.length} requirement(s), recomputed ${mine.notExercised.length} (${
        mine.notExercised
          .map((x) => x.id)
          .slice(0, 10)
          .join(", ") || "none"
      })`,
    );
  return out;
}
