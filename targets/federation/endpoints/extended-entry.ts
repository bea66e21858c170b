import type { FedContext } from "../context.js";
import type { Entity } from "../model/entity.js";
import { publishedMarks } from "../model/trust-marks.js";
import { signStatement, statementClaims } from "../statements/subordinate-statement.js";

/** What one extended listing request asks of each entry. */
export interface EntryRequest {
  /** Names given in `claims` (split at commas). */
  readonly claims: ReadonlySet<string>;
  /** `claims` was sent at all (then subordinate_statement only when named). */
  readonly claimsPresent: boolean;
  /** registered and updated on every entry (audit_timestamps=true, or an updated_* filter). */
  readonly timestamps: boolean;
}

/** The claims the listing's second serializer (xl-statement-partial) leaves out. */
// Stryker disable next-line ArrayDeclaration,StringLiteral: fault machinery: read only under xl-statement-partial
const PARTIAL_DROPS = ["metadata_policy", "constraints", "source_endpoint"];

/** An entry's `updated`: the last change of its Subordinate Statement (or, under a fault, its registration). */
export const updatedOf = (ctx: FedContext, e: Entity): number =>
  ctx.faults.has("xl-updated-is-registration") ? e.registered : e.updated;

const time = (ctx: FedContext, t: number): number | string =>
  ctx.faults.has("xl-timestamps-iso") ? new Date(t * 1000).toISOString() : t;

/**
 * One element of immediate_subordinate_entities (specs/001 Extended listing response, entry
 * object): `id`; registered and updated when asked; subordinate_statement exactly when `claims`
 * names it; trust_marks from the entity's Entity Configuration; any other named claim from its
 * Subordinate Statement when the statement has it ("supported options SHOULD be all top-level
 * entity-statement claims").
 */
export async function extendedEntry(
  ctx: FedContext,
  issuer: Entity,
  id: string,
  req: EntryRequest,
): Promise<Record<string, unknown>> {
  const { faults } = ctx;
  const e = ctx.registry.get(id);
  // A fault: the entry keyed entity_id, the name the collection's Entity Info uses.
  const out: Record<string, unknown> = faults.has("xl-entry-entity-id") ? { entity_id: id } : { id };
  // A walk served from a snapshot (a fault) still lists entities removed since, with nothing more.
  if (!e) return out;
  // Naming registered or updated in claims is this target's leniency: they are entry members,
  // no entity-statement claims (specs/001 Extended listing response, entry object).
  // Stryker disable next-line StringLiteral: see above
  if (req.timestamps || req.claims.has("registered")) out.registered = time(ctx, e.registered);
  // Stryker disable next-line StringLiteral: see above
  if (req.timestamps || req.claims.has("updated")) out.updated = time(ctx, updatedOf(ctx, e));
  if (!req.claimsPresent) return out;
  const claims = statementClaims(ctx, issuer, e);
  const statement = req.claims.has("subordinate_statement") || faults.has("xl-statement-unasked");
  if (statement) {
    const signed = faults.has("xl-statement-partial")
      ? Object.fromEntries(Object.entries(claims).filter(([k]) => !PARTIAL_DROPS.includes(k)))
      : claims;
    out.subordinate_statement = await signStatement(ctx, issuer, e, signed);
  }
  for (const name of req.claims) {
    if (faults.has("xl-claims-whitelist") && name !== "trust_marks" && name !== "metadata") continue;
    if (name === "trust_marks" && !faults.has("xl-trust-marks-from-statement")) {
      if (e.trustMarks.length > 0)
        out.trust_marks = publishedMarks(e, faults.has("ec-trust-marks-legacy-id"));
    } else if (claims[name] !== undefined) {
      out[name] = claims[name];
    }
  }
  return out;
}
