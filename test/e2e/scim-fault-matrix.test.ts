import { describe, expect, it } from "vitest";
import { faults } from "../../targets/scim/faults.js";
import { runDemoProfile, verdicts } from "../helpers/cli.js";

// Honesty rules 1-3 for the SCIM suite (issue: SCIM suite §6): the clean reference target
// passes every check; each fault fails exactly the requirements it names.
describe("SCIM suite fault matrix (specs/002 area C)", () => {
  it("the clean SCIM reference target passes every requirement, and leaves nothing behind", async () => {
    const { cli, results } = await runDemoProfile("scim", []);
    expect(cli.code, cli.stderr).toBe(0);
    const v = verdicts(results);
    const notPass = Object.entries(v).filter(([, x]) => x !== "pass");
    expect(notPass, cli.stderr).toEqual([]);
    expect(Object.keys(v).length).toBeGreaterThan(40);
    expect(results?.cleanup).toEqual([]);
  });

  for (const fault of faults) {
    it(`fault ${fault.id} fails exactly ${fault.breaks.join(", ")}`, async () => {
      const { cli, results } = await runDemoProfile("scim", [fault.id]);
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
