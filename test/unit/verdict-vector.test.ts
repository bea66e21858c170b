import { describe, expect, it } from "vitest";
import { unexplained, type VerdictVector } from "../helpers/fault-matrix.js";

const clean: VerdictVector = {
  A: { verdict: "pass" },
  B: { verdict: "pass" },
  C: { verdict: "skip", skipped: "not-offered: no deferred issuance" },
  D: { verdict: "pass" },
};

describe("the fault matrix compares whole verdict vectors (honesty rule 8)", () => {
  it("accepts exactly the declared changes", () => {
    const faulted: VerdictVector = {
      ...clean,
      A: { verdict: "fail" },
      B: { verdict: "skip", skipped: "dependency: x" },
    };
    expect(unexplained(clean, faulted, { id: "f", description: "", breaks: ["A"], skips: ["B"] })).toEqual(
      [],
    );
  });

  it("reports an undeclared skip, a lost pass, a changed skip reason and a missing requirement", () => {
    const faulted: VerdictVector = {
      A: { verdict: "fail" },
      B: { verdict: "skip", skipped: "dependency: create failed" },
      C: { verdict: "skip", skipped: "needs-probe: no probe" },
    };
    expect(unexplained(clean, faulted, { id: "f", description: "", breaks: ["A"] })).toEqual([
      "B: skip (dependency: create failed), expected pass",
      'C: skip reason changed from "not-offered: no deferred issuance" to "needs-probe: no probe"',
      "D: missing from the faulted run",
    ]);
  });

  it("a declared break that stays a pass is a difference", () => {
    expect(unexplained(clean, clean, { id: "f", description: "", breaks: ["D"] })).toEqual([
      "D: pass, expected fail or warn",
    ]);
  });
});

describe('skips: "rest"', () => {
  it("lets every other requirement skip or keep its verdict, but not fail or error", () => {
    const faulted: VerdictVector = {
      ...clean,
      A: { verdict: "fail" },
      B: { verdict: "skip", skipped: "dependency: no metadata" },
    };
    expect(unexplained(clean, faulted, { id: "f", description: "", breaks: ["A"], skips: "rest" })).toEqual(
      [],
    );
    expect(
      unexplained(
        clean,
        { ...faulted, D: { verdict: "fail" } },
        { id: "f", description: "", breaks: ["A"], skips: "rest" },
      ),
    ).toEqual(["D: fail, expected skip or pass"]);
  });
});
