import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CheckDefinition, CheckResult } from "../../src/engine/check.js";
import { runCheck } from "../../src/engine/check-runner.js";
import { closeAgents, DEFAULT_CLIENT_OPTIONS } from "../../src/http/client.js";
import { federationProfile, type FederationProfile } from "../../suites/federation/profile.js";
import { collectionClaimsChecks } from "../../suites/federation/checks/collection-claims.js";
import { collectionInfoClaimsChecks } from "../../suites/federation/checks/collection-info-claims.js";
import { collectionLocaleChecks } from "../../suites/federation/checks/collection-locale.js";
import { rangeMatches, splitKey } from "../../suites/federation/checks/collection-published.js";

/**
 * A hostile collection for the entity_claims, info_claims, locale and mapping checks: a sound
 * Trust Anchor (the checks need its keys and its collection endpoint) whose collection answers
 * garbage of every kind: entity_infos of the wrong type, claim keys that are only "#", values
 * nested a hundred deep, identifiers that are no URLs, an entity whose Entity Configuration is
 * HTML, extra claims nobody asked for, a look-alike language tag, an HTML 500 for an unknown
 * claim. Every check must end with findings or skips, never an error.
 */
interface Key {
  readonly jwk: JWK;
  readonly priv: CryptoKey;
}
const keyOf = async (kid: string): Promise<Key> => {
  const { publicKey, privateKey } = await generateKeyPair("ES256");
  return { jwk: { ...(await exportJWK(publicKey)), kid, alg: "ES256" }, priv: privateKey };
};

let server: Server;
let base = "";
const send = (res: ServerResponse, status: number, type: string, body: string): void => {
  res.writeHead(status, { "content-type": type }).end(body);
};
const json = (res: ServerResponse, body: unknown, status = 200): void =>
  send(res, status, "application/json", JSON.stringify(body));

/** A JSON value nested `n` arrays deep. */
const deep = (n: number): unknown => JSON.parse(`${"[".repeat(n)}1${"]".repeat(n)}`);

beforeAll(async () => {
  const ta = await keyOf("ta");
  const a = await keyOf("a");
  const now = Math.floor(Date.now() / 1000);
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const u = new URL(req.url ?? "/", base);
    const q = u.searchParams;
    const id = (p: string): string => `${base}/ta${p}`;
    const ec = (k: Key, sub: string, extra: Record<string, unknown>): Promise<string> =>
      new SignJWT({ iss: sub, sub, iat: now, exp: now + 3600, jwks: { keys: [k.jwk] }, ...extra })
        .setProtectedHeader({ alg: "ES256", kid: k.jwk.kid!, typ: "entity-statement+jwt" })
        .sign(k.priv);
    const entities = [
      {
        entity_id: id("/a"),
        entity_types: 5,
        trust_marks: "marks",
        entity_infos: {
          openid_relying_party: {
            display_name: 5,
            "display_name#": "x",
            "#de": "y",
            "display_name#fil": "look-alike",
            description: deep(100),
            keywords: "a, b",
          },
          oauth_client: null,
          x: [1],
        },
      },
      { entity_id: id("/b"), entity_infos: [1, 2] },
      { entity_id: "not a url", entity_infos: { federation_entity: { display_name: "n" } } },
      {
        entity_id: id("/g"),
        entity_infos: { federation_entity: { display_name: "g", "display_name#de": "g" } },
      },
    ];
    switch (u.pathname) {
      case "/ta/.well-known/openid-federation":
        return send(
          res,
          200,
          "application/entity-statement+jwt",
          await ec(ta, id(""), {
            metadata: { federation_entity: { federation_collection_endpoint: id("/collection") } },
          }),
        );
      case "/tb/.well-known/openid-federation":
        return send(
          res,
          200,
          "application/entity-statement+jwt",
          await ec(ta, `${base}/tb`, {
            metadata: { federation_entity: { federation_collection_endpoint: `${base}/tb/collection` } },
          }),
        );
      case "/tb/collection":
        if (["entity_claims", "info_claims", "locale"].some((p) => q.has(p)))
          return json(res, { error: "unsupported_parameter", error_description: "no" }, 400);
        return json(res, {
          entities: [
            {
              entity_id: id("/a"),
              entity_infos: { openid_relying_party: { display_name: "a", "display_name#de": "a-de" } },
            },
          ],
          last_updated: 1,
        });
      case "/ta/a/.well-known/openid-federation":
        return send(
          res,
          200,
          "application/entity-statement+jwt",
          await ec(a, id("/a"), {
            metadata: {
              openid_relying_party: {
                client_name: "a",
                "client_name#de": "a-de",
                description: deep(100),
                keywords: ["a", "b"],
              },
              oauth_client: "not an object",
            },
            trust_marks: [{ trust_mark_type: "t", trust_mark: "aaa.bbb.ccc" }, 7],
          }),
        );
      case "/ta/b/.well-known/openid-federation":
        return send(res, 200, "application/entity-statement+jwt", await ec(a, id("/b"), { metadata: [1] }));
      case "/ta/g/.well-known/openid-federation":
        return send(res, 200, "text/html", "<html>garbage</html>");
      case "/ta/collection": {
        const claims = [...q.getAll("entity_claims"), ...q.getAll("info_claims")];
        if (claims.some((c) => c.startsWith("idconform_")))
          return send(res, 500, "text/html", "<h1>oops</h1>");
        if (q.has("locale") && q.getAll("locale").some((l) => l.toLowerCase() === "nl"))
          return json(res, { error: 7 }, 400);
        return json(res, { entities, last_updated: 1 });
      }
      default:
        return json(res, { error: "not_found", error_description: u.pathname }, 404);
    }
  };
  server = createServer((req, res) => {
    handle(req, res).catch(() => send(res, 500, "text/plain", "test server error"));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await closeAgents();
  await new Promise((r) => server.close(r));
});

async function run(check: CheckDefinition<FederationProfile>, anchor = "/ta"): Promise<CheckResult> {
  const profile = federationProfile.parse({
    baseUrl: `${base}${anchor}`,
    role: "anchor",
    walk: { maxPages: 5, maxEntries: 100, fetchMax: 10, runs: 5 },
  });
  return runCheck(check, {
    suite: "federation",
    section: "test",
    profile,
    features: {},
    probes: {},
    client: { ...DEFAULT_CLIENT_OPTIONS, allowInsecureHttp: true, requestTimeoutMs: 5000 },
    secrets: [],
    seed: 1,
    runId: "test-hostile",
    provided: {},
  });
}

const byId = (id: string): CheckDefinition<FederationProfile> =>
  [...collectionClaimsChecks, ...collectionInfoClaimsChecks, ...collectionLocaleChecks].find(
    (c) => c.id === id,
  )!;
const noError = (r: CheckResult): void => {
  expect(Object.values(r.requirements)).not.toContain("errored");
};

describe("RFC 4647 §3.3.1 basic filtering and claim#tag keys (specs/001 locale, Language variants)", () => {
  it("a range matches its tag and the tags continuing it after '-', ignoring case, and nothing else", () => {
    expect(rangeMatches("de", "de")).toBe(true);
    expect(rangeMatches("de", "DE-ch")).toBe(true);
    expect(rangeMatches("DE-CH", "de-ch")).toBe(true);
    expect(rangeMatches("fi", "fil")).toBe(false);
    expect(rangeMatches("de-CH", "de")).toBe(false);
    expect(rangeMatches("sr-Latn", "sr-Latn-RS")).toBe(true);
    expect(rangeMatches("*", "en-GB")).toBe(true);
  });

  it("a key splits at its first '#'", () => {
    expect(splitKey("display_name#de-CH")).toEqual({ name: "display_name", tag: "de-CH" });
    expect(splitKey("display_name")).toEqual({ name: "display_name", tag: undefined });
    expect(splitKey("#")).toEqual({ name: "", tag: "" });
  });
});

describe("specs/001 Entity collection (entity_claims, info_claims, locale, Mapping): garbage gives findings, never an error", () => {
  it("entity_claims ignored: every Entity Info carries claims nobody named", async () => {
    const r = await run(byId("federation.collection-entity-claims"));
    noError(r);
    expect(r.requirements["FED-COLL-ENTITY-CLAIMS-EXCLUDE"]).toBe("violated");
  });

  it("an unknown claim answered with an HTML 500 is a violation", async () => {
    const r = await run(byId("federation.collection-unsupported-claim"));
    expect(r.requirements).toEqual({ "FED-COLL-UNSUPPORTED-CLAIM": "violated" });
    expect(r.findings[0]?.kind).toBe("wrong-status");
  });

  it("info_claims ignored, a display_name that is a number and keywords joined are violations", async () => {
    const r = await run(byId("federation.collection-info-claims"));
    noError(r);
    expect(r.requirements["FED-COLL-INFO-CLAIMS-EXCLUDE"]).toBe("violated");
    expect(r.requirements["FED-COLL-DISPLAY-NAME"]).toBe("violated");
    expect(r.requirements["FED-COLL-INFO-COPIED"]).toBe("violated");
  });

  it("a look-alike tag (fil for fi) is a violation; entities whose Entity Configuration cannot be read keep the rest from passing", async () => {
    const r = await run(byId("federation.collection-locale"));
    noError(r);
    expect(r.requirements["FED-COLL-LOCALE-MATCH"]).toBe("violated");
    expect(Object.values(r.requirements)).not.toContain("met");
  });
});

describe("specs/001 Entity collection: entity_claims, info_claims and locale refused as unsupported_parameter", () => {
  it("skips what the parameter decides as not offered, and judges the rest on the default answer", async () => {
    const e = await run(byId("federation.collection-entity-claims"), "/tb");
    expect(e.requirements).toEqual({
      "FED-COLL-ENTITY-CLAIMS-INCLUDE": "skipped",
      "FED-COLL-ENTITY-CLAIMS-EXCLUDE": "skipped",
    });
    const u = await run(byId("federation.collection-unsupported-claim"), "/tb");
    expect(u.requirements).toEqual({ "FED-COLL-UNSUPPORTED-CLAIM": "skipped" });
    const i = await run(byId("federation.collection-info-claims"), "/tb");
    expect(i.requirements["FED-COLL-INFO-CLAIMS-INCLUDE"]).toBe("skipped");
    expect(i.requirements["FED-COLL-INFO-CLAIMS-EXCLUDE"]).toBe("skipped");
    // display_name and display_name#de come from a's client_name and client_name#de.
    expect(i.requirements["FED-COLL-DISPLAY-NAME"]).toBe("met");
    const l = await run(byId("federation.collection-locale"), "/tb");
    expect(l.requirements["FED-COLL-LOCALE-MATCH"]).toBe("skipped");
    expect(l.findings.find((f) => f.requirements.includes("FED-COLL-LOCALE-MATCH"))?.skipKind).toBe(
      "not-offered",
    );
  });
});
