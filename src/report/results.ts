import type { CheckResult, Finding } from "../engine/check.js";
import type { KnownFailure } from "../engine/profile-schema.js";
import { renderWording, type Level, type Wording } from "../engine/requirement.js";
import {
  emptySummary,
  verdictFor,
  worst,
  type Outcome,
  type Summary,
  type Verdict,
} from "../engine/verdict.js";
import { mustCoverage, notExercisedReason, type MustCoverage } from "./must-coverage.js";

export const RESULTS_SCHEMA_VERSION = "1.0";

export interface CatalogEntry {
  readonly id: string;
  readonly suite: string;
  readonly level: Level;
  readonly text: string;
  readonly source: string;
}

export interface RequirementResult extends CatalogEntry {
  readonly verdict: Verdict;
  /** Listed in the profile's knownFailures: a fail here does not fail the run. */
  readonly known?: { readonly reason: string; readonly stale: boolean };
  readonly checks: readonly { readonly check: string; readonly outcome: Outcome }[];
  readonly findings: readonly (Finding & { readonly check: string })[];
}

export interface RunMeta {
  readonly id: string;
  readonly harness: { readonly name: string; readonly version: string };
  readonly profile: { readonly name: string; readonly file: string; readonly sha256: string };
  readonly suites: readonly {
    readonly name: string;
    readonly title: string;
    readonly document: string;
    readonly target: string;
    /** The names the suite's texts were rendered with (a suite with a choice of identifier sets). */
    readonly wording?: Wording;
  }[];
  readonly seed: number;
  readonly strict: boolean;
  readonly grep: readonly string[];
  readonly shard?: string;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly notCertifiable: readonly string[];
  readonly interrupted: boolean;
  /** `run --certify`: a run that is not certifiable exits 1. Absent in older files: false. */
  readonly certify?: boolean;
}

export interface Results {
  readonly schemaVersion: string;
  readonly run: RunMeta & { readonly certifiable: boolean };
  readonly summary: Summary & {
    readonly total: number;
    readonly knownFailures: number;
    readonly staleKnownFailures: number;
  };
  readonly suites: readonly { readonly name: string; readonly summary: Summary }[];
  readonly requirements: readonly RequirementResult[];
  readonly coverage: {
    /** Requirements no check of the suite decides. */
    readonly uncovered: readonly CatalogEntry[];
    /** Requirements whose checks were not run here (--grep, --shard, or an interrupt). */
    readonly notRun: readonly CatalogEntry[];
    /** MUSTs decided out of MUSTs applicable, and each one not exercised with why (absent in older files). */
    readonly must?: MustCoverage;
  };
  readonly knownFailures: readonly (KnownFailure & {
    readonly status: "held" | "stale" | "undecided" | "not-run";
  })[];
  readonly checks: readonly CheckResult[];
  /** What a suite's clean-up could not remove from the target (test data left behind). */
  readonly cleanup: readonly { readonly suite: string; readonly leftovers: readonly string[] }[];
  /** Problems of the profile's setup, each once, with what they left undecided (absent in older files). */
  readonly setup?: readonly SetupProblem[];
  readonly outcome: { readonly exitCode: 0 | 1 | 3; readonly reason: string };
}

/**
 * A problem of the profile's setup (a hook, a probe, a member the profile names): not the
 * target's failure. The first check that met it names it; the checks after it stopped at once.
 */
export interface SetupProblem {
  readonly suite: string;
  /** The profile path to fix. */
  readonly path: string;
  readonly problem: string;
  /** The check that found it. */
  readonly check: string;
  /** Every check it stopped, the one that found it first. */
  readonly checks: readonly string[];
  /** The requirements it left undecided. */
  readonly requirements: readonly string[];
}

/** Each setup problem of the run once, in the order the checks found them. */
export function setupProblems(checks: readonly CheckResult[]): SetupProblem[] {
  const byKey = new Map<string, { p: SetupProblem; checks: Set<string>; reqs: Set<string> }>();
  for (const c of checks)
    for (const f of c.findings) {
      if (f.setup === undefined) continue;
      const key = `${c.suite}\u0000${f.setup.path}\u0000${f.setup.problem}`;
      let e = byKey.get(key);
      if (!e) {
        e = {
          p: {
            suite: c.suite,
            path: f.setup.path,
            problem: f.setup.problem,
            check: f.setup.foundBy,
            checks: [],
            requirements: [],
          },
          checks: new Set(),
          reqs: new Set(),
        };
        byKey.set(key, e);
      }
      e.checks.add(c.check);
      for (const id of f.requirements) e.reqs.add(id);
    }
  return [...byKey.values()].map((e) => ({
    ...e.p,
    checks: [e.p.check, ...[...e.checks].filter((x) => x !== e.p.check)],
    requirements: [...e.reqs],
  }));
}

/** A requirement left `error` only by setup problems (the report lists it under "setup"). */
export function onlySetup(r: Pick<RequirementResult, "verdict" | "findings">): boolean {
  const errored = r.findings.filter((f) => f.outcome === "errored");
  return r.verdict === "error" && errored.length > 0 && errored.every((f) => f.setup !== undefined);
}

export interface BuildInput {
  readonly meta: RunMeta;
  readonly catalog: readonly CatalogEntry[];
  /** Requirement ids each suite's checks name (static), for the coverage section. */
  readonly covered: ReadonlySet<string>;
  readonly checks: readonly CheckResult[];
  readonly knownFailures: readonly KnownFailure[];
  readonly cleanup?: Results["cleanup"];
}

/**
 * The catalog texts and check titles in each suite's wording (the run's identifier set), so the
 * report says the names the target was judged by; sources keep the document's own words.
 */
function worded(input: BuildInput): Pick<BuildInput, "catalog" | "checks"> {
  const wording = new Map(
    input.meta.suites.flatMap((s) => (s.wording !== undefined ? [[s.name, s.wording] as const] : [])),
  );
  if (wording.size === 0) return input;
  return {
    catalog: input.catalog.map((r) => ({ ...r, text: renderWording(r.text, wording.get(r.suite)) })),
    checks: input.checks.map((c) => ({ ...c, title: renderWording(c.title, wording.get(c.suite)) })),
  };
}

/** Turns check results into per-requirement verdicts, applying level, strict and the baseline. */
export function buildResults(input: BuildInput): Results {
  const { meta } = input;
  const { catalog, checks } = worded(input);
  const decided = new Map<string, { check: string; outcome: Outcome }[]>();
  const findings = new Map<string, (Finding & { check: string })[]>();
  for (const c of checks) {
    for (const [id, outcome] of Object.entries(c.requirements)) {
      (decided.get(id) ?? decided.set(id, []).get(id)!).push({ check: c.check, outcome });
    }
    for (const f of c.findings) {
      for (const id of f.requirements)
        (findings.get(id) ?? findings.set(id, []).get(id)!).push({ ...f, check: c.check });
    }
  }
  const known = new Map(input.knownFailures.map((k) => [k.id, k]));
  const requirements: RequirementResult[] = [];
  for (const r of catalog) {
    const d = decided.get(r.id);
    if (!d) continue;
    const verdict = worst(d.map((x) => verdictFor(r.level, x.outcome, meta.strict))) ?? "error";
    const k = known.get(r.id);
    requirements.push({
      ...r,
      verdict,
      // Stale only when every observation met the rule: a violated MAY also reads "pass".
      ...(k ? { known: { reason: k.reason, stale: d.every((x) => x.outcome === "met") } } : {}),
      checks: d,
      findings: findings.get(r.id) ?? [],
    });
  }
  const summary = emptySummary();
  const perSuite = new Map<string, Summary>();
  for (const r of requirements) {
    summary[r.verdict]++;
    const s = perSuite.get(r.suite) ?? perSuite.set(r.suite, emptySummary()).get(r.suite)!;
    s[r.verdict]++;
  }
  const knownHeld = requirements.filter(
    (r) => r.known && (r.verdict === "fail" || r.verdict === "warn"),
  ).length;
  const stale = requirements.filter((r) => r.known?.stale).length;
  const realFailures = requirements.filter((r) => r.verdict === "fail" && !r.known).length;
  const run = new Set(requirements.map((r) => r.id));
  const uncovered = catalog.filter((r) => !input.covered.has(r.id));
  const must = mustCoverage(requirements, uncovered);
  // A certifier needs every selected requirement decided, in a run that finished, and every
  // MUST that applies exercised.
  const notCertifiable = certifiableReasons(meta, summary.error, must);
  const failed: 0 | 1 | 3 = realFailures > 0 || stale > 0 ? 1 : summary.error > 0 || meta.interrupted ? 3 : 0;
  // --certify: a run that finished with every MUST passed but cannot certify fails.
  const certifyFails = meta.certify === true && failed === 0 && notCertifiable.length > 0;
  const exitCode: 0 | 1 | 3 = certifyFails ? 1 : failed;
  const setup = setupProblems(checks);
  const setupReqs = requirements.filter(onlySetup).length;
  const reason = certifyFails
    ? `--certify: the run is not certifiable (${notCertifiable.join("; ")})`
    : exitCode === 1
      ? [
          realFailures > 0 ? `${realFailures} requirement(s) failed` : "",
          stale > 0 ? `${stale} known failure(s) now pass: remove them from knownFailures` : "",
        ]
          .filter(Boolean)
          .join("; ")
      : exitCode === 3
        ? meta.interrupted
          ? "the run was interrupted before every check finished"
          : setup.length > 0
            ? [
                `setup: ${setup[0]!.path}: ${setup[0]!.problem}`,
                setup.length > 1 ? `and ${setup.length - 1} more setup problem(s)` : "",
                `${setupReqs} requirement(s) not decided until the profile is fixed`,
                summary.error > setupReqs
                  ? `${summary.error - setupReqs} other requirement(s) could not be decided (error)`
                  : "",
              ]
                .filter(Boolean)
                .join("; ")
            : `${summary.error} requirement(s) could not be decided (error)`
        : must.notExercised.length > 0
          ? `every MUST requirement exercised passed; ${must.notExercised.length} applicable MUST requirement(s) not exercised`
          : "every selected MUST requirement passed";
  return {
    schemaVersion: RESULTS_SCHEMA_VERSION,
    run: { ...meta, notCertifiable, certifiable: notCertifiable.length === 0 },
    summary: { ...summary, total: requirements.length, knownFailures: knownHeld, staleKnownFailures: stale },
    suites: meta.suites.map((s) => ({ name: s.name, summary: perSuite.get(s.name) ?? emptySummary() })),
    requirements,
    coverage: {
      uncovered,
      notRun: catalog.filter((r) => input.covered.has(r.id) && !run.has(r.id)),
      must,
    },
    knownFailures: input.knownFailures.map((k) => {
      const r = requirements.find((x) => x.id === k.id);
      const status = !r
        ? "not-run"
        : r.known?.stale
          ? "stale"
          : r.verdict === "fail" || r.verdict === "warn"
            ? "held"
            : "undecided";
      return { ...k, status };
    }),
    checks,
    cleanup: input.cleanup ?? [],
    setup,
    outcome: { exitCode, reason },
  };
}

/**
 * Why a run cannot certify: the reasons the run brought (demo, plain http, --grep, ...), then
 * those derived from its verdicts. A results file being rebuilt (merge) drops its derived ones
 * first, so they are counted once, from the rebuilt verdicts.
 */
export function certifiableReasons(
  meta: Pick<RunMeta, "notCertifiable" | "interrupted">,
  errors: number,
  must: MustCoverage,
): string[] {
  const given = meta.notCertifiable.filter((r) => !isDerivedReason(r));
  const notExercised = notExercisedReason({
    ...must,
    notExercised: must.notExercised.filter((x) => !x.why.includes("error")),
  });
  return [
    ...given,
    ...(meta.interrupted && !given.some((r) => r.includes("interrupted")) ? ["the run was interrupted"] : []),
    ...(errors > 0 ? [`${errors} requirement(s) could not be decided (error)`] : []),
    ...(notExercised !== undefined ? [notExercised] : []),
  ];
}

/** A reason buildResults derives from the verdicts (and so recomputes), not one the run brought. */
export function isDerivedReason(r: string): boolean {
  return /^\d+ requirement\(s\) could not be decided \(error\)$|^\d+ applicable MUST requirement\(s\) not exercised: /.test(
    r,
  );
}

/** Catalog entries of every requirement a results file mentions, to rebuild from it (merge). */
export function catalogOf(r: Results): CatalogEntry[] {
  const strip = ({ id, suite, level, text, source }: CatalogEntry): CatalogEntry => ({
    id,
    suite,
    level,
    text,
    source,
  });
  return [...r.requirements.map(strip), ...r.coverage.notRun.map(strip), ...r.coverage.uncovered.map(strip)];
}
