import { describe, expect, it } from "vitest";
import { bannerIn, leakIn } from "../../suites/scim/observers.js";

const headers =
  (h: Record<string, string>) =>
  (name: string): string | undefined =>
    h[name];

describe("specs/002 C Errors: what an error response must not show", () => {
  it("a framework banner header is named (RFC 9110 §10.2.4), a bare Server product name is not", () => {
    expect(bannerIn(headers({ "x-powered-by": "Express" }))).toBe('x-powered-by: "Express"');
    expect(bannerIn(headers({ "x-aspnet-version": "4.0.30319" }))).toMatch(/^x-aspnet-version/);
    expect(bannerIn(headers({ server: "Apache/2.4.41 (Ubuntu)" }))).toMatch(/^server: /);
    expect(bannerIn(headers({ server: "Kestrel" }))).toBeUndefined();
    expect(bannerIn(headers({ server: "nginx" }))).toBeUndefined();
    expect(bannerIn(headers({ "content-type": "application/scim+json" }))).toBeUndefined();
  });

  it("the runtime error a filter evaluator raises on a user without emails is a leak", () => {
    expect(leakIn("TypeError: Cannot read properties of undefined (reading 'some')")).toMatch(
      /^a runtime error message/,
    );
  });
});
