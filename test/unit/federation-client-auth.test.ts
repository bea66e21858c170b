import { generateKeyPairSync } from "node:crypto";
import { decodeJwt, decodeProtectedHeader, importJWK, jwtVerify, type JWK } from "jose";
import { describe, expect, it } from "vitest";
import { loadSuites } from "../../src/engine/discovery.js";
import { parseProfile } from "../../src/engine/profile.js";
import { Redactor } from "../../src/http/redactor.js";
import {
  ASSERTION_TYPE,
  authenticated,
  NO_CLIENT_AUTH,
  protectedUrls,
  signClientAssertion,
} from "../../suites/federation/client-auth.js";
import type { FederationProfile } from "../../suites/federation/profile.js";

const suites = await loadSuites();
const priv = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ format: "jwk" }) as JWK;
const jwk = { ...priv, kid: "k1", alg: "ES256" } as JWK & { alg: string };
const client = { clientId: "https://client.example/leaf", jwk };
const XL = "https://ta.example/xl?tenant=a";
const urls = [new URL(XL)];
const token = (): Promise<string> => Promise.resolve("ASSERTION");

describe("federation client authentication (public-spec-facts §2 Endpoints: POST, private_key_jwt)", () => {
  it("turns a GET to an endpoint that requires it into a form POST carrying the query and an assertion", async () => {
    const r = await authenticated({ url: `${XL}&limit=2&claims=a&claims=b`, label: "x" }, urls, token);
    expect(r.method).toBe("POST");
    expect(r.url).toBe(XL);
    expect(r.headers?.["content-type"]).toBe("application/x-www-form-urlencoded");
    const body = new URLSearchParams(r.body);
    expect(body.getAll("claims")).toEqual(["a", "b"]);
    expect(body.get("limit")).toBe("2");
    expect(body.get("client_assertion_type")).toBe(ASSERTION_TYPE);
    expect(body.get("client_assertion")).toBe("ASSERTION");
  });

  it("adds the assertion to a form POST and keeps its query; leaves other requests alone", async () => {
    const post = await authenticated(
      { method: "POST", url: `${XL}&limit=3`, form: { limit: "1" } },
      urls,
      token,
    );
    expect(post.url).toBe(`${XL}&limit=3`);
    expect(new URLSearchParams(post.body).get("limit")).toBe("1");
    expect(new URLSearchParams(post.body).get("client_assertion")).toBe("ASSERTION");
    const other = { url: "https://ta.example/fetch?sub=x" };
    expect(await authenticated(other, urls, token)).toBe(other);
    const tagged = { url: XL, tags: [NO_CLIENT_AUTH] };
    expect(await authenticated(tagged, urls, token)).toBe(tagged);
    const own = { method: "POST", url: XL, form: { client_assertion: "mine" } };
    expect(await authenticated(own, urls, token)).toBe(own);
  });

  it("takes only the endpoints the profile names, from the Entity Configuration", () => {
    const p = { clientAuth: { endpoints: ["events"] } } as unknown as FederationProfile;
    const fe = {
      federation_extended_list_endpoint: XL,
      federation_subordinate_events_endpoint: "https://ta.example/events",
    };
    expect(protectedUrls(p, { metadata: { federation_entity: fe } }).map((u) => u.href)).toEqual([
      "https://ta.example/events",
    ]);
  });

  it("signs a fresh short-lived assertion: iss = sub = the client, aud the responder, with the key's kid", async () => {
    const { d: _d, ...pub } = jwk;
    const a = await signClientAssertion(client, "https://ta.example");
    const b = await signClientAssertion(client, "https://ta.example");
    const { payload } = await jwtVerify(a, await importJWK(pub, "ES256"), {
      issuer: client.clientId,
      subject: client.clientId,
      audience: "https://ta.example",
    });
    expect(decodeProtectedHeader(a).kid).toBe("k1");
    expect(payload.jti).not.toBe(decodeJwt(b).jti);
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBeLessThanOrEqual(60);
  });

  it("keeps the profile's client key secret: every private member is redacted", () => {
    const key = JSON.stringify(priv);
    const loaded = parseProfile(
      `name: t
suites:
  federation:
    baseUrl: https://ta.example
    clientAuth:
      endpoints: [extendedList]
      clientId: https://client.example/leaf
      clientKey: \${KEY}
`,
      "/tmp/t.yaml",
      suites,
      { KEY: key },
    );
    const r = new Redactor(loaded.secrets);
    const text = `key ${key} d=${String(priv.d)}`;
    expect(r.text(text)).not.toContain(String(priv.d));
  });
});
