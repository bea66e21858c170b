import { randomUUID } from "node:crypto";
import { importJWK, SignJWT, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningTarget } from "../../src/engine/target.js";
import { startScimTarget } from "../../targets/scim/index.js";

const JWT_BEARER = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
const USER = "urn:ietf:params:scim:schemas:core:2.0:User";
const GROUP = "urn:ietf:params:scim:schemas:core:2.0:Group";
const PATCH = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
const ERROR = "urn:ietf:params:scim:api:messages:2.0:Error";

interface Reply {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON
}

/** A client of one running target: the Identity Service's side, as the suite plays it. */
class Client {
  constructor(readonly target: RunningTarget) {}
  get env(): Record<string, string> {
    return this.target.env;
  }
  get tokenEndpoint(): string {
    return `${this.env.IDC_DEMO_SCIM_ISSUER}/oauth/token`;
  }

  async assertion(claims: Record<string, unknown> = {}): Promise<string> {
    const jwk = JSON.parse(this.env.IDC_DEMO_SCIM_CLIENT_KEY ?? "{}") as JWK;
    const id = this.env.IDC_DEMO_SCIM_CLIENT_ID ?? "";
    const now = Math.floor(Date.now() / 1000);
    const payload = {
      iss: id,
      sub: id,
      aud: this.tokenEndpoint,
      jti: randomUUID(),
      iat: now,
      exp: now + 60,
      ...claims,
    };
    return new SignJWT(payload)
      .setProtectedHeader({ alg: "ES256", ...(jwk.kid ? { kid: jwk.kid } : {}) })
      .sign(await importJWK(jwk, "ES256"));
  }

  async tokenRequest(assertion: string, scope?: string): Promise<Reply> {
    const form = new URLSearchParams({
      grant_type: "client_credentials",
      client_assertion_type: JWT_BEARER,
      client_assertion: assertion,
      ...(scope !== undefined ? { scope } : {}),
    });
    return reply(await fetch(this.tokenEndpoint, { method: "POST", body: form }));
  }

  async token(scope = "scim"): Promise<string> {
    const res = await this.tokenRequest(await this.assertion(), scope);
    expect(res.status).toBe(200);
    return String(res.body.access_token);
  }

  async call(
    method: string,
    path: string,
    o: { body?: unknown; token?: string | null } = {},
  ): Promise<Reply> {
    const token = o.token === undefined ? await this.token() : o.token;
    const headers: Record<string, string> = { "content-type": "application/scim+json" };
    if (token !== null) headers.authorization = `Bearer ${token}`;
    const body =
      typeof o.body === "string" ? o.body : o.body === undefined ? undefined : JSON.stringify(o.body);
    return reply(
      await fetch(`${this.env.IDC_DEMO_SCIM_URL}${path}`, { method, headers, ...(body ? { body } : {}) }),
    );
  }

  user(userName: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      schemas: [USER],
      userName,
      externalId: `ext-${userName}`,
      emails: [{ value: `${userName}@example.test`, type: "work", primary: true }],
      ...extra,
    };
  }

  async probe(id: string): Promise<number> {
    const res = await fetch((this.env.IDC_DEMO_SCIM_PROBE ?? "").replace("{id}", id));
    await res.arrayBuffer();
    return res.status;
  }
}

async function reply(res: Response): Promise<Reply> {
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as unknown) : undefined };
}

const q = (filter: string): string => `/Users?filter=${encodeURIComponent(filter)}`;
const patch = (...ops: unknown[]) => ({ schemas: [PATCH], Operations: ops });

/** Starts a target with `faults` for the enclosing describe block, closing it afterwards. */
function withTarget(faults: string[], clock?: () => number): () => Client {
  let client: Client | undefined;
  beforeAll(async () => {
    client = new Client(await startScimTarget({ faults, ...(clock ? { clock } : {}) }));
  });
  afterAll(async () => {
    await client?.target.close();
  });
  return () => {
    if (client === undefined) throw new Error("target not started");
    return client;
  };
}

describe("SCIM reference target, clean (specs/002 area C)", () => {
  const t = withTarget([]);

  it("publishes RFC 8414 metadata naming its token endpoint", async () => {
    const res = await reply(
      await fetch(`${t().env.IDC_DEMO_SCIM_ISSUER}/.well-known/oauth-authorization-server`),
    );
    expect(res.body).toMatchObject({
      issuer: t().env.IDC_DEMO_SCIM_ISSUER,
      token_endpoint: t().tokenEndpoint,
    });
  });

  it("exchanges an RFC 7523 assertion for a Bearer token that expires and carries scim only", async () => {
    const res = await t().tokenRequest(await t().assertion(), "scim admin");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body).toMatchObject({ token_type: "Bearer", expires_in: 600, scope: "scim" });
  });

  it("refuses an assertion with a wrong aud, an expired one and a replayed jti (401 invalid_client)", async () => {
    const now = Math.floor(Date.now() / 1000);
    for (const claims of [{ aud: "https://elsewhere.invalid/token" }, { iat: now - 900, exp: now - 600 }]) {
      const res = await t().tokenRequest(await t().assertion(claims));
      expect([res.status, res.body.error]).toEqual([401, "invalid_client"]);
    }
    const once = await t().assertion();
    expect((await t().tokenRequest(once)).status).toBe(200);
    expect((await t().tokenRequest(once)).status).toBe(401);
  });

  it("refuses SCIM requests without a token (401 Bearer challenge) and tokens without scim (403)", async () => {
    const none = await t().call("GET", "/Users", { token: null });
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe('Bearer realm="scim"');
    expect(none.body).toMatchObject({ schemas: [ERROR], status: "401" });
    const bad = await t().call("GET", "/Users", { token: "not-a-token" });
    expect(bad.headers.get("www-authenticate")).toContain('error="invalid_token"');
    const other = await t().call("GET", "/Users", { token: await t().token("profile") });
    expect(other.status).toBe(403);
  });

  it("POST /Users answers 201 with id, meta and a Location equal to meta.location, as application/scim+json", async () => {
    const res = await t().call("POST", "/Users", { body: t().user("create-1") });
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toMatch(/^application\/scim\+json/);
    expect(res.headers.get("location")).toBe(res.body.meta.location);
    expect(res.body).toMatchObject({ userName: "create-1", externalId: "ext-create-1", active: true });
    const got = await t().call("GET", `/Users/${res.body.id}`);
    expect(got.body.emails).toEqual([{ value: "create-1@example.test", type: "work", primary: true }]);
  });

  it("finds a user by userName eq in any case, externalId eq and emails[value eq]", async () => {
    const { body } = await t().call("POST", "/Users", { body: t().user("Filter-Me") });
    for (const filter of [
      'userName eq "FILTER-ME"',
      'username EQ "filter-me"',
      'externalId eq "ext-Filter-Me"',
      'emails[value eq "filter-me@example.test"]',
      'emails.value eq "Filter-Me@example.test" and userName sw "filter"',
    ]) {
      const res = await t().call("GET", q(filter));
      expect(
        res.body.Resources.map((r: { id: string }) => r.id),
        filter,
      ).toEqual([body.id]);
    }
    expect((await t().call("GET", q('externalId eq "EXT-FILTER-ME"'))).body.totalResults).toBe(0);
  });

  it("answers an unparsable filter with 400 invalidFilter and a body that is not JSON with 400 invalidSyntax", async () => {
    const res = await t().call("GET", q('userName eq "unterminated'));
    expect(res.body).toMatchObject({ schemas: [ERROR], status: "400", scimType: "invalidFilter" });
    const syntax = await t().call("POST", "/Users", { body: '{"userName": ' });
    expect(syntax.body).toMatchObject({ status: "400", scimType: "invalidSyntax" });
  });

  it("keeps userName unique (409 uniqueness), and frees it after DELETE (204, then 404)", async () => {
    const first = await t().call("POST", "/Users", { body: t().user("unique-1") });
    const dup = await t().call("POST", "/Users", { body: t().user("UNIQUE-1") });
    expect([dup.status, dup.body.scimType]).toEqual([409, "uniqueness"]);
    expect((await t().call("DELETE", `/Users/${first.body.id}`)).status).toBe(204);
    expect((await t().call("GET", `/Users/${first.body.id}`)).status).toBe(404);
    expect((await t().call("POST", "/Users", { body: t().user("unique-1") })).status).toBe(201);
  });

  it("deactivation revokes the user's access; reactivation allows it again", async () => {
    const { body } = await t().call("POST", "/Users", { body: t().user("access-1") });
    expect(await t().probe(body.id)).toBe(200);
    const off = await t().call("PATCH", `/Users/${body.id}`, {
      body: patch({ op: "Replace", path: "active", value: false }),
    });
    expect([off.status, off.body.active]).toEqual([200, false]);
    expect(await t().probe(body.id)).toBe(403);
    const on = await t().call("PATCH", `/Users/${body.id}`, {
      body: patch({ op: "replace", path: "active", value: true }),
    });
    expect(on.body.active).toBe(true);
    expect(await t().probe(body.id)).toBe(200);
    expect(await t().probe(randomUUID())).toBe(404);
  });

  it("lists every user once by startIndex and count, and by nextCursor", async () => {
    const tag = "page-set@example.test";
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const extra = { emails: [{ value: `p${i}@example.test` }, { value: tag }] };
      ids.push((await t().call("POST", "/Users", { body: t().user(`page-${i}`, extra) })).body.id);
    }
    const filter = `filter=${encodeURIComponent(`emails[value eq "${tag}"]`)}`;
    const byIndex: string[] = [];
    for (let start = 1; start <= 5; start += 2) {
      const res = await t().call("GET", `/Users?${filter}&startIndex=${start}&count=2`);
      expect(res.body).toMatchObject({ totalResults: 5, startIndex: start });
      byIndex.push(...res.body.Resources.map((r: { id: string }) => r.id));
    }
    expect(byIndex).toEqual(ids);
    const byCursor: string[] = [];
    for (let cursor: string | undefined = "", n = 0; cursor !== undefined && n < 10; n++) {
      const res = await t().call("GET", `/Users?${filter}&cursor=${encodeURIComponent(cursor)}&count=2`);
      byCursor.push(...res.body.Resources.map((r: { id: string }) => r.id));
      cursor = res.body.nextCursor;
    }
    expect(byCursor).toEqual(ids);
    const bad = await t().call("GET", "/Users?cursor=forged.cursor");
    expect(bad.body).toMatchObject({ status: "400", scimType: "invalidCursor" });
  });

  it("creates a group via POST /Group, omits members when excluded, and adds and removes members", async () => {
    const user = (await t().call("POST", "/Users", { body: t().user("member-1") })).body;
    const created = await t().call("POST", "/Group", { body: { schemas: [GROUP], displayName: "Role A" } });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const add = patch({ op: "add", path: "members", value: [{ value: user.id }] });
    expect((await t().call("PATCH", `/Groups/${id}`, { body: add })).body.members[0].value).toBe(user.id);
    const slim = await t().call("GET", `/Group/${id}?excludedAttributes=members`);
    expect([slim.status, slim.body.members]).toEqual([200, undefined]);
    const found = await t().call(
      "GET",
      `/Groups?filter=${encodeURIComponent('displayName eq "role a"')}&excludedAttributes=members`,
    );
    expect(found.body.Resources).toHaveLength(1);
    const rm = patch({ op: "remove", path: `members[value eq "${user.id}"]` });
    expect((await t().call("PATCH", `/Group/${id}`, { body: rm })).body.members).toEqual([]);
    expect((await t().call("DELETE", `/Groups/${id}`)).status).toBe(204);
    expect((await t().call("GET", `/Group/${id}`)).status).toBe(404);
  });

  it("keeps a group's members on create, add and a filtered remove; a user PATCH keeps what it does not name", async () => {
    const a = (await t().call("POST", "/Users", { body: t().user("keep-a") })).body.id as string;
    const b = (await t().call("POST", "/Users", { body: t().user("keep-b") })).body.id as string;
    const members = (r: Reply) => r.body.members.map((m: { value: string }) => m.value);
    const g = await t().call("POST", "/Group", {
      body: { schemas: [GROUP], displayName: "Role Keep", members: [{ value: a }] },
    });
    expect(members(await t().call("GET", `/Groups/${g.body.id}`))).toEqual([a]);
    const add = patch({ op: "add", path: "members", value: [{ value: b }] });
    expect(members(await t().call("PATCH", `/Groups/${g.body.id}`, { body: add }))).toEqual([a, b]);
    const rm = patch({ op: "remove", path: `members[value eq "${b}"]` });
    expect(members(await t().call("PATCH", `/Groups/${g.body.id}`, { body: rm }))).toEqual([a]);
    const off = patch({ op: "replace", path: "active", value: false });
    const user = await t().call("PATCH", `/Users/${a}`, { body: off });
    expect(user.body).toMatchObject({ active: false, externalId: "ext-keep-a", emails: [{ primary: true }] });
  });

  it("states startIndex and itemsPerPage on every index page", async () => {
    for (let i = 0; i < 3; i++) {
      await t().call("POST", "/Users", { body: t().user(`ipp-${i}`) });
      await t().call("POST", "/Group", { body: { schemas: [GROUP], displayName: `Role IPP ${i}` } });
    }
    for (const path of ["/Users", "/Groups"]) {
      const res = await t().call("GET", `${path}?startIndex=2&count=1`);
      expect(res.body, path).toMatchObject({ startIndex: 2, itemsPerPage: 1 });
    }
  });

  it("answers a request body over 1 MiB with 413", async () => {
    const res = await t().call("POST", "/Users", {
      body: JSON.stringify({ userName: "x".repeat(1024 * 1024 + 1) }),
    });
    expect(res.body).toMatchObject({ schemas: [ERROR], status: "413" });
  });
});

describe("SCIM reference target fault username-filter-case-sensitive", () => {
  const t = withTarget(["username-filter-case-sensitive"]);
  it("userName eq finds the user only in its own case", async () => {
    await t().call("POST", "/Users", { body: t().user("Case-User") });
    expect((await t().call("GET", q('userName eq "Case-User"'))).body.totalResults).toBe(1);
    expect((await t().call("GET", q('userName eq "case-user"'))).body.totalResults).toBe(0);
  });
});

describe("SCIM reference target fault deleted-username-reserved", () => {
  const t = withTarget(["deleted-username-reserved"]);
  it("a deleted user's userName stays taken (409), other names are unaffected", async () => {
    const { body } = await t().call("POST", "/Users", { body: t().user("gone-1") });
    expect((await t().call("DELETE", `/Users/${body.id}`)).status).toBe(204);
    expect((await t().call("GET", `/Users/${body.id}`)).status).toBe(404);
    expect((await t().call("POST", "/Users", { body: t().user("gone-1") })).status).toBe(409);
    expect((await t().call("POST", "/Users", { body: t().user("fresh-1") })).status).toBe(201);
  });
});

describe("SCIM reference target fault auth-optional", () => {
  const t = withTarget(["auth-optional"]);
  it("serves a request without Authorization, but still refuses a bad token", async () => {
    expect((await t().call("GET", "/Users", { token: null })).status).toBe(200);
    expect((await t().call("GET", "/Users", { token: "not-a-token" })).status).toBe(401);
  });
});

describe("SCIM reference target fault page-border-drops", () => {
  const t = withTarget(["page-border-drops"]);
  it("index pages after the first skip one user", async () => {
    for (let i = 0; i < 3; i++) await t().call("POST", "/Users", { body: t().user(`drop-${i}`) });
    const first = await t().call("GET", "/Users?startIndex=1&count=1");
    const second = await t().call("GET", "/Users?startIndex=2&count=1");
    expect(second.body.Resources[0].userName).toBe("drop-2");
    expect(first.body.Resources[0].userName).toBe("drop-0");
  });
});

/** A well-formed JWT whose signature no longer verifies (one signature character changed). */
function tamper(jwt: string): string {
  const i = jwt.lastIndexOf(".") + 5;
  return `${jwt.slice(0, i)}${jwt[i] === "A" ? "B" : "A"}${jwt.slice(i + 1)}`;
}

describe("SCIM reference target fault bad-token-accepted", () => {
  const t = withTarget(["bad-token-accepted"]);
  it("serves a token it never issued, but still refuses a request without one", async () => {
    expect((await t().call("GET", "/Users", { token: "never-issued" })).status).toBe(200);
    expect((await t().call("GET", "/Users", { token: null })).status).toBe(401);
    // A token it did issue keeps its scopes: one without scim is still refused.
    expect((await t().call("GET", "/Users", { token: await t().token("profile") })).status).toBe(403);
  });
});

describe("SCIM reference target fault assertion-signature-unchecked", () => {
  const t = withTarget(["assertion-signature-unchecked"]);
  it("accepts an assertion with a bad signature, but still checks its claims", async () => {
    expect((await t().tokenRequest(tamper(await t().assertion()))).status).toBe(200);
    const aud = await t().tokenRequest(
      tamper(await t().assertion({ aud: "https://elsewhere.invalid/token" })),
    );
    expect([aud.status, aud.body.error]).toEqual([401, "invalid_client"]);
    const now = Math.floor(Date.now() / 1000);
    const expired = await t().tokenRequest(tamper(await t().assertion({ iat: now - 900, exp: now - 600 })));
    expect(expired.status).toBe(401);
  });
});

describe("SCIM reference target fault assertion-exp-unchecked", () => {
  const t = withTarget(["assertion-exp-unchecked"]);
  it("accepts an expired assertion, but still checks its signature, aud and jti", async () => {
    const now = Math.floor(Date.now() / 1000);
    const old = { iat: now - 900, exp: now - 600 };
    expect((await t().tokenRequest(await t().assertion(old))).status).toBe(200);
    expect((await t().tokenRequest(tamper(await t().assertion(old)))).status).toBe(401);
    const aud = await t().tokenRequest(
      await t().assertion({ ...old, aud: "https://elsewhere.invalid/token" }),
    );
    expect(aud.status).toBe(401);
    const once = await t().assertion();
    expect((await t().tokenRequest(once)).status).toBe(200);
    expect((await t().tokenRequest(once)).status).toBe(401);
  });
});

describe("SCIM reference target faults token-no-expiry and token-type-missing", () => {
  const t = withTarget(["token-no-expiry", "token-type-missing"]);
  it("answers a working token without expires_in and token_type", async () => {
    const res = await t().tokenRequest(await t().assertion(), "scim");
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty("expires_in");
    expect(res.body).not.toHaveProperty("token_type");
    expect((await t().call("GET", "/Users", { token: String(res.body.access_token) })).status).toBe(200);
  });
});

describe("SCIM reference target fault cursor-repeats", () => {
  const t = withTarget(["cursor-repeats"]);
  it("continues each cursor page at the previous page's last user; index pages are unaffected", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await t().call("POST", "/Users", { body: t().user(`rep-${i}`) })).body.id);
    const first = await t().call("GET", "/Users?cursor=&count=2");
    const second = await t().call(
      "GET",
      `/Users?cursor=${encodeURIComponent(first.body.nextCursor)}&count=2`,
    );
    const idsOf = (r: Reply) => r.body.Resources.map((u: { id: string }) => u.id);
    expect(idsOf(first)).toEqual([ids[0], ids[1]]);
    expect(idsOf(second)).toEqual([ids[1], ids[2]]);
    expect(idsOf(await t().call("GET", "/Users?startIndex=3&count=2"))).toEqual([ids[2]]);
  });
});

describe("SCIM reference target fault group-not-found-200", () => {
  const t = withTarget(["group-not-found-200"]);
  it("answers an unknown group id with an empty ListResponse, an unknown user id still with 404", async () => {
    const res = await t().call("GET", `/Groups/${randomUUID()}`);
    expect([res.status, res.body.totalResults, res.body.Resources]).toEqual([200, 0, []]);
    expect((await t().call("GET", `/Users/${randomUUID()}`)).status).toBe(404);
    expect((await t().call("DELETE", `/Groups/${randomUUID()}`)).status).toBe(404);
  });
});

describe("SCIM reference target rate limit, on a frozen clock (no machine load decides it)", () => {
  // Every request falls in the same second: the limit is met exactly at its count.
  const t = withTarget([], () => 1_000_000);

  it("meets a burst over 400 requests per second with 429 and Retry-After, refusing only those past 400", async () => {
    const token = await t().token();
    const replies = await Promise.all(
      Array.from({ length: 500 }, () => t().call("GET", "/Users?count=0", { token })),
    );
    const limited = replies.filter((r) => r.status === 429);
    expect(limited.length).toBe(100);
    expect(limited[0]?.headers.get("retry-after")).toBe("1");
    expect(limited[0]?.body).toMatchObject({ schemas: [ERROR], status: "429" });
  });
});

describe("SCIM reference target group member faults", () => {
  const replaces = withTarget(["member-add-replaces", "group-create-drops-members"]);
  const filterless = withTarget(["member-remove-filter-ignored"]);
  const members = (r: Reply) => r.body.members.map((m: { value: string }) => m.value);
  const setUp = async (t: Client): Promise<{ a: string; b: string; group: string }> => {
    const a = (await t.call("POST", "/Users", { body: t.user("fm-a") })).body.id as string;
    const b = (await t.call("POST", "/Users", { body: t.user("fm-b") })).body.id as string;
    const g = await t.call("POST", "/Group", {
      body: { schemas: [GROUP], displayName: "Role F", members: [{ value: a }] },
    });
    return { a, b, group: g.body.id as string };
  };

  it("group-create-drops-members creates the group empty; member-add-replaces keeps only the added", async () => {
    const { a, b, group } = await setUp(replaces());
    expect(members(await replaces().call("GET", `/Groups/${group}`))).toEqual([]);
    for (const id of [a, b]) {
      const add = patch({ op: "add", path: "members", value: [{ value: id }] });
      await replaces().call("PATCH", `/Groups/${group}`, { body: add });
    }
    expect(members(await replaces().call("GET", `/Groups/${group}`))).toEqual([b]);
  });

  it("member-remove-filter-ignored empties the group; a remove by listed value still takes one", async () => {
    const { a, b, group } = await setUp(filterless());
    const add = patch({ op: "add", path: "members", value: [{ value: b }] });
    expect(members(await filterless().call("PATCH", `/Groups/${group}`, { body: add }))).toEqual([a, b]);
    const byValue = patch({ op: "remove", path: "members", value: [{ value: b }] });
    expect(members(await filterless().call("PATCH", `/Groups/${group}`, { body: byValue }))).toEqual([a]);
    await filterless().call("PATCH", `/Groups/${group}`, { body: add });
    const rm = patch({ op: "remove", path: `members[value eq "${b}"]` });
    expect(members(await filterless().call("PATCH", `/Groups/${group}`, { body: rm }))).toEqual([]);
  });
});

describe("SCIM reference target fault patch-drops-attributes", () => {
  const t = withTarget(["patch-drops-attributes"]);
  it("a PATCH replace keeps only userName, active and what it names; add leaves the rest", async () => {
    const { body } = await t().call("POST", "/Users", { body: t().user("put-1", { displayName: "P" }) });
    const add = patch({ op: "add", path: "displayName", value: "Q" });
    expect((await t().call("PATCH", `/Users/${body.id}`, { body: add })).body.externalId).toBe("ext-put-1");
    const off = patch({ op: "replace", path: "active", value: false });
    const res = await t().call("PATCH", `/Users/${body.id}`, { body: off });
    expect(res.body).toMatchObject({ userName: "put-1", active: false });
    expect([res.body.externalId, res.body.emails, res.body.displayName]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe("SCIM reference target fault list-omits-paging-members", () => {
  const t = withTarget(["list-omits-paging-members"]);
  it("index pages after the first leave itemsPerPage out; the first and cursor pages keep it", async () => {
    for (let i = 0; i < 3; i++) await t().call("POST", "/Users", { body: t().user(`omit-${i}`) });
    await t().call("POST", "/Group", { body: { schemas: [GROUP], displayName: "Role O" } });
    await t().call("POST", "/Group", { body: { schemas: [GROUP], displayName: "Role P" } });
    for (const path of ["/Users", "/Groups"]) {
      expect((await t().call("GET", `${path}?startIndex=1&count=1`)).body.itemsPerPage, path).toBe(1);
      const second = await t().call("GET", `${path}?startIndex=2&count=1`);
      expect(second.body, path).toMatchObject({ startIndex: 2, totalResults: path === "/Users" ? 3 : 2 });
      expect(second.body, path).not.toHaveProperty("itemsPerPage");
    }
    const first = await t().call("GET", "/Users?cursor=&count=1");
    const next = await t().call("GET", `/Users?cursor=${encodeURIComponent(first.body.nextCursor)}&count=1`);
    expect(next.body.itemsPerPage).toBe(1);
  });
});
