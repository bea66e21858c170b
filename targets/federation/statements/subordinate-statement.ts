import type { FedContext } from "../context.js";
import { LIMITS } from "../limits.js";
import type { Entity } from "../model/entity.js";
import { keyOf, sign } from "./sign.js";

/**
 * The claims of the Subordinate Statement `issuer` makes about its Immediate Subordinate `sub`
 * (public-spec-facts §2 Entity statements, Fetch): iss, sub, iat, exp, the subordinate's jwks,
 * source_endpoint, what the issuer asserts of its metadata, and for Intermediates below the
 * Trust Anchor the anchor's metadata_policy and constraints. No authority_hints: that claim
 * belongs to Entity Configurations.
 */
export function statementClaims(ctx: FedContext, issuer: Entity, sub: Entity): Record<string, unknown> {
  const { faults } = ctx;
  const ms = faults.has("statement-iat-milliseconds");
  const iat = ms ? Date.now() : ctx.now();
  const claims: Record<string, unknown> = {
    iss: faults.has("statement-iss-trailing-slash") ? `${issuer.id}/` : issuer.id,
    sub: sub.id,
    iat,
    exp:
      iat +
      (faults.has("statement-iat-milliseconds") ? LIMITS.statementLifetime * 1000 : LIMITS.statementLifetime),
    jwks: { keys: [ctx.keys.key(sub.id, sub.keyVersion).publicJwk] },
    source_endpoint: `${issuer.id}/fetch`,
  };
  // Which of the OPTIONAL claims metadata, metadata_policy and constraints a superior puts in its
  // Subordinate Statements is its own choice (OpenID Federation 1.0 Subordinate Statement claims);
  // the extended list reads the same statement, so no answer can show one missing or added, and a
  // claim set to undefined is left out of the JSON.
  // Stryker disable ConditionalExpression,EqualityOperator,BlockStatement: see above
  const metadata = sub.template.statementMetadata?.(sub);
  if (metadata) claims.metadata = metadata;
  if (issuer.id === ctx.ids.anchor) {
    const policy = sub.template.policy?.(sub);
    if (policy) claims.metadata_policy = policy;
    if (sub.template.constraints) claims.constraints = sub.template.constraints;
  }
  // Stryker restore ConditionalExpression,EqualityOperator,BlockStatement
  if (faults.has("statement-authority-hints")) claims.authority_hints = [...sub.superiors];
  return claims;
}

/** Signs Subordinate Statement claims with the issuer's key (typ entity-statement+jwt). */
export function signStatement(
  ctx: FedContext,
  issuer: Entity,
  sub: Entity,
  claims: Record<string, unknown>,
): Promise<string> {
  const signer = ctx.faults.has("statement-signed-by-subject") ? keyOf(ctx, sub) : keyOf(ctx, issuer);
  return sign(claims, signer, ctx.faults.has("statement-typ-jwt") ? "JWT" : "entity-statement+jwt");
}
