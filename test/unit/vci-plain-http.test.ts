import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { judgeHttps, PLAIN_HTTP_ALLOWED, type Ctx } from "../../suites/vci/client.js";
import type { Details } from "../../src/engine/check.js";
import type { SkipKind } from "../../src/engine/verdict.js";
import { demoVci, runVciChecks, type FlowRun } from "../helpers/vci-flow.js";

// Issue 12 item 4: with options.allowInsecureHttp every rule that a URL be https is a
// `not-exercised` skip for a plain http URL (never a pass, never a failure) and the run is
// not certifiable; without the option plain http fails as before. Only the vci suite has
// such rules (scim and commands judge no URL scheme).

/** What judgeHttps told a fake check context. */
function judged(allowsPlainHttp: boolean, urls: [string, unknown][]) {
  const said: { ok?: boolean; details?: Details | undefined; skip?: { reason: string; kind?: SkipKind } } =
    {};
  const c = {
    http: { allowsPlainHttp },
    check: (_id: string, ok: boolean, details?: Details) => {
      said.ok = ok;
      said.details = details;
      return ok;
    },
    partly: (_id: string, reason: string, kind?: SkipKind) => {
      said.skip = { reason, ...(kind ? { kind } : {}) };
    },
  } as unknown as Ctx;
  const met = judgeHttps(c, "REQ", urls, "every URL https");
  return { met, ...said };
}

describe("judgeHttps", () => {
  it("an https URL is met, with the option or without", () => {
    for (const allowed of [false, true])
      expect(judged(allowed, [["credential_endpoint", "https://i.test/c"]])).toMatchObject({
        met: true,
        ok: true,
      });
  });

  it("without the option plain http violates the rule, as before", () => {
    const r = judged(false, [["credential_endpoint", "http://i.test/c"]]);
    expect(r).toMatchObject({ met: false, ok: false });
    expect(r.details?.actual).toContain('credential_endpoint "http://i.test/c"');
    expect(r.skip).toBeUndefined();
  });

  it("with the option plain http is a not-exercised skip naming the URL, never a pass", () => {
    const r = judged(true, [
      ["credential_endpoint", "https://i.test/c"],
      ["notification_endpoint", "http://i.test/n"],
    ]);
    expect(r.met).toBe(false);
    expect(r.ok).toBeUndefined();
    expect(r.skip?.kind).toBe("not-exercised");
    expect(r.skip?.reason).toContain(PLAIN_HTTP_ALLOWED);
    expect(r.skip?.reason).toContain('notification_endpoint "http://i.test/n"');
  });

  it("a plain http URL judged before or after https ones in the same check still leaves the rule not exercised", async () => {
    const { runCheck } = await import("../../src/engine/check-runner.js");
    const { defineCheck } = await import("../../src/engine/check.js");
    const { DEFAULT_CLIENT_OPTIONS } = await import("../../src/http/client.js");
    for (const order of [
      ["https://i.test/a", "http://i.test/b"],
      ["http://i.test/b", "https://i.test/a"],
    ]) {
      const r = await runCheck(
        defineCheck({
          id: "unit.mixed-offers",
          title: "t",
          requirements: ["U-URI-HTTPS"],
          async run(c) {
            for (const u of order)
              judgeHttps(c as unknown as Ctx, "U-URI-HTTPS", [["credential_offer_uri", u]], "https");
          },
        }),
        {
          suite: "unit",
          section: "§1",
          profile: {},
          features: {},
          probes: {},
          client: { ...DEFAULT_CLIENT_OPTIONS, allowInsecureHttp: true },
          secrets: [],
          seed: 1,
          runId: "r",
          provided: {},
        },
      );
      expect(r.requirements, order.join(" then ")).toEqual({ "U-URI-HTTPS": "skipped" });
      expect(r.findings[0]?.skipKind).toBe("not-exercised");
      expect(r.findings[0]?.message).toContain('credential_offer_uri "http://i.test/b"');
    }
  });

  it("with the option any other scheme, or no URL, still violates it (and wins over plain http)", () => {
    for (const bad of ["ftp://i.test/n", "not a url", 42, null]) {
      const r = judged(true, [
        ["credential_endpoint", "http://i.test/c"],
        ["notification_endpoint", bad],
      ]);
      expect(r, String(bad)).toMatchObject({ met: false, ok: false });
      expect(r.details?.actual).not.toContain("credential_endpoint");
      expect(r.skip).toBeUndefined();
    }
  });
});

/** A plain-http Credential Issuer serving only its metadata and its AS metadata. */
async function plainIssuer(o: { asIssuerSuffix?: string }): Promise<{ server: Server; issuer: string }> {
  let issuer = "";
  const server = createServer((req, res) => {
    const json = (v: unknown): void => {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(v));
    };
    if (req.url === "/.well-known/std-credential-issuer/issuer")
      return json({
        credential_issuer: issuer,
        credential_endpoint: `${issuer}/credential`,
        nonce_endpoint: `${issuer}/nonce`,
        notification_endpoint: `${issuer}/notification`,
        authorization_servers: [issuer],
        credential_configurations_supported: {
          identity_sd_jwt: { format: "dc+sd-jwt", vct: "https://credentials.idconform.test/identity" },
        },
      });
    if (req.url === "/.well-known/oauth-authorization-server/issuer")
      return json({ issuer: `${issuer}${o.asIssuerSuffix ?? ""}`, token_endpoint: `${issuer}/token` });
    res.writeHead(404).end();
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}/issuer`;
  return { server, issuer };
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((ok) => s.close(ok))));
});

/** The skip kind of `requirement`'s finding in a run. */
const skipKindOf = (r: FlowRun, requirement: string): string | undefined =>
  r.results.requirements.find((q) => q.id === requirement)?.findings[0]?.skipKind;

describe("plain http with options.allowInsecureHttp (vci)", () => {
  it("endpoint, authorization_servers and token_endpoint rules are not-exercised skips; the run is not certifiable", async () => {
    const { server, issuer } = await plainIssuer({});
    servers.push(server);
    const yaml = demoVci((y) =>
      y
        .replace("  timeouts:\n", "  allowInsecureHttp: true\n  timeouts:\n")
        .replace("baseUrl: ${IDC_DEMO_VCI_ISSUER}", `baseUrl: ${issuer}`),
    );
    const r = await runVciChecks(["vci.metadata", "vci.authorization-server"], { yaml });
    for (const id of ["VCI-META-HTTPS", "VCI-META-AUTH-SERVERS", "VCI-AS-DISCOVERY"]) {
      expect(r.verdict[id], `${id}: ${r.said(id)}`).toBe("skip");
      expect(skipKindOf(r, id), id).toBe("not-exercised");
      expect(r.said(id), id).toContain(PLAIN_HTTP_ALLOWED);
    }
    expect(r.said("VCI-META-HTTPS")).toContain(`notification_endpoint "${issuer}/notification"`);
    expect(r.said("VCI-AS-DISCOVERY")).toContain(`token_endpoint "${issuer}/token"`);
    expect(r.results.run.certifiable).toBe(false);
    expect(r.results.run.notCertifiable.join(" ")).toContain("options.allowInsecureHttp");
  }, 60_000);

  it("a wrong Authorization Server metadata still fails with the option", async () => {
    const { server, issuer } = await plainIssuer({ asIssuerSuffix: "/elsewhere" });
    servers.push(server);
    const yaml = demoVci((y) =>
      y
        .replace("  timeouts:\n", "  allowInsecureHttp: true\n  timeouts:\n")
        .replace("baseUrl: ${IDC_DEMO_VCI_ISSUER}", `baseUrl: ${issuer}`),
    );
    const r = await runVciChecks(["vci.authorization-server"], { yaml });
    expect(r.verdict["VCI-AS-DISCOVERY"], r.said("VCI-AS-DISCOVERY")).toBe("fail");
  }, 60_000);

  it("with the option a plain http credential_offer_uri is a not-exercised skip", async () => {
    const yaml = demoVci((y) => y.replace("  timeouts:\n", "  allowInsecureHttp: true\n  timeouts:\n"));
    const r = await runVciChecks(["vci.offer.reference"], { yaml, faults: ["offer-uri-http"] });
    expect(r.verdict["VCI-OFFER-URI-HTTPS"], r.said("VCI-OFFER-URI-HTTPS")).toBe("skip");
    expect(skipKindOf(r, "VCI-OFFER-URI-HTTPS")).toBe("not-exercised");
    expect(r.results.run.notCertifiable.join(" ")).toContain("options.allowInsecureHttp");
  }, 60_000);
});

describe("plain http without the option (vci)", () => {
  it("a plain http endpoint and credential_offer_uri still fail as MUSTs", async () => {
    const meta = await runVciChecks(["vci.metadata"], { faults: ["metadata-http-endpoint"] });
    expect(meta.verdict["VCI-META-HTTPS"], meta.said("VCI-META-HTTPS")).toBe("fail");
    const offer = await runVciChecks(["vci.offer.reference"], { faults: ["offer-uri-http"] });
    expect(offer.verdict["VCI-OFFER-URI-HTTPS"], offer.said("VCI-OFFER-URI-HTTPS")).toBe("fail");
    expect(offer.results.run.notCertifiable.join(" ")).not.toContain("options.allowInsecureHttp");
  }, 60_000);
});
