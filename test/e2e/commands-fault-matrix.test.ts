import { describe, expect, it } from "vitest";
import { faults } from "../../targets/commands/faults.js";
import { runDemoProfile, verdicts } from "../helpers/cli.js";

// Honesty rules 1-3 for the account commands suite (issue: commands suite §5): the clean reference target
// passes every check; each fault fails exactly the requirements it names.
describe("Account commands suite fault matrix (specs/002 area A)", () => {
  it("the clean commands reference target (RP) passes every requirement, and leaves nothing behind", async () => {
    const { cli, results } = await runDemoProfile("commands", []);
    expect(cli.code, cli.stderr).toBe(0);
    const v = verdicts(results);
    const notPass = Object.entries(v).filter(([, x]) => x !== "pass");
    expect(notPass, cli.stderr).toEqual([]);
    expect(Object.keys(v).length).toBeGreaterThan(50);
    expect(results?.cleanup).toEqual([]);
  });

  for (const fault of faults) {
    it(`fault ${fault.id} fails exactly ${fault.breaks.join(", ")}`, async () => {
      const { cli, results } = await runDemoProfile("commands", [fault.id]);
      const v = verdicts(results);
      const failed = Object.keys(v)
        .filter((id) => v[id] === "fail" || v[id] === "warn")
        .sort();
      const errored = Object.keys(v).filter((id) => v[id] === "error");
      expect(failed, cli.stderr).toEqual([...fault.breaks].sort());
      expect(errored, cli.stderr).toEqual([]);
      expect(results?.cleanup, cli.stderr).toEqual([]);
    });
  }
});
