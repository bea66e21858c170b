import { describe, expect, it } from "vitest";
import { verdictFor, worst } from "../../src/engine/verdict.js";
import { matchesGrep } from "../../src/engine/requirement.js";

describe("verdict derivation (design: Verdict)", () => {
  it("a violated MUST fails, whatever strict says", () => {
    expect(verdictFor("MUST", "violated", false)).toBe("fail");
    expect(verdictFor("MUST", "violated", true)).toBe("fail");
  });
  it("a violated SHOULD warns, and fails only under --strict", () => {
    expect(verdictFor("SHOULD", "violated", false)).toBe("warn");
    expect(verdictFor("SHOULD", "violated", true)).toBe("fail");
  });
  it("a violated MAY is informational, never a failure", () => {
    expect(verdictFor("MAY", "violated", true)).toBe("pass");
  });
  it("skip and error keep their meaning at every level; error is never fail", () => {
    for (const level of ["MUST", "SHOULD", "MAY"] as const) {
      expect(verdictFor(level, "skipped", true)).toBe("skip");
      expect(verdictFor(level, "errored", true)).toBe("error");
      expect(verdictFor(level, "met", true)).toBe("pass");
    }
  });
  it("a requirement decided by several checks takes the worst: fail > warn > error > pass > skip", () => {
    expect(worst(["pass", "skip"])).toBe("pass");
    expect(worst(["pass", "error"])).toBe("error");
    expect(worst(["error", "warn"])).toBe("warn");
    expect(worst(["warn", "fail", "pass"])).toBe("fail");
    expect(worst([])).toBeUndefined();
  });
});

describe("--grep matches requirement ids and id prefixes", () => {
  it("matches an exact id, a dash-bounded prefix, and a star prefix", () => {
    expect(matchesGrep("SCIM-USER-CREATE", ["SCIM-USER"])).toBe(true);
    expect(matchesGrep("SCIM-USER-CREATE", ["scim-user-create"])).toBe(true);
    expect(matchesGrep("SCIM-USERS-LIST", ["SCIM-USER"])).toBe(false);
    expect(matchesGrep("SCIM-USERS-LIST", ["SCIM-USER*"])).toBe(true);
    expect(matchesGrep("VCI-NONCE", ["SCIM"])).toBe(false);
    expect(matchesGrep("ANY-ID", [])).toBe(true);
  });
});
