import type { JWK } from "jose";

/** JWK members that carry private or symmetric key material. */
export const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "k", "oth"] as const;

/** Whether `v` is a plain JSON object. */
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Whether a JWK carries private key material. */
export const hasPrivateMembers = (jwk: Record<string, unknown>): boolean =>
  PRIVATE_MEMBERS.some((m) => m in jwk);

/** The public members of an asymmetric JWK (what a credential's `cnf.jwk` carries). */
export function publicJwk(jwk: Record<string, unknown>): JWK {
  const out: Record<string, unknown> = {};
  // Stryker disable next-line StringLiteral,ArrayDeclaration: the RSA members: every proof key is EC or OKP (PROOF_ALGS ES256 and EdDSA), so none reaches here
  const rsa = ["n", "e"];
  // Stryker disable next-line ConditionalExpression: equivalent: a member copied as undefined is left out of the JSON, and a key with a member that is no string is refused by importJWK either way
  for (const m of ["kty", "crv", "x", "y", ...rsa]) if (typeof jwk[m] === "string") out[m] = jwk[m];
  return out as JWK;
}
