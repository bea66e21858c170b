import { describe, expect, it } from "vitest";
import { groupEndpointOf } from "../../suites/scim/scim-client.js";

const base = "https://app.example/scim/v2";
const rt = (endpoint: unknown, extra: Record<string, unknown> = {}) => ({
  Resources: [
    { id: "User", name: "User", endpoint: "/Users", schema: "urn:ietf:params:scim:schemas:core:2.0:User" },
    { id: "Group", name: "Group", endpoint, schema: "urn:ietf:params:scim:schemas:core:2.0:Group", ...extra },
  ],
});

describe("SCIM groups are tested at the endpoint /ResourceTypes gives (RFC 7643 §6)", () => {
  it("reads the Group endpoint as a path under the base URL", () => {
    expect(groupEndpointOf(rt("/Groups"), base)).toBe("/Groups");
    expect(groupEndpointOf(rt("/Roles"), base)).toBe("/Roles");
    // "relative to the Base URL": without its leading slash, or absolute under the base.
    expect(groupEndpointOf(rt("Groups"), base)).toBe("/Groups");
    expect(groupEndpointOf(rt(`${base}/Groups/`), base)).toBe("/Groups");
    // Found by schema or by name when the id is another.
    expect(groupEndpointOf(rt("/Teams", { id: "teams", name: "Teams" }), base)).toBe("/Teams");
    // A bare array instead of a ListResponse is read the same.
    expect(groupEndpointOf(rt("/Groups").Resources, base)).toBe("/Groups");
  });

  it("names none for an answer without a usable endpoint (the suite then uses /Groups)", () => {
    expect(groupEndpointOf(undefined, base)).toBeUndefined();
    expect(groupEndpointOf({ Resources: [] }, base)).toBeUndefined();
    expect(groupEndpointOf(rt(42), base)).toBeUndefined();
    // Another host, a query, a path escaping the base: never followed.
    expect(groupEndpointOf(rt("https://elsewhere.example/Groups"), base)).toBeUndefined();
    expect(groupEndpointOf(rt("/Groups?x=1"), base)).toBeUndefined();
    expect(groupEndpointOf(rt("/../admin"), base)).toBeUndefined();
    expect(groupEndpointOf(rt(`/${"a".repeat(300)}`), base)).toBeUndefined();
  });
});
