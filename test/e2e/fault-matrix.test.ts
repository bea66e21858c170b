import { describe, expect, it } from "vitest";
import { faults } from "../fixture/target.js";
import { runFixture, verdicts } from "../helpers/cli.js";
import { unexplained, verdictVector, type VerdictVector } from "../helpers/fault-matrix.js";

// Honesty rules 1-3 for the fixture suite: the clean target passes every check, and each
// fault fails exactly the requirements it names (errors exactly its undecidable ones).
// A bounded run: the slow-cleanup fault's sweep (over four minutes of deletes) ends at runMs, so
// it costs at most 20 s of the test's 60 s.
const options = "  timeouts:\n    requestMs: 1500\n    runMs: 20000\n    cleanupMs: 2000";

describe("fixture suite fault matrix (design: honesty rules 1-3 and 8)", () => {
  let clean: Promise<VerdictVector> | undefined;
  it("the clean fixture target passes every requirement", async () => {
    const run = runFixture({ options });
    clean = run.then(({ results }) => verdictVector(results));
    const { cli, results } = await run;
    expect(cli.code, cli.stderr).toBe(0);
    const v = verdicts(results);
    expect(
      Object.values(v).every((x) => x === "pass"),
      JSON.stringify(v),
    ).toBe(true);
    expect(Object.keys(v).length).toBeGreaterThan(8);
  });

  for (const fault of faults) {
    const title = [
      fault.breaks.length > 0 ? `fails exactly ${fault.breaks.join(", ")}` : "fails nothing",
      fault.undecidable ? `and cannot be decided for ${fault.undecidable.join(", ")}` : "",
    ];
    it(`fault ${fault.id} ${title.join(" ").trim()}`, async () => {
      const { cli, results } = await runFixture({ faults: [fault.id], options });
      const v = verdicts(results);
      clean ??= runFixture({ options }).then((r) => verdictVector(r.results));
      // The whole verdict vector: only what the fault names may differ from the clean run.
      expect(unexplained(await clean, verdictVector(results), fault), cli.stderr).toEqual([]);
      const errored = Object.keys(v).filter((id) => v[id] === "error");
      const mustFails = fault.breaks.filter((id) => v[id] === "fail");
      expect(cli.code).toBe(mustFails.length > 0 ? 1 : errored.length > 0 ? 3 : 0);
    });
  }
});
