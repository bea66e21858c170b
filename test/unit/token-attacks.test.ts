import { describe, expect, it } from "vitest";
import { createHmac, X509Certificate } from "node:crypto";
import {
  compactVerify,
  createLocalJWKSet,
  decodeProtectedHeader,
  EmbeddedJWK,
  exportJWK,
  generateKeyPair,
  importJWK,
  jwtVerify,
  SignJWT,
  type JWK,
} from "jose";
import {
  bearerCredentialAttacks,
  decodeCompact,
  startJkuHost,
  tokenAttacks,
} from "../../src/engine/token-attacks.js";

const NOW = 1_800_000_000;

async function realToken(alg: string, crv?: string) {
  const { privateKey, publicKey } = await generateKeyPair(alg, {
    extractable: true,
    ...(crv ? { crv } : {}),
  });
  const priv: JWK = { ...(await exportJWK(privateKey)), alg, kid: "real-1" };
  const pub: JWK = { ...(await exportJWK(publicKey)), alg, kid: "real-1" };
  const token = await new SignJWT({ sub: "alice", jti: "j-1", events: { x: 1 } })
    .setProtectedHeader({ alg, kid: "real-1", typ: "logout+jwt" })
    .setIssuer("https://op.example")
    .setAudience("https://rp.example")
    .setIssuedAt(NOW)
    .setExpirationTime(NOW + 120)
    .sign(privateKey);
  return { token, priv, pub };
}

/** The verifier a correct target runs: its own key set, the algorithm pinned, the claims checked. */
async function strictVerify(token: string, pub: JWK) {
  return jwtVerify(token, createLocalJWKSet({ keys: [pub] }), {
    algorithms: [pub.alg!],
    issuer: "https://op.example",
    audience: "https://rp.example",
    typ: "logout+jwt",
    requiredClaims: ["jti", "sub", "iat", "exp"],
    currentDate: new Date(NOW * 1000 + 10_000),
    clockTolerance: 300,
    maxTokenAge: 600,
  });
}

describe("token attack family (design honesty rule 7)", () => {
  for (const [alg, crv] of [["ES256"], ["RS256"], ["EdDSA", "Ed25519"]] as const) {
    it(`${alg}: a correct verifier refuses every variant, and each forgery is one a careless verifier would accept`, async () => {
      const { token, priv, pub } = await realToken(alg, crv);
      await strictVerify(token, pub); // the original is valid
      const jku = await startJkuHost();
      try {
        const attacks = await tokenAttacks({
          token,
          signingKey: priv,
          requiredClaims: ["jti", "sub", "exp"],
          jku,
          now: () => NOW,
        });
        const ids = attacks.map((a) => a.id);
        expect(ids).toEqual([
          "embedded-jwk",
          ...(alg === "EdDSA" ? [] : ["embedded-x5c"]),
          "jku",
          "alg-none",
          "hs256-public-key",
          "unknown-kid",
          "stranger-key",
          "flipped-signature",
          "expired",
          "iat-future",
          "nbf-future",
          "wrong-aud",
          "wrong-iss",
          "missing-jti",
          "missing-sub",
          "missing-exp",
          "typ-absent",
          "typ-JWT",
        ]);
        for (const a of attacks) {
          await expect(strictVerify(a.token, pub), a.id).rejects.toThrow();
        }
        const by = (id: string) => attacks.find((a) => a.id === id)!.token;
        // A verifier that trusts a key the token carries accepts these forgeries.
        await compactVerify(by("embedded-jwk"), EmbeddedJWK);
        if (alg !== "EdDSA") {
          const x5c = decodeProtectedHeader(by("embedded-x5c")).x5c![0]!;
          const certKey = new X509Certificate(Buffer.from(x5c, "base64")).publicKey;
          await compactVerify(by("embedded-x5c"), certKey);
        }
        const published = (await (await fetch(jku.url)).json()) as { keys: JWK[] };
        await compactVerify(by("jku"), createLocalJWKSet(published));
        expect(decodeProtectedHeader(by("jku")).jku).toBe(jku.url);
        // Algorithm confusion: the MAC keyed with the real public key's PEM.
        const [h, p, s] = by("hs256-public-key").split(".");
        const { createPublicKey } = await import("node:crypto");
        const pem = createPublicKey({ key: pub as import("node:crypto").JsonWebKey, format: "jwk" })
          .export({ type: "spki", format: "pem" })
          .toString();
        expect(createHmac("sha256", pem).update(`${h}.${p}`).digest("base64url")).toBe(s);
        expect(by("alg-none").endsWith(".")).toBe(true);
        // Claim and header variants carry a valid signature of the real key: only the attacked property differs.
        const realKey = await importJWK(pub, alg);
        for (const id of [
          "expired",
          "iat-future",
          "nbf-future",
          "wrong-aud",
          "wrong-iss",
          "missing-jti",
          "typ-absent",
        ]) {
          await compactVerify(by(id), realKey);
        }
        expect(decodeCompact(by("missing-jti")).payload).not.toHaveProperty("jti");
        expect(decodeCompact(by("expired")).payload.exp).toBeLessThan(NOW - 300);
        expect(decodeCompact(by("nbf-future")).payload.nbf).toBeGreaterThan(NOW + 300);
        expect(decodeCompact(by("wrong-aud")).payload.aud).not.toBe("https://rp.example");
        // Forgeries use a key of the real algorithm.
        expect(decodeCompact(by("stranger-key")).header.alg).toBe(alg);
        expect(decodeCompact(by("stranger-key")).header.kid).toBe("real-1");
      } finally {
        await jku.close();
      }
    }, 60_000);
  }

  it("leaves out what the caller omits, and claims the token does not have", async () => {
    const { token, priv } = await realToken("ES256");
    const attacks = await tokenAttacks({
      token,
      signingKey: priv,
      requiredClaims: ["nonce"],
      omit: ["embedded-x5c", "typ-JWT"],
      typVariants: ["JWT", undefined],
      now: () => NOW,
    });
    const ids = attacks.map((a) => a.id);
    expect(ids).not.toContain("embedded-x5c");
    expect(ids).not.toContain("jku");
    expect(ids).not.toContain("missing-nonce");
    expect(ids).not.toContain("typ-JWT");
    expect(ids).toContain("typ-absent");
  });

  it("refuses what is not a compact JWS", async () => {
    await expect(tokenAttacks({ token: "a.b", signingKey: {} })).rejects.toThrow(/compact JWS/);
  });
});

describe("Bearer credential attacks (an opaque token the harness cannot forge)", () => {
  const real = "s3cret-receiver-token";
  const forms = bearerCredentialAttacks(real, "never-issued");
  const by = (id: string) => forms.find((f) => f.id === id)!;

  it("gives every form once, and none of them is the real credential", () => {
    expect(forms.map((f) => f.id)).toEqual([
      "absent",
      "basic-scheme",
      "empty-bearer",
      "malformed-bearer",
      "unknown-bearer",
      "near-miss-changed",
      "near-miss-prefix",
    ]);
    for (const f of forms) expect(f.authorization).not.toBe(`Bearer ${real}`);
    expect(by("absent").authorization).toBeNull();
    expect(by("basic-scheme").authorization).toBe(`Basic ${real}`);
    expect(by("empty-bearer").authorization?.trim()).toBe("Bearer");
    expect(by("malformed-bearer").authorization).toBe(`Bearer ${real} ${real}`);
    expect(by("unknown-bearer").authorization).toBe("Bearer never-issued");
  });

  it("marks only the malformed requests as such (RFC 6750 §3.1 allows 400 for them)", () => {
    expect(forms.filter((f) => f.malformed).map((f) => f.id)).toEqual(["empty-bearer", "malformed-bearer"]);
  });

  it("near misses differ from the real token at its end only, and are handed back as secrets", () => {
    const changed = by("near-miss-changed");
    const prefix = by("near-miss-prefix");
    expect(changed.authorization).toBe(`Bearer ${real.slice(0, -1)}A`);
    expect(changed.secrets).toEqual([`${real.slice(0, -1)}A`]);
    expect(prefix.authorization).toBe(`Bearer ${real.slice(0, -1)}`);
    expect(prefix.secrets).toEqual([real.slice(0, -1)]);
    // A token ending in A changes to B, never to itself.
    expect(
      bearerCredentialAttacks("abcdefgA", "u").find((f) => f.id === "near-miss-changed")?.authorization,
    ).toBe("Bearer abcdefgB");
    for (const f of forms.slice(0, 5)) expect(f.secrets).toEqual([]);
  });

  it("has no near miss of a token too short to miss by one character meaningfully", () => {
    expect(bearerCredentialAttacks("short", "u").map((f) => f.id)).not.toContain("near-miss-prefix");
  });
});
