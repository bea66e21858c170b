import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeAgents } from "../../src/http/client.js";
import { createBundle } from "../../src/report/bundle.js";
import { MEMBERS } from "../../src/report/bundle-format.js";
import { verifyBundle } from "../../src/report/bundle-verify.js";
import {
  loadEntityKeys,
  loadJwks,
  loadSigningKey,
  publicPart,
  type TrustedKeys,
} from "../../src/report/bundle-keys.js";
import { redactProfile } from "../../src/report/profile-redact.js";
import type { Results } from "../../src/report/results.js";
import { keyPair, SAMPLE_PROFILE, startEntity, syntheticResults, writeRunDir } from "../helpers/bundle.js";
import { tempDir } from "../helpers/cli.js";

afterAll(closeAgents);

async function bundleOf(
  results: Results,
  alg: "ES256" | "EdDSA" | "PS256" = "ES256",
): Promise<{ text: string; trusted: TrustedKeys }> {
  const dir = tempDir("idc-bundle-");
  const { run, profile } = writeRunDir(dir, results);
  const kp = await keyPair(alg, `k-${alg}`);
  const keyFile = join(dir, "key.jwk");
  writeFileSync(keyFile, JSON.stringify(kp.privateJwk));
  const { text } = await createBundle({ runDir: run, profile, key: await loadSigningKey(keyFile) });
  return { text, trusted: { keys: kp.jwks.keys, source: "test keys" } };
}

type Doc = { format: string; jws: string; files: Record<string, string> };

describe("evidence bundle: sign and verify (issue 12 item 7)", () => {
  let good: { text: string; trusted: TrustedKeys };
  beforeAll(async () => {
    good = await bundleOf(syntheticResults(40));
  });

  it.each(["ES256", "EdDSA", "PS256"] as const)(
    "a %s bundle verifies: signature, every digest, the recomputed summary and exit code",
    async (alg) => {
      const { text, trusted } = alg === "ES256" ? good : await bundleOf(syntheticResults(40), alg);
      const v = await verifyBundle(text, trusted);
      expect(v.problems).toEqual([]);
      expect(v.ok).toBe(true);
      expect(v.signer?.alg).toBe(alg);
      expect(v.recomputed?.exitCode).toBe(1);
      expect(v.recomputed?.summary).toMatchObject({ total: 40, fail: 4, warn: 0, pass: 36 });
      expect(v.manifest?.run.suites).toEqual([{ name: "bench", target: "https://target.example/" }]);
      expect(v.manifest?.lockfile?.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(v.files?.["profile.yaml"]?.toString()).toContain("${SAMPLE_TOKEN}");
    },
  );

  it.each(MEMBERS)("a flipped byte in %s fails verification, naming the member", async (member) => {
    const doc = JSON.parse(good.text) as Doc;
    const bytes = Buffer.from(doc.files[member]!, "base64url");
    bytes[Math.floor(bytes.length / 2)]! ^= 0x01;
    doc.files[member] = bytes.toString("base64url");
    const v = await verifyBundle(`${JSON.stringify(doc)}\n`, good.trusted);
    expect(v.ok).toBe(false);
    expect(v.problems.join("\n")).toMatch(new RegExp(`^${member.replace(".", "\\.")}: changed`, "m"));
  });

  it("any changed byte of the .idcb file fails verification (sampled over the whole file)", async () => {
    const raw = Buffer.from(good.text);
    const step = Math.max(1, Math.floor(raw.length / 300));
    const positions = [
      ...Array.from({ length: Math.ceil(raw.length / step) }, (_, i) => i * step),
      raw.length - 1,
    ];
    for (const at of positions) {
      const copy = Buffer.from(raw);
      copy[at] = at === raw.length - 1 ? 0x20 : copy[at] === 0x41 ? 0x42 : 0x41;
      const v = await verifyBundle(copy.toString("utf8"), good.trusted);
      expect(v.ok, `byte ${at}`).toBe(false);
    }
  });

  it("a changed last base64url character (only padding bits) still fails: the encoding must be canonical", async () => {
    const doc = JSON.parse(good.text) as Doc;
    const s = doc.files["profile.yaml"]!;
    const last = s[s.length - 1]!;
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const sameBytes = [...alphabet].find(
      (c) => c !== last && Buffer.from(s.slice(0, -1) + c, "base64url").equals(Buffer.from(s, "base64url")),
    );
    if (sameBytes === undefined) return; // the length left no spare bits
    doc.files["profile.yaml"] = s.slice(0, -1) + sameBytes;
    const v = await verifyBundle(`${JSON.stringify(doc)}\n`, good.trusted);
    expect(v.problems).toContain("profile.yaml: changed (its base64url encoding is damaged)");
  });

  it("a member added or removed outside the signed manifest is named", async () => {
    const doc = JSON.parse(good.text) as Doc;
    doc.files["extra.txt"] = "AAAA";
    delete doc.files["report.html"];
    const v = await verifyBundle(`${JSON.stringify(doc)}\n`, good.trusted);
    expect(v.problems).toContain("extra.txt: in the bundle but not in the signed manifest");
    expect(v.problems).toContain("report.html: named by the signed manifest, missing from the bundle");
  });

  it("another key, or a key set without the signer's kid, does not verify", async () => {
    const other = await keyPair("ES256", "k-ES256");
    const v = await verifyBundle(good.text, { keys: other.jwks.keys, source: "other" });
    expect(v.ok).toBe(false);
    expect(v.problems[0]).toMatch(/signature does not verify with other/);
    const noKid = await verifyBundle(good.text, {
      keys: [{ ...other.jwks.keys[0]!, kid: "x" }],
      source: "x",
    });
    expect(noKid.problems[0]).toBe('jws: no ES256 key with kid "k-ES256" in x');
  });

  it("a hostile key set (members missing, no kid) is no match, never a crash", async () => {
    const v = await verifyBundle(good.text, {
      keys: [
        { kty: "EC", crv: "P-256" },
        { kty: "EC", crv: "P-256", kid: "k-ES256", x: "AA", y: "AA" },
      ],
      source: "hostile",
    });
    expect(v.ok).toBe(false);
    expect(v.problems[0]).toMatch(/signature does not verify with hostile/);
  });

  it("stored verdicts or summaries that their checks do not give are reported, even when signed", async () => {
    const r = syntheticResults(20);
    const forged: Results = {
      ...r,
      requirements: r.requirements.map((q) => (q.id === "BENCH-REQ-0" ? { ...q, verdict: "pass" } : q)),
      summary: { ...r.summary, fail: r.summary.fail - 1, pass: r.summary.pass + 1 },
      outcome: { exitCode: 0, reason: "every selected MUST requirement passed" },
    };
    const { text, trusted } = await bundleOf(forged);
    const v = await verifyBundle(text, trusted);
    expect(v.ok).toBe(false);
    const all = v.problems.join("\n");
    expect(all).toContain("BENCH-REQ-0 (MUST): stored verdict pass, its checks' outcomes give fail");
    expect(all).toContain("summary.fail: stored 1, recomputed 2");
    expect(all).toContain("outcome.exitCode: stored 0, recomputed 1");
    expect(v.recomputed?.exitCode).toBe(1);
  });

  it("bundle refuses a profile other than the one the run read", async () => {
    const dir = tempDir("idc-bundle-");
    const { run, profile } = writeRunDir(dir, syntheticResults(3));
    writeFileSync(profile, `${SAMPLE_PROFILE}# changed\n`);
    const kp = await keyPair("ES256");
    writeFileSync(join(dir, "k.jwk"), JSON.stringify(kp.privateJwk));
    await expect(
      createBundle({ runDir: run, profile, key: await loadSigningKey(join(dir, "k.jwk")) }),
    ).rejects.toThrow(/SHA-256 differs from the profile the run read/);
  });
});

describe("evidence bundle: the signing key", () => {
  const write = (doc: unknown): string => {
    const f = join(tempDir("idc-key-"), "k.jwk");
    writeFileSync(f, typeof doc === "string" ? doc : JSON.stringify(doc));
    return f;
  };

  it("refuses a symmetric key, a public key, a P-384 key and a short RSA key by name", async () => {
    await expect(loadSigningKey(write({ kty: "oct", k: "c2VjcmV0c2VjcmV0c2VjcmV0" }))).rejects.toThrow(
      /symmetric key/,
    );
    const es = await keyPair("ES256");
    await expect(loadSigningKey(write(publicPart(es.privateJwk)))).rejects.toThrow(/public key \(no "d"\)/);
    await expect(loadSigningKey(write({ ...es.privateJwk, crv: "P-384" }))).rejects.toThrow(/only P-256/);
    await expect(
      loadSigningKey(write({ kty: "RSA", n: "AQAB".repeat(20), e: "AQAB", d: "AQAB" })),
    ).rejects.toThrow(/RSA key of \d+ bits/);
  });

  it("never quotes the key file in an error, even when it is not JSON", async () => {
    const secret = "PRIVATE-d-VALUE-1234567890";
    await expect(loadSigningKey(write(`{"kty":"EC","d":"${secret}"`))).rejects.toThrow(/is not JSON/);
    await loadSigningKey(write(`{"kty":"EC","d":"${secret}"`)).catch((e: Error) =>
      expect(e.message).not.toContain(secret),
    );
  });

  it("reads the key from the environment variable ${NAME} names; the kid defaults to the thumbprint", async () => {
    const ed = await keyPair("EdDSA");
    const k = await loadSigningKey("${IDC_TEST_BUNDLE_KEY}", {
      IDC_TEST_BUNDLE_KEY: JSON.stringify(ed.privateJwk),
    });
    expect(k.alg).toBe("EdDSA");
    expect(k.kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await expect(loadSigningKey("${IDC_NOT_SET_X}", {})).rejects.toThrow(/IDC_NOT_SET_X is not set/);
    const named = await loadSigningKey("${K}", { K: JSON.stringify({ ...ed.privateJwk, alg: "Ed25519" }) });
    expect(named.alg).toBe("EdDSA");
    await expect(
      loadSigningKey("${K}", { K: JSON.stringify({ ...ed.privateJwk, alg: "ES256" }) }),
    ).rejects.toThrow(/says alg "ES256", its key type signs EdDSA/);
  });
});

describe("evidence bundle: the profile copy holds no secret", () => {
  it("keeps ${VAR} references, replaces inline secrets, private JWK members, URL passwords and secret query parameters", () => {
    const text = `# comment with s3cr3t-in-comment
name: p
suites:
  scim:
    baseUrl: https://u:pw-secret-1@scim.example/v2?token=query-secret-1&x=1
    bearerToken: Bearer \${TOK}
    clientSecret: inline-secret-1
    clientKey: '{"kty":"EC","d":"jwk-d-secret-1"}'
    signingKey: { kty: EC, crv: P-256, x: pubx, d: jwk-d-secret-2 }
    description: repeats inline-secret-1 here
    headers: { X-Api-Key: api-secret-1, Accept: application/json }
`;
    const out = redactProfile(text, "p.yaml");
    for (const s of [
      "s3cr3t-in-comment",
      "pw-secret-1",
      "query-secret-1",
      "inline-secret-1",
      "jwk-d-secret-1",
      "jwk-d-secret-2",
      "api-secret-1",
    ])
      expect(out, s).not.toContain(s);
    expect(out).toContain("Bearer ${TOK}");
    expect(out).toContain("x: pubx");
    expect(out).toContain("Accept: application/json");
    expect(out).toContain("https://u:[redacted]@scim.example/v2?token=[redacted]&x=1");
  });
});

describe("evidence bundle: --entity takes the keys of an Entity Configuration (OpenID Federation 1.0 §3, §9)", () => {
  it("a self-signed Entity Configuration gives its jwks, and they verify the bundle", async () => {
    const dir = tempDir("idc-bundle-");
    const { run, profile } = writeRunDir(dir, syntheticResults(5));
    const kp = await keyPair("ES256", "bundle-key");
    writeFileSync(join(dir, "k.jwk"), JSON.stringify(kp.privateJwk));
    const { text } = await createBundle({
      runDir: run,
      profile,
      key: await loadSigningKey(join(dir, "k.jwk")),
    });
    const entity = await startEntity({ jwks: kp.jwks });
    try {
      await expect(loadEntityKeys(entity.entityId)).rejects.toThrow(/plain http refused/);
      const slash = await loadEntityKeys(`${entity.entityId}/`, { allowInsecureHttp: true });
      expect(slash.keys.map((k) => k.kid)).toContain("bundle-key");
      const trusted = await loadEntityKeys(entity.entityId, { allowInsecureHttp: true });
      const v = await verifyBundle(text, trusted);
      expect(v.problems).toEqual([]);
      expect(v.signer?.source).toContain(entity.entityId);
    } finally {
      await entity.close();
    }
  });

  const bad: [string, Parameters<typeof startEntity>[0]["content"], RegExp][] = [
    [
      "a statement not signed by a key of its own jwks",
      async (id, sign, jwks) => {
        const now = Math.floor(Date.now() / 1000);
        return {
          body: await sign({ iss: id, sub: id, iat: now, exp: now + 60, jwks: { keys: jwks.keys.slice(1) } }),
        };
      },
      /names 0 keys of its own jwks/,
    ],
    [
      "a statement whose typ is not entity-statement+jwt",
      async (id, sign, jwks) => {
        const now = Math.floor(Date.now() / 1000);
        return { body: await sign({ iss: id, sub: id, iat: now, exp: now + 60, jwks }, { typ: "JWT" }) };
      },
      /typ "JWT"/,
    ],
    [
      "a statement about another entity (sub differs)",
      async (id, sign, jwks) => {
        const now = Math.floor(Date.now() / 1000);
        return { body: await sign({ iss: id, sub: "https://other.example", iat: now, exp: now + 60, jwks }) };
      },
      /iss and sub must both be the entity id/,
    ],
    [
      "an expired statement",
      async (id, sign, jwks) => {
        const now = Math.floor(Date.now() / 1000);
        return { body: await sign({ iss: id, sub: id, iat: now - 7200, exp: now - 3600, jwks }) };
      },
      /not validly self-signed/,
    ],
    [
      "a statement served as application/json",
      async (id, sign, jwks) => {
        const now = Math.floor(Date.now() / 1000);
        return {
          body: await sign({ iss: id, sub: id, iat: now, exp: now + 60, jwks }),
          type: "application/json",
        };
      },
      /expected application\/entity-statement\+jwt/,
    ],
    ["garbage", async () => ({ body: "not.a.jwt" }), /not a signed JWT/],
    [
      "a statement without a jwks claim",
      async (id, sign) => {
        const now = Math.floor(Date.now() / 1000);
        return { body: await sign({ iss: id, sub: id, iat: now, exp: now + 60 }) };
      },
      /\(jwks claim\): not a JWK Set/,
    ],
  ];
  it.each(bad)("refuses %s", async (_what, content, message) => {
    const kp = await keyPair("ES256", "bundle-key");
    const entity = await startEntity({ jwks: kp.jwks, ...(content ? { content } : {}) });
    try {
      const refused = loadEntityKeys(entity.entityId, { allowInsecureHttp: true });
      await expect(refused).rejects.toThrow(message);
      await expect(refused).rejects.toMatchObject({ code: "IDC_HTTP_FAILED" });
    } finally {
      await entity.close();
    }
  });
});

// The tests read their own bundles back; keep the reader honest about the on-disk form too.
it("the bundle is one JSON line whose members are base64url", async () => {
  const { text } = await bundleOf(syntheticResults(2));
  expect(text.endsWith("\n")).toBe(true);
  expect(text.trimEnd()).not.toContain("\n");
  const doc = JSON.parse(text) as Doc;
  expect(Object.keys(doc)).toEqual(["format", "jws", "files"]);
  expect(doc.jws.split(".")).toHaveLength(3);
});

describe("evidence bundle: --jwks over the network is bounded", () => {
  it("reads a JWK Set from a URL, refuses plain http unless allowed, and stops at 1 MiB", async () => {
    const kp = await keyPair("ES256", "net-key");
    const server = createServer((req, res) => {
      const body =
        req.url === "/big"
          ? JSON.stringify({ keys: [], pad: "x".repeat(2 * 1024 * 1024) })
          : JSON.stringify(kp.jwks);
      res.writeHead(200, { "content-type": "application/json" }).end(body);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      await expect(loadJwks(`${base}/jwks`)).rejects.toThrow(/plain http refused/);
      const t = await loadJwks(`${base}/jwks`, { allowInsecureHttp: true });
      expect(t.keys.map((k) => k.kid)).toEqual(["net-key"]);
      await expect(loadJwks(`${base}/big`, { allowInsecureHttp: true })).rejects.toMatchObject({
        code: "IDC_HTTP_TOO_LARGE",
      });
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
