import { createServer } from "node:net";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCheck, type CheckEnvironment } from "../../src/engine/check-runner.js";
import type { CheckDefinition, CheckResult } from "../../src/engine/check.js";
import type { RunningServer } from "../../src/engine/target.js";
import { DEFAULT_CLIENT_OPTIONS } from "../../src/http/client.js";
import { serveApp } from "../../src/http/serve.js";
import { AS_WELL_KNOWN, IDENTIFIER_SETS, wellKnownUrl } from "../../src/protocols/vci.js";
import { eventJson } from "../../mocks/op/sse.js";
import { parseCredential } from "../../mocks/wallet/credential.js";
import { parseOfferInvocation } from "../../mocks/wallet/offer.js";
import { errorChecks } from "../../suites/scim/checks/errors.js";
import { scimProfile } from "../../suites/scim/profile.js";
import { authorizationChecks } from "../../suites/vci/checks/authorization.js";
import { metadataChecks } from "../../suites/vci/checks/metadata.js";
import { tokenChecks } from "../../suites/vci/checks/token.js";
import { vciProfile } from "../../suites/vci/profile.js";

// Hostile targets item 4: what a target or the profile's setup does wrong is a finding or an
// error that says so, never an IDC_INTERNAL "harness fault" or "ended without deciding".

const DEEP = 100_000;
const deepJson = `${"[".repeat(DEEP)}${"]".repeat(DEEP)}`;
const b64 = (s: string): string => Buffer.from(s).toString("base64url");

function env(suite: string, profile: unknown, provided: Record<string, unknown> = {}): CheckEnvironment {
  return {
    suite,
    section: "unit",
    profile,
    features: {},
    probes: {},
    client: { ...DEFAULT_CLIENT_OPTIONS, allowInsecureHttp: true, requestTimeoutMs: 5000 },
    secrets: [],
    seed: 1,
    runId: "run-unit-hostile",
    provided,
  };
}

function find<P>(checks: readonly CheckDefinition<P>[], id: string): CheckDefinition<P> {
  const c = checks.find((x) => x.id === id);
  if (!c) throw new Error(`no check ${id}`);
  return c;
}

/** Every text of a result, to search for what must never be in it. */
const allText = (r: CheckResult): string => JSON.stringify(r);

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** A made-up Credential Issuer (plain http on loopback) whose pieces each test sets. */
class StubIssuer {
  server!: RunningServer;
  hook: () => Response = () => Response.json({});
  signedMetadata: () => Response = () => new Response("", { status: 406 });
  authorize: (q: URLSearchParams) => Response = () => new Response("", { status: 404 });
  login: () => Response = () => new Response("", { status: 404 });

  get url(): string {
    return this.server.url;
  }
  get issuer(): string {
    return `${this.url}/issuer`;
  }

  async start(): Promise<void> {
    const app = new Hono();
    app.get(wellKnownUrl("http://x/issuer", IDENTIFIER_SETS.std.wellKnown).slice("http://x".length), (c) =>
      (c.req.header("accept") ?? "").includes("application/jwt")
        ? this.signedMetadata()
        : c.json({
            credential_issuer: this.issuer,
            credential_endpoint: `${this.issuer}/credential`,
            credential_configurations_supported: { c1: { format: "dc+sd-jwt", vct: "urn:unit" } },
          }),
    );
    app.get(wellKnownUrl("http://x/issuer", AS_WELL_KNOWN).slice("http://x".length), (c) =>
      c.json({
        issuer: this.issuer,
        token_endpoint: `${this.issuer}/token`,
        authorization_endpoint: `${this.issuer}/authorize`,
      }),
    );
    app.post("/hook", () => this.hook());
    app.get("/issuer/authorize", (c) => this.authorize(new URL(c.req.url).searchParams));
    app.post("/issuer/login", () => this.login());
    this.server = await serveApp(app);
  }

  profile(extra: Record<string, unknown> = {}): unknown {
    return vciProfile.parse({
      baseUrl: this.issuer,
      offers: { trigger: { url: `${this.url}/hook`, kinds: { preAuthorized: {} } } },
      ...extra,
    });
  }
}

describe("a broken offer hook is a setup error that names the profile path and what the hook answered", () => {
  const stub = new StubIssuer();
  beforeAll(() => stub.start());
  afterAll(() => stub.server.close());
  const check = find(tokenChecks, "vci.token.pre-authorized");

  const run = async (reply: () => Response): Promise<CheckResult> => {
    stub.hook = reply;
    return runCheck(check, env("vci", stub.profile(), { walletPublicUrl: "http://127.0.0.1:9/wallet" }));
  };

  it.each([
    [
      "answers 500",
      () => new Response("hook exploded", { status: 500 }),
      "url",
      /answered 500 hook exploded/,
    ],
    ["answers 302", () => Response.redirect("http://127.0.0.1:9/login", 302), "url", /answered 302/],
    [
      "answers HTML",
      () => new Response("<html>login</html>", { headers: { "content-type": "text/html" } }),
      "url",
      /answered 200 text\/html with not JSON/,
    ],
    [
      "answers JSON without the offer member",
      () => Response.json({ invitation: "x" }),
      "offerMember",
      /^the hook answered members invitation; none is "offer"/,
    ],
    [
      "answers an offer member that is neither a URL nor an object",
      () => Response.json({ offer: 42 }),
      "offerMember",
      /^the hook's member "offer" is 42, not an invocation URL or an offer object/,
    ],
  ])("a hook that %s: IDC_SETUP naming the profile path to fix", async (_, reply, member, said) => {
    const r = await run(reply);
    expect(Object.values(r.requirements)).toEqual(["errored", "errored"]);
    const f = r.findings[0]!;
    expect(f.code).toBe("IDC_SETUP");
    expect(f.setup).toMatchObject({ path: `suites.vci.offers.trigger.${member}`, foundBy: check.id });
    expect(f.message).toBe(`setup: suites.vci.offers.trigger.${member}: ${f.setup!.problem}`);
    expect(f.setup!.problem).toMatch(said);
    expect(allText(r)).not.toContain("harness fault");
    expect(allText(r)).not.toContain("IDC_INTERNAL");
  });

  it("a live tx_code in a failing hook answer stays out of the message", async () => {
    const r = await run(() =>
      Response.json({ offer: "std-credential-offer://?x=1", tx_code: "tx-secret-4711" }, { status: 503 }),
    );
    expect(r.findings[0]?.code).toBe("IDC_SETUP");
    expect(r.findings[0]?.message).toContain("answered 503");
    expect(allText(r)).not.toContain("tx-secret-4711");
  });
});

describe("an unknown SCIM id answered with a redirect fails SCIM-ERROR-NOT-FOUND and leaves nothing undecided", () => {
  let server: RunningServer;
  beforeAll(async () => {
    const app = new Hono();
    app.get("/scim/v2/:kind/:id", () => Response.redirect("https://login.example/sso", 302));
    server = await serveApp(app);
  });
  afterAll(() => server.close());

  it("302 for both unknown ids: NOT-FOUND fails with where it redirects (the error format and leak rules are observers: a 302 is no error for them)", async () => {
    const profile = scimProfile.parse({
      baseUrl: `${server.url}/scim/v2`,
      auth: { bearerToken: "unit-bearer-token" },
    });
    const r = await runCheck(find(errorChecks, "scim.error-not-found"), env("scim", profile));
    expect(r.requirements).toEqual({ "SCIM-ERROR-NOT-FOUND": "violated" });
    const failed = r.findings.find((f) => f.outcome === "violated");
    expect(failed?.expected).toBe("404");
    expect(failed?.actual).toBe('302 to "https://login.example/sso"');
    expect(allText(r)).not.toContain("without deciding");
  });
});

describe("target values nested 100,000 deep are quoted in findings, never a harness fault", () => {
  const stub = new StubIssuer();
  beforeAll(() => stub.start());
  afterAll(() => stub.server.close());

  it("signed metadata whose typ and sub nest 100,000 deep fails VCI-META-SIGNED-TYP and -SUB with short texts", async () => {
    stub.signedMetadata = () =>
      new Response(`${b64(`{"alg":"ES256","typ":${deepJson}}`)}.${b64(`{"sub":${deepJson},"iat":1}`)}.c2ln`, {
        headers: { "content-type": "application/jwt" },
      });
    const r = await runCheck(find(metadataChecks, "vci.metadata.signed"), env("vci", stub.profile()));
    expect(r.requirements).toMatchObject({
      "VCI-META-SIGNED-CONTENT-TYPE": "met",
      "VCI-META-SIGNED-TYP": "violated",
      "VCI-META-SIGNED-ALG": "met",
      "VCI-META-SIGNED-SUB": "violated",
      "VCI-META-SIGNED-SIGNATURE": "skipped",
    });
    const typ = r.findings.find((f) => f.requirements[0] === "VCI-META-SIGNED-TYP");
    expect(typ?.actual).toMatch(/^typ \[\[\[\[\[\[\[…\]\]\]\]\]\]\]$/);
    expect(allText(r).length).toBeLessThan(100_000);
    expect(allText(r)).not.toContain("IDC_INTERNAL");
  });

  it("JSON the Wallet reads inside credentials, offers and events is parsed within the depth bound", () => {
    // 60,000 deep: a credential has a size cap (256 KiB) of its own.
    const deepPayload = `${b64('{"alg":"ES256"}')}.${b64(`{"vct":"x","cnf":${"[".repeat(60_000)}${"]".repeat(60_000)}}`)}.c2ln~`;
    expect(() => parseCredential("dc+sd-jwt", deepPayload)).toThrow(
      /payload is not read: JSON nested deeper/,
    );
    const offer = parseOfferInvocation(
      // 5,000 deep: an invocation is a link, at most 64 KiB.
      `std-credential-offer://?credential_offer=${encodeURIComponent(`{"a":${"[".repeat(5000)}${"]".repeat(5000)}}`)}`,
      IDENTIFIER_SETS.std,
    );
    expect(offer.offer).toBeUndefined();
    expect(offer.problems.join()).toMatch(/credential_offer is not read: JSON nested deeper/);
    expect(eventJson({ event: "account-state", data: `{"sub":${deepJson}}` })).toBeUndefined();
    expect(eventJson({ event: "account-state", data: '{"sub":"a"}' })).toEqual({ sub: "a" });
  });
});

describe("a broken authorization page gives a finding or an error that names the page and what it showed", () => {
  const stub = new StubIssuer();
  let closed = 0;
  beforeAll(async () => {
    await stub.start();
    closed = await closedPort();
  });
  afterAll(() => stub.server.close());
  const check = find(authorizationChecks, "vci.authorization-code");
  const loginForm = (): Response =>
    new Response(
      '<title>Sign in</title><form method="post" action="/issuer/login"><input id="user" name="user"><button id="go">go</button></form>',
      { headers: { "content-type": "text/html" } },
    );

  // A budget far above what these pages need: the flow ends at the broken page, and a loaded
  // machine may take seconds to start Chromium.
  const run = (timeoutMs = 30_000): Promise<CheckResult> =>
    runCheck(
      check,
      env(
        "vci",
        stub.profile({
          authorization: {
            configuration: "c1",
            steps: [{ fill: { selector: "#user", value: "alice-unit" } }, { click: "#go" }],
            timeoutMs,
          },
        }),
        { redirectUri: `${stub.url}/callback`, browserPins: [] },
      ),
    );

  it("a login that answers 500 fails VCI-AUTHZ-FLOW, naming the page, its status and its text", async () => {
    stub.authorize = loginForm;
    stub.login = () =>
      new Response("<title>Oops</title><h1>Internal error 4711</h1>", {
        status: 500,
        headers: { "content-type": "text/html" },
      });
    const r = await run();
    expect(r.requirements).toEqual({ "VCI-AUTHZ-FLOW": "violated" });
    const actual = r.findings[0]?.actual ?? "";
    // The click may return before the 500 arrives: then the Wallet was waiting for the redirect.
    expect(actual).toMatch(
      /^(step 1 \(click #go\)|waiting for the redirect to .* after the last step): the page answered HTTP 500; /,
    );
    expect(actual).toContain(
      `; page at ${stub.issuer}/login (HTTP 500, title "Oops", text "Internal error 4711")`,
    );
    expect(actual).not.toContain("alice-unit");
  });

  it("a 500 with an empty body (Chromium's own error page) is the same finding, not an unreachable page", async () => {
    stub.authorize = loginForm;
    stub.login = () => new Response(null, { status: 500 });
    const r = await run();
    expect(r.requirements).toEqual({ "VCI-AUTHZ-FLOW": "violated" });
    expect(r.findings[0]?.actual).toContain(`the page answered HTTP 500; page at ${stub.issuer}/login`);
  });

  it("an authorization endpoint that answers the valid request with a 400 page fails VCI-AUTHZ-FLOW, showing the page", async () => {
    // Issue 11: the issuer's failure is the issuer's, not a setup error of the browser steps.
    stub.authorize = () =>
      new Response("<title>Authorization failed</title><p>unknown client idconform-wallet</p>", {
        status: 400,
        headers: { "content-type": "text/html" },
      });
    const r = await run();
    expect(r.requirements).toEqual({ "VCI-AUTHZ-FLOW": "violated" });
    const f = r.findings[0]!;
    expect(f.actual).toContain('HTTP 400: title "Authorization failed"');
    expect(f.actual).toContain("unknown client idconform-wallet");
    // What to do when it is the profile's client that the server does not know.
    expect(f.expected).toContain("set suites.vci.clientId");
    expect(allText(r)).not.toContain("harness fault");
  });

  it("a redirect back with error= fails VCI-AUTHZ-FLOW with the error and its description", async () => {
    stub.authorize = (q) =>
      Response.redirect(
        `${stub.url}/callback?error=access_denied&error_description=the+user+said+no&state=${q.get("state") ?? ""}`,
        302,
      );
    const r = await run();
    expect(r.requirements).toEqual({ "VCI-AUTHZ-FLOW": "violated" });
    const actual = r.findings[0]?.actual ?? "";
    expect(actual).toContain('with error "access_denied", error_description "the user said no"');
    // The evidence is the answer of the authorization endpoint itself.
    expect(r.exchanges[r.findings[0]!.exchanges[0]!]?.request.url).toContain(`${stub.issuer}/authorize?`);
  });

  it("a page the browser cannot load is IDC_HTTP_UNREACHABLE naming the URL and Chromium's reason", async () => {
    stub.authorize = () => Response.redirect(`http://127.0.0.1:${closed}/sso`, 302);
    const r = await run();
    expect(r.requirements).toEqual({ "VCI-AUTHZ-FLOW": "errored" });
    expect(r.findings[0]?.code).toBe("IDC_HTTP_UNREACHABLE");
    expect(r.findings[0]?.message).toContain(`could not load http://127.0.0.1:${closed}/sso (net::ERR_`);
  });

  it("a page without the step's selector is IDC_SETUP naming the step and what the page showed, not a timeout fault", async () => {
    stub.authorize = () =>
      new Response("<title>Maintenance</title><p>back soon</p>", {
        headers: { "content-type": "text/html" },
      });
    // The missing selector uses the whole budget, after a Chromium start that is slow under load.
    const r = await run(8000);
    expect(r.requirements).toEqual({ "VCI-AUTHZ-FLOW": "errored" });
    const f = r.findings[0]!;
    expect(f.code).toBe("IDC_SETUP");
    expect(f.message).toContain("step 0 (fill #user) failed");
    expect(f.message).toContain('HTTP 200, title "Maintenance", text "back soon"');
    expect(allText(r)).not.toContain("harness fault");
  });
});
