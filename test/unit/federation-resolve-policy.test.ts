import { exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import { describe, expect, it } from "vitest";
import { applyPolicy, PolicyError, resolvePolicy, type Policy } from "../../suites/federation/policy.js";
import { metadataJudged, type Answer } from "../../suites/federation/resolve-judge.js";
import type { Json } from "../../suites/federation/statements.js";
import {
  chainProblem,
  pathLengthProblem,
  readChain,
  resolveFrom,
  subordinateStatements,
  type ReadChain,
  type Resolution,
} from "../../suites/federation/trust-chain.js";

const RP = "openid_relying_party";
const apply = (md: Record<string, unknown>, policy: Policy): Record<string, unknown> =>
  applyPolicy({ [RP]: md }, undefined, policy)[RP]!;
const one = (ops: Record<string, unknown>): Policy => resolvePolicy([{ [RP]: { p: ops } }]);

describe("OpenID Federation 1.0 Metadata Policy: standard operators (applied alone)", () => {
  it("value sets the parameter, and null removes it", () => {
    expect(apply({ p: "a" }, one({ value: "b" }))).toEqual({ p: "b" });
    expect(apply({}, one({ value: ["x"] }))).toEqual({ p: ["x"] });
    expect(apply({ p: "a", q: 1 }, one({ value: null }))).toEqual({ q: 1 });
  });

  it("add appends values not present, and initialises an absent parameter", () => {
    expect(apply({ p: ["a", "b"] }, one({ add: ["b", "c"] }))).toEqual({ p: ["a", "b", "c"] });
    expect(apply({}, one({ add: ["c"] }))).toEqual({ p: ["c"] });
    expect(() => apply({ p: "a" }, one({ add: ["c"] }))).toThrow(PolicyError);
  });

  it("default sets only an absent parameter", () => {
    expect(apply({}, one({ default: "ES256" }))).toEqual({ p: "ES256" });
    expect(apply({ p: "PS256" }, one({ default: "ES256" }))).toEqual({ p: "PS256" });
  });

  it("one_of checks a present string parameter, and refuses an array one", () => {
    expect(apply({ p: "a" }, one({ one_of: ["a", "b"] }))).toEqual({ p: "a" });
    expect(apply({}, one({ one_of: ["a"] }))).toEqual({});
    expect(() => apply({ p: "c" }, one({ one_of: ["a", "b"] }))).toThrow(/not one of/);
    expect(() => apply({ p: ["a"] }, one({ one_of: ["a", "b"] }))).toThrow(/on the array/);
  });

  it("subset_of keeps the intersection (possibly empty) and leaves an absent parameter absent", () => {
    expect(apply({ p: ["a", "e"] }, one({ subset_of: ["a", "b", "c"] }))).toEqual({ p: ["a"] });
    expect(apply({ p: ["d", "e"] }, one({ subset_of: ["a", "b", "c"] }))).toEqual({ p: [] });
    expect(apply({}, one({ subset_of: ["a"] }))).toEqual({});
    expect(() => apply({ p: "a" }, one({ subset_of: ["a"] }))).toThrow(PolicyError);
  });

  it("superset_of requires every operator value in a present parameter", () => {
    expect(apply({ p: ["a", "b"] }, one({ superset_of: ["a"] }))).toEqual({ p: ["a", "b"] });
    expect(() => apply({ p: ["b"] }, one({ superset_of: ["a"] }))).toThrow(/superset_of/);
  });

  it("essential with subset_of: the specification's table of outputs", () => {
    const pol = (essential: boolean): Policy => one({ essential, subset_of: ["a", "b", "c"] });
    for (const e of [true, false]) {
      expect(apply({ p: ["a", "e"] }, pol(e))).toEqual({ p: ["a"] });
      expect(apply({ p: ["d", "e"] }, pol(e))).toEqual({ p: [] });
    }
    expect(() => apply({}, pol(true))).toThrow(/essential/);
    expect(apply({}, pol(false))).toEqual({});
  });

  it("operators apply in their order: value, add, default, one_of, subset_of, superset_of, essential", () => {
    expect(apply({ p: ["z"] }, one({ value: ["a", "b"], add: ["b"], subset_of: ["a", "b"] }))).toEqual({
      p: ["a", "b"],
    });
    expect(apply({}, one({ default: ["x", "y"], subset_of: ["x"], superset_of: ["x"] }))).toEqual({
      p: ["x"],
    });
  });

  it("scope is treated as an array of its space-separated values and written back as a string", () => {
    const out = applyPolicy({ [RP]: { scope: "openid email phone" } }, undefined, {
      [RP]: { scope: { subset_of: ["openid", "email"] } },
    });
    expect(out[RP]).toEqual({ scope: "openid email" });
  });
});

describe("OpenID Federation 1.0 Metadata Policy: combinations and operator values", () => {
  const bad: [string, Record<string, unknown>][] = [
    ["one_of with subset_of", { one_of: ["a"], subset_of: ["a"] }],
    ["one_of with add", { one_of: ["a"], add: ["a"] }],
    ["add not within value", { value: ["a"], add: ["b"] }],
    ["default with value null", { value: null, default: "a" }],
    ["value not among one_of", { value: "c", one_of: ["a"] }],
    ["value not within subset_of", { value: ["c"], subset_of: ["a"] }],
    ["value not a superset of superset_of", { value: ["a"], superset_of: ["a", "b"] }],
    ["value null with essential true", { value: null, essential: true }],
    ["add not within subset_of", { add: ["c"], subset_of: ["a"] }],
    ["subset_of not a superset of superset_of", { subset_of: ["a"], superset_of: ["b"] }],
    ["essential not a boolean", { essential: "yes" }],
    ["subset_of not an array", { subset_of: "a" }],
    ["default null", { default: null }],
  ];
  for (const [name, ops] of bad)
    it(`a policy error: ${name}`, () => expect(() => one(ops)).toThrow(PolicyError));

  it("an operator it does not know is ignored, unless metadata_policy_crit names it", () => {
    expect(apply({ p: "a" }, one({ regexp: "^b$" }))).toEqual({ p: "a" });
    expect(() => resolvePolicy([{ [RP]: { p: { regexp: "^b$" } } }], new Set(["regexp"]))).toThrow(
      /critical/,
    );
  });

  it("a policy that is not three levels of objects is a policy error", () => {
    expect(() => resolvePolicy([[]])).toThrow(PolicyError);
    expect(() => resolvePolicy([{ [RP]: "x" }])).toThrow(PolicyError);
    expect(() => resolvePolicy([{ [RP]: { p: [] } }])).toThrow(PolicyError);
  });
});

describe("OpenID Federation 1.0 Metadata Policy: Enforcement, Resolution (merge from the most Superior down)", () => {
  const merge = (a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> =>
    resolvePolicy([{ [RP]: { p: a } }, { [RP]: { p: b } }])[RP]!.p!;

  it("merges each operator as its definition says", () => {
    expect(merge({ value: "a" }, { value: "a" })).toEqual({ value: "a" });
    expect(merge({ add: ["a"] }, { add: ["b", "a"] })).toEqual({ add: ["a", "b"] });
    expect(merge({ default: "a" }, { default: "a" })).toEqual({ default: "a" });
    expect(merge({ one_of: ["a", "b"] }, { one_of: ["b", "c"] })).toEqual({ one_of: ["b"] });
    expect(merge({ subset_of: ["a", "b"] }, { subset_of: ["c"] })).toEqual({ subset_of: [] });
    expect(merge({ superset_of: ["a"] }, { superset_of: ["b"] })).toEqual({ superset_of: ["a", "b"] });
    expect(merge({ essential: true }, { essential: false })).toEqual({ essential: true });
    expect(merge({ one_of: ["a"] }, { default: "a" })).toEqual({ one_of: ["a"], default: "a" });
  });

  it("a merge that is not allowed is a policy error", () => {
    expect(() => merge({ value: "a" }, { value: "b" })).toThrow(/differ/);
    expect(() => merge({ default: "a" }, { default: "b" })).toThrow(/differ/);
    expect(() => merge({ one_of: ["a"] }, { one_of: ["b"] })).toThrow(/in common/);
    // Allowed alone, not together once merged.
    expect(() => merge({ one_of: ["a"] }, { subset_of: ["a"] })).toThrow(/one_of cannot/);
    expect(() => merge({ subset_of: ["a"] }, { superset_of: ["b"] })).toThrow(/superset/);
  });

  it("the specification's example: a Trust Anchor's and an Intermediate's policies and metadata for an RP", () => {
    const ta = {
      [RP]: {
        grant_types: {
          default: ["authorization_code"],
          subset_of: ["authorization_code", "refresh_token"],
          superset_of: ["authorization_code"],
        },
        token_endpoint_auth_method: {
          one_of: ["private_key_jwt", "self_signed_tls_client_auth"],
          essential: true,
        },
        token_endpoint_auth_signing_alg: { one_of: ["PS256", "ES256"] },
        subject_type: { value: "pairwise" },
        contacts: { add: ["helpdesk@federation.example.org"] },
      },
    };
    const intermediate = {
      metadata_policy: {
        [RP]: {
          grant_types: { subset_of: ["authorization_code"] },
          token_endpoint_auth_method: { one_of: ["self_signed_tls_client_auth"] },
          contacts: { add: ["helpdesk@org.example.org"] },
        },
      },
      metadata: {
        [RP]: {
          sector_identifier_uri: "https://org.example.org/sector-ids.json",
          policy_uri: "https://org.example.org/policy.html",
        },
      },
    };
    const leaf = {
      metadata: {
        [RP]: {
          redirect_uris: ["https://rp.example.org/callback"],
          response_types: ["code"],
          token_endpoint_auth_method: "self_signed_tls_client_auth",
          contacts: ["rp_admins@rp.example.org"],
        },
      },
    };
    // The statements about the subject first: the Intermediate's, then the anchor's about it.
    const r = resolveFrom(leaf, [intermediate, { metadata_policy: ta }]);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.metadata[RP]).toEqual({
      redirect_uris: ["https://rp.example.org/callback"],
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "self_signed_tls_client_auth",
      subject_type: "pairwise",
      sector_identifier_uri: "https://org.example.org/sector-ids.json",
      policy_uri: "https://org.example.org/policy.html",
      contacts: ["rp_admins@rp.example.org", "helpdesk@federation.example.org", "helpdesk@org.example.org"],
    });
  });

  it("a superior's metadata applies only to the Entity Types the subject declares, before the policy", () => {
    const r = resolveFrom({ metadata: { [RP]: { a: 1 } } }, [
      {
        metadata: { [RP]: { a: 2, b: 3 }, oauth_client: { c: 4 } },
        metadata_policy: { [RP]: { a: { one_of: [2] } } },
      },
    ]);
    expect(r).toMatchObject({ ok: true, metadata: { [RP]: { a: 2, b: 3 } } });
    expect(r.ok && Object.keys(r.metadata)).toEqual([RP]);
  });

  it("a chain whose policies conflict does not resolve", () => {
    const r = resolveFrom({ metadata: { [RP]: {} } }, [
      { metadata_policy: { [RP]: { a: { value: "x" } } } },
      { metadata_policy: { [RP]: { a: { value: "y" } } } },
    ]);
    expect(r.ok).toBe(false);
  });

  it("hostile input gives a policy error, never a crash", () => {
    let deep: unknown = "x";
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(
      resolveFrom({ metadata: { [RP]: {} } }, [
        { metadata_policy: { [RP]: { a: { value: deep, one_of: [deep] } } } },
      ]).ok,
    ).toBe(false);
    expect(resolveFrom({ metadata: "x" }, []).ok).toBe(false);
  });
});

describe("OpenID Federation 1.0 Validating a Trust Chain", () => {
  const T = Math.floor(Date.now() / 1000);
  type Key = { priv: CryptoKey; jwk: JWK };
  const key = async (kid: string): Promise<Key> => {
    const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
    return { priv: privateKey, jwk: { ...(await exportJWK(publicKey)), kid } };
  };
  const statement = (
    iss: string,
    sub: string,
    jwks: Key,
    signer: Key,
    extra: Record<string, unknown> = {},
  ): Promise<string> =>
    new SignJWT({ iss, sub, iat: T - 10, exp: T + 3600, jwks: { keys: [jwks.jwk] }, ...extra })
      .setProtectedHeader({ alg: "ES256", typ: "entity-statement+jwt", kid: signer.jwk.kid! })
      .sign(signer.priv);

  it("accepts a chain leaf → intermediate → anchor and refuses what the rules refuse", async () => {
    const [leaf, int, ta] = await Promise.all([key("leaf"), key("int"), key("ta")]);
    const tokens = [
      await statement("https://l", "https://l", leaf, leaf),
      await statement("https://i", "https://l", leaf, int),
      await statement("https://a", "https://i", int, ta, { metadata_policy: {} }),
      await statement("https://a", "https://a", ta, ta),
    ];
    const o = { subject: "https://l", anchor: "https://a", anchorKeys: [ta.jwk] };
    const chain = readChain(tokens) as ReadChain;
    expect(await chainProblem(chain, o)).toBeUndefined();
    expect(subordinateStatements(chain, "https://l")).toHaveLength(2);
    expect(await chainProblem(readChain([...tokens].reverse()) as ReadChain, o)).toMatch(
      /not the Entity Configuration/,
    );
    expect(await chainProblem(readChain(tokens.slice(1)) as ReadChain, o)).toMatch(
      /not the Entity Configuration/,
    );
    expect(await chainProblem(chain, { ...o, anchor: "https://other" })).toMatch(
      /not the Entity Configuration of the Trust Anchor/,
    );
    // Resolve Entity: the chain ends with the Trust Anchor's Entity Configuration.
    expect(await chainProblem(readChain(tokens.slice(0, 3)) as ReadChain, o)).toMatch(
      /not the Entity Configuration of the Trust Anchor/,
    );
    expect(await chainProblem(chain, { ...o, anchorKeys: [int.jwk] })).toMatch(/Trust Anchor's keys/);
    // The Subordinate Statement about the leaf signed by the leaf itself.
    const forged = [
      tokens[0]!,
      await statement("https://i", "https://l", leaf, leaf),
      tokens[2]!,
      tokens[3]!,
    ];
    expect(await chainProblem(readChain(forged) as ReadChain, o)).toMatch(/does not verify/);
    expect(readChain("x")).toMatch(/not an array/);
    expect(readChain(["a.b"])).toMatch(/trust_chain\[0\]/);
  });

  it("max_path_length counts the Intermediates between the constraining issuer and the subject", () => {
    const ss = (max: number): Record<string, unknown> => ({
      iss: "https://a",
      sub: "https://i",
      constraints: { max_path_length: max },
    });
    const ec = { iss: "https://l", sub: "https://l" };
    const byInt = { iss: "https://i", sub: "https://l" };
    expect(pathLengthProblem([ec, byInt, ss(1)])).toBeUndefined();
    expect(pathLengthProblem([ec, byInt, ss(0)])).toMatch(/allows 0/);
    expect(pathLengthProblem([ec, { ...byInt, constraints: { max_path_length: 0 } }])).toBeUndefined();
  });
});

describe("OpenID Federation 1.0 Resolve Response: the metadata compared with the harness's own", () => {
  const s = { id: "https://l", superiors: ["https://a"], ec: undefined };
  const answer = (metadata: unknown): Answer => ({
    res: { status: 200 } as Answer["res"],
    header: {},
    payload: { metadata } as Json,
    unread: undefined,
  });
  const want = (md: Record<string, unknown>, policy: Policy = {}): Resolution => ({
    ok: true,
    metadata: { [RP]: md } as Resolution extends { metadata: infer M } ? M : never,
    policy,
  });

  it("a parameter the policy removed (value null) is absent, not null", () => {
    const removed = want({ a: 1 }, one({ value: null }));
    expect(metadataJudged(answer({ [RP]: { a: 1 } }), s, removed)).toBeUndefined();
    const judged = metadataJudged(answer({ [RP]: { a: 1, p: null } }), s, removed);
    expect(judged && "actual" in judged ? judged.actual : judged).toMatch(
      /metadata\.openid_relying_party\.p is null, expected it absent/,
    );
    const missing = metadataJudged(answer({ [RP]: {} }), s, want({ a: null }));
    expect(missing && "actual" in missing ? missing.actual : missing).toMatch(/\.a is absent, expected null/);
  });

  it("arrays a set operator made compare as sets, the others in order", () => {
    const added = want({ p: ["a", "b"] }, one({ add: ["b"] }));
    expect(metadataJudged(answer({ [RP]: { p: ["b", "a"] } }), s, added)).toBeUndefined();
    expect(metadataJudged(answer({ [RP]: { p: ["b", "a"] } }), s, want({ p: ["a", "b"] }))).toBeDefined();
  });
});
