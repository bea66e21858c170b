import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import {
  compactVerify,
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  importJWK,
  jwtVerify,
  SignJWT,
  type JWK,
} from "jose";
import { Agent, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningTarget } from "../../src/engine/target.js";
import federationTarget, { faults, startFederationTarget } from "../../targets/federation/index.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
type Json = any;

interface Reply {
  status: number;
  type: string;
  text: string;
  body: Json;
}

/** A federation client of one running target, as the suite plays it. */
class Client {
  readonly agent: Agent;
  constructor(readonly target: RunningTarget) {
    this.agent = new Agent({
      connect: { ca: readFileSync(target.env.IDC_DEMO_FEDERATION_CA_FILE ?? "", "utf8") },
    });
  }
  get anchor(): string {
    return this.target.env.IDC_DEMO_FEDERATION_ENTITY ?? "";
  }

  async call(
    url: string,
    init: { method?: string; headers?: Record<string, string>; body?: string } = {},
  ): Promise<Reply> {
    const res = await request(url, { dispatcher: this.agent, method: "GET", ...init });
    const text = await res.body.text();
    const type = String(res.headers["content-type"] ?? "");
    return {
      status: res.statusCode,
      type,
      text,
      body: type.startsWith("application/json") ? JSON.parse(text) : undefined,
    };
  }

  get(entity: string, endpoint: string, params: Record<string, string | string[]> = {}): Promise<Reply> {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) for (const x of [v].flat()) q.append(k, x);
    return this.call(`${entity}/${endpoint}${q.size > 0 ? `?${q}` : ""}`);
  }

  post(entity: string, endpoint: string, form: URLSearchParams): Promise<Reply> {
    return this.call(`${entity}/${endpoint}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form.toString(),
    });
  }

  async jwks(entity: string): Promise<{ keys: JWK[] }> {
    const r = await this.call(`${entity}/.well-known/openid-federation`);
    return decodeJwt(r.text).jwks as { keys: JWK[] };
  }

  async hook(
    op: string,
    extra: Record<string, unknown> = {},
    url = this.target.env.IDC_DEMO_FEDERATION_HOOK_URL,
  ): Promise<Json> {
    const r = await this.call(url ?? "", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${this.target.env.IDC_DEMO_FEDERATION_HOOK_TOKEN}`,
      },
      body: JSON.stringify({ op, ...extra }),
    });
    expect(r.status, r.text).toBeLessThan(300);
    return r.body;
  }

  /** Walks an extended list (or a collection) next→from; the ids in order and the pages' sizes. */
  async walk(
    entity: string,
    endpoint: string,
    params: Record<string, string | string[]>,
    between?: (page: number) => Promise<void>,
  ) {
    const ids: string[] = [];
    const sizes: number[] = [];
    let from: string | undefined;
    for (let page = 0; page < 1000; page++) {
      const r = await this.get(entity, endpoint, { ...params, ...(from ? { from } : {}) });
      expect(r.status, r.text).toBe(200);
      const items: Json[] = r.body.immediate_subordinate_entities ?? r.body.entities;
      sizes.push(items.length);
      ids.push(...items.map((e) => e.id ?? e.entity_id));
      from = r.body.next;
      if (from === undefined) return { ids, sizes };
      await between?.(page);
    }
    throw new Error("walk did not end");
  }
}

async function started(faultIds: string[] = [], members = 0): Promise<Client> {
  return new Client(await startFederationTarget({ faults: faultIds, members }));
}

const walkIds = async (c: Client, entity: string, limit?: number): Promise<string[]> =>
  (await c.walk(entity, "extended-list", limit === undefined ? {} : { limit: String(limit) })).ids;

describe("federation reference target (specs/001, public-spec-facts §2)", () => {
  let c: Client;
  beforeAll(async () => {
    c = await started();
  });
  afterAll(async () => {
    await c.target.close();
    await c.agent.close();
  });

  it("serves HTTPS on 127.0.0.1 and lists at least 24 faults, each naming requirements", () => {
    expect(c.target.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(federationTarget.suite).toBe("federation");
    expect(faults.length).toBeGreaterThanOrEqual(24);
    for (const f of faults) expect(f.breaks.length, f.id).toBeGreaterThan(0);
  });

  it("every Entity Configuration is self-signed with its own jwks, typ entity-statement+jwt, iss = sub", async () => {
    const e = c.target.env;
    for (const id of [
      c.anchor,
      e.IDC_DEMO_FEDERATION_INTERMEDIATE,
      e.IDC_DEMO_FEDERATION_OTHER_ANCHOR,
      `${c.anchor}/rp-alpha`,
    ]) {
      const r = await c.call(`${id}/.well-known/openid-federation`);
      expect(r.status).toBe(200);
      expect(r.type).toBe("application/entity-statement+jwt");
      const { payload, protectedHeader } = await jwtVerify(
        r.text,
        createLocalJWKSet(decodeJwt(r.text).jwks as { keys: JWK[] }),
        {
          typ: "entity-statement+jwt",
        },
      );
      expect(protectedHeader.kid).toBeTypeOf("string");
      expect([payload.iss, payload.sub]).toEqual([id, id]);
      expect(payload.exp).toBeGreaterThan(payload.iat as number);
      expect("authority_hints" in payload).toBe(id !== c.anchor && id !== e.IDC_DEMO_FEDERATION_OTHER_ANCHOR);
    }
    const fe = (decodeJwt((await c.call(`${c.anchor}/.well-known/openid-federation`)).text).metadata as Json)
      .federation_entity;
    for (const name of ["extended_list", "collection", "subordinate_events", "fetch", "list", "resolve"]) {
      expect(fe[`federation_${name}_endpoint`]).toMatch(/^https:\/\/[^#]+$/);
    }
  });

  it("fetch signs Subordinate Statements with the issuer's key, without authority_hints; an unknown sub is 404 not_found", async () => {
    const jwks = createLocalJWKSet(await c.jwks(c.anchor));
    const sub = `${c.anchor}/int1`;
    const r = await c.get(c.anchor, "fetch", { sub });
    expect(r.type).toBe("application/entity-statement+jwt");
    const { payload } = await jwtVerify(r.text, jwks, {
      typ: "entity-statement+jwt",
      issuer: c.anchor,
      subject: sub,
    });
    expect(payload.authority_hints).toBeUndefined();
    expect(payload.metadata_policy).toBeDefined();
    const missing = await c.get(c.anchor, "fetch", { sub: `${c.anchor}/nobody` });
    expect([missing.status, missing.body.error, typeof missing.body.error_description]).toEqual([
      404,
      "not_found",
      "string",
    ]);
  });

  it("walking the extended list gives every subordinate once, in one order for every limit, as the base list names them", async () => {
    const base: string[] = (await c.get(c.anchor, "list")).body;
    const whole = await walkIds(c, c.anchor);
    expect(whole).toEqual(base);
    for (const limit of [1, 2, 3, 5, 7, 11, 12, 500]) {
      const { ids, sizes } = await c.walk(c.anchor, "extended-list", { limit: String(limit) });
      expect(ids, `limit ${limit}`).toEqual(whole);
      expect(Math.max(...sizes)).toBeLessThanOrEqual(limit);
    }
  });

  it("from is inclusive and opaque: a tampered cursor is 404 page_not_found in JSON", async () => {
    const first = await c.get(c.anchor, "extended-list", { limit: "4" });
    const second = await c.get(c.anchor, "extended-list", { limit: "4", from: first.body.next });
    const whole = await walkIds(c, c.anchor);
    expect(second.body.immediate_subordinate_entities[0].id).toBe(whole[4]);
    const tampered = `${first.body.next.slice(0, -2)}${first.body.next.endsWith("A") ? "B" : "A"}A`;
    for (const from of [tampered, "garbage", "x".repeat(5000)]) {
      const r = await c.get(c.anchor, "extended-list", { from });
      expect([r.status, r.type, r.body?.error]).toEqual([404, "application/json", "page_not_found"]);
    }
  });

  it("claims: subordinate_statement only when named (comma and repeated forms), matching fetch; trust_marks from the Entity Configuration", async () => {
    const jwks = createLocalJWKSet(await c.jwks(c.anchor));
    for (const claims of [
      ["subordinate_statement,trust_marks,metadata"],
      ["trust_marks", "subordinate_statement", "metadata"],
    ]) {
      const r = await c.get(c.anchor, "extended-list", { claims });
      for (const e of r.body.immediate_subordinate_entities) {
        const { payload } = await jwtVerify(e.subordinate_statement, jwks, {
          typ: "entity-statement+jwt",
          subject: e.id,
        });
        const fetched = decodeJwt((await c.get(c.anchor, "fetch", { sub: e.id })).text);
        expect({ ...payload, iat: 0, exp: 0 }).toEqual({ ...fetched, iat: 0, exp: 0 });
        if (e.id.endsWith("/rp-alpha")) expect(e.trust_marks).toHaveLength(2);
        if (fetched.metadata) expect(e.metadata).toEqual(fetched.metadata);
      }
    }
    const without = await c.get(c.anchor, "extended-list", { claims: "trust_marks" });
    expect(without.body.immediate_subordinate_entities.some((e: Json) => "subordinate_statement" in e)).toBe(
      false,
    );
  });

  it("audit_timestamps and the inclusive updated_after / updated_before ranges", async () => {
    const all = (await c.get(c.anchor, "extended-list", { audit_timestamps: "true" })).body
      .immediate_subordinate_entities;
    for (const e of all) expect([typeof e.registered, typeof e.updated]).toEqual(["number", "number"]);
    const t = all[3].updated as number;
    const ids = async (p: Record<string, string>) =>
      (await c.get(c.anchor, "extended-list", p)).body.immediate_subordinate_entities.map((e: Json) => e.id);
    expect(await ids({ updated_after: String(t) })).toEqual(
      all.filter((e: Json) => e.updated >= t).map((e: Json) => e.id),
    );
    expect(await ids({ updated_before: String(t) })).toEqual(
      all.filter((e: Json) => e.updated <= t).map((e: Json) => e.id),
    );
    expect(await ids({ updated_after: String(t), updated_before: String(t) })).toEqual(
      all.filter((e: Json) => e.updated === t).map((e: Json) => e.id),
    );
  });

  it("entity_type and repeated trust_mark_type (any listed type, issued and unexpired)", async () => {
    const ids = async (p: Record<string, string | string[]>) =>
      (await c.get(c.anchor, "extended-list", p)).body.immediate_subordinate_entities.map((e: Json) =>
        e.id.slice(c.anchor.length + 1),
      );
    expect(await ids({ entity_type: "oauth_resource" })).toEqual(["api-delta"]);
    expect(await ids({ entity_type: ["oauth_resource", "openid_provider"] })).toEqual([
      "api-delta",
      "op-eta",
    ]);
    const marks = (n: string) => `${c.anchor}/trust-marks/${n}`;
    expect(await ids({ trust_mark_type: marks("certified") })).toEqual([
      "client-gamma",
      "rp-alpha",
      "rp-epsilon",
    ]);
    expect(await ids({ trust_mark_type: [marks("gold"), marks("sirtfi")] })).toEqual([
      "op-eta",
      "rp-alpha",
      "rp-beta",
      "rp-epsilon",
    ]);
    expect(
      (await c.get(c.anchor, "list", { trust_mark_type: marks("gold") })).body.map((x: string) =>
        x.slice(c.anchor.length + 1),
      ),
    ).toEqual(["rp-epsilon"]);
  });

  it("an insert before the walk's position does not shift it, one after it appears, a removed next entry continues at the following one", async () => {
    const t = await started();
    try {
      const anchor = t.anchor;
      const before = await walkIds(t, anchor);
      const { ids } = await t.walk(anchor, "extended-list", { limit: "5" }, async (page) => {
        if (page !== 0) return;
        await t.hook("add", { id: `${anchor}/aaa-early` }); // sorts before the position: not in this walk
        await t.hook("add", { id: `${anchor}/zzz-late` }); // after it: appears
        await t.hook("remove", { id: before[5] }); // the entry next points at
      });
      expect(ids).toEqual([...before.filter((id) => id !== before[5]), `${anchor}/zzz-late`]);
      expect(await walkIds(t, anchor)).toContain(`${anchor}/aaa-early`);
    } finally {
      await t.target.close();
      await t.agent.close();
    }
  });

  it("an update through the hook bumps updated and adds an event no later than it", async () => {
    const id = `${c.anchor}/rp-iota`;
    const done = await c.hook("update", { id });
    const entry = (
      await c.get(c.anchor, "extended-list", { audit_timestamps: "true" })
    ).body.immediate_subordinate_entities.find((e: Json) => e.id === id);
    expect(entry.updated).toBe(done.updated);
    const events = decodeJwt((await c.get(c.anchor, "events", { sub: id })).text)
      .federation_registration_events as Json[];
    expect(events.map((e) => e.event)).toEqual(["registration", "metadata_update"]);
    expect(events[1].iat).toBeGreaterThan(events[0].iat);
    expect(events[1].iat).toBeLessThanOrEqual(entry.updated);
  });

  it("the events statement verifies with the anchor's Entity Configuration keys; an unknown sub is a JSON 404", async () => {
    const jwks = createLocalJWKSet(await c.jwks(c.anchor));
    const sub = `${c.anchor}/wallet-theta`;
    const r = await c.get(c.anchor, "events", { sub });
    expect(r.type).toBe("application/entity-events-statement+jwt");
    const { payload } = await jwtVerify(r.text, jwks, {
      typ: "entity-events-statement+jwt",
      issuer: c.anchor,
      subject: sub,
    });
    const events = payload.federation_registration_events as Json[];
    expect(events.map((e) => e.event)).toEqual(["registration", "metadata_update", "suspension"]);
    for (const e of events.slice(1)) expect(e.information_uri).toMatch(/^https:\/\//);
    const post = await c.post(c.anchor, "events", new URLSearchParams({ sub }));
    expect(decodeJwt(post.text).sub).toBe(sub);
    const missing = await c.get(c.anchor, "events", { sub: `${c.anchor}/nobody` });
    expect([missing.status, missing.type, missing.body.error]).toEqual([
      404,
      "application/json",
      "not_found",
    ]);
  });

  it("collection locale: basic filtering keeps the untagged value, de matches de-CH, fi does not match fil; no locale keeps all", async () => {
    const infos = async (locale?: string[]) => {
      const r = await c.get(c.anchor, "collection", { query: "portal", ...(locale ? { locale } : {}) });
      return Object.fromEntries(
        r.body.entities.map((e: Json) => [e.entity_id.slice(c.anchor.length + 1), e.entity_infos]),
      );
    };
    const de = await infos(["de"]);
    expect(
      Object.keys(de["rp-alpha"].openid_relying_party).filter((k) => k.startsWith("display_name")),
    ).toEqual(["display_name", "display_name#de", "display_name#de-CH"]);
    expect(Object.keys((await infos(["DE-ch"]))["rp-alpha"].openid_relying_party)).toContain(
      "display_name#de-CH",
    );
    const beta = async (locale?: string[]) =>
      Object.keys(
        (await c.get(c.anchor, "collection", { query: "beta", ...(locale ? { locale } : {}) })).body
          .entities[0].entity_infos.openid_relying_party,
      );
    expect(await beta(["fi"])).toEqual(["display_name", "display_name#fi", "description", "description#fi"]);
    expect(await beta()).toContain("display_name#fil");
    expect(await beta(["fil"])).toEqual(["display_name", "display_name#fil", "description"]);
  });

  it("collection: display_name falls back to client_name / resource_name; entity_type limits entity_infos; claims selection", async () => {
    const r = await c.get(c.anchor, "collection", {
      entity_type: "oauth_client",
      info_claims: "display_name",
      entity_claims: ["entity_types", "entity_infos"],
    });
    const eps = r.body.entities.find((e: Json) => e.entity_id.endsWith("/rp-epsilon"));
    expect(eps.entity_types).toEqual(["openid_relying_party", "oauth_client"]);
    expect(eps.entity_infos).toEqual({
      oauth_client: { display_name: "Epsilon Backend", "display_name#en-GB": "Epsilon Backend (UK)" },
    });
    expect(Object.keys(eps)).toEqual(["entity_id", "entity_types", "entity_infos"]);
    const delta = (await c.get(c.anchor, "collection", { query: "delta" })).body.entities[0];
    expect(delta.entity_infos.oauth_resource.display_name).toBe("Delta Records API");
    const bad = await c.get(c.anchor, "collection", { info_claims: "favourite_colour" });
    expect([bad.status, bad.body.error, typeof bad.body.error_description]).toEqual([
      400,
      "unsupported_claim",
      "string",
    ]);
  });

  it("collection: trust anchors, every trust_mark_type verified, GET and POST alike, pages within limit", async () => {
    const names = (r: Reply) => r.body.entities.map((e: Json) => e.entity_id.slice(c.anchor.length + 1));
    const other = c.target.env.IDC_DEMO_FEDERATION_OTHER_ANCHOR ?? "";
    expect(names(await c.get(c.anchor, "collection", { trust_anchor: other }))).toEqual([
      "int2",
      "int2/clinic-a",
      "int2/clinic-b",
      "int2/lab-c",
    ]);
    const unknown = await c.get(c.anchor, "collection", { trust_anchor: "https://nowhere.example" });
    expect([unknown.status, unknown.body.error]).toEqual([404, "invalid_trust_anchor"]);
    const certified = `${c.anchor}/trust-marks/certified`;
    expect(names(await c.get(c.anchor, "collection", { trust_mark_type: certified }))).toEqual([
      "client-gamma",
      "int1/uni-a",
      "int2/clinic-a",
      "rp-alpha",
      "rp-epsilon",
    ]);
    expect(
      names(
        await c.get(c.anchor, "collection", { trust_mark_type: [certified, `${c.anchor}/trust-marks/gold`] }),
      ),
    ).toEqual(["rp-epsilon"]);
    const form = new URLSearchParams([
      ["entity_type", "oauth_resource"],
      ["entity_type", "openid_provider"],
    ]);
    expect((await c.post(c.anchor, "collection", form)).body.entities).toEqual(
      (await c.get(c.anchor, "collection", { entity_type: ["oauth_resource", "openid_provider"] })).body
        .entities,
    );
    const all = (await c.get(c.anchor, "collection")).body;
    expect(typeof all.last_updated).toBe("number");
    const { ids, sizes } = await c.walk(c.anchor, "collection", { limit: "4" });
    expect(ids).toEqual(all.entities.map((e: Json) => e.entity_id));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(4);
    expect(
      (await c.get(c.target.env.IDC_DEMO_FEDERATION_INTERMEDIATE ?? "", "collection")).body.entities,
    ).toEqual([]);
  });

  it("the protected Intermediate answers only a form POST with a private_key_jwt assertion (aud = itself), once", async () => {
    const int2 = c.target.env.IDC_DEMO_FEDERATION_PROTECTED_INTERMEDIATE ?? "";
    const jwk = JSON.parse(c.target.env.IDC_DEMO_FEDERATION_CLIENT_KEY ?? "{}") as JWK;
    const id = c.target.env.IDC_DEMO_FEDERATION_CLIENT_ID ?? "";
    const assertion = (aud: string) =>
      importJWK(jwk, "ES256").then((k) =>
        new SignJWT({ iss: id, sub: id, aud, jti: randomUUID() })
          .setProtectedHeader({ alg: "ES256", kid: jwk.kid ?? "" })
          .setIssuedAt()
          .setExpirationTime("60s")
          .sign(k),
      );
    const form = (a: string) =>
      new URLSearchParams({
        client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
        client_assertion: a,
        limit: "2",
      });
    expect((await c.get(int2, "extended-list")).body.error).toBe("invalid_client");
    const good = form(await assertion(int2));
    const ok = await c.post(int2, "extended-list", good);
    expect([ok.status, ok.body.immediate_subordinate_entities.length]).toEqual([200, 2]);
    expect((await c.post(int2, "extended-list", good)).body.error).toBe("invalid_client");
    expect(
      (await c.post(int2, "extended-list", form(await assertion(`${int2}/extended-list`)))).body.error,
    ).toBe("invalid_client");
  });

  it("resolve returns the metadata with the anchor's policy applied and the trust chain", async () => {
    const r = await c.get(c.anchor, "resolve", { sub: `${c.anchor}/int1/uni-a`, trust_anchor: c.anchor });
    expect(r.type).toBe("application/resolve-response+jwt");
    await compactVerify(r.text, createLocalJWKSet(await c.jwks(c.anchor)));
    const claims = decodeJwt(r.text) as Json;
    expect(claims.trust_chain).toHaveLength(4);
    expect(claims.metadata.openid_relying_party.grant_types).toEqual(["authorization_code", "refresh_token"]);
    expect(decodeProtectedHeader(claims.trust_chain[1]).typ).toBe("entity-statement+jwt");
  });
});

describe("federation reference target faults change what the target does", () => {
  const withFault = async (id: string, run: (c: Client) => Promise<void>): Promise<void> => {
    const c = await started([id]);
    try {
      await run(c);
    } finally {
      await c.target.close();
      await c.agent.close();
    }
  };

  it("xl-border-repeats repeats the previous page's last entry", () =>
    withFault("xl-border-repeats", async (c) => {
      const ids = (await c.walk(c.anchor, "extended-list", { limit: "5" })).ids;
      expect(new Set(ids).size).toBeLessThan(ids.length);
    }));

  it("xl-statement-unasked sends subordinate_statement for claims=trust_marks", () =>
    withFault("xl-statement-unasked", async (c) => {
      const r = await c.get(c.anchor, "extended-list", { claims: "trust_marks" });
      expect(r.body.immediate_subordinate_entities[0].subordinate_statement).toBeTypeOf("string");
    }));

  it("coll-locale-exact leaves out display_name#de-CH for locale=de", () =>
    withFault("coll-locale-exact", async (c) => {
      const r = await c.get(c.anchor, "collection", { query: "alpha portal", locale: "de" });
      expect(Object.keys(r.body.entities[0].entity_infos.openid_relying_party)).not.toContain(
        "display_name#de-CH",
      );
    }));

  it("xl-offset-cursor shifts the walk when an entry is added before its position", () =>
    withFault("xl-offset-cursor", async (c) => {
      const { ids } = await c.walk(c.anchor, "extended-list", { limit: "3" }, async (page) => {
        if (page === 0) await c.hook("add", { id: `${c.anchor}/aaa-early` });
      });
      expect(new Set(ids).size).toBeLessThan(ids.length);
    }));

  it("evt-jwks-updates-spelling and fetch-unknown-sub-500", async () => {
    await withFault("evt-jwks-updates-spelling", async (c) => {
      const events = decodeJwt((await c.get(c.anchor, "events", { sub: `${c.anchor}/rp-alpha` })).text)
        .federation_registration_events as Json[];
      expect(events.map((e) => e.event)).toContain("jwks_updates");
    });
    await withFault("fetch-unknown-sub-500", async (c) => {
      expect((await c.get(c.anchor, "fetch", { sub: `${c.anchor}/nobody` })).status).toBe(500);
    });
  });

  it("an unknown fault id is refused", async () => {
    await expect(startFederationTarget({ faults: ["no-such-fault"] })).rejects.toThrow(
      /unknown federation target fault/,
    );
  });
});

describe("federation reference target at scale", () => {
  it("members: 10000 under one Intermediate list in complete, bounded pages", async () => {
    const c = await started([], 10_000);
    try {
      const int1 = c.target.env.IDC_DEMO_FEDERATION_INTERMEDIATE ?? "";
      const { ids, sizes } = await c.walk(int1, "extended-list", {});
      expect(ids).toHaveLength(10_004);
      expect(new Set(ids).size).toBe(ids.length);
      expect([...ids].sort()).toEqual(ids);
      expect(Math.max(...sizes)).toBe(100);
      const coll = await c.walk(c.anchor, "collection", { limit: "500", entity_claims: "entity_types" });
      expect(coll.ids.length).toBeGreaterThan(10_000);
      expect(Math.max(...coll.sizes)).toBeLessThanOrEqual(100);
    } finally {
      await c.target.close();
      await c.agent.close();
    }
  });
});
