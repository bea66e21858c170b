import { describe, expect, it } from "vitest";
import type { ObservedExchange } from "../../src/engine/observer.js";
import type { HttpResponse } from "../../src/http/client.js";
import { TAG, vciObservers } from "../../suites/vci/observers.js";
import { challengeProblem, parseChallenges } from "../../src/http/challenge.js";
import { refusal } from "../../suites/vci/checks/proofs.js";

/** A credential-endpoint exchange as the observers see it. */
function exchange(status: number, body: unknown, headers: Record<string, string> = {}): ObservedExchange {
  const all = { "content-type": "application/json", ...headers };
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return {
    check: "unit",
    label: "a proof error",
    tags: [TAG.credential],
    method: "POST",
    url: new URL("https://issuer.example/credential"),
    requestHeaders: {},
    status,
    headers: all,
    header: (n) => all[n.toLowerCase() as keyof typeof all],
    text,
    json: typeof body === "string" ? undefined : body,
    jsonError: typeof body === "string" ? "not JSON" : undefined,
  };
}

/** What the observer of `requirement` says of `ex`: "n/a" when the rule does not speak of it. */
function judged(requirement: string, ex: ObservedExchange): string | undefined {
  const o = vciObservers.find((x) => x.requirement === requirement)!;
  if (!o.applies(ex, undefined as never)) return "n/a";
  return o.judge(ex, undefined as never)?.actual;
}

// public §8.3.1 and RFC 6749 §5.2: every error the credential endpoint gives, not only its 400s.
describe("credential errors are judged on every error response (VCI-CRED-ERROR-FORMAT)", () => {
  it("judges the error_description of a 500 answering a bad proof: a line feed and non-ASCII fail", () => {
    const body = { error: "server_error", error_description: "proof rejected\nPrüfung" };
    expect(judged("VCI-CRED-ERROR-FORMAT", exchange(500, body))).toMatch(/U\+000A at 14, U\+00FC at 17/);
    expect(judged("VCI-CRED-ERROR-FORMAT", exchange(400, { ...body, error: "invalid_proof" }))).toMatch(
      /outside/,
    );
  });

  it("passes a clean 500, leaves a 500 that is no JSON object and a 401 body to other rules", () => {
    expect(judged("VCI-CRED-ERROR-FORMAT", exchange(500, { error: "server_error" }))).toBeUndefined();
    expect(judged("VCI-CRED-ERROR-FORMAT", exchange(502, "<html>bad gateway</html>"))).toBeUndefined();
    expect(judged("VCI-CRED-ERROR-FORMAT", exchange(401, { error_description: "a\nb" }))).toBe("n/a");
  });

  it("fails an error code outside the allowed characters and an encrypted error", () => {
    expect(judged("VCI-CRED-ERROR-FORMAT", exchange(400, { error: 'invalid"proof' }))).toMatch(/error/);
    expect(
      judged("VCI-CRED-ERROR-FORMAT", exchange(500, "eyJ.x.y.z.w", { "content-type": "application/jwt" })),
    ).toMatch(/never encrypted/);
  });
});

// RFC 9110 §11.6.1 (challenge grammar), RFC 6750 §3 (Bearer attributes).
describe("WWW-Authenticate of the credential endpoint is well formed (VCI-CRED-CHALLENGE-SYNTAX)", () => {
  it.each([
    "Bearer",
    'Bearer realm="issuer"',
    'Bearer error="invalid_token", error_description="the access token expired"',
    'Bearer error=invalid_token,error_description="x"',
    'Bearer scope="openid identity_sd_jwt"',
    'Bearer error="invalid_token", DPoP algs="ES256 EdDSA", Basic realm="x"',
    'DPoP algs="ES256", Bearer',
  ])("takes %s", (value) => {
    expect(challengeProblem(value)).toBeUndefined();
  });

  it.each([
    ["Bearer error, error_description, scope", /not by name=value/],
    ['Bearer error="invalid_token", error="invalid_request"', /more than once/],
    ["Bearer realm=issuer", /realm is not a quoted-string/],
    ['Bearer error_description="a \\"quoted\\" word"', /error_description/],
    ['Bearer scope="a  b"', /scope/],
    ['Bearer error="invalid_token" error_description="x"', /comma was expected/],
    ['Bearer error="invalid_token', /neither a token nor a quoted-string/],
    ["Bearer error=", /./],
    [", ,", /no challenge/],
    ['="x"', /auth-scheme/],
  ])("refuses %s", (value, why) => {
    expect(challengeProblem(value)).toMatch(why);
  });

  it("reads challenges, token68 and quoted-pairs", () => {
    expect(parseChallenges('Basic dXNlcjpwYXNz==, Bearer realm="a\\"b"')).toEqual([
      { scheme: "Basic", token68: "dXNlcjpwYXNz==", params: [] },
      { scheme: "Bearer", params: [{ name: "realm", value: 'a"b', quoted: true }] },
    ]);
  });

  it("is judged on every credential-endpoint response that carries one", () => {
    const ex = exchange(401, {}, { "www-authenticate": "Bearer error, error_description, scope" });
    expect(judged("VCI-CRED-CHALLENGE-SYNTAX", ex)).toMatch(/Bearer error, error_description, scope/);
    expect(judged("VCI-CRED-CHALLENGE-SYNTAX", exchange(400, { error: "invalid_proof" }))).toBe("n/a");
  });
});

// public §8.3.1: a bad proof is a 400 with a code; a 500 is the issuer failing, not refusing well.
describe("a refusal's finding says how the request was answered", () => {
  const res = (status: number, body: unknown): HttpResponse =>
    ({
      status,
      text: JSON.stringify(body),
      json: body,
      jsonError: undefined,
      header: (n: string) => (n === "content-type" ? "application/json" : undefined),
    }) as unknown as HttpResponse;

  it("a 500 reads as refused with 500, a 200 as accepted, a wrong 400 as refused with its code", () => {
    const five = refusal(res(500, { error: "server_error" }), "400 invalid_proof", "a proof without aud");
    expect(five.actual).toBe("refused with 500 server_error");
    expect(five.message).toBe(
      "a proof without aud was refused with 500, a server error, not with a 400 error code the Wallet can act on",
    );
    const ok = refusal(res(200, { credentials: [] }), "400 invalid_proof");
    expect(ok.actual).toMatch(/^accepted: 200/);
    expect(ok.message).toBe("the defective request was accepted with 200, not refused");
    const wrong = refusal(res(400, { error: "invalid_request" }), "400 invalid_proof");
    expect(wrong.actual).toBe("refused with 400 invalid_request");
    expect(wrong.message).toBeUndefined();
  });
});
