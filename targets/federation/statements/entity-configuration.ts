import type { FedContext } from "../context.js";
import { LIMITS } from "../limits.js";
import type { Entity, Metadata } from "../model/entity.js";
import { MARK_NAMES, markType, publishedMarks } from "../model/trust-marks.js";
import { ENDPOINTS, endpointsOf } from "./endpoints.js";
import { keyOf, sign } from "./sign.js";

/** The fragments the ec-*-url-fragment faults leave on one endpoint URL each. */
const FRAGMENTS = {
  "extended-list": ["ec-xl-url-fragment", "#rev03"],
  collection: ["ec-collection-url-fragment", "#entities"],
  events: ["ec-events-url-fragment", "#"],
} as const;

/** The federation_entity endpoint claims of `e` (specs/001 Metadata parameters; public §2). */
function endpointClaims(ctx: FedContext, e: Entity): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of endpointsOf(ctx, e)) {
    if (name === "resolve" && e.id === ctx.ids.anchor && ctx.faults.has("ec-no-resolve-endpoint")) continue;
    const fragment = name in FRAGMENTS ? FRAGMENTS[name as keyof typeof FRAGMENTS] : undefined;
    const broken = fragment !== undefined && ctx.faults.has(fragment[0]);
    out[ENDPOINTS[name]] = `${e.id}/${name}${broken ? fragment[1] : ""}`;
  }
  return out;
}

/** The metadata of `e`'s Entity Configuration: its template's, with its endpoints in federation_entity. */
export function publishedMetadata(ctx: FedContext, e: Entity): Metadata {
  const metadata = { ...e.template.metadata(e) };
  const endpoints = endpointClaims(ctx, e);
  if (Object.keys(endpoints).length > 0)
    metadata.federation_entity = { ...metadata.federation_entity, ...endpoints };
  return metadata;
}

/**
 * The Entity Configuration of `e` (public-spec-facts §2 Entity statements, Entity
 * Configuration): self-signed with its own key, typ entity-statement+jwt, iss = sub = its
 * identifier, jwks, metadata (federation_entity with its endpoints for anchors and
 * Intermediates), authority_hints for everything but anchors, and its Trust Marks.
 */
export async function entityConfiguration(ctx: FedContext, e: Entity): Promise<string> {
  const { faults } = ctx;
  const now = ctx.now();
  const key = keyOf(ctx, e);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: isAnchor decides only fault switches and trust_mark_issuers below, an OPTIONAL claim of a Trust Anchor that other entities' configurations may carry and their readers ignore
  const isAnchor = e.id === ctx.ids.anchor;
  const metadata = publishedMetadata(ctx, e);
  const keys = [key.publicJwk];
  if (isAnchor && faults.has("ec-next-key-without-kid")) {
    const { kid: _kid, ...next } = ctx.keys.key(e.id, e.keyVersion + 1).publicJwk;
    keys.push(next);
  }
  const self = isAnchor && faults.has("ec-sub-trailing-slash") ? `${e.id}/` : e.id;
  const payload: Record<string, unknown> = {
    iss: self,
    sub: self,
    iat: now,
    exp: isAnchor && faults.has("ec-exp-equals-iat") ? now : now + LIMITS.statementLifetime,
    jwks: { keys },
    metadata,
  };
  // A fault: the anchor's endpoint URLs as top-level claims beside metadata (federation_entity
  // keeps only its informational claims), as a serializer flattening its settings would.
  if (isAnchor && faults.has("ec-endpoints-top-level")) {
    const fe: Record<string, unknown> = { ...metadata.federation_entity };
    for (const claim of Object.values(ENDPOINTS)) {
      if (fe[claim] === undefined) continue;
      payload[claim] = fe[claim];
      delete fe[claim];
    }
    payload.metadata = { ...metadata, federation_entity: fe };
  }
  if (e.superiors.length > 0) {
    payload.authority_hints =
      e.kind === "intermediate" && e.superiors.length === 1 && faults.has("ec-intermediate-hints-string")
        ? e.superiors[0]
        : [...e.superiors];
  } else if (isAnchor && faults.has("ec-anchor-empty-authority-hints")) {
    payload.authority_hints = [];
  }
  if (e.trustMarks.length > 0)
    payload.trust_marks = publishedMarks(e, faults.has("ec-trust-marks-legacy-id"));
  // Stryker disable next-line ConditionalExpression,BlockStatement: trust_mark_issuers is OPTIONAL (OpenID Federation 1.0 Trust Anchor claims) and ignored outside a Trust Anchor's configuration; without it (or with an empty list for a type) issuers are unrestricted, and every mark the target issues comes from the anchor itself
  if (isAnchor) {
    // Stryker disable next-line ArrayDeclaration: an empty issuer list restricts nothing, like none (see above)
    payload.trust_mark_issuers = Object.fromEntries(MARK_NAMES.map((n) => [markType(e.id, n), [e.id]]));
  }
  if (isAnchor && faults.has("ec-unsigned-dev-mode")) {
    const part = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString("base64url");
    return `${part({ alg: "none", typ: "entity-statement+jwt", kid: key.kid })}.${part(payload)}.`;
  }
  const signer = isAnchor && faults.has("ec-signed-with-stale-key") ? ctx.keys.key(e.id, -1) : key;
  // Stryker disable next-line ObjectLiteral: fault machinery: the kid given is the signing key's own (what sign uses without it) unless ec-no-kid is on
  return sign(payload, signer, isAnchor && faults.has("ec-typ-jwt") ? "JWT" : "entity-statement+jwt", {
    kid: isAnchor && faults.has("ec-no-kid") ? false : key.kid,
  });
}
