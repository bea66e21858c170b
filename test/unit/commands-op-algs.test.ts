import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from "jose";
import { describe, expect, it } from "vitest";
import type { CheckResult } from "../../src/engine/check.js";
import { openSuite } from "../../src/engine/in-process.js";

const TOKEN_CHECKS = ["commands.token-header", "commands.token-issuer", "commands.token-account-command"];

/** A private OP key of `alg`, with kid and alg, as a vendor would give it. */
async function opKey(alg: string): Promise<JWK> {
  const { privateKey, publicKey } = await generateKeyPair(
    alg,
    alg === "EdDSA" ? { extractable: true, crv: "Ed25519" } : { extractable: true },
  );
  return {
    ...(await exportJWK(privateKey)),
    alg,
    kid: await calculateJwkThumbprint(await exportJWK(publicKey)),
  };
}

/** Runs `checks` against the reference RP trusting `jwk`, with `faults`. */
async function run(jwk: JWK, checks: readonly string[], faults: string[] = []): Promise<CheckResult[]> {
  const s = await openSuite({ suite: "commands", faults, targetOptions: { opJwk: jwk } });
  try {
    const out: CheckResult[] = [];
    for (const id of checks) out.push(await s.run(id));
    return out;
  } finally {
    await s.close();
  }
}

const unmet = (results: CheckResult[]): string[] =>
  results.flatMap((r) =>
    Object.entries(r.requirements)
      .filter(([, o]) => o !== "met")
      .map(([id, o]) => `${r.check} ${id} ${o}`),
  );

/** The alg in the header of the Command Token a labelled exchange sent. */
function sentAlg(results: CheckResult[], label: string): unknown {
  const ex = results.flatMap((r) => r.exchanges).find((e) => e.label === label);
  const token = new URLSearchParams(ex?.request.body ?? "").get("command_token") ?? "";
  return (
    JSON.parse(Buffer.from(token.split(".")[0] ?? "", "base64url").toString("utf8")) as { alg?: unknown }
  ).alg;
}

describe("strangers sign like the OP (specs/002 area A Command Token, Authentication 1)", () => {
  it("against an RS256 OP: the clean RP passes, the unknown OP's token is RS256, and an RP that takes an unknown kid of its own alg fails CMD-TOKEN-KID", async () => {
    const jwk = await opKey("RS256");
    const clean = await run(jwk, TOKEN_CHECKS);
    expect(unmet(clean)).toEqual([]);
    expect(sentAlg(clean, "metadata from an unknown OP")).toBe("RS256");
    const faulty = await run(
      jwk,
      ["commands.token-header", "commands.token-account-command"],
      ["unknown-kid-same-alg"],
    );
    expect(unmet(faulty)).toEqual([
      "commands.token-header CMD-TOKEN-KID violated",
      "commands.token-account-command CMD-TOKEN-KID violated",
    ]);
  }, 120_000);

  for (const alg of ["PS256", "EdDSA"]) {
    it(`against a ${alg} OP the clean RP passes every token check, and the unknown OP signs ${alg}`, async () => {
      const results = await run(await opKey(alg), TOKEN_CHECKS);
      expect(unmet(results)).toEqual([]);
      expect(sentAlg(results, "metadata from an unknown OP")).toBe(alg);
    }, 120_000);
  }
});
