import { describe, inject, it } from "vitest";
import { runCheck } from "./check-runner.js";
import { suiteObservers } from "./discovery.js";
import { fileSetupLog } from "./setup-log.js";
import { matchesGrep } from "./requirement.js";
import type { CheckDefinition } from "./check.js";
import type { CheckDeclaration } from "./run-context.js";
import "./run-context.js";

/** How a section's checks run inside their test file. */
export interface SectionOptions {
  /**
   * The section's checks run at the same time rather than one after another. Only for checks
   * that touch nothing another of them reads (each its own stream, say) and that mostly wait
   * (a push retry watched for seconds).
   */
  readonly concurrent?: boolean;
}

/**
 * Registers a suite section's checks as vitest tests. Called from a suite's `*.test.ts`
 * file; the title names the spec section, each test title states the rule it checks.
 * Checks outside `--grep` are declared but skipped, so the report can say "not selected".
 */
export function registerSection<P>(
  suite: string,
  section: string,
  checks: readonly CheckDefinition<P>[],
  options: SectionOptions = {},
): void {
  const run = inject("idconform");
  const s = run.suites[suite];
  const setupLog = run.setupDir !== undefined ? fileSetupLog(run.setupDir) : undefined;
  describe(section, { concurrent: options.concurrent === true }, () => {
    for (const def of checks) {
      const selected = s !== undefined && def.requirements.some((id) => matchesGrep(id, run.grep));
      const decl: CheckDeclaration = {
        check: def.id,
        suite,
        section,
        requirements: def.requirements,
        selected,
      };
      const test = selected ? it : it.skip;
      test(
        def.title,
        { timeout: def.timeoutMs ?? run.checkTimeoutMs, meta: { idconform: decl } },
        async ({ task, signal }) => {
          if (!s) return;
          const observers = await suiteObservers(suite);
          task.meta.idconformResult = await runCheck(
            def as CheckDefinition,
            {
              suite,
              section,
              profile: s.profile,
              features: s.features,
              probes: s.probes,
              client: run.client,
              secrets: run.secrets,
              seed: run.seed,
              runId: run.runId,
              provided: s.provided,
              observers,
              ...(setupLog ? { setupLog } : {}),
            },
            signal,
          );
        },
      );
    }
  });
}
