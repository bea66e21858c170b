import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCheck } from "../../src/engine/check-runner.js";
import { closeAgents, DEFAULT_CLIENT_OPTIONS } from "../../src/http/client.js";
import { resolveChecks } from "../../suites/federation/checks/resolve.js";
import { federationProfile } from "../../suites/federation/profile.js";

/**
 * A hostile Trust Anchor for the resolve check: its Entity Configuration, list and fetch are
 * sound (the check needs its keys, subjects and a chain of its own), and every resolve answer is
 * garbage of some kind: a trust_chain that is no array or far too long, metadata nested 200 deep,
 * Trust Marks that are numbers or not JWTs, an HTML body, a chain whose policy is no policy, and
 * error answers that are 200 text. The check must end with findings, never an error.
 */
interface Key {
  readonly jwk: JWK;
  readonly priv: CryptoKey;
}
const keyOf = async (kid: string): Promise<Key> => {
  const { publicKey, privateKey } = await generateKeyPair("ES256");
  return { jwk: { ...(await exportJWK(publicKey)), kid, alg: "ES256" }, priv: privateKey };
};
const sign = (k: Key, payload: Record<string, unknown>, typ = "entity-statement+jwt"): Promise<string> =>
  new SignJWT(payload).setProtectedHeader({ alg: "ES256", kid: k.jwk.kid!, typ }).sign(k.priv);

let server: Server;
let base = "";

beforeAll(async () => {
  const ta = await keyOf("ta");
  const leaf = await keyOf("leaf");
  const now = Math.floor(Date.now() / 1000);
  const id = (p: string): string => `${base}/ta${p}`;
  const times = { iat: now - 5, exp: now + 3600 };
  let deep: unknown = "x";
  for (let i = 0; i < 200; i++) deep = [deep];
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const u = new URL(req.url ?? "/", base);
    const send = (status: number, type: string, body: string): void => {
      res.writeHead(status, { "content-type": type }).end(body);
    };
    const leafEc = (sub: string): Promise<string> =>
      sign(leaf, {
        iss: sub,
        sub,
        ...times,
        jwks: { keys: [leaf.jwk] },
        authority_hints: [id("")],
        metadata: { openid_relying_party: { a: 1 } },
      });
    const statement = (sub: string): Promise<string> =>
      sign(ta, {
        iss: id(""),
        sub,
        ...times,
        jwks: { keys: [leaf.jwk] },
        // Not a policy: one_of must be an array.
        metadata_policy: { openid_relying_party: { a: { one_of: "1" } } },
      });
    const taEc = (): Promise<string> =>
      sign(ta, {
        iss: id(""),
        sub: id(""),
        ...times,
        jwks: { keys: [ta.jwk] },
        metadata: {
          federation_entity: {
            federation_fetch_endpoint: id("/fetch"),
            federation_list_endpoint: id("/list"),
            federation_resolve_endpoint: id("/resolve"),
          },
        },
      });
    if (u.pathname === "/ta/.well-known/openid-federation")
      return send(200, "application/entity-statement+jwt", await taEc());
    if (u.pathname.endsWith("/.well-known/openid-federation"))
      return send(
        200,
        "application/entity-statement+jwt",
        await leafEc(`${base}${u.pathname.slice(0, -"/.well-known/openid-federation".length)}`),
      );
    if (u.pathname === "/ta/list")
      return send(200, "application/json", JSON.stringify(["/a", "/b", "/c", "/d"].map(id)));
    if (u.pathname === "/ta/fetch")
      return send(200, "application/entity-statement+jwt", await statement(u.searchParams.get("sub") ?? ""));
    if (u.pathname !== "/ta/resolve") return send(404, "text/plain", "no");
    const sub = u.searchParams.get("sub");
    const resolveJwt = (claims: Record<string, unknown>): Promise<string> =>
      sign(ta, { iss: id(""), sub, ...times, ...claims }, "resolve-response+jwt");
    if (sub === id("/a"))
      return send(
        200,
        "application/resolve-response+jwt",
        await resolveJwt({
          trust_chain: "no",
          metadata: { openid_relying_party: { a: deep } },
          trust_marks: [123, { trust_mark_type: "t", trust_mark: "x.y" }],
        }),
      );
    if (sub === id("/b")) return send(200, "text/html", "<html>resolved</html>");
    if (sub === id("/c"))
      return send(
        200,
        "application/resolve-response+jwt",
        await resolveJwt({
          trust_chain: Array.from({ length: 5000 }, () => "a.b.c"),
          metadata: "x",
          exp: "soon",
          trust_marks: {},
        }),
      );
    if (sub === id("/d")) {
      const chain = [await leafEc(id("/d")), await statement(id("/d")), await taEc()];
      return send(
        200,
        "application/resolve-response+jwt",
        await resolveJwt({ trust_chain: chain.reverse(), metadata: { openid_relying_party: { a: 1 } } }),
      );
    }
    return send(200, "text/plain", "ok");
  };
  server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await closeAgents();
  await new Promise((r) => server.close(r));
});

describe("OpenID Federation 1.0 Resolve Entity: garbage gives findings, never an error", () => {
  it("a resolver answering garbage of every kind fails the rules it breaks", async () => {
    const profile = federationProfile.parse({ baseUrl: `${base}/ta`, role: "anchor" });
    const r = await runCheck(resolveChecks[0]!, {
      suite: "federation",
      section: "test",
      profile,
      features: {},
      probes: {},
      client: { ...DEFAULT_CLIENT_OPTIONS, allowInsecureHttp: true, requestTimeoutMs: 5000 },
      secrets: [],
      seed: 1,
      runId: "test-hostile-resolve",
      provided: {},
    });
    expect(Object.values(r.requirements)).not.toContain("error");
    expect(r.requirements).toMatchObject({
      "FED-RESOLVE-RESPONSE": "violated",
      "FED-RESOLVE-TRUST-CHAIN": "violated",
      "FED-RESOLVE-METADATA": "violated",
      "FED-RESOLVE-TRUST-MARKS": "violated",
      "FED-RESOLVE-ERRORS": "violated",
    });
    const actual = r.findings.map((f) => f.actual ?? "").join("\n");
    expect(actual).toMatch(/trust_chain "no" is not an array/);
    expect(actual).toMatch(/not \{trust_mark_type, trust_mark\}/);
    // The chain's policy is no policy: a 200 is "accepted".
    expect(r.findings.find((f) => f.requirements.includes("FED-RESOLVE-METADATA"))?.kind).toBe("accepted");
  });
});
