import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSuite, type SuiteSession } from "../../src/engine/in-process.js";
import { departures } from "./departures.js";
import { loadSuites } from "../../src/engine/discovery.js";
import { tempDir, writeProfile } from "../helpers/cli.js";
import { CLEAN_SKIPS, RUN_WIDE, VARIANTS } from "./variants.js";

/**
 * The test StrykerJS runs against a mutated reference target (`npm run mutation -- --suite s`):
 * the suite's checks, one test each, against its reference target started in this process, so
 * that Stryker's per-test coverage runs only the checks that reach a mutant. A mutant is killed
 * when a check no longer finds every requirement it decides met, or when one of the suite's
 * observers sees an exchange of that check break its every-exchange rule. The clean target
 * passes every test (Stryker's dry run insists on it). A suite's variants (./variants.ts) run
 * some checks again with another profile setting, against a second target.
 */
const suite = process.env.IDC_MUTATION_SUITE;
if (suite === undefined) throw new Error("IDC_MUTATION_SUITE names the suite whose target is mutated");

// The manifest's check list, read without starting the target.
const [manifest] = await loadSuites([suite]);
const checks = manifest?.checks ?? [];
let session: SuiteSession | undefined;

describe(`${suite} reference target under mutation`, () => {
  beforeAll(async () => {
    session = await openSuite({ suite });
  });
  afterAll(async () => {
    await session?.close();
  });

  const runWide = RUN_WIDE[suite] ?? [];
  for (const def of checks) {
    it(def.id, async () => {
      const r = await session!.run(def.id);
      const out = departures(r, CLEAN_SKIPS[suite]?.[def.id]);
      // A run-wide check judges what the checks before it made the target send (every SET a
      // Transmitter delivered): run after each check, it kills the mutants that check reaches
      // (per-test coverage runs only the checks covering a mutant, never the run-wide one alone).
      // Only its violations count: what the checks so far did not exercise is no departure.
      if (!runWide.includes(def.id))
        for (const id of runWide) {
          const w = await session!.run(id);
          for (const [req, o] of Object.entries(w.requirements))
            if (o === "violated" || o === "errored")
              out.push(
                `${id} after ${def.id}: ${req}: ${o}: ${w.findings.find((f) => f.requirements.includes(req))?.message ?? ""}`,
              );
        }
      expect(out).toEqual([]);
    });
  }
});

for (const variant of VARIANTS[suite] ?? []) {
  describe(`${suite} reference target under mutation, ${variant.name}`, () => {
    let v: SuiteSession | undefined;
    beforeAll(async () => {
      v = await openSuite({ suite, profileFile: writeProfile(tempDir("idc-mutation-"), variant.profile()) });
    });
    afterAll(async () => {
      await v?.close();
    });
    for (const id of variant.checks === "all" ? checks.map((c) => c.id) : variant.checks) {
      it(`${variant.name}: ${id}`, async () => {
        const r = await v!.run(id);
        expect(departures(r, variant.cleanSkips?.[id])).toEqual([]);
      });
    }
  });
}
