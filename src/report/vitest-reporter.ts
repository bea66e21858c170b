import type { Reporter, TestCase, TestModule } from "vitest/node";
import type { CheckResult } from "../engine/check.js";
import type { CheckDeclaration } from "../engine/run-context.js";
import type { Level } from "../engine/requirement.js";
import { verdictFor, worst, type Verdict } from "../engine/verdict.js";
import "../engine/run-context.js";

const SYMBOL: Record<Verdict, string> = { pass: "✓", fail: "✗", warn: "!", skip: "-", error: "E" };

/**
 * Collects each check's result from vitest task meta and prints progress. A test that
 * ended without a result (timed out, crashed in a hook) becomes an `error` result for
 * every requirement it declared: the harness could not decide, the target did not fail.
 */
export class CollectingReporter implements Reporter {
  readonly results: CheckResult[] = [];
  private readonly seen = new Set<string>();
  readonly harnessErrors: string[] = [];
  private done = 0;

  /** `total` is the number of selected checks when known up front (not under --shard). */
  constructor(
    private readonly levels: ReadonlyMap<string, Level>,
    private readonly strict: boolean,
    private readonly print: (line: string) => void,
    private readonly total?: number,
    /** A check title as the run words it (the suite's identifier set); as written by default. */
    private readonly word: (suite: string, title: string) => string = (_, title) => title,
  ) {}

  onTestCaseResult(test: TestCase): void {
    const decl = test.meta().idconform;
    if (!decl || !decl.selected || this.seen.has(test.id)) return;
    const r = test.result();
    // A check cancelled before it started (interrupt, run timeout) was not run: coverage lists it.
    if (r.state === "skipped" && !test.meta().idconformResult) return;
    this.seen.add(test.id);
    this.add(test.meta().idconformResult ?? synthesize(decl, test));
  }

  private add(result: CheckResult): void {
    this.results.push(result);
    this.done++;
    const verdict =
      worst(
        Object.entries(result.requirements).map(([id, o]) =>
          verdictFor(this.levels.get(id) ?? "MUST", o, this.strict),
        ),
      ) ?? "error";
    const counter =
      this.total === undefined
        ? `[${this.done}]`
        : `[${String(this.done).padStart(String(this.total).length)}/${this.total}]`;
    this.print(
      `${counter} ${SYMBOL[verdict]} ${verdict.padEnd(5)} ${result.suite} ${result.check}: ${this.word(result.suite, result.title)} (${result.durationMs} ms)`,
    );
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<{ message?: string }>): void {
    for (const m of modules) {
      for (const e of m.errors()) this.harnessErrors.push(`${m.moduleId}: ${e.message}`);
    }
    for (const e of unhandled) this.harnessErrors.push(e.message ?? "unhandled error");
  }

  /**
   * After a run that no one stopped: each selected check that never reported was lost with its
   * test worker (killed for memory, crashed). It is `error` with the reason, not "not run".
   */
  addLost(expected: readonly Omit<CheckDeclaration, "selected">[], title: (check: string) => string): void {
    const why = this.harnessErrors[0];
    if (why === undefined) return;
    const reported = new Set(this.results.map((r) => `${r.suite}/${r.check}`));
    for (const decl of expected) {
      if (reported.has(`${decl.suite}/${decl.check}`)) continue;
      this.add(lost(decl, title(decl.check), `the check never reported: its test worker stopped (${why})`));
    }
  }
}

function synthesize(decl: CheckDeclaration, test: TestCase): CheckResult {
  const r = test.result();
  const why =
    r.state === "failed"
      ? (r.errors[0]?.message ?? "the check failed without a result")
      : "the check did not finish";
  const message = /timed out/i.test(why) ? `the check exceeded its time limit: ${why}` : `harness: ${why}`;
  return { ...lost(decl, test.name, message), durationMs: test.diagnostic()?.duration ?? 0 };
}

/** A check that ended without a result: every requirement it declared is `error`, with the reason. */
function lost(decl: Omit<CheckDeclaration, "selected">, title: string, message: string): CheckResult {
  return {
    check: decl.check,
    suite: decl.suite,
    title,
    section: decl.section,
    requirements: Object.fromEntries(decl.requirements.map((id) => [id, "errored" as const])),
    findings: [
      {
        requirements: decl.requirements,
        outcome: "errored",
        message,
        exchanges: [],
        code: "IDC_RUN_ABORTED",
      },
    ],
    exchanges: [],
    notes: [],
    durationMs: 0,
  };
}
