import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CheckResult } from "../../src/engine/check.js";
import type { Exchange } from "../../src/http/exchange.js";
import { toCurl } from "../../src/http/curl.js";
import { buildResults, type Results } from "../../src/report/results.js";
import { renderHtml } from "../../src/report/html.js";
import { decodeCompact, findCompact, MAX_TOKEN_CHARS } from "../../src/report/jwt-decode.js";
import { TOKENS_PER_EXCHANGE, TOKENS_PER_REPORT } from "../../src/report/html-evidence.js";
import { placeholderMeaning } from "../../src/report/placeholders.js";
import { ROOT } from "../helpers/cli.js";

const b64 = (s: string): string => Buffer.from(s).toString("base64url");
const jwt = (header: unknown, claims: unknown, sig = "c2ln"): string =>
  `${b64(JSON.stringify(header))}.${b64(typeof claims === "string" ? claims : JSON.stringify(claims))}.${sig}`;

function exchange(over: Partial<Exchange> & Pick<Exchange, "request">): Exchange {
  return {
    id: 0,
    startedAt: "2026-01-01T00:00:00.000Z",
    durationMs: 1,
    curl: toCurl(over.request, new Set(["COMMAND_TOKEN_SIGNATURE", "AUTHORIZATION_CREDENTIALS"])),
    ...over,
  };
}

function results(exchanges: Exchange[], notes: string[] = [], copies = 1): Results {
  const ids = Array.from({ length: copies }, (_, i) => (i === 0 ? "T-ONE" : `T-ONE-${i}`));
  const checks: CheckResult[] = ids.map((id) => ({
    check: `c.${id}`,
    suite: "t",
    title: "one",
    section: "§1",
    requirements: { [id]: "violated" },
    findings: [{ requirements: [id], outcome: "violated", message: "not met", exchanges: [] }],
    exchanges,
    notes,
    durationMs: 1,
  }));
  return buildResults({
    meta: {
      id: "run",
      harness: { name: "idconform", version: "test" },
      profile: { name: "p", file: "p.yaml", sha256: "a".repeat(64) },
      suites: [{ name: "t", title: "t", document: "t", target: "http://127.0.0.1" }],
      seed: 1,
      strict: false,
      grep: [],
      startedAt: "2026-01-01T00:00:00.000Z",
      durationMs: 1,
      notCertifiable: [],
      interrupted: false,
    },
    catalog: ids.map((id) => ({ id, suite: "t", level: "MUST" as const, text: "rule one", source: "t §1" })),
    covered: new Set(ids),
    checks,
    knownFailures: [],
  });
}

describe("JWT decoding for report.html (issue 12 item 6)", () => {
  it("decodes a JWS's header and claims, a JWE's protected header only, and a redacted signature", () => {
    const jws = decodeCompact(jwt({ alg: "ES256", typ: "dpop+jwt" }, { htm: "POST", iat: 1 }));
    expect(jws).toMatchObject({
      kind: "JWS",
      header: { alg: "ES256" },
      claims: { htm: "POST" },
      signatureBytes: 3,
    });
    const jwe = decodeCompact(`${b64('{"alg":"RSA-OAEP","enc":"A256GCM"}')}.a.b.c.d`);
    expect(jwe).toMatchObject({ kind: "JWE", header: { enc: "A256GCM" } });
    expect(jwe.claims).toBeUndefined();
    const cmd = decodeCompact(jwt({ alg: "RS256" }, { command: "activate" }, "${COMMAND_TOKEN_SIGNATURE}"));
    expect(cmd).toMatchObject({
      claims: { command: "activate" },
      signatureRedacted: "COMMAND_TOKEN_SIGNATURE",
    });
  });

  it("says why a hostile token is not decoded: non-JSON header, no alg, too long, too deep, not UTF-8", () => {
    expect(decodeCompact(`${b64('{"alg":')}.${b64("{}")}.x`).problem).toBe("its header is not JSON");
    expect(decodeCompact(jwt({ typ: "JWT" }, {})).problem).toContain('no "alg"');
    expect(decodeCompact(jwt({ alg: "none" }, [1])).payloadText).toContain("not a JSON object");
    expect(decodeCompact(`${b64('{"alg":"ES256"}')}..c2ln`).payloadText).toBe("empty (a detached payload)");
    const long = jwt({ alg: "HS256" }, { x: "a".repeat(MAX_TOKEN_CHARS) });
    expect(decodeCompact(long).problem).toContain("longer than");
    const deep = jwt({ alg: "HS256" }, `${"[".repeat(200)}${"]".repeat(200)}`);
    expect(decodeCompact(deep).payloadText).toContain("not a JSON object");
    const deepHeader = `${b64(`{"a":${"[".repeat(200)}${"]".repeat(200)}}`)}.e30.x`;
    expect(decodeCompact(deepHeader).problem).toContain("nested deeper");
    const binary = `${b64('{"alg":"HS256"}')}.${Buffer.from([0xff, 0xfe, 0x00]).toString("base64url")}.x`;
    expect(decodeCompact(binary).payloadText).toContain("not UTF-8");
  });

  it("finds tokens inside larger texts, not four-segment values, and stays linear over long base64 runs", () => {
    const t = jwt({ alg: "ES256" }, { a: 1 });
    expect(findCompact(`DPoP ${t}`, 8).found).toEqual([t]);
    expect(findCompact(`${t}~disclosure~`, 8).found).toEqual([t]);
    expect(findCompact(`${t}.more`, 8).found).toEqual([]);
    expect(findCompact(`see ${t}.`, 8).found).toEqual([t]);
    const run = `eyJ${"A".repeat(400_000)}`;
    expect(findCompact(run, 8).found).toEqual([]);
    expect(findCompact(Array(50).fill(t).join(" "), 8)).toMatchObject({ more: 42 });
  });
});

describe("report.html evidence: decoded JWTs, placeholders, notes (issue 12 item 6)", () => {
  const dpop = jwt(
    { alg: "ES256", typ: "dpop+jwt", jwk: { kty: "EC", crv: "P-256", x: "x", y: "y", d: "private-d" } },
    { htm: "POST", htu: "http://127.0.0.1/token", iat: 1767225600, note: "<script>alert(1)</script>" },
  );
  const command = jwt(
    { alg: "RS256" },
    { command: "activate", secretish: "run-secret-value" },
    "${COMMAND_TOKEN_SIGNATURE}",
  );
  const request = {
    method: "POST",
    url: "http://127.0.0.1/token",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: "DPoP ${AUTHORIZATION_CREDENTIALS}",
      dpop,
    },
    body: `command_token=${command}&grant_type=x`,
  };
  const e = exchange({
    request,
    response: {
      status: 400,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        access_token: "${ACCESS_TOKEN}",
        credential: jwt({ alg: "EdDSA" }, { vct: "x" }),
      }),
      bodyBytes: 10,
    },
  });
  const html = renderHtml(results([e], ["could not delete Users/42: 500", "<b>note</b>"]), {
    redact: (s) => s.replaceAll("run-secret-value", "${RUN_SECRET}"),
  });

  it("shows each JWT decoded beside its raw value, escaped, with private members and run secrets redacted", () => {
    expect(html).toContain("<b>JWS</b> in request header dpop · alg ES256 · typ dpop+jwt");
    expect(html).toContain("&#34;htm&#34;: &#34;POST&#34;");
    expect(html).toContain("iat 2026-01-01T00:00:00.000Z");
    expect(html).toContain("&#60;script&#62;alert(1)&#60;/script&#62;");
    expect(html).not.toContain("<script>alert(1)");
    expect(html).not.toContain("private-d");
    expect(html).toContain("&#34;d&#34;: &#34;${JWK_D}&#34;");
    expect(html).toContain("in request body field command_token");
    expect(html).toContain("signature redacted as ${COMMAND_TOKEN_SIGNATURE}");
    expect(html).not.toContain("run-secret-value");
    expect(html).toContain("in response body $.credential · alg EdDSA");
    expect(html).toContain(
      "response body $.access_token: <code>${ACCESS_TOKEN}</code> — redacted (a token there cannot be decoded)",
    );
    expect(html).toContain("request header authorization: <code>${AUTHORIZATION_CREDENTIALS}</code>");
  });

  it("explains every placeholder of the curl commands, naming the commands that mint a fresh value", () => {
    const section = html.slice(html.indexOf('<section id="placeholders">'));
    expect(section).toContain("<code>${AUTHORIZATION_CREDENTIALS}</code>");
    expect(section).toContain("<code>${COMMAND_TOKEN_SIGNATURE}</code>");
    expect(section).toContain("idconform mock op --sign claims.json --profile");
    expect(section).not.toContain("no idconform command mints one on its own today");
    expect(section).toContain("<code>${ACCESS_TOKEN}</code>");
    expect(section).toContain("not in a curl command");
  });

  it("shows a check's notes (clean-up notes too), escaped", () => {
    expect(html).toContain(
      '<ul class="notes"><li>could not delete Users/42: 500</li><li>&#60;b&#62;note&#60;/b&#62;</li></ul>',
    );
  });

  it("caps hostile header members and redacts a non-JSON payload too", () => {
    const hostile = jwt({ alg: "x".repeat(5000), typ: "<i>t</i>" }, "plain run-secret-value text");
    const h = renderHtml(
      results([exchange({ request: { method: "GET", url: "http://127.0.0.1/", headers: { x: hostile } } })]),
      { redact: (s) => s.replaceAll("run-secret-value", "${RUN_SECRET}") },
    );
    expect(h).toContain(`<b>JWS</b> in request header x · alg ${"x".repeat(100)}… · typ`);
    expect(h).toMatch(
      /<p>header<\/p><pre>\{\n  &#34;alg&#34;: &#34;x+\n… \[\d+ more characters not shown\]<\/pre>/,
    );
    expect(h).toContain("typ &#60;i&#62;t&#60;/i&#62;");
    expect(h).toContain("not a JSON object: plain ${RUN_SECRET} text");
    expect(h).not.toContain("run-secret-value");
  });

  it("bounds the tokens decoded per exchange", () => {
    const many = Array.from({ length: 20 }, (_, i) => jwt({ alg: "ES256" }, { i }));
    const h = renderHtml(
      results([
        exchange({ request: { method: "GET", url: "http://127.0.0.1/", headers: { x: many.join(" ") } } }),
      ]),
    );
    expect(h.match(/<div class="jwt">/g)).toHaveLength(TOKENS_PER_EXCHANGE);
    expect(h).toContain(`${20 - TOKENS_PER_EXCHANGE} more JWT(s) in this exchange not decoded here`);
    // A target's own `${...}` text is listed as redacted within a bound, never without one.
    const echo = Array.from({ length: 100 }, (_, i) => `\${N_${i}}`).join(" ");
    const h2 = renderHtml(
      results([
        exchange({
          request: { method: "GET", url: "http://127.0.0.1/", headers: {} },
          response: { status: 200, headers: {}, body: echo, bodyBytes: echo.length },
        }),
      ]),
    );
    expect(h2.match(/<li>response body: <code>/g)).toHaveLength(12);
    expect(h2.match(/<tr><td><code>\$\{N_/g)).toHaveLength(12);
  });

  it("bounds the tokens decoded per report: past the budget they are named, not decoded", () => {
    const headers = { x: Array.from({ length: 8 }, (_, i) => jwt({ alg: "ES256" }, { i })).join(" ") };
    const six = Array.from({ length: 6 }, (_, id) =>
      exchange({ id, request: { method: "GET", url: "http://127.0.0.1/", headers } }),
    );
    // 50 findings x 6 exchanges x 8 tokens = 2,400 tokens.
    const h = renderHtml(results(six, [], 50));
    expect(h.match(/<div class="jwt-dec">/g)).toHaveLength(TOKENS_PER_REPORT);
    expect(h.match(/not decoded, the report already decodes 2000/g)).toHaveLength(2400 - TOKENS_PER_REPORT);
    // The budget is per render: the next report decodes again.
    expect(renderHtml(results(six)).match(/<div class="jwt-dec">/g)).toHaveLength(6 * 8);
  });

  it("knows every placeholder name the suites register (none reads as a profile variable)", () => {
    const names = new Set<string>();
    const walk = (dir: string): void => {
      for (const f of readdirSync(dir)) {
        const p = join(dir, f);
        if (statSync(p).isDirectory()) walk(p);
        else if (p.endsWith(".ts"))
          for (const m of readFileSync(p, "utf8").matchAll(/\.secret\([^;]*?,\s*"([A-Z0-9_]+)"\)/g))
            names.add(m[1] ?? "");
      }
    };
    walk(join(ROOT, "suites"));
    expect(names.size).toBeGreaterThan(5);
    for (const n of names) expect(placeholderMeaning(n).means, n).not.toMatch(/^a value of the profile/);
    expect(placeholderMeaning("SCIM_TOKEN").fresh).toBe(
      "export SCIM_TOKEN with the value you ran with (or the profile's inline value)",
    );
  });
});
