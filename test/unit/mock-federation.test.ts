import { compactVerify, decodeJwt, decodeProtectedHeader, importJWK, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateKeyPairSync } from "node:crypto";
import { startMockFederation, type MockFederation } from "../../mocks/federation/index.js";
import { DEFAULT_CLIENT_OPTIONS, RecordingClient } from "../../src/http/client.js";

let mock: MockFederation;
beforeAll(async () => {
  mock = await startMockFederation({ authorityHint: "https://target.example/ta" });
});
afterAll(() => mock.close());

const ec = async (id: string) => {
  const res = await fetch(`${id}/.well-known/openid-federation`);
  return { res, text: await res.text() };
};

describe("mock federation entities (public-spec-facts §2 Entity statements)", () => {
  it("binds to 127.0.0.1 and publishes each entity's Entity Configuration, signed with its own key", async () => {
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    for (const e of [mock.leaf, mock.intermediate, mock.anchor]) {
      const { res, text } = await ec(e.id);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/entity-statement+jwt");
      const header = decodeProtectedHeader(text);
      expect(header.typ).toBe("entity-statement+jwt");
      const key = e.jwks.keys.find((k) => k.kid === header.kid) as JWK;
      await compactVerify(text, await importJWK(key, "ES256"));
      const p = decodeJwt(text);
      expect([p.iss, p.sub]).toEqual([e.id, e.id]);
      expect(JSON.stringify(p.jwks)).not.toContain('"d"');
    }
  });

  it("gives the leaf and the Intermediate the target as superior, and the anchor none", async () => {
    expect(decodeJwt((await ec(mock.leaf.id)).text).authority_hints).toEqual(["https://target.example/ta"]);
    expect(decodeJwt((await ec(mock.intermediate.id)).text).authority_hints).toEqual([
      "https://target.example/ta",
    ]);
    expect(decodeJwt((await ec(mock.anchor.id)).text).authority_hints).toBeUndefined();
  });

  it("answers the anchor's list with no subordinates and an unknown sub with a JSON not_found", async () => {
    expect(await (await fetch(`${mock.anchor.id}/list`)).json()).toEqual([]);
    const nf = await fetch(`${mock.anchor.id}/fetch?sub=${encodeURIComponent(mock.leaf.id)}`);
    expect(nf.status).toBe(404);
    expect(((await nf.json()) as { error?: string }).error).toBe("not_found");
    expect((await fetch(`${mock.url}/nothing`)).status).toBe(404);
  });

  it("prints the identifiers and public JWKS a vendor registers, never a private member", () => {
    expect(mock.info).toContain(mock.leaf.id);
    expect(mock.info).toContain(mock.anchor.id);
    expect(mock.info).not.toContain('"d"');
  });

  it("signs the leaf's Entity Configuration with the key it is given (the profile's client key)", async () => {
    const priv = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({
      format: "jwk",
    }) as JWK;
    const m = await startMockFederation({ leafKey: { ...priv, alg: "ES256", kid: "client-1" } });
    try {
      const text = await (await fetch(`${m.leaf.id}/.well-known/openid-federation`)).text();
      expect(decodeProtectedHeader(text).kid).toBe("client-1");
      await compactVerify(
        text,
        await importJWK({ kty: "EC", crv: "P-256", x: priv.x!, y: priv.y! }, "ES256"),
      );
    } finally {
      await m.close();
    }
  });

  it("lets a recording client's onRequest rewrite what is sent (how the suite adds client authentication)", async () => {
    const http = new RecordingClient({ ...DEFAULT_CLIENT_OPTIONS, allowInsecureHttp: true });
    http.onRequest((req) => ({ ...req, url: `${mock.anchor.id}/list` }));
    const res = await http.get(`${mock.url}/nothing`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual([]);
  });
});
