import { describe, expect, it } from "vitest";
import { Redactor } from "../../src/http/redactor.js";
import { toCurl } from "../../src/http/curl.js";

describe("redaction (design: honesty rule 6)", () => {
  it("replaces a registered secret wherever it occurs, with its placeholder", () => {
    const r = new Redactor([{ value: "s3cr3t-token-value", name: "SCIM_TOKEN" }]);
    expect(r.text("echo: s3cr3t-token-value and again s3cr3t-token-value")).toBe(
      "echo: ${SCIM_TOKEN} and again ${SCIM_TOKEN}",
    );
  });

  it("redacts Authorization and cookies but keeps the scheme, and learns the credential", () => {
    const r = new Redactor();
    const h = r.headers({
      Authorization: "Bearer abc.def.ghi",
      cookie: "sid=xyz123",
      accept: "application/json",
    });
    expect(h.Authorization).toBe("Bearer ${AUTHORIZATION_CREDENTIALS}");
    expect(h.cookie).toBe("${COOKIE}");
    expect(h.accept).toBe("application/json");
    expect(r.text("the body echoed abc.def.ghi")).toBe("the body echoed ${AUTHORIZATION_CREDENTIALS}");
  });

  it("redacts token members of JSON bodies and remembers them for later text", () => {
    const r = new Redactor();
    const out = r.body(
      JSON.stringify({ access_token: "at-123456", token_type: "Bearer", refresh_token: "rt-654321" }),
      "application/json",
    );
    expect(out).not.toContain("at-123456");
    expect(out).not.toContain("rt-654321");
    expect(out).toContain('"token_type": "Bearer"');
    expect(r.text("Authorization: Bearer at-123456")).toBe("Authorization: Bearer ${ACCESS_TOKEN}");
  });

  it("redacts private JWK members and keeps public ones", () => {
    const r = new Redactor();
    const jwk = { kty: "EC", crv: "P-256", x: "xxxx-public", y: "yyyy-public", d: "dddd-private-scalar" };
    const out = r.body(JSON.stringify({ keys: [jwk] }), "application/json");
    expect(out).not.toContain("dddd-private-scalar");
    expect(out).toContain("xxxx-public");
  });

  it("redacts client assertions and passwords in form bodies", () => {
    const r = new Redactor();
    const out = r.body(
      "grant_type=client_credentials&client_assertion=eyJhbGciOi.payload.sig&password=hunter22",
      "application/x-www-form-urlencoded",
    );
    expect(out).not.toContain("eyJhbGciOi.payload.sig");
    expect(out).not.toContain("hunter22");
    expect(out).toContain("grant_type=client_credentials");
  });

  it("renders curl with secrets as shell variables and nothing else expandable", () => {
    const cmd = toCurl(
      {
        method: "POST",
        url: "https://t.example/x?a=$(id)&b=${HOME}",
        headers: { authorization: "Bearer ${TOKEN}" },
        body: '{"a":"`rm`"}',
      },
      new Set(["TOKEN"]),
    );
    expect(cmd).toContain("b=\\${HOME}");
    expect(cmd).toContain('-H "authorization: Bearer ${TOKEN}"');
    expect(cmd).toContain("\\$(id)");
    expect(cmd).toContain("\\`rm\\`");
  });
});

describe("redaction edge cases (review of the core)", () => {
  it("hides a short credential in a known place, whatever its length", () => {
    const r = new Redactor();
    expect(r.headers({ authorization: "Bearer abc", cookie: "a=1" })).toEqual({
      authorization: "Bearer ${AUTHORIZATION_CREDENTIALS}",
      cookie: "${COOKIE}",
    });
  });

  it("finds a secret URL-encoded in a form body or a query, and JSON-escaped in a body", () => {
    const r = new Redactor([{ value: 's3cr3t+/="x', name: "S" }]);
    expect(
      r.body(`client_secret=${encodeURIComponent('s3cr3t+/="x')}&a=b`, "application/x-www-form-urlencoded"),
    ).toBe("client_secret=${S}&a=b");
    expect(r.url(`https://t.example/cb?x=${encodeURIComponent('s3cr3t+/="x')}#access_token=abc`)).toBe(
      "https://t.example/cb?x=${S}#access_token=${ACCESS_TOKEN}",
    );
    expect(r.text(JSON.stringify({ echoed: 's3cr3t+/="x' }))).toBe('{"echoed":"${S}"}');
  });

  it("deep() redacts string values only, so a numeric-looking secret cannot break the document", () => {
    const r = new Redactor([
      { value: "1234", name: "PIN" },
      { value: "pass", name: "P" },
    ]);
    expect(r.deep({ verdict: "pass", n: 1234, note: "pin 1234", list: ["pass"] })).toEqual({
      verdict: "${P}",
      n: 1234,
      note: "pin ${PIN}",
      list: ["${P}"],
    });
  });
});
