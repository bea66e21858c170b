import { describe, expect, it } from "vitest";
import type { FaultDef } from "../../src/engine/target.js";
import { runDemoProfile, verdicts } from "./cli.js";

/**
 * Honesty rules 1-3 for a suite: the clean reference target passes every requirement of the
 * demo profile; each fault fails (or warns on) exactly the requirements it names and leaves
 * none undecidable. `sweeps`: the suite deletes what it made, so every run must leave nothing.
 */
export function describeFaultMatrix(o: {
  title: string;
  suite: string;
  faults: readonly FaultDef[];
  minRequirements: number;
  sweeps: boolean;
}): void {
  describe(o.title, () => {
    it(`the clean ${o.suite} reference target passes every requirement${o.sweeps ? ", and leaves nothing behind" : ""}`, async () => {
      const { cli, results } = await runDemoProfile(o.suite, []);
      expect(cli.code, cli.stderr).toBe(0);
      const v = verdicts(results);
      const notPass = Object.entries(v).filter(([, x]) => x !== "pass");
      expect(notPass, cli.stderr).toEqual([]);
      expect(Object.keys(v).length).toBeGreaterThan(o.minRequirements);
      if (o.sweeps) expect(results?.cleanup).toEqual([]);
    });

    for (const fault of o.faults) {
      const what =
        fault.breaks.length > 0 ? `exactly ${fault.breaks.join(", ")}` : "nothing (allowed behaviour)";
      it(`fault ${fault.id} fails ${what}`, async () => {
        const { cli, results } = await runDemoProfile(o.suite, [fault.id]);
        const v = verdicts(results);
        const failed = Object.keys(v)
          .filter((id) => v[id] === "fail" || v[id] === "warn")
          .sort();
        const errored = Object.keys(v).filter((id) => v[id] === "error");
        expect(failed, cli.stderr).toEqual([...fault.breaks].sort());
        expect(errored, cli.stderr).toEqual([]);
        if (o.sweeps) expect(results?.cleanup, cli.stderr).toEqual([]);
      });
    }
  });
}
