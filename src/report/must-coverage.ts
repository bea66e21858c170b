import type { SkipKind } from "../engine/verdict.js";
import type { CatalogEntry, RequirementResult } from "./results.js";

/**
 * Why a MUST that applies was not decided. A skip kind says whose choice it was; `error`: the
 * harness could not decide; `uncovered`: no check of idconform decides it; `unspecified`: a
 * results file from before skip kinds were recorded.
 */
export type NotExercisedWhy = SkipKind | "error" | "uncovered" | "unspecified";

export interface NotExercised {
  readonly id: string;
  readonly suite: string;
  readonly why: readonly NotExercisedWhy[];
  readonly reason: string;
}

/**
 * MUST coverage: of the MUST requirements that apply to the target (those of the run, less the
 * ones skipped because the target does not offer the optional feature they speak of), how many
 * were decided (pass or fail), and each one that was not, with why.
 */
export interface MustCoverage {
  readonly applicable: number;
  readonly decided: number;
  /** MUSTs skipped only as "not-offered": they do not apply to this target. */
  readonly notOffered: number;
  readonly notExercised: readonly NotExercised[];
}

/**
 * The one skip kind that leaves a MUST out of what applies: the target does not offer the
 * optional feature. Every other kind (the profile lacks a probe, a hook or a declaration, an
 * earlier failure, a reason of its own) leaves an applicable MUST not exercised.
 */
const NOT_APPLICABLE: ReadonlySet<string> = new Set<SkipKind>(["not-offered"]);

/** What the report says for each kind, after "not exercised: ". */
export const WHY_TEXT: Record<NotExercisedWhy, string> = {
  "not-offered": "the target does not offer it",
  "not-declared": "the profile does not declare what it needs",
  "needs-probe": "the profile gives no probe for it",
  "needs-hook": "the profile gives no hook for it",
  "not-exercised": "the profile's setup does not let it be exercised",
  "not-selected": "not selected",
  dependency: "an earlier failure",
  other: "could not be observed",
  error: "could not be decided (error)",
  uncovered: "no check of idconform decides it",
  unspecified: "skipped (no kind recorded)",
};

/**
 * Computes MUST coverage from a run's requirement verdicts and its uncovered catalog entries.
 * Requirements not run (--grep, --shard, an interrupt) are not counted: those runs say so
 * among the reasons they are not certifiable.
 */
export function mustCoverage(
  requirements: readonly RequirementResult[],
  uncovered: readonly CatalogEntry[] = [],
): MustCoverage {
  let applicable = 0;
  let decided = 0;
  let notOffered = 0;
  const notExercised: NotExercised[] = [];
  for (const q of requirements) {
    if (q.level !== "MUST") continue;
    if (q.verdict === "pass" || q.verdict === "fail" || q.verdict === "warn") {
      applicable++;
      decided++;
      continue;
    }
    if (q.verdict === "error") {
      applicable++;
      const f = q.findings.find((x) => x.outcome === "errored");
      notExercised.push({
        id: q.id,
        suite: q.suite,
        why: ["error"],
        reason: f?.message ?? "could not decide",
      });
      continue;
    }
    const skips = q.findings.filter((f) => f.outcome === "skipped" && f.requirements.includes(q.id));
    const kinds = [...new Set<NotExercisedWhy>(skips.map((f) => f.skipKind ?? "unspecified"))];
    if (kinds.length === 0) kinds.push("unspecified");
    if (kinds.every((k) => NOT_APPLICABLE.has(k))) {
      notOffered++;
      continue;
    }
    applicable++;
    const why = kinds.filter((k) => !NOT_APPLICABLE.has(k)).sort();
    const main = skips.find((f) => !NOT_APPLICABLE.has(f.skipKind ?? "unspecified"));
    notExercised.push({ id: q.id, suite: q.suite, why, reason: main?.message ?? "skipped" });
  }
  for (const u of uncovered) {
    if (u.level !== "MUST") continue;
    applicable++;
    notExercised.push({ id: u.id, suite: u.suite, why: ["uncovered"], reason: WHY_TEXT.uncovered });
  }
  return { applicable, decided, notOffered, notExercised };
}

/** Whole per cent, rounded down: 99.6 % is not shown as 100 %. */
export function mustPercent(m: MustCoverage): number {
  return m.applicable === 0 ? 100 : Math.floor((m.decided * 100) / m.applicable);
}

/** "MUST coverage: 38/48 (79 %) decided; 10 not exercised; 2 not offered by the target". */
export function mustCoverageLine(m: MustCoverage): string {
  const parts = [`MUST coverage: ${m.decided}/${m.applicable} (${mustPercent(m)} %) decided`];
  if (m.notExercised.length > 0) parts.push(`${m.notExercised.length} not exercised`);
  if (m.notOffered > 0) parts.push(`${m.notOffered} not offered by the target`);
  return parts.join("; ");
}

/** "needs-probe: the profile gives no probe for it". */
export function whyText(why: readonly NotExercisedWhy[]): string {
  return why.map((k) => `${k}: ${WHY_TEXT[k]}`).join("; ");
}

/** The reason a run with applicable MUSTs not exercised is not certifiable, naming them. */
export function notExercisedReason(m: MustCoverage, max = 20): string | undefined {
  const n = m.notExercised.length;
  if (n === 0) return undefined;
  const ids = m.notExercised.slice(0, max).map((x) => `${x.id} (${x.why.join(", ")})`);
  return `${n} applicable MUST requirement(s) not exercised: ${ids.join(", ")}${n > max ? `, and ${n - max} more` : ""}`;
}

/** A results file's MUST coverage: stored, or computed from its verdicts (a file from before it was stored). */
export function mustOf(r: {
  readonly requirements: readonly RequirementResult[];
  readonly coverage: { readonly uncovered: readonly CatalogEntry[]; readonly must?: MustCoverage };
}): MustCoverage {
  return r.coverage.must ?? mustCoverage(r.requirements, r.coverage.uncovered);
}
