// The StrykerJS options of `npm run mutation -- --suite <s>`, shared with the test that keeps
// them from rotting (test/unit/mutation-config.test.ts).
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Files of a reference target that hold no protocol logic: the fault catalog (data) and the
 * module that only re-exports it with `start`. (The TLS certificate maker of the HTTPS targets
 * is in targets/shared/, which is no target: it has no index.ts.)
 */
export const NOT_PROTOCOL = ["faults.ts", "index.ts"];

/**
 * A fault module (`fault-<name>.ts`, in any folder of a target): code that runs only while a
 * fault is on, such as a faulty pager. A mutation run has no faults on, so no mutant of it could
 * ever be covered; it is fault machinery like the switches the ignorers leave out. That its
 * exports are used only under a fault switch is checked (test/unit/mutation-config.test.ts).
 */
export const isFaultModule = (name) => /^fault-[a-z0-9-]+\.ts$/.test(name);

/**
 * A data module (`<name>.data.ts`): the reference federation's members as literal data (who is
 * in it, what each publishes, its history). A mutant of it makes another federation, one the
 * checks judge as they judge this one: no harness can know which members a target should have.
 * That such a module holds data only (no branch, loop, comparison or arithmetic) is checked
 * (test/unit/mutation-config.test.ts); the code that serves the data is mutated.
 */
export const isDataModule = (name) => /^[a-z0-9-]+\.data\.ts$/.test(name);

/** The suites whose reference target can be mutated: every `targets/<s>/` with a start module. */
export function mutableSuites() {
  return readdirSync(join(ROOT, "targets")).filter((d) => {
    try {
      return statSync(join(ROOT, "targets", d, "index.ts")).isFile();
    } catch {
      return false;
    }
  });
}

/** The target's protocol files, relative to the project root. */
export function protocolFiles(suite) {
  const dir = join(ROOT, "targets", suite);
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (
        e.name.endsWith(".ts") &&
        !(d === dir && NOT_PROTOCOL.includes(e.name)) &&
        !isFaultModule(e.name) &&
        !isDataModule(e.name)
      )
        out.push(relative(ROOT, p));
    }
  };
  walk(dir);
  return out.sort();
}

/**
 * @param {string} suite
 * @param {{ files?: string[], concurrency?: number, incremental?: boolean, force?: boolean, reportDir?: string }} [o]
 */
export function strykerOptions(suite, o = {}) {
  const out = o.reportDir ?? join("reports", "mutation", suite);
  return {
    mutate: o.files ?? protocolFiles(suite),
    testRunner: "vitest",
    vitest: { configFile: "test/mutation/vitest.config.ts", related: false },
    plugins: ["@stryker-mutator/vitest-runner", join(ROOT, "test", "mutation", "ignorers.mjs")],
    ignorers: ["fault-switch", "display-text"],
    coverageAnalysis: "perTest",
    concurrency: o.concurrency ?? 2,
    // A mutant that makes the target hang is ended by the checks' own timeouts first.
    timeoutMS: 30_000,
    timeoutFactor: 2,
    dryRunTimeoutMinutes: 10,
    incremental: o.incremental ?? true,
    incrementalFile: join(out, "incremental.json"),
    force: o.force ?? false,
    reporters: ["clear-text", "progress", "html", "json"],
    htmlReporter: { fileName: join(out, "mutation.html") },
    jsonReporter: { fileName: join(out, "mutation.json") },
    clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0, reportScoreTable: true },
    ignorePatterns: ["reports", "test/e2e", "test/browser", "test/unit", "bench", ".git"],
    tempDirName: join(out, ".stryker-tmp"),
    cleanTempDir: true,
    // The reference targets are TypeScript the checks reach over HTTP; a mutant that does not
    // type-check still runs (vitest strips types), so type checking is left out.
    disableTypeChecks: true,
    thresholds: { high: 90, low: 85, break: null },
  };
}
