import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CheckDefinition, CheckResult } from "../../src/engine/check.js";
import { runCheck } from "../../src/engine/check-runner.js";
import { closeAgents, DEFAULT_CLIENT_OPTIONS } from "../../src/http/client.js";
import { federationProfile, type FederationProfile } from "../../suites/federation/profile.js";
import { collectionFilterChecks } from "../../suites/federation/checks/collection-filters.js";
import { collectionAnchorChecks } from "../../suites/federation/checks/collection-anchors.js";

/**
 * A hostile federation for the entity_type, trust_mark_type, query and trust_anchor checks: a
 * sound Trust Anchor whose collection answers garbage of every kind (entity_types a number,
 * entity_infos null, trust_marks a string, an identifier that is no URL), lists an entity whose
 * Entity Configuration is HTML, and one whose authority_hints climb through ever new superiors
 * (each naming the next, none an anchor), ignores every filter, answers a query with an HTML
 * 500 and lists its own federation for any trust_anchor. Every check must end with findings or
 * skips, never an error, and the climb must stop at the harness's bounds.
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
let climbs = 0;
const send = (res: ServerResponse, status: number, type: string, body: string): void => {
  res.writeHead(status, { "content-type": type }).end(body);
};
const json = (res: ServerResponse, body: unknown, status = 200): void =>
  send(res, status, "application/json", JSON.stringify(body));

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
    const stmt = (body: string): void => send(res, 200, "application/entity-statement+jwt", body);
    const entities = [
      { entity_id: id("/a"), entity_types: 5, entity_infos: null, trust_marks: "marks" },
      { entity_id: id("/b"), entity_types: ["oauth_client"], entity_infos: { openid_provider: 1 } },
      { entity_id: "not a url", entity_types: [] },
      { entity_id: id("/g") },
      { entity_id: id("/climb") },
      { entity_id: id("") },
    ];
    const climb = /^\/ta\/s(\d+)\/.well-known\/openid-federation$/.exec(u.pathname);
    if (climb) {
      climbs++;
      const n = Number(climb[1]);
      return stmt(
        await ec(a, id(`/s${n}`), {
          authority_hints: [id(`/s${n + 1}`), id(`/s${n + 1000}`)],
          metadata: { federation_entity: { federation_list_endpoint: id(`/s${n}/list`) } },
        }),
      );
    }
    const list = /^\/ta\/s(\d+)\/list$/.exec(u.pathname);
    if (list) {
      const n = Number(list[1]);
      return json(res, [id("/climb"), id(`/s${n - 1}`), id(`/s${n - 1000}`)]);
    }
    switch (u.pathname) {
      case "/ta/.well-known/openid-federation":
        return stmt(
          await ec(ta, id(""), {
            metadata: {
              federation_entity: {
                federation_collection_endpoint: id("/collection"),
                federation_list_endpoint: id("/list"),
              },
            },
          }),
        );
      case "/ta/a/.well-known/openid-federation":
        return stmt(
          await ec(a, id("/a"), {
            authority_hints: [id("")],
            metadata: { openid_relying_party: {}, oauth_client: {} },
            trust_marks: [{ trust_mark_type: "t", trust_mark: "aaa.bbb.ccc" }, 7, { trust_mark_type: "u" }],
          }),
        );
      case "/ta/b/.well-known/openid-federation":
        return stmt(await ec(a, id("/b"), { metadata: [1], trust_marks: { t: 1 } }));
      case "/ta/climb/.well-known/openid-federation":
        return stmt(await ec(a, id("/climb"), { authority_hints: [id("/s1")], metadata: {} }));
      case "/ta/g/.well-known/openid-federation":
        return send(res, 200, "text/html", "<html>garbage</html>");
      case "/ta/list":
        return json(res, [id("/a"), id("/b")]);
      case "/ta/collection":
        if (q.has("query")) return send(res, 500, "text/html", "<h1>oops</h1>");
        return json(res, { entities, last_updated: 1 });
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

async function run(check: CheckDefinition<FederationProfile>, fetchMax = 10): Promise<CheckResult> {
  const profile = federationProfile.parse({
    baseUrl: `${base}/ta`,
    role: "anchor",
    trustAnchors: { other: `${base}/ta/s1` },
    walk: { maxPages: 5, maxEntries: 100, fetchMax, runs: 5 },
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

const noError = (r: CheckResult): void => {
  expect(Object.values(r.requirements)).not.toContain("errored");
};

describe("specs/001 Entity collection (Entity Info object; entity_type, trust_mark_type, query, trust_anchor): garbage gives findings, never an error", () => {
  it("malformed Entity Infos, ignored filters and entities outside the federation are violations; the climb stays bounded", async () => {
    climbs = 0;
    const r = await run(collectionFilterChecks[0]!);
    noError(r);
    for (const id of [
      "FED-COLL-ENTITY-TYPES",
      "FED-COLL-INFOS-SHAPE",
      "FED-COLL-TRUST-MARKS",
      "FED-COLL-BELOW-ANCHOR",
      "FED-COLL-ENTITY-TYPE",
      "FED-COLL-INFOS-TYPES",
    ])
      expect(r.requirements[id], id).toBe("violated");
    // Twice fetchMax Entity Configurations at most (plus a few), however many superiors are named.
    expect(climbs).toBeLessThanOrEqual(2 * 10 + 16);
  });

  it("a check never passes what it could only partly read (fetchMax 1)", async () => {
    const r = await run(collectionFilterChecks[0]!, 1);
    noError(r);
    expect(r.requirements["FED-COLL-BELOW-ANCHOR"]).not.toBe("met");
  });

  it("trust_anchor naming another anchor answered with the target's own entities is a violation", async () => {
    const r = await run(collectionAnchorChecks[0]!);
    noError(r);
    expect(r.requirements["FED-COLL-TA-OTHER"]).toBe("violated");
    expect(r.requirements["FED-COLL-TA-OMITTED"]).toBe("met");
  });
});
