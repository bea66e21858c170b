import type { FedContext } from "../context.js";
import { errorResponse, FedError, invalidRequest, json, jwtResponse } from "../http/reply.js";
import { LIMITS } from "../limits.js";
import type { Entity, Metadata, MetadataPolicy } from "../model/entity.js";
import { entityConfiguration, publishedMetadata } from "../statements/entity-configuration.js";
import { keyOf, sign } from "../statements/sign.js";
import { signStatement, statementClaims } from "../statements/subordinate-statement.js";
import { resolveMetadata } from "./policy.js";
import type { EndpointRequest } from "./request.js";

/** The exp claim of a compact JWS this target signed. */
const expOf = (jwt: string): number =>
  (JSON.parse(Buffer.from(jwt.split(".")[1] ?? "", "base64url").toString("utf8")) as { exp: number }).exp;

/** The entities from `sub` up to `anchor` through authority_hints (breadth first), or undefined. */
function pathTo(ctx: FedContext, sub: Entity, anchor: string): Entity[] | undefined {
  const queue: Entity[][] = [[sub]];
  while (queue.length > 0) {
    const path = queue.shift() as Entity[];
    const last = path[path.length - 1] as Entity;
    if (last.id === anchor) return path;
    if (path.length > 8) continue;
    for (const s of last.superiors) {
      const up = ctx.registry.get(s);
      if (up && !path.includes(up)) queue.push([...path, up]);
    }
  }
  return undefined;
}

/**
 * The resolve endpoint (public-spec-facts §2 Resolve), for the entities this target serves:
 * `sub` and `trust_anchor` (repeatable) REQUIRED, `entity_type` repeatable; 200
 * application/resolve-response+jwt signed by the resolver, with the resolved metadata, the
 * trust chain (the subject's Entity Configuration, the Subordinate Statements up the chain, the
 * anchor's Entity Configuration) and the subject's Trust Marks the anchor issued and that are
 * still valid.
 */
export async function resolveEndpoint(ctx: FedContext, r: EndpointRequest): Promise<Response> {
  const { faults } = ctx;
  try {
    const subId = r.params.one("sub");
    const anchors = r.params.all("trust_anchor");
    if (subId === undefined || anchors.length === 0)
      throw invalidRequest("sub and trust_anchor are required");
    const sub = ctx.registry.get(subId);
    if (!sub) {
      if (faults.has("resolve-unknown-sub-500"))
        return json({ error: "server_error", error_description: "Cannot read properties of undefined" }, 500);
      throw new FedError(404, "invalid_subject", "the subject is not an entity of this federation");
    }
    let anchor = anchors.find((a) => ctx.registry.get(a)?.kind === "anchor" && pathTo(ctx, sub, a));
    // A fault: an anchor the resolver does not know is read as "any anchor of the subject".
    if (!anchor && faults.has("resolve-any-trust-anchor"))
      anchor = [ctx.ids.anchor, ctx.ids.anchor2].find((a) => pathTo(ctx, sub, a));
    const path = anchor === undefined ? undefined : pathTo(ctx, sub, anchor);
    if (!anchor || !path)
      throw new FedError(404, "invalid_trust_anchor", "no trust chain to the Trust Anchors given");
    const chain: string[] = [await entityConfiguration(ctx, sub)];
    const statements: Record<string, unknown>[] = [];
    for (let i = 1; i < path.length; i++) {
      const claims = statementClaims(ctx, path[i] as Entity, path[i - 1] as Entity);
      statements.push(claims);
      chain.push(await signStatement(ctx, path[i] as Entity, path[i - 1] as Entity, claims));
    }
    if (path.length > 1) chain.push(await entityConfiguration(ctx, path[path.length - 1] as Entity));
    const policies = faults.has("resolve-policy-ignored")
      ? []
      : statements
          .map((s) => s.metadata_policy as MetadataPolicy | undefined)
          .filter((p): p is MetadataPolicy => p !== undefined)
          .reverse();
    let metadata = resolveMetadata(
      publishedMetadata(ctx, sub),
      faults.has("resolve-statement-metadata-ignored")
        ? undefined
        : (statements[0]?.metadata as Metadata | undefined),
      policies,
      { subsetAsOneOf: faults.has("resolve-subset-as-one-of") },
    );
    const types = faults.has("resolve-entity-type-first-only")
      ? r.params.all("entity_type").slice(0, 1)
      : r.params.all("entity_type");
    if (types.length > 0 && !faults.has("resolve-entity-type-ignored"))
      metadata = Object.fromEntries(Object.entries(metadata).filter(([t]) => types.includes(t)));
    const now = ctx.now();
    const marks = sub.trustMarks.filter(
      (t) =>
        (t.verifiedBy === anchor || faults.has("resolve-trust-marks-unverified")) &&
        (t.exp > now || faults.has("resolve-expired-trust-marks")),
    );
    // exp: the earliest of the chain's statements and the Trust Marks included (Resolve Response).
    const exp = faults.has("resolve-exp-fixed-lifetime")
      ? now + 7 * LIMITS.statementLifetime
      : Math.min(...chain.map(expOf), ...marks.map((t) => t.exp));
    const sent = faults.has("resolve-chain-reversed")
      ? [...chain].reverse()
      : faults.has("resolve-chain-no-subject-ec")
        ? chain.slice(1)
        : faults.has("resolve-chain-no-anchor-ec")
          ? chain.slice(0, -1)
          : chain;
    const claims: Record<string, unknown> = {
      iss: r.entity.id,
      sub: faults.has("resolve-sub-anchor") ? anchor : sub.id,
      iat: now,
      exp,
      metadata,
      trust_chain: sent,
      ...(marks.length > 0
        ? { trust_marks: marks.map((t) => ({ trust_mark_type: t.type, trust_mark: t.jwt })) }
        : {}),
    };
    const signer = faults.has("resolve-signed-by-subject") ? keyOf(ctx, sub) : keyOf(ctx, r.entity);
    const typ = faults.has("resolve-typ-entity-statement") ? "entity-statement+jwt" : "resolve-response+jwt";
    return jwtResponse(await sign(claims, signer, typ), "application/resolve-response+jwt");
  } catch (err) {
    if (err instanceof FedError) return errorResponse(err);
    throw err;
  }
}
