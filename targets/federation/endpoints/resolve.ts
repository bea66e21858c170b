import type { FedContext } from "../context.js";
import { FedError, invalidRequest, json, jwtResponse } from "../http/reply.js";
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
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a defensive bound no requirement states: the reference federation is two levels deep, and the test below already stops a cycle
    if (path.length > 8) continue;
    for (const s of last.superiors) {
      const up = ctx.registry.get(s);
      // Stryker disable next-line ConditionalExpression,LogicalOperator: unreachable in this federation's data by design: every superior is an entity of the registry, and no authority_hints make a cycle
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
 * still valid. Errors are thrown as FedError, which the app answers (errorResponse).
 */
export async function resolveEndpoint(ctx: FedContext, r: EndpointRequest): Promise<Response> {
  const { faults } = ctx;
  const subId = r.params.one("sub");
  const anchors = r.params.all("trust_anchor");
  if (subId === undefined || anchors.length === 0) throw invalidRequest("sub and trust_anchor are required");
  const sub = ctx.registry.get(subId);
  if (!sub) {
    if (faults.has("resolve-unknown-sub-500"))
      return json({ error: "server_error", error_description: "Cannot read properties of undefined" }, 500);
    throw new FedError(404, "invalid_subject", "the subject is not an entity of this federation");
  }
  // The path up to the first Trust Anchor asked that this resolver holds and the subject is below.
  const under = (a: string): Entity[] | undefined =>
    // Stryker disable next-line ConditionalExpression: the check never names an Intermediate as the Trust Anchor: which entities a resolver takes as Trust Anchors is its configuration, so no requirement states that answer
    ctx.registry.get(a)?.kind === "anchor" ? pathTo(ctx, sub, a) : undefined;
  // Stryker disable next-line ConditionalExpression: the check sends one trust_anchor, so the first path and the first found are the same
  let path = anchors.map(under).find((p) => p !== undefined);
  // A fault: an anchor the resolver does not know is read as "any anchor of the subject".
  if (!path && faults.has("resolve-any-trust-anchor"))
    path = [ctx.ids.anchor, ctx.ids.anchor2].map(under).find((p) => p !== undefined);
  if (!path) throw new FedError(404, "invalid_trust_anchor", "no trust chain to the Trust Anchors given");
  const anchor = (path[path.length - 1] as Entity).id;
  const chain: string[] = [await entityConfiguration(ctx, sub)];
  const statements: Record<string, unknown>[] = [];
  for (let i = 1; i < path.length; i++) {
    const claims = statementClaims(ctx, path[i] as Entity, path[i - 1] as Entity);
    statements.push(claims);
    chain.push(await signStatement(ctx, path[i] as Entity, path[i - 1] as Entity, claims));
  }
  // Stryker disable next-line ConditionalExpression,EqualityOperator: the check resolves subordinates, never the Trust Anchor itself (the only path of one entity)
  if (path.length > 1) chain.push(await entityConfiguration(ctx, path[path.length - 1] as Entity));
  // The chain's metadata_policy claims, from the Trust Anchor's down.
  const policies = statements
    .map((s) => s.metadata_policy as MetadataPolicy | undefined)
    .filter((p): p is MetadataPolicy => p !== undefined);
  // Stryker disable next-line MethodExpression: unreachable in this federation's data by design: only the Trust Anchor's Subordinate Statements carry a metadata_policy, so a chain has at most one
  policies.reverse();
  let metadata = resolveMetadata(
    publishedMetadata(ctx, sub),
    faults.has("resolve-statement-metadata-ignored")
      ? undefined
      : (statements[0]?.metadata as Metadata | undefined),
    faults.has("resolve-policy-ignored") ? [] : policies,
    faults,
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
      // Stryker disable next-line EqualityOperator: equivalent: the fixture's marks expire days from now or expired weeks ago, never at this second
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
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent: trust_marks is OPTIONAL, and an empty array carries what its absence does
    ...(marks.length > 0
      ? { trust_marks: marks.map((t) => ({ trust_mark_type: t.type, trust_mark: t.jwt })) }
      : {}),
  };
  const signer = faults.has("resolve-signed-by-subject") ? keyOf(ctx, sub) : keyOf(ctx, r.entity);
  const typ = faults.has("resolve-typ-entity-statement") ? "entity-statement+jwt" : "resolve-response+jwt";
  return jwtResponse(await sign(claims, signer, typ), "application/resolve-response+jwt");
}
