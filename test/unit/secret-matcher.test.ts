import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { Redactor, WITHHELD } from "../../src/http/redactor.js";
import { SecretMatcher } from "../../src/http/secret-matcher.js";
import { jsonBeyondBounds, parseJsonBounded } from "../../src/http/json-bounds.js";

const token = (n: number): string =>
  randomBytes(Math.ceil((n * 3) / 4))
    .toString("base64url")
    .slice(0, n);

describe("redaction of any number and size of secrets (design: honesty rule 6; hostile targets item 1)", () => {
  it("removes a 1 MB secret from a 4 MB text, and the secret's start at the end of a cut text", () => {
    const big = token(1024 * 1024);
    const r = new Redactor([{ value: big, name: "access_token" }]);
    const text = `${"x".repeat(1_000_000)}${big}${"y".repeat(2_000_000)}${big}`;
    const out = r.text(text);
    expect(out).toBe(`${"x".repeat(1_000_000)}\${ACCESS_TOKEN}${"y".repeat(2_000_000)}\${ACCESS_TOKEN}`);
    // A report keeps the start of a body: the part of the secret that made it in is removed too.
    const cut = `{"a":1,"token_echo":"${big.slice(0, 60_000)}`;
    expect(r.text(cut, true)).toBe('{"a":1,"token_echo":"${ACCESS_TOKEN}');
    expect(r.text(`ok ${big.slice(0, 3)}`, true)).toBe(`ok ${big.slice(0, 3)}`);
  });

  it("removes every one of 1,000 secrets, in clear, URL- and JSON-encoded, wherever they stand", () => {
    const secrets = Array.from({ length: 1000 }, (_, i) => `${token(20 + (i % 200))}+/=${i}`);
    const r = new Redactor(secrets.map((value, i) => ({ value, name: `code_${i % 7}` })));
    const text = secrets
      .map((s, i) => (i % 3 === 0 ? s : i % 3 === 1 ? encodeURIComponent(s) : JSON.stringify(s)))
      .join(" and ");
    const out = r.text(text);
    for (const s of secrets) {
      expect(out.includes(s)).toBe(false);
      expect(out.includes(encodeURIComponent(s))).toBe(false);
    }
    expect(out.match(/\$\{CODE_\d\}/g)?.length).toBe(1000);
  });

  it("leaves no part of two overlapping secrets, and prefers the longest at a position", () => {
    const r = new Redactor([
      { value: "abcdXYZW", name: "one" },
      { value: "XYZW1234", name: "two" },
      { value: "abcd", name: "short" },
    ]);
    expect(r.text("<abcdXYZW1234>")).toBe("<${ONE}>");
    expect(r.text("<abcd-XYZW1234>")).toBe("<${SHORT}-${TWO}>");
    expect(r.text("nothing here")).toBe("nothing here");
  });

  it("shares one key among secrets with a common ending and still tells them apart", () => {
    const tail = "t".repeat(40);
    const m = new SecretMatcher(
      new Map([
        [`A${tail}`, "A"],
        [`BB${tail}`, "B"],
      ]),
    );
    expect(m.spans(`..BB${tail}..A${tail}..C${tail}`)).toEqual([
      { start: 2, end: 44, name: "B" },
      { start: 46, end: 87, name: "A" },
    ]);
  });

  it("withholds a text rather than fail open when a pathological secret makes the search too costly", () => {
    const evil = `${"a".repeat(200_000)}b`;
    const r = new Redactor([{ value: evil, name: "evil" }]);
    const out = r.text("a".repeat(2_000_000));
    expect(out === WITHHELD || !out.includes(evil)).toBe(true);
    expect(r.text(`x${evil}x`)).toBe("x${EVIL}x");
  });

  it("learns a secret member of a body over the evidence cap, so the kept start is redacted", () => {
    const at = token(300_000);
    const r = new Redactor();
    const body = JSON.stringify({ access_token: at, token_type: "Bearer", pad: "p".repeat(100_000) });
    r.learn({ "content-type": "application/json" }, body);
    const kept = body.slice(0, 64 * 1024);
    const out = r.body(kept, "application/json", true);
    expect(out).toBe('{"access_token":"${ACCESS_TOKEN}');
  });

  it("a body nested 100,000 deep or with 1,000,000 values is not parsed, and redaction of it does not throw", () => {
    const deep = `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`;
    expect(jsonBeyondBounds(deep)).toContain("nested deeper than 128");
    const wide = `{${Array.from({ length: 1_000_001 }, (_, i) => `"${i}":0`).join(",")}}`;
    expect(parseJsonBounded(wide)).toEqual({
      ok: false,
      error: expect.stringContaining("more than 100000 values"),
    });
    expect(parseJsonBounded('{"a":"},{,,[[["}')).toEqual({ ok: true, value: { a: "},{,,[[[" } });
    const r = new Redactor([{ value: "s3cr3t-value", name: "token" }]);
    const noisy = `${'{"access_token":'.repeat(50_000)}"s3cr3t-value"${"}".repeat(50_000)}`;
    const out = r.body(noisy, "application/json");
    expect(out.includes("s3cr3t-value")).toBe(false);
    expect(r.deep({ a: [{ b: "s3cr3t-value" }] })).toEqual({ a: [{ b: "${TOKEN}" }] });
  });
});
