import { describe, expect, it } from "vitest";
import { faults } from "../fixture/target.js";
import { runFixture, verdicts } from "../helpers/cli.js";

// Honesty rules 1-3 for the fixture suite: the clean target passes every check, and each
// fault fails exactly the requirements it names (errors exactly its undecidable ones).
// A bounded run: the slow-cleanup fault's sweep (over four minutes of deletes) ends at runMs, so
// it costs at most 20 s of the test's 60 s.
const options = "  timeouts:\n    requestMs: 1500\n    runMs: 20000\n    cleanupMs: 2000";

describe("fixture suite fault matrix (design: honesty rules 1-3)", () => {
  it("the clean fixture target passes every requirement", async () => {
    const { cli, results } = await runFixture({ options });
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
      const failed = Object.keys(v)
        .filter((id) => v[id] === "fail" || v[id] === "warn")
        .sort();
      const errored = Object.keys(v)
        .filter((id) => v[id] === "error")
        .sort();
      expect(failed, cli.stderr).toEqual([...fault.breaks].sort());
      expect(errored, cli.stderr).toEqual([...(fault.undecidable ?? [])].sort());
      const mustFails = fault.breaks.filter((id) => v[id] === "fail");
      expect(cli.code).toBe(mustFails.length > 0 ? 1 : errored.length > 0 ? 3 : 0);
    });
  }
});
