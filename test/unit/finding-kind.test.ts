import { describe, expect, it } from "vitest";
import { inferKind, kindRank } from "../../src/engine/finding-kind.js";

// Texts as the suites' checks write them (taken from reference-target faults).
describe("finding kinds read from what a check expected and what came (issue 12 item 5)", () => {
  it.each([
    [
      "numbers in a URL are no statuses",
      {
        expected: "a redirect to http://127.0.0.1:4011/callback with state",
        actual: "302 to the callback, state null",
      },
      "missing",
    ],
    [
      "a header read as (none)",
      { expected: "Cache-Control: no-store", actual: "Cache-Control (none)" },
      "missing",
    ],
    [
      "a parenthesised absence",
      { expected: "Cache-Control: no-store", actual: "(no Cache-Control)" },
      "missing",
    ],
    ["nothing arrived", { expected: "a Notification Token", actual: "nothing arrived (5000 ms)" }, "missing"],
    [
      "a status said in words",
      { expected: "400 invalid_request", actual: "answered 500 server_error, expected 400 invalid_request" },
      "wrong-status",
    ],
    [
      "a refusal said in words",
      { expected: "401 unrecognized_provider", actual: "refused with 400 invalid_request" },
      "wrong-status",
    ],
    [
      "a bare error code after the right status",
      { expected: "409 incompatible_state", actual: '409 {"error":"conflict"}' },
      "wrong-code",
    ],
    ["a 5xx against a class", { expected: "the replay refused (4xx)", actual: "500 boom" }, "wrong-status"],
    ["a 2xx against a refusal class", { expected: "the replay refused (4xx)", actual: "200 ok" }, "accepted"],
    [
      "a member null after a status",
      { expected: "audit answers aud_sub", actual: "200 account_state active aud_sub null" },
      "missing",
    ],
    [
      "201 named, 200 received",
      { expected: "201 with a string id", actual: '200 {"id":"g1"}' },
      "wrong-status",
    ],
    [
      "any 2xx named, 201 received",
      { expected: "creates the group (2xx with its id)", actual: "201 without id" },
      "wrong-value",
    ],
    [
      "a refusal expected, 2xx received",
      {
        expected: "401 with a Bearer WWW-Authenticate challenge for GET /Users",
        actual: "200, WWW-Authenticate null",
      },
      "accepted",
    ],
    [
      "a revoked subject still let in",
      { expected: "the probe shows no access (401, 403 or 404)", actual: '200 {"active":true}' },
      "accepted",
    ],
    [
      "a token request that must fail gets a token",
      {
        expected: "400 or 401 with an RFC 6749 §5.2 error (invalid_client) and no access_token",
        actual: '200 {"access_token":"${ACCESS_TOKEN}"}',
      },
      "accepted",
    ],
    [
      "a duplicate created",
      {
        expected: "a second user with the same userName: 409 with scimType uniqueness",
        actual: "201 scimType null",
      },
      "accepted",
    ],
    [
      "a step of a sequence that must be refused succeeds",
      {
        expected: "every command answers as the state table says",
        actual: "create(u0): expected 409 (the userName is taken), got 201 {}",
      },
      "accepted",
    ],
    ["an unknown resource answered 200 is no acceptance", { expected: "404", actual: "200" }, "wrong-status"],
    [
      "a 2xx expected, 404 received",
      { expected: "POST /Group creates the group (2xx with its id)", actual: '404 {"status":"404"}' },
      "wrong-status",
    ],
    [
      "a step answered with another status",
      {
        expected: "every command answers as the state table says",
        actual: "reactivate(u0): expected 200 or 204, got 400 {}",
      },
      "wrong-status",
    ],
    [
      "refused, with another error status",
      { expected: "400 with error invalid_proof", actual: '401 {"error":"invalid_token"}' },
      "wrong-status",
    ],
    [
      "the right status with another code",
      { expected: "400 with error invalid_proof", actual: '400 {"error":"invalid_request"}' },
      "wrong-code",
    ],
    ["a header absent", { expected: "a Location header (RFC 7644 §3.3)", actual: "(absent)" }, "missing"],
    [
      "a member absent",
      { expected: "a ListResponse with itemsPerPage 1", actual: "no itemsPerPage" },
      "missing",
    ],
    [
      "a challenge absent on a right status",
      { expected: "401 with a Bearer WWW-Authenticate challenge", actual: "401, WWW-Authenticate null" },
      "missing",
    ],
    [
      "members read back null",
      {
        expected: 'schemas [urn:...:Error] and status "404" (a string)',
        actual: "schemas null, status null",
      },
      "missing",
    ],
    [
      "a body that does not parse",
      { expected: "a JSON body", actual: "Unexpected token", message: "the response body is not JSON" },
      "malformed",
    ],
    [
      "syntax words deep in the target's own text are not read",
      {
        expected: "scimType invalidFilter",
        actual: `scimType "invalidValue": ${"x".repeat(100)} not valid JSON`,
      },
      "wrong-code",
    ],
    [
      "a value the document does not allow",
      { expected: "application/scim+json", actual: "application/json" },
      "wrong-value",
    ],
    ["a state read back wrong", { expected: "204, then 404", actual: "204, then 200" }, "wrong-value"],
  ] as const)("%s", (_, d, kind) => {
    expect(inferKind(d)).toBe(kind);
  });

  it("the status of the cited response decides an acceptance when the actual text has none", () => {
    expect(
      inferKind({ expected: "the forged token refused (401)", actual: "the command was carried out" }, 200),
    ).toBe("accepted");
    expect(
      inferKind({ expected: "the forged token refused (401)", actual: "the command was carried out" }, 500),
    ).toBe("wrong-value");
  });

  it("acceptances sort first, an unknown kind last", () => {
    expect(kindRank("accepted")).toBeLessThan(kindRank("wrong-status"));
    expect(kindRank(undefined)).toBeGreaterThan(kindRank("wrong-value"));
  });
});
