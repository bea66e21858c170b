import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Hono } from "hono";
import {
  calculateJwkThumbprint,
  CompactEncrypt,
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  importJWK,
  jwtVerify,
  SignJWT,
  type JWK,
} from "jose";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveApp } from "../../src/http/serve.js";
import { MockClient } from "../../src/http/mock-control.js";
import type { RunningServer } from "../../src/engine/target.js";
import { IDENTIFIER_SETS, PRE_AUTHORIZED_GRANT } from "../../src/protocols/vci.js";
import { authorizeInBrowser } from "../../mocks/wallet/browser.js";
import { parseCredential, sameKey, verifyIssuerSignature } from "../../mocks/wallet/credential.js";
import { dpopProof } from "../../mocks/wallet/dpop.js";
import { decryptResponse, encryptionRequest } from "../../mocks/wallet/encryption.js";
import { BrowserStepError, WalletError } from "../../mocks/wallet/errors.js";
import mock, { recordedUrl, startWallet, type MockWallet } from "../../mocks/wallet/index.js";
import { encryptionKey, holderKey, type HolderAlg } from "../../mocks/wallet/keys.js";
import { parseOfferInvocation, readOffer } from "../../mocks/wallet/offer.js";
import { pkce } from "../../mocks/wallet/pkce.js";
import { spkiHashes } from "../../mocks/wallet/spki.js";
import { jwtProof } from "../../mocks/wallet/proof.js";

const ids = IDENTIFIER_SETS.std;
const ISSUER = "https://issuer.example/tenant";
const b64 = (s: string | Buffer): string => Buffer.from(s).toString("base64url");
const sha = (s: string): string => createHash("sha256").update(s).digest("base64url");

describe("jwt proof (public-spec-facts §1, appendix F.1)", () => {
  it.each<HolderAlg>(["ES256", "EdDSA", "ES384"])(
    "a %s proof verifies with its header jwk and carries typ, aud, iat, nonce",
    async (alg) => {
      const key = await holderKey(alg);
      const jwt = await jwtProof({ key, ids, aud: ISSUER, nonce: "n-1", iss: "client-1" });
      const header = decodeProtectedHeader(jwt);
      expect(header).toMatchObject({ alg, typ: ids.proofTyp });
      expect(header.kid).toBeUndefined();
      expect(header.x5c).toBeUndefined();
      expect(header.jwk).toEqual(key.publicJwk);
      const { payload } = await jwtVerify(jwt, await importJWK(header.jwk as JWK, alg));
      expect(payload).toMatchObject({ aud: ISSUER, nonce: "n-1", iss: "client-1" });
      expect(Math.abs((payload.iat ?? 0) - Date.now() / 1000)).toBeLessThan(5);
      expect(key.thumbprint).toBe(await calculateJwkThumbprint(key.publicJwk));
    },
  );

  it("leaves nonce and iss out when they are not given, and honours iat, typ and extra claims", async () => {
    const key = await holderKey();
    const jwt = await jwtProof({ key, ids, aud: ISSUER, iat: 1000, typ: "JWT", extraClaims: { x: 1 } });
    expect(decodeProtectedHeader(jwt).typ).toBe("JWT");
    expect(decodeJwt(jwt)).toEqual({ aud: ISSUER, iat: 1000, x: 1 });
  });

  it("algNone gives an unsigned JWT with alg none, an empty signature and the jwk", async () => {
    const key = await holderKey();
    const jwt = await jwtProof({ key, ids, aud: ISSUER, algNone: true });
    expect(jwt.endsWith(".")).toBe(true);
    expect(jwt.split(".")).toHaveLength(3);
    const header = decodeProtectedHeader(jwt);
    expect(header.alg).toBe("none");
    expect(header.jwk).toEqual(key.publicJwk);
    expect(decodeJwt(jwt).aud).toBe(ISSUER);
  });

  it("corruptSignature gives a well-formed JWT whose signature does not verify", async () => {
    const key = await holderKey();
    const jwt = await jwtProof({ key, ids, aud: ISSUER, corruptSignature: true });
    expect(decodeJwt(jwt).aud).toBe(ISSUER);
    await expect(jwtVerify(jwt, await importJWK(key.publicJwk, "ES256"))).rejects.toThrow();
  });

  it("includePrivateKey puts the private members into the header jwk", async () => {
    const key = await holderKey();
    const jwt = await jwtProof({ key, ids, aud: ISSUER, includePrivateKey: true });
    const jwk = decodeProtectedHeader(jwt).jwk as JWK;
    expect(typeof jwk.d).toBe("string");
    expect(jwk.x).toBe(key.publicJwk.x);
    expect(key.publicJwk.d).toBeUndefined();
    await jwtVerify(jwt, await importJWK(key.publicJwk, "ES256"));
  });
});

describe("PKCE (RFC 7636 §4) and DPoP (RFC 9449 §4.2)", () => {
  it("the S256 challenge is base64url(sha256(verifier)) of a 43+ character verifier", () => {
    const p = pkce();
    expect(p.method).toBe("S256");
    expect(p.verifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    expect(p.challenge).toBe(sha(p.verifier));
    expect(pkce().verifier).not.toBe(p.verifier);
  });

  it("a DPoP proof carries typ dpop+jwt, jwk, jti, iat, htm, htu without query or fragment, ath and nonce", async () => {
    const key = await holderKey();
    const jwt = await dpopProof({
      key,
      htm: "POST",
      htu: "https://as.example/token?x=1#frag",
      accessToken: "at-123",
      nonce: "dn",
    });
    const header = decodeProtectedHeader(jwt);
    expect(header).toMatchObject({ typ: "dpop+jwt", alg: "ES256", jwk: key.publicJwk });
    const { payload } = await jwtVerify(jwt, await importJWK(key.publicJwk, "ES256"));
    expect(payload).toMatchObject({
      htm: "POST",
      htu: "https://as.example/token",
      ath: sha("at-123"),
      nonce: "dn",
    });
    expect(typeof payload.jti).toBe("string");
    expect(typeof payload.iat).toBe("number");
    const bare = decodeJwt(await dpopProof({ key, htm: "GET", htu: "https://as.example/x" }));
    expect(bare.ath).toBeUndefined();
    expect(bare.nonce).toBeUndefined();
    expect(bare.jti).not.toBe(payload.jti);
  });
});

describe("credential response encryption (public-spec-facts §1, 8.3)", () => {
  it("the request member names the public ECDH-ES key and the enc", async () => {
    const key = await encryptionKey();
    const member = encryptionRequest(key, "A128GCM");
    expect(member.enc).toBe("A128GCM");
    expect(member.jwk).toMatchObject({ kty: "EC", crv: "P-256", alg: "ECDH-ES", use: "enc" });
    expect(typeof member.jwk.kid).toBe("string");
    expect(member.jwk.d).toBeUndefined();
  });

  it.each(["A128GCM", "A256GCM"])("decrypts a %s response encrypted to the key", async (enc) => {
    const key = await encryptionKey();
    const jwe = await new CompactEncrypt(
      new TextEncoder().encode(JSON.stringify({ credentials: [{ credential: "c" }] })),
    )
      .setProtectedHeader({ alg: "ECDH-ES", enc, kid: key.publicJwk.kid! })
      .encrypt(await importJWK(key.publicJwk, "ECDH-ES"));
    const out = await decryptResponse(jwe, key);
    expect(out.payload).toEqual({ credentials: [{ credential: "c" }] });
    expect(out.header).toMatchObject({ alg: "ECDH-ES", enc, kid: key.publicJwk.kid });
  });

  it("throws a WalletError for a body that is not JSON, a foreign key and garbage", async () => {
    const key = await encryptionKey();
    const pub = await importJWK(key.publicJwk, "ECDH-ES");
    const notJson = await new CompactEncrypt(new TextEncoder().encode("not json"))
      .setProtectedHeader({ alg: "ECDH-ES", enc: "A128GCM" })
      .encrypt(pub);
    await expect(decryptResponse(notJson, key)).rejects.toThrow(/not JSON/);
    await expect(decryptResponse(notJson, await encryptionKey())).rejects.toBeInstanceOf(WalletError);
    await expect(decryptResponse("a.b.c", key)).rejects.toThrow(/not a compact JWE/);
  });
});

/** Builds an SD-JWT VC by hand: disclosures, their digests in _sd, a cnf, signed with jose. */
async function issueSdJwt(
  o: {
    holder?: JWK;
    kid?: string;
    claims?: Record<string, unknown>;
    omitDigest?: boolean;
    trailing?: boolean;
  } = {},
) {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const issuerJwk: JWK = { ...(await exportJWK(publicKey)), kid: o.kid ?? "k1", alg: "ES256" };
  const disclosures = [
    b64(JSON.stringify(["s1", "given_name", "Erika"])),
    b64(JSON.stringify(["s2", "age", 42])),
  ];
  const digests = disclosures.map(sha);
  const payload = {
    iss: ISSUER,
    vct: "https://credentials.example/identity",
    _sd_alg: "sha-256",
    _sd: o.omitDigest ? digests.slice(1) : digests,
    ...(o.holder ? { cnf: { jwk: o.holder } } : {}),
    ...o.claims,
  };
  const jwt = await new SignJWT(payload)
    .setProtectedHeader({ alg: "ES256", typ: "dc+sd-jwt", kid: issuerJwk.kid! })
    .sign(privateKey);
  const sdJwt = `${jwt}~${disclosures.join("~")}${o.trailing === false ? "" : "~"}`;
  return { sdJwt, jwks: { keys: [issuerJwk] }, disclosures, privateKey };
}

describe("issued credentials (SD-JWT VC and JWT VC), read without trust", () => {
  it("reads disclosures and cnf of a sound SD-JWT, verifies the issuer signature and matches the holder key", async () => {
    const holder = await holderKey();
    const { sdJwt, jwks, disclosures } = await issueSdJwt({ holder: holder.publicJwk });
    const c = parseCredential("dc+sd-jwt", sdJwt);
    expect(c.problems).toEqual([]);
    expect(c.undisclosedDigestsOk).toBe(true);
    expect(c.disclosures).toEqual([
      { salt: "s1", name: "given_name", value: "Erika", digest: sha(disclosures[0]!) },
      { salt: "s2", name: "age", value: 42, digest: sha(disclosures[1]!) },
    ]);
    expect(c.header.kid).toBe("k1");
    expect(sameKey(c.cnfJwk, holder.publicJwk)).toBe(true);
    expect(sameKey(c.cnfJwk, (await holderKey()).publicJwk)).toBe(false);
    expect(sameKey(undefined, holder.publicJwk)).toBe(false);
    expect(await verifyIssuerSignature(c, jwks)).toBe(true);
    const other = await issueSdJwt();
    expect(await verifyIssuerSignature(c, other.jwks)).toBe(false);
    expect(await verifyIssuerSignature(c, { keys: [] })).toBe(false);
    expect(await verifyIssuerSignature(c, null as unknown as { keys: JWK[] })).toBe(false);
  });

  it("ignores a trailing key-binding JWT and notes a missing trailing ~ or an uncommitted disclosure", async () => {
    const { sdJwt } = await issueSdJwt();
    expect(parseCredential("dc+sd-jwt", `${sdJwt}aaa.bbb.ccc`).problems).toEqual([]);
    const noTrail = parseCredential("dc+sd-jwt", (await issueSdJwt({ trailing: false })).sdJwt);
    expect(noTrail.problems.join()).toMatch(/trailing ~/);
    const omitted = parseCredential("dc+sd-jwt", (await issueSdJwt({ omitDigest: true })).sdJwt);
    expect(omitted.undisclosedDigestsOk).toBe(false);
    expect(omitted.problems.join()).toMatch(/given_name/);
  });

  it("notes a missing vct, a bad _sd_alg and a malformed disclosure", async () => {
    const { sdJwt } = await issueSdJwt({ claims: { vct: undefined, _sd_alg: "md5" } });
    const c = parseCredential("dc+sd-jwt", `${sdJwt}${b64("{}")}~%%~`);
    expect(c.undisclosedDigestsOk).toBe(false);
    const p = c.problems.join("\n");
    expect(p).toMatch(/vct/);
    expect(p).toMatch(/_sd_alg/);
    expect(p).toMatch(/disclosure 2 is not a JSON array/);
    expect(p).toMatch(/disclosure 3 is not base64url/);
  });

  it("reads a JWT VC and notes a missing vc", async () => {
    const { privateKey, publicKey } = await generateKeyPair("ES256");
    const jwks = { keys: [{ ...(await exportJWK(publicKey)), alg: "ES256" }] };
    const sign = (p: Record<string, unknown>) =>
      new SignJWT(p).setProtectedHeader({ alg: "ES256" }).sign(privateKey);
    const ok = parseCredential("jwt_vc_json", await sign({ vc: { type: ["VerifiableCredential"] } }));
    expect(ok.problems).toEqual([]);
    expect(ok.undisclosedDigestsOk).toBe(true);
    expect(await verifyIssuerSignature(ok, jwks)).toBe(true);
    expect(parseCredential("jwt_vc_json", await sign({ sub: "x" })).problems.join()).toMatch(/vc/);
  });

  it("throws a WalletError for what is no credential at all, and bounds sizes", async () => {
    const { sdJwt } = await issueSdJwt();
    expect(() => parseCredential("mso_mdoc", sdJwt)).toThrow(WalletError);
    expect(() => parseCredential("dc+sd-jwt", { credential: sdJwt })).toThrow(/not a string/);
    expect(() => parseCredential("jwt_vc_json", "garbage")).toThrow(WalletError);
    expect(() => parseCredential("dc+sd-jwt", `${b64("[]")}.${b64("{}")}.x~`)).toThrow(
      /header is not a JSON object/,
    );
    expect(() => parseCredential("dc+sd-jwt", `${sdJwt}${"a".repeat(256 * 1024)}~`)).toThrow(/over/);
    expect(() => parseCredential("dc+sd-jwt", `${sdJwt}${"YQ~".repeat(201)}`)).toThrow(/200 disclosures/);
  });
});

describe("Credential Offer invocation (specs/000 Wallet Credential Offer Endpoint)", () => {
  const offer = { credential_issuer: ISSUER, credential_configuration_ids: ["pid"] };
  const enc = encodeURIComponent(JSON.stringify(offer));

  it("reads an offer by value under the custom scheme and by reference at a wallet endpoint", () => {
    expect(parseOfferInvocation(`${ids.offerScheme}?credential_offer=${enc}`, ids)).toEqual({
      kind: "value",
      offer,
      problems: [],
    });
    const ref = parseOfferInvocation(
      `https://wallet.example/offer?credential_offer_uri=${encodeURIComponent("https://issuer.example/o/1")}`,
      ids,
    );
    expect(ref).toEqual({ kind: "reference", uri: "https://issuer.example/o/1", problems: [] });
  });

  it.each([
    [`${ids.offerScheme}?credential_offer=${enc}&credential_offer_uri=https%3A%2F%2Fa`, /both/],
    [`${ids.offerScheme}?x=1`, /neither/],
    [`${IDENTIFIER_SETS.openid.offerScheme}?credential_offer=${enc}`, /neither std-credential-offer/],
    [`${ids.offerScheme}?credential_offer=${enc}&extra=1`, /extra query parameters: extra/],
    [`${ids.offerScheme}?credential_offer_uri=http%3A%2F%2Fissuer.example%2Fo`, /not an https URL/],
    [`${ids.offerScheme}?credential_offer=${JSON.stringify(offer)}`, /not URL-encoded/],
    [`${ids.offerScheme}?credential_offer=%7Bnope`, /not JSON/],
  ])("records a problem for %s", (invocation, problem) => {
    expect(parseOfferInvocation(invocation, ids).problems.join("\n")).toMatch(problem);
  });
});

describe("Credential Offer object (specs/000 Resources: Credential Offer, Grant parameters)", () => {
  it("reads a sound pre-authorized offer with an empty tx_code as requiring a Transaction Code", () => {
    const shape = readOffer({
      credential_issuer: ISSUER,
      credential_configuration_ids: ["a", "b"],
      grants: {
        [PRE_AUTHORIZED_GRANT]: { "pre-authorized_code": "pac", tx_code: {} },
        authorization_code: { issuer_state: "st", authorization_server: "https://as.example" },
      },
      unknown_member: true,
    });
    expect(shape).toEqual({
      credentialIssuer: ISSUER,
      configurationIds: ["a", "b"],
      preAuthorizedCode: "pac",
      txCode: {},
      txCodeRequired: true,
      issuerState: "st",
      authorizationServer: "https://as.example",
      problems: [],
    });
  });

  it("records every member problem", () => {
    const shape = readOffer({
      credential_issuer: 7,
      credential_configuration_ids: ["a", "a", 3],
      grants: {
        [PRE_AUTHORIZED_GRANT]: {
          "pre-authorized_code": 1,
          tx_code: { input_mode: "alpha", length: 4.5, description: "x".repeat(301) },
        },
        authorization_code: { issuer_state: 5 },
      },
    });
    expect(shape.problems).toEqual([
      "credential_issuer is not a string",
      "credential_configuration_ids holds a non-string",
      "credential_configuration_ids has duplicates",
      "pre-authorized grant pre-authorized_code is not a string",
      "tx_code.input_mode is neither numeric nor text",
      "tx_code.length is not an integer",
      "tx_code.description is over 300 characters",
      "authorization_code grant issuer_state is not a string",
    ]);
    expect(readOffer({ ...shape, credential_configuration_ids: [] }).problems.join()).toMatch(/non-empty/);
    expect(
      readOffer({ credential_issuer: ISSUER, credential_configuration_ids: ["a"], grants: [] }).problems,
    ).toEqual(["grants is not an object"]);
    expect(readOffer("nope").problems).toEqual(["offer is not a JSON object"]);
    const at300 = readOffer({
      credential_issuer: ISSUER,
      credential_configuration_ids: ["a"],
      grants: {
        [PRE_AUTHORIZED_GRANT]: { "pre-authorized_code": "p", tx_code: { description: "é".repeat(300) } },
      },
    });
    expect(at300.problems).toEqual([]);
  });
});

describe("the wallet server (Credential Offer Endpoint and redirect URI)", () => {
  let wallet: MockWallet;
  beforeAll(async () => {
    wallet = await startWallet();
  });
  afterAll(() => wallet.close());

  it("records each offer invocation with its query, answers a small page, and lists it through the control API", async () => {
    expect(wallet.offerEndpoint).toBe(`${wallet.url}/offer`);
    expect(wallet.redirectUri).toBe(`${wallet.url}/callback`);
    const client = new MockClient(wallet.url, wallet.control.token);
    const waiting = client.wait("/offer/slot-1", 1, 5000);
    const q = `credential_offer_uri=${encodeURIComponent("https://issuer.example/o/1")}`;
    const res = await request(`${wallet.offerEndpoint}/slot-1?${q}`);
    expect(res.statusCode).toBe(200);
    expect(await res.body.text()).toContain("offer received");
    const [entry] = await waiting;
    expect(entry?.path).toBe("/offer/slot-1");
    expect(recordedUrl(entry!)).toBe(`/offer/slot-1?${q}`);
    const invocation = parseOfferInvocation(new URL(recordedUrl(entry!), wallet.url).href, ids);
    expect(invocation).toEqual({ kind: "reference", uri: "https://issuer.example/o/1", problems: [] });
    await (await request(`${wallet.offerEndpoint}?credential_offer=%7B%7D`)).body.text();
    expect(wallet.control.entries("/offer").map(recordedUrl)).toContain("/offer?credential_offer=%7B%7D");
  });

  it("records the authorization response at the redirect URI and guards the control routes", async () => {
    const res = await request(`${wallet.redirectUri}?code=c1&state=s1`);
    expect(await res.body.text()).toContain("authorization received");
    expect(wallet.control.entries("/callback").map(recordedUrl)).toEqual(["/callback?code=c1&state=s1"]);
    const denied = await request(`${wallet.url}/__idc/log`);
    expect(denied.statusCode).toBe(403);
    await denied.body.dump();
  });

  it("is the wallet MockModule", () => {
    expect(mock.role).toBe("wallet");
  });
});

describe("browser part of the Authorization Code Flow (specs/000 Rules 4)", () => {
  let as: RunningServer;
  let wallet: MockWallet;
  beforeAll(async () => {
    wallet = await startWallet();
    const app = new Hono();
    app.get("/authorize", (c) =>
      c.html(
        `<form method="post" action="/login?state=${c.req.query("state") ?? ""}"><input id="user" name="user"><input id="pw" name="pw" type="password"><button id="go">go</button></form>`,
      ),
    );
    app.post("/login", async (c) => {
      const form = await c.req.parseBody();
      if (form.pw !== "hunter22") return c.html("<p>wrong password</p>", 401);
      return c.redirect(
        `${wallet.redirectUri}?code=code-${String(form.user)}&state=${c.req.query("state") ?? ""}`,
        302,
      );
    });
    as = await serveApp(app);
  });
  afterAll(async () => {
    await as.close();
    await wallet.close();
  });

  it("fills the login form, follows the 302 and stops at the redirect URI with the code", async () => {
    const started = Date.now();
    const out = await authorizeInBrowser({
      authorizationUrl: `${as.url}/authorize?state=st1`,
      steps: [
        { fill: { selector: "#user", value: "alice" } },
        { fill: { selector: "#pw", value: "hunter22" } },
        { click: "#go" },
      ],
      redirectUri: wallet.redirectUri,
      timeoutMs: 10_000,
    });
    const ms = Date.now() - started;
    console.info(`authorizeInBrowser took ${ms} ms`);
    expect(out.redirectedTo).toBe(`${wallet.redirectUri}?code=code-alice&state=st1`);
    expect(out.trail[0]).toBe(`${as.url}/authorize?state=st1`);
    expect(out.trail.at(-1)).toBe(`${wallet.redirectUri}?code=***&state=st1`);
    expect(out.trail.join()).not.toContain("hunter22");
  });

  it("names the failing step, its selector and the page, without the secrets", async () => {
    const err = await authorizeInBrowser({
      authorizationUrl: `${as.url}/authorize?state=sekrit-state`,
      steps: [{ fill: { selector: "#pw", value: "hunter22" } }, { click: "#missing" }],
      redirectUri: wallet.redirectUri,
      // room for a slow Chromium start on a loaded machine; the missing selector uses the rest
      timeoutMs: 4000,
      secrets: ["sekrit-state"],
    }).catch((e: unknown) => e);
    // A step that cannot be carried out is the harness's or the profile's problem, not the issuer's.
    expect(err).toBeInstanceOf(BrowserStepError);
    const msg = (err as Error).message;
    expect(msg).toMatch(/step 1 \(click #missing\)/);
    expect(msg).toContain(`page at ${as.url}/authorize?state=***`);
    expect(msg).not.toContain("sekrit-state");
    expect(msg).not.toContain("hunter22");
  });
});

describe("browser pins (mocks/wallet/spki.ts)", () => {
  it("gives one SPKI hash per certificate of a PEM bundle, and none for text without one", () => {
    const ca = readFileSync(join(import.meta.dirname, "..", "fixture", "tls", "ca.pem"), "utf8");
    const server = readFileSync(join(import.meta.dirname, "..", "fixture", "tls", "server.pem"), "utf8");
    const pins = spkiHashes(`${ca}\n${server}`);
    expect(pins).toHaveLength(2);
    expect(pins[0]).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(pins[0]).not.toBe(pins[1]);
    expect(spkiHashes("no certificate here")).toEqual([]);
  });
});
