import { createHash, randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import {
  compactDecrypt,
  createLocalJWKSet,
  decodeJwt,
  exportJWK,
  generateKeyPair,
  jwtVerify,
  SignJWT,
  type CryptoKey,
  type JWK,
} from "jose";
import { Agent, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningTarget } from "../../src/engine/target.js";
import {
  AS_WELL_KNOWN,
  IDENTIFIER_SETS,
  PRE_AUTHORIZED_GRANT,
  wellKnownUrl,
} from "../../src/protocols/vci.js";
import vciTarget, { startVciTarget } from "../../targets/vci/index.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
type Json = any;

const ids = IDENTIFIER_SETS.std;

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  body: Json;
}

interface HolderKey {
  privateKey: CryptoKey;
  jwk: JWK;
}

async function holderKey(): Promise<HolderKey> {
  const { privateKey, publicKey } = await generateKeyPair("ES256");
  return { privateKey, jwk: await exportJWK(publicKey) };
}

/** The wallet side of one running target, as a test plays it. */
class Wallet {
  readonly agent: Agent;
  readonly issuer: string;
  private encKey: { privateKey: CryptoKey; jwk: JWK } | undefined;

  constructor(readonly target: RunningTarget) {
    this.agent = new Agent({ connect: { ca: readFileSync(target.env.IDC_DEMO_VCI_CA_FILE ?? "", "utf8") } });
    this.issuer = target.env.IDC_DEMO_VCI_ISSUER ?? "";
  }

  async call(
    method: "GET" | "POST",
    url: string,
    opts: { headers?: Record<string, string>; body?: string } = {},
  ): Promise<Reply> {
    const res = await request(url, {
      method,
      dispatcher: this.agent,
      ...(opts.headers ? { headers: opts.headers } : {}),
      ...(opts.body !== undefined ? { body: opts.body } : {}),
    });
    const text = await res.body.text();
    const type = String(res.headers["content-type"] ?? "");
    return {
      status: res.statusCode,
      headers: res.headers,
      text,
      body: type.startsWith("application/json") && text ? JSON.parse(text) : undefined,
    };
  }

  form(path: string, params: Record<string, string>): Promise<Reply> {
    return this.call("POST", `${this.issuer}/${path}`, {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(params).toString(),
    });
  }

  json(path: string, body: unknown, token?: string): Promise<Reply> {
    return this.call("POST", `${this.issuer}/${path}`, {
      headers: {
        "content-type": "application/json",
        ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
  }

  async offer(order: Record<string, unknown> = {}): Promise<{ offer: string; tx_code?: string }> {
    const r = await this.call("POST", this.target.env.IDC_DEMO_VCI_HOOK_URL ?? "", {
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${this.target.env.IDC_DEMO_VCI_HOOK_TOKEN}`,
      },
      body: JSON.stringify(order),
    });
    expect(r.status, r.text).toBe(200);
    return r.body as { offer: string; tx_code?: string };
  }

  /** The offer object of an invocation URL, fetched by reference when it is one. */
  async offerObject(invocation: string): Promise<Json> {
    const query = new URLSearchParams(invocation.slice(invocation.indexOf("?") + 1));
    const uri = query.get("credential_offer_uri");
    if (uri === null) return JSON.parse(query.get("credential_offer") ?? "null");
    const r = await this.call("GET", uri);
    expect(r.status).toBe(200);
    expect(r.headers["cache-control"]).toBe("no-store");
    return r.body;
  }

  async preAuthorizedCode(order: Record<string, unknown> = {}): Promise<{ code: string; tx?: string }> {
    const made = await this.offer(order);
    const offer = await this.offerObject(made.offer);
    return {
      code: offer.grants[PRE_AUTHORIZED_GRANT]["pre-authorized_code"] as string,
      ...(made.tx_code !== undefined ? { tx: made.tx_code } : {}),
    };
  }

  async token(order: Record<string, unknown> = {}, extra: Record<string, string> = {}): Promise<Json> {
    const { code, tx } = await this.preAuthorizedCode(order);
    const r = await this.form("token", {
      grant_type: PRE_AUTHORIZED_GRANT,
      "pre-authorized_code": code,
      ...(tx !== undefined ? { tx_code: tx } : {}),
      ...extra,
    });
    expect(r.status, r.text).toBe(200);
    return r.body;
  }

  async nonce(): Promise<string> {
    const r = await this.call("POST", `${this.issuer}/nonce`);
    expect(r.status).toBe(200);
    return r.body.c_nonce as string;
  }

  async proof(key: HolderKey, claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}) {
    const nonce = await this.nonce();
    return new SignJWT({ aud: this.issuer, nonce, ...claims })
      .setProtectedHeader({ alg: "ES256", typ: ids.proofTyp, jwk: key.jwk, ...header })
      .setIssuedAt()
      .sign(key.privateKey);
  }

  async encryption(enc = "A256GCM"): Promise<{ jwk: JWK; enc: string }> {
    if (!this.encKey) {
      const { privateKey, publicKey } = await generateKeyPair("ECDH-ES", { crv: "P-256" });
      this.encKey = { privateKey, jwk: { ...(await exportJWK(publicKey)), alg: "ECDH-ES", use: "enc" } };
    }
    return { jwk: this.encKey.jwk, enc };
  }

  async decrypt(r: Reply): Promise<Json> {
    expect(r.headers["content-type"]).toBe("application/jwt");
    const { plaintext, protectedHeader } = await compactDecrypt(r.text, this.encKey?.privateKey as CryptoKey);
    expect(protectedHeader.alg).toBe("ECDH-ES");
    return JSON.parse(new TextDecoder().decode(plaintext));
  }

  async credential(token: string, body: Record<string, unknown>): Promise<Reply> {
    return this.json(
      "credential",
      { credential_response_encryption: await this.encryption(), ...body },
      token,
    );
  }
}

/** The issuer-signed JWT and the disclosed claims of an SD-JWT, digests checked. */
function parseSdJwt(sdJwt: string): { jwt: string; claims: Record<string, unknown> } {
  const [jwt = "", ...rest] = sdJwt.split("~");
  expect(sdJwt.endsWith("~")).toBe(true);
  const payload = decodeJwt(jwt) as Json;
  const claims: Record<string, unknown> = {};
  for (const d of rest.filter((s) => s !== "")) {
    const digest = createHash("sha256").update(d, "ascii").digest("base64url");
    expect(payload._sd).toContain(digest);
    const [, name, value] = JSON.parse(Buffer.from(d, "base64url").toString()) as [string, string, unknown];
    claims[name] = value;
  }
  return { jwt, claims };
}

const started: RunningTarget[] = [];
let wallet: Wallet;

beforeAll(async () => {
  const t = await startVciTarget({ faults: [] });
  started.push(t);
  wallet = new Wallet(t);
});

afterAll(async () => {
  for (const t of started) await t.close();
  for (const t of started) expect(existsSync(t.env.IDC_DEMO_VCI_CA_FILE ?? "")).toBe(false);
});

describe("specs/000 Endpoints: metadata", () => {
  it("serves JSON metadata at the well-known URL inserted before the issuer path", async () => {
    const url = wellKnownUrl(wallet.issuer, ids.wellKnown);
    expect(url).toBe(`${new URL(wallet.issuer).origin}${ids.wellKnown}/issuer`);
    const r = await wallet.call("GET", url);
    expect(r.status).toBe(200);
    expect(r.headers["content-type"]).toBe("application/json");
    expect(r.headers.vary).toBe("Accept");
    expect(r.body.credential_issuer).toBe(wallet.issuer);
    expect(r.body.authorization_servers).toBeUndefined();
    expect(r.body.batch_credential_issuance).toEqual({ batch_size: 3 });
    expect(Object.keys(r.body.credential_configurations_supported)).toEqual([
      "identity_sd_jwt",
      "identity_jwt_vc",
    ]);
    expect(r.body.display.map((d: Json) => d.locale)).toEqual(["en-US", "de-DE"]);
  });

  it("signs the metadata when asked with Accept: application/jwt", async () => {
    const r = await wallet.call("GET", wellKnownUrl(wallet.issuer, ids.wellKnown), {
      headers: { accept: "application/jwt" },
    });
    expect(r.headers["content-type"]).toBe("application/jwt");
    const jwks = createLocalJWKSet(JSON.parse(wallet.target.env.IDC_DEMO_VCI_METADATA_JWKS ?? ""));
    const { payload, protectedHeader } = await jwtVerify(r.text, jwks);
    expect(protectedHeader).toMatchObject({ typ: ids.metadataJwtTyp, alg: "ES256" });
    expect(payload).toMatchObject({
      sub: wallet.issuer,
      iss: wallet.issuer,
      credential_issuer: wallet.issuer,
    });
    expect(typeof payload.iat).toBe("number");
  });

  it("publishes Authorization Server and JWT VC issuer metadata; unknown routes are 404 JSON", async () => {
    const as = await wallet.call("GET", wellKnownUrl(wallet.issuer, AS_WELL_KNOWN));
    expect(as.body).toMatchObject({
      issuer: wallet.issuer,
      token_endpoint: `${wallet.issuer}/token`,
      "pre-authorized_grant_anonymous_access_supported": true,
      authorization_details_types_supported: [ids.authorizationDetailsType],
    });
    const vc = await wallet.call("GET", wellKnownUrl(wallet.issuer, "/.well-known/jwt-vc-issuer"));
    expect(vc.body.issuer).toBe(wallet.issuer);
    expect(vc.body.jwks.keys[0].kid).toBeTypeOf("string");
    const nf = await wallet.call("GET", `${wallet.issuer}/nothing`);
    expect(nf.status).toBe(404);
    expect(nf.body).toEqual({ error: "not_found" });
  });
});

describe("specs/000 Pre-Authorized Code Flow", () => {
  it("the hook needs its token and rejects non-loopback deliveries", async () => {
    const r = await wallet.call("POST", wallet.target.env.IDC_DEMO_VCI_HOOK_URL ?? "", { body: "{}" });
    expect(r.status).toBe(401);
    const bad = await wallet.call("POST", wallet.target.env.IDC_DEMO_VCI_HOOK_URL ?? "", {
      headers: {
        authorization: `Bearer ${wallet.target.env.IDC_DEMO_VCI_HOOK_TOKEN}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ deliver_to: "http://example.com/offer" }),
    });
    expect(bad.status).toBe(400);
  });

  it("offers by value carry the offer object", async () => {
    const made = await wallet.offer({
      by_reference: false,
      credential_configuration_ids: ["identity_jwt_vc"],
    });
    expect(made.offer.startsWith(`${ids.offerScheme}?credential_offer=`)).toBe(true);
    const offer = await wallet.offerObject(made.offer);
    expect(offer).toMatchObject({
      credential_issuer: wallet.issuer,
      credential_configuration_ids: ["identity_jwt_vc"],
    });
  });

  it("checks tx_code and single use of the code at the token endpoint", async () => {
    const { code, tx } = await wallet.preAuthorizedCode({ tx_code: true });
    expect(tx).toMatch(/^\d{6}$/);
    const base = { grant_type: PRE_AUTHORIZED_GRANT, "pre-authorized_code": code };
    const missing = await wallet.form("token", base);
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe("invalid_request");
    expect(missing.headers["cache-control"]).toBe("no-store");
    const wrong = await wallet.form("token", { ...base, tx_code: tx === "000000" ? "111111" : "000000" });
    expect(wrong.body.error).toBe("invalid_grant");
    const ok = await wallet.form("token", { ...base, tx_code: tx ?? "", unknown_param: "x" });
    expect(ok.status).toBe(200);
    expect(ok.headers["cache-control"]).toBe("no-store");
    expect(ok.body).toMatchObject({ token_type: "Bearer", expires_in: 300 });
    const again = await wallet.form("token", { ...base, tx_code: tx ?? "" });
    expect(again.body.error).toBe("invalid_grant");
    const unexpected = await wallet.preAuthorizedCode();
    const r = await wallet.form("token", {
      ...base,
      "pre-authorized_code": unexpected.code,
      tx_code: "123456",
    });
    expect(r.body.error).toBe("invalid_request");
  });

  it("issues an encrypted SD-JWT VC bound to the proof key", async () => {
    const { access_token: token } = await wallet.token();
    const key = await holderKey();
    const r = await wallet.credential(token, {
      credential_configuration_id: "identity_sd_jwt",
      proofs: { jwt: [await wallet.proof(key)] },
    });
    expect(r.status, r.text).toBe(200);
    const body = await wallet.decrypt(r);
    expect(body.notification_id).toBeTypeOf("string");
    const { jwt, claims } = parseSdJwt(body.credentials[0].credential);
    const vc = await wallet.call("GET", wellKnownUrl(wallet.issuer, "/.well-known/jwt-vc-issuer"));
    const { payload, protectedHeader } = await jwtVerify(jwt, createLocalJWKSet(vc.body.jwks), {
      issuer: wallet.issuer,
    });
    expect(protectedHeader.typ).toBe("dc+sd-jwt");
    expect((payload.cnf as Json).jwk).toEqual(key.jwk);
    expect(claims).toEqual({ given_name: "Erika", family_name: "Mustermann", birthdate: "1964-08-12" });
    // The same token serves again, and a batch binds each credential to its own key.
    const keys = [await holderKey(), await holderKey()];
    const batch = await wallet.credential(token, {
      credential_configuration_id: "identity_sd_jwt",
      proofs: { jwt: await Promise.all(keys.map((k) => wallet.proof(k))) },
    });
    const creds = (await wallet.decrypt(batch)).credentials as { credential: string }[];
    expect(creds.map((c) => (decodeJwt(c.credential.split("~")[0] ?? "") as Json).cnf.jwk)).toEqual(
      keys.map((k) => k.jwk),
    );
  });

  it("refuses bad requests at the credential endpoint with the right codes", async () => {
    const { access_token: token } = await wallet.token({ credential_configuration_ids: ["identity_jwt_vc"] });
    const key = await holderKey();
    const none = await wallet.json("credential", {});
    expect(none.status).toBe(401);
    expect(none.headers["www-authenticate"]).toBe("Bearer");
    const bad = await wallet.json("credential", {}, "not-a-token");
    expect(bad.status).toBe(401);
    expect(bad.headers["www-authenticate"]).toBe('Bearer error="invalid_token"');
    const cases: [Record<string, unknown>, string][] = [
      [{ credential_configuration_id: "identity_jwt_vc", proofs: { jwt: [await wallet.proof(key)] } }, "ok"],
      [
        { credential_configuration_id: "identity_sd_jwt", proofs: { jwt: [await wallet.proof(key)] } },
        "unknown_credential_configuration",
      ],
      [
        { credential_identifier: "x", credential_configuration_id: "identity_jwt_vc" },
        "invalid_credential_request",
      ],
      [{ credential_identifier: "x" }, "unknown_credential_identifier"],
      [{ credential_configuration_id: "identity_jwt_vc" }, "invalid_proof"],
      [
        {
          credential_configuration_id: "identity_jwt_vc",
          proofs: { jwt: [await wallet.proof(key, { nonce: "forged" })] },
        },
        "invalid_nonce",
      ],
      [
        {
          credential_configuration_id: "identity_jwt_vc",
          proofs: { jwt: [await wallet.proof(key, { nonce: undefined })] },
        },
        "invalid_proof",
      ],
      [
        {
          credential_configuration_id: "identity_jwt_vc",
          proofs: { jwt: [await wallet.proof(key, { aud: "https://other" })] },
        },
        "invalid_proof",
      ],
      [
        {
          credential_configuration_id: "identity_jwt_vc",
          proofs: { jwt: [await wallet.proof(key, {}, { typ: "JWT" })] },
        },
        "invalid_proof",
      ],
      [
        {
          credential_configuration_id: "identity_jwt_vc",
          proofs: { jwt: Array(4).fill(await wallet.proof(key)) },
        },
        "invalid_credential_request",
      ],
    ];
    for (const [body, expected] of cases) {
      const r = await wallet.credential(token, body);
      if (expected === "ok") {
        expect(r.status, r.text).toBe(200);
        const vc = decodeJwt((await wallet.decrypt(r)).credentials[0].credential) as Json;
        expect(vc.vc.credentialSubject.family_name).toBe("Mustermann");
        continue;
      }
      expect([r.status, r.body?.error], JSON.stringify(body).slice(0, 80)).toEqual([400, expected]);
      expect(r.headers["cache-control"]).toBe("no-store");
      expect(r.body.error_description).toMatch(/^[\x20\x21\x23-\x5b\x5d-\x7e]*$/);
    }
    const plain = await wallet.json(
      "credential",
      { credential_configuration_id: "identity_jwt_vc", proofs: { jwt: [await wallet.proof(key)] } },
      token,
    );
    expect(plain.body.error).toBe("invalid_encryption_parameters");
  });

  it("authorization_details at the token endpoint give credential_identifiers, which must be used", async () => {
    const details = [{ type: ids.authorizationDetailsType, credential_configuration_id: "identity_sd_jwt" }];
    const t = await wallet.token({}, { authorization_details: JSON.stringify(details) });
    const identifiers = t.authorization_details[0].credential_identifiers as string[];
    expect(identifiers.length).toBeGreaterThan(0);
    const key = await holderKey();
    const byConfig = await wallet.credential(t.access_token, {
      credential_configuration_id: "identity_sd_jwt",
      proofs: { jwt: [await wallet.proof(key)] },
    });
    expect(byConfig.body.error).toBe("invalid_credential_request");
    const byId = await wallet.credential(t.access_token, {
      credential_identifier: identifiers[0],
      proofs: { jwt: [await wallet.proof(key)] },
    });
    expect(byId.status).toBe(200);
  });

  it("defers issuance: 202, 202 with the same id, 200, then invalid_transaction_id", async () => {
    const { access_token: token } = await wallet.token({ deferred: true });
    const r = await wallet.credential(token, {
      credential_configuration_id: "identity_sd_jwt",
      proofs: { jwt: [await wallet.proof(await holderKey())] },
    });
    expect(r.status).toBe(202);
    const first = await wallet.decrypt(r);
    expect(first).toEqual({ transaction_id: expect.any(String), interval: 1 });
    const poll = async () =>
      wallet.json(
        "deferred",
        {
          transaction_id: first.transaction_id,
          credential_response_encryption: await wallet.encryption("A128GCM"),
        },
        token,
      );
    const p1 = await poll();
    expect(p1.status).toBe(202);
    expect((await wallet.decrypt(p1)).transaction_id).toBe(first.transaction_id);
    const p2 = await poll();
    expect(p2.status).toBe(200);
    const issued = await wallet.decrypt(p2);
    expect(issued.credentials).toHaveLength(1);
    const p3 = await poll();
    expect([p3.status, p3.body.error]).toEqual([400, "invalid_transaction_id"]);

    // Notifications about the deferred credential.
    const notify = (body: unknown) => wallet.json("notification", body, token);
    const ok = { notification_id: issued.notification_id, event: "credential_accepted" };
    expect((await notify(ok)).status).toBe(204);
    expect((await notify(ok)).status).toBe(204);
    const unknown = await notify({ ...ok, notification_id: "nope" });
    expect([unknown.status, unknown.body.error]).toEqual([400, "invalid_notification_id"]);
    const badEvent = await notify({ ...ok, event: "Credential_Accepted" });
    expect([badEvent.status, badEvent.body.error]).toEqual([400, "invalid_notification_request"]);
    const noToken = await wallet.json("notification", ok);
    expect([noToken.status, noToken.headers["www-authenticate"]]).toEqual([401, "Bearer"]);
  });
});

describe("specs/000 Authorization Code Flow", () => {
  it("logs in, asks consent and redirects with a code that a PKCE token request exchanges", async () => {
    const verifier = randomBytes(32).toString("base64url");
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    const redirectUri = "http://127.0.0.1:9/cb";
    const details = [{ type: ids.authorizationDetailsType, credential_configuration_id: "identity_jwt_vc" }];
    const q = new URLSearchParams({
      response_type: "code",
      client_id: "wallet",
      redirect_uri: redirectUri,
      state: "s1",
      code_challenge: challenge,
      code_challenge_method: "S256",
      authorization_details: JSON.stringify(details),
    });
    const login = await wallet.call("GET", `${wallet.issuer}/authorize?${q.toString()}`);
    expect(login.status).toBe(200);
    expect(login.text).toContain('id="username"');
    const pending = /name="pending" value="([^"]+)"/.exec(login.text)?.[1] ?? "";
    const wrong = await wallet.form("authorize", {
      pending,
      username: "erika",
      password: "wrong",
      decision: "login",
    });
    expect(wrong.text).toContain('id="error"');
    const consent = await wallet.form("authorize", {
      pending,
      username: wallet.target.env.IDC_DEMO_VCI_USER ?? "",
      password: wallet.target.env.IDC_DEMO_VCI_PASSWORD ?? "",
      decision: "login",
    });
    expect(consent.text).toContain('id="consent"');
    expect(consent.text).toContain("Family name");
    const done = await wallet.form("authorize", { pending, decision: "consent" });
    expect(done.status).toBe(302);
    const location = new URL(String(done.headers.location));
    expect(location.searchParams.get("state")).toBe("s1");
    const code = location.searchParams.get("code") ?? "";
    const exchange = (v: string) =>
      wallet.form("token", {
        grant_type: "authorization_code",
        code,
        code_verifier: v,
        redirect_uri: redirectUri,
        client_id: "wallet",
      });
    const t = await exchange(verifier);
    expect(t.status, t.text).toBe(200);
    expect(t.body.authorization_details[0].credential_identifiers.length).toBeGreaterThan(0);
    expect((await exchange(verifier)).body.error).toBe("invalid_grant");
  });
});

describe("faults", () => {
  it("code-reusable lets a pre-authorized code be exchanged twice", async () => {
    const t = await startVciTarget({ faults: ["code-reusable"] });
    started.push(t);
    const w = new Wallet(t);
    const { code } = await w.preAuthorizedCode();
    const params = { grant_type: PRE_AUTHORIZED_GRANT, "pre-authorized_code": code };
    expect((await w.form("token", params)).status).toBe(200);
    expect((await w.form("token", params)).status).toBe(200);
  });

  /** A wallet of a fresh target started with `faults`. */
  async function faulty(...faults: string[]): Promise<Wallet> {
    const t = await startVciTarget({ faults });
    started.push(t);
    return new Wallet(t);
  }

  it("code-unchecked accepts a code never issued, but issued codes keep their rules", async () => {
    const w = await faulty("code-unchecked");
    const made = await w.form("token", {
      grant_type: PRE_AUTHORIZED_GRANT,
      "pre-authorized_code": "never-issued-by-this-issuer",
    });
    expect(made.status, made.text).toBe(200);
    expect(made.body.token_type).toBe("Bearer");
    const key = await holderKey();
    const cred = await w.credential(made.body.access_token, {
      credential_configuration_id: "identity_sd_jwt",
      proofs: { jwt: [await w.proof(key)] },
    });
    expect(cred.status, cred.text).toBe(200);
    const jwtVc = await w.credential(made.body.access_token, {
      credential_configuration_id: "identity_jwt_vc",
      proofs: { jwt: [await w.proof(key)] },
    });
    expect(jwtVc.body.error).toBe("unknown_credential_configuration");
    // A real code is still single use and still needs its tx_code.
    const { code, tx } = await w.preAuthorizedCode({ tx_code: true });
    const base = { grant_type: PRE_AUTHORIZED_GRANT, "pre-authorized_code": code };
    expect((await w.form("token", base)).body.error).toBe("invalid_request");
    expect((await w.form("token", { ...base, tx_code: tx ?? "" })).status).toBe(200);
    expect((await w.form("token", { ...base, tx_code: tx ?? "" })).body.error).toBe("invalid_grant");
  });

  it("offer-jwt serves offers by reference as an unsigned JWT of the offer", async () => {
    const w = await faulty("offer-jwt");
    const made = await w.offer();
    const uri = new URLSearchParams(made.offer.slice(made.offer.indexOf("?") + 1)).get(
      "credential_offer_uri",
    );
    const r = await w.call("GET", uri ?? "");
    expect(r.status).toBe(200);
    expect(r.headers["content-type"]).toBe("application/jwt");
    expect(r.headers["cache-control"]).toBe("no-store");
    const [header = "", payload = "", signature] = r.text.split(".");
    expect(JSON.parse(Buffer.from(header, "base64url").toString())).toMatchObject({ alg: "none" });
    expect(signature).toBe("");
    const offer = JSON.parse(Buffer.from(payload, "base64url").toString()) as Json;
    expect(offer.credential_issuer).toBe(w.issuer);
    expect(offer.grants[PRE_AUTHORIZED_GRANT]["pre-authorized_code"]).toBeTypeOf("string");
  });

  it("offer-uri-http and offer-authorization-server change the invocation and the grant only", async () => {
    const w = await faulty("offer-uri-http", "offer-authorization-server");
    const made = await w.offer();
    const uri = new URLSearchParams(made.offer.slice(made.offer.indexOf("?") + 1)).get(
      "credential_offer_uri",
    );
    expect(uri?.startsWith(`${w.issuer.replace(/^https:/, "http:")}/offers/`)).toBe(true);
    const offer = await w.offerObject(made.offer.replace("http%3A", "https%3A"));
    expect(offer.grants[PRE_AUTHORIZED_GRANT].authorization_server).toBe(w.issuer);
    const meta = await w.call("GET", wellKnownUrl(w.issuer, ids.wellKnown));
    expect(meta.body.authorization_servers).toBeUndefined();
  });

  it("deferred-never-issued keeps a transaction pending on every poll", async () => {
    const w = await faulty("deferred-never-issued");
    const { access_token: token } = await w.token({ deferred: true });
    const r = await w.credential(token, {
      credential_configuration_id: "identity_sd_jwt",
      proofs: { jwt: [await w.proof(await holderKey())] },
    });
    expect(r.status).toBe(202);
    const { transaction_id: id } = await w.decrypt(r);
    for (let i = 0; i < 4; i++) {
      const p = await w.json(
        "deferred",
        { transaction_id: id, credential_response_encryption: await w.encryption() },
        token,
      );
      expect(p.status).toBe(202);
      expect(await w.decrypt(p)).toEqual({ transaction_id: id, interval: 1 });
    }
  });

  it("notification-repeat-refused refuses an identical repeat, not another event", async () => {
    const w = await faulty("notification-repeat-refused");
    const { access_token: token } = await w.token();
    const r = await w.credential(token, {
      credential_configuration_id: "identity_sd_jwt",
      proofs: { jwt: [await w.proof(await holderKey())] },
    });
    const { notification_id: id } = await w.decrypt(r);
    const notify = (event: string) => w.json("notification", { notification_id: id, event }, token);
    expect((await notify("credential_accepted")).status).toBe(204);
    const again = await notify("credential_accepted");
    expect([again.status, again.body.error]).toEqual([400, "invalid_notification_request"]);
    expect((await notify("credential_deleted")).status).toBe(204);
  });

  it("notification-id-number gives numeric ids the notification endpoint takes in both forms", async () => {
    const w = await faulty("notification-id-number");
    const { access_token: token } = await w.token();
    const r = await w.credential(token, {
      credential_configuration_id: "identity_sd_jwt",
      proofs: { jwt: [await w.proof(await holderKey())] },
    });
    const { notification_id: id } = await w.decrypt(r);
    expect(Number.isSafeInteger(id)).toBe(true);
    const notify = (nid: unknown) =>
      w.json("notification", { notification_id: nid, event: "credential_accepted" }, token);
    expect((await notify(id)).status).toBe(204);
    expect((await notify(String(id))).status).toBe(204);
    expect((await notify(id + 1)).body.error).toBe("invalid_notification_id");
  });

  it("proof-optional issues one unbound credential to a request without proofs", async () => {
    const w = await faulty("proof-optional");
    const { access_token: token } = await w.token();
    for (const id of ["identity_sd_jwt", "identity_jwt_vc"]) {
      const t =
        id === "identity_sd_jwt"
          ? token
          : (await w.token({ credential_configuration_ids: [id] })).access_token;
      const r = await w.credential(t, { credential_configuration_id: id });
      expect(r.status, r.text).toBe(200);
      const { credentials } = await w.decrypt(r);
      expect(credentials).toHaveLength(1);
      const payload = decodeJwt(String(credentials[0].credential).split("~")[0] ?? "") as Json;
      expect(payload.cnf).toBeUndefined();
    }
    const bad = await w.credential(token, { credential_configuration_id: "identity_sd_jwt", proofs: {} });
    expect(bad.body.error).toBe("invalid_proof");
  });

  it("metadata faults change one member each", async () => {
    const w = await faulty(
      "credential-endpoint-unlisted",
      "authorization-servers-string",
      "encryption-required-missing",
      "display-logo-no-uri",
    );
    const m = (await w.call("GET", wellKnownUrl(w.issuer, ids.wellKnown))).body;
    expect(m.credential_endpoint).toBeUndefined();
    expect(m.authorization_servers).toBe(w.issuer);
    expect(m.credential_response_encryption).toEqual({
      alg_values_supported: ["ECDH-ES"],
      enc_values_supported: ["A128GCM", "A256GCM"],
    });
    expect(m.display[0].logo).toEqual({ alt_text: "idconform logo" });
    // The credential endpoint keeps working and keeps requiring encryption.
    const { access_token: token } = await w.token();
    const plain = await w.json("credential", { credential_configuration_id: "identity_sd_jwt" }, token);
    expect(plain.body.error).toBe("invalid_encryption_parameters");
  });

  it("the openid identifier set moves the well-known path", async () => {
    const t = await startVciTarget({ faults: [], identifiers: "openid" });
    started.push(t);
    const w = new Wallet(t);
    const r = await w.call("GET", wellKnownUrl(w.issuer, IDENTIFIER_SETS.openid.wellKnown));
    expect(r.body.credential_issuer).toBe(w.issuer);
    expect((await w.call("GET", wellKnownUrl(w.issuer, ids.wellKnown))).status).toBe(404);
  });

  it("an unknown fault id throws", async () => {
    await expect(vciTarget.start({ faults: ["no-such-fault"] })).rejects.toThrow(/unknown vci target fault/);
  });
});
