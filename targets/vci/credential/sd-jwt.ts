import { createHash, randomBytes } from "node:crypto";
import type { JWK } from "jose";
import { IDENTITY_VCT, SUBJECT } from "../configurations.js";
import type { VciContext } from "../context.js";
import { LIMITS } from "../limits.js";
import { signCredential } from "./sign.js";

/** A disclosure `[salt, name, value]`, base64url JSON, and its sha-256 digest. */
function disclose(name: string, value: unknown): { disclosure: string; digest: string } {
  const disclosure = Buffer.from(
    JSON.stringify([randomBytes(16).toString("base64url"), name, value]),
  ).toString("base64url");
  // Stryker disable next-line StringLiteral: equivalent: "ascii" and the default utf8 encode the base64url text alike ("base64url" itself is killed)
  return { disclosure, digest: createHash("sha256").update(disclosure, "ascii").digest("base64url") };
}

/**
 * An SD-JWT VC (`dc+sd-jwt`) of the demo End-User bound to `holder` (`cnf.jwk`; unbound when
 * there is none): every identity claim is selectively disclosable; serialised
 * `<jwt>~<d1>~<d2>~<d3>~`. The `sd-jwt-no-vct` fault leaves out `vct`.
 */
export async function sdJwtCredential(ctx: VciContext, holder: JWK | undefined): Promise<string> {
  const disclosures = Object.entries(SUBJECT).map(([name, value]) => disclose(name, value));
  const jwt = await signCredential(
    ctx,
    "dc+sd-jwt",
    {
      ...(ctx.faults.has("sd-jwt-no-vct") ? {} : { vct: IDENTITY_VCT }),
      // Stryker disable next-line ConditionalExpression: holder is undefined only under the faults proof-optional and deferred-unbound (every configuration binds a key)
      ...(holder !== undefined ? { cnf: { jwk: holder } } : {}),
      _sd_alg: "sha-256",
      // Stryker disable next-line MethodExpression: sorting only hides the claims' order (RFC 9901 §4.2.4.1 lets an issuer sort or shuffle); digests of random salts in claim order cannot be told from shuffled ones
      _sd: disclosures.map((d) => d.digest).sort(),
    },
    LIMITS.credentialLifetimeSeconds,
  );
  // Stryker disable next-line ArrowFunction,StringLiteral: which claims an issuer discloses is its choice: SD-JWT allows digests without disclosures (decoys) and no requirement names the claims a credential carries
  return `${jwt}~${disclosures.map((d) => `${d.disclosure}~`).join("")}`;
}
