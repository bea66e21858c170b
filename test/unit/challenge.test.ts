import { describe, expect, it } from "vitest";
import { bearerChallenge, bearerErrorProblem } from "../../src/http/challenge.js";

// RFC 6750 §3: the error attribute of a Bearer challenge, judged by the credential refused.
describe("bearerChallenge", () => {
  it("finds the Bearer challenge among others, with its attributes", () => {
    const ch = bearerChallenge('Basic realm="a", Bearer realm="ssf", error="invalid_token"');
    expect(ch?.scheme).toBe("Bearer");
    expect(ch?.params.map((p) => [p.name, p.value])).toEqual([
      ["realm", "ssf"],
      ["error", "invalid_token"],
    ]);
  });
  it("has none for another scheme alone, an absent header or one that cannot be read", () => {
    expect(bearerChallenge('Basic realm="a"')).toBeUndefined();
    expect(bearerChallenge(undefined)).toBeUndefined();
    expect(bearerChallenge("Bearer error_description=the token is not valid")).toBeUndefined();
  });
});

describe("bearerErrorProblem", () => {
  it("passes a challenge without error for a request without credentials", () => {
    expect(bearerErrorProblem("none", 'Bearer realm="ssf"')).toBeUndefined();
    expect(bearerErrorProblem("none", "Bearer")).toBeUndefined();
  });
  it("flags an error code sent to a request without credentials (SHOULD NOT)", () => {
    expect(bearerErrorProblem("none", 'Bearer realm="ssf", error="invalid_token"')).toMatch(
      /no usable credentials carries error="invalid_token".*SHOULD NOT/,
    );
  });
  it("passes invalid_token for a token never issued, in any letter case of the attribute name", () => {
    expect(bearerErrorProblem("invalid_token", 'Bearer realm="ssf", error="invalid_token"')).toBeUndefined();
    expect(bearerErrorProblem("invalid_token", "Bearer ERROR=invalid_token")).toBeUndefined();
  });
  it("flags a missing or other error for a token never issued", () => {
    expect(bearerErrorProblem("invalid_token", 'Bearer realm="ssf"')).toMatch(/no error attribute/);
    expect(bearerErrorProblem("invalid_token", 'Bearer error="invalid_request"')).toMatch(
      /error="invalid_request", not error="invalid_token"/,
    );
  });
  it("judges nothing where there is no readable Bearer challenge (presence and syntax are judged apart)", () => {
    expect(bearerErrorProblem("invalid_token", undefined)).toBeUndefined();
    expect(bearerErrorProblem("invalid_token", 'Basic realm="a"')).toBeUndefined();
    expect(bearerErrorProblem("none", 'Bearer error="x", error="y"')).toMatch(/error="x"/);
  });
});
