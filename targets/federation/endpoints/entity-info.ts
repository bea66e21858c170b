import type { FedContext } from "../context.js";
import { typesOf, type Entity } from "../model/entity.js";
import { publishedMarks } from "../model/trust-marks.js";
import { matches } from "./locale.js";

/** The Entity Type Info claims of specs/001 (Entity Type Info object; Mapping). */
export const INFO_CLAIMS = [
  "display_name",
  // Stryker disable next-line StringLiteral: a responder may support fewer Entity Type Info claims: specs/001 has info_claims naming an unsupported claim refused with unsupported_claim, and the responder chooses the claims when info_claims is absent; each variant is such a responder (the claim neither given by default nor accepted)
  "description",
  // Stryker disable next-line StringLiteral: the same (see description)
  "keywords",
  // Stryker disable next-line StringLiteral: the same (see description)
  "logo_uri",
  // Stryker disable next-line StringLiteral: the same (see description)
  "policy_uri",
  // Stryker disable next-line StringLiteral: the same (see description)
  "information_uri",
];
/** The Entity Info claims of specs/001 (Entity Info object). */
export const ENTITY_CLAIMS = ["entity_id", "entity_types", "entity_infos", "trust_marks"];

/** What one collection request asks of each Entity Info. */
export interface InfoRequest {
  readonly entityClaims: readonly string[] | undefined;
  readonly infoClaims: readonly string[] | undefined;
  readonly locales: readonly string[] | undefined;
  /** entity_type of the request: entity_infos holds only these (and federation_entity). */
  readonly entityTypes: readonly string[];
}

/** Where display_name comes from when an entity type sets none (specs/001 Mapping). */
const DISPLAY_FALLBACK: Record<string, string> = {
  openid_relying_party: "client_name",
  oauth_client: "client_name",
  oauth_resource: "resource_name",
};

const hasClaim = (md: Record<string, unknown>, name: string): boolean =>
  Object.keys(md).some((k) => k === name || k.startsWith(`${name}#`));

/** The claims an Entity Type Info carries for a request (info_claims, or the default set). */
function infoNames(ctx: FedContext, asked: readonly string[] | undefined): readonly string[] {
  if (asked === undefined) return INFO_CLAIMS;
  if (ctx.faults.has("coll-info-claims-additive")) return [...new Set([...INFO_CLAIMS, ...asked])];
  if (ctx.faults.has("coll-info-claims-short-table"))
    return asked.filter((n) => n === "display_name" || n === "description");
  return asked;
}

/**
 * The Entity Type Info of one entity type (specs/001 Mapping and Language variants): each
 * claim with its untagged value and its language-tagged variants, display_name falling back to
 * client_name or resource_name; with `locale`, tagged variants only when a range matches their
 * tag (the untagged value always), without it every variant.
 */
function typeInfo(
  ctx: FedContext,
  type: string,
  md: Record<string, unknown>,
  req: InfoRequest,
): Record<string, unknown> | null {
  const { faults } = ctx;
  const out: Record<string, unknown> = {};
  for (const name of infoNames(ctx, req.infoClaims)) {
    const fallback = DISPLAY_FALLBACK[type];
    const source =
      name === "display_name" &&
      !hasClaim(md, name) &&
      fallback &&
      !faults.has("coll-display-name-no-fallback")
        ? fallback
        : name;
    for (const [key, value] of Object.entries(md)) {
      if (key === source) {
        const joined = name === "keywords" && Array.isArray(value) && faults.has("coll-keywords-joined");
        // Stryker disable next-line ConditionalExpression,EqualityOperator: fault machinery: the untagged value is left out only under coll-locale-drops-untagged (the false variant of the whole test, silenced with them, is killed by federation.collection-info-claims)
        if (req.locales === undefined || !faults.has("coll-locale-drops-untagged"))
          // Stryker disable next-line StringLiteral: fault machinery: keywords are joined only under coll-keywords-joined
          out[name] = joined ? value.join(", ") : value;
      } else if (key.startsWith(`${source}#`)) {
        const tag = key.slice(source.length + 1);
        const keep =
          req.locales === undefined
            ? !faults.has("coll-no-locale-untagged-only")
            : req.locales.some((r) => matches(faults, r, tag));
        if (keep) out[`${name}#${tag}`] = value;
      }
    }
  }
  return Object.keys(out).length === 0 && faults.has("coll-infos-null-for-bare-type") ? null : out;
}

// Stryker disable all: query's matching semantics are the responder's (specs/001 Endpoints: Entity collection, query), so is the text a query is matched against
/** Text the collection's `query` matches: the identifier and every display name. */
export function searchText(e: Entity): string {
  const parts = [e.id];
  for (const md of Object.values(e.template.metadata(e))) {
    for (const [k, v] of Object.entries(md)) {
      if (typeof v === "string" && /^(display_name|client_name|resource_name|organization_name)(#|$)/.test(k))
        parts.push(v);
    }
  }
  return parts.join("\n").toLowerCase();
}

// Stryker restore all
/**
 * One Entity Info object (specs/001 Entity Info object): entity_id; entity_types, every type
 * the entity's Entity Configuration declares; entity_infos, for the requested types (and
 * federation_entity) when entity_type is given; trust_marks as the entity publishes them.
 * With entity_claims, exactly the named claims.
 */
export function entityInfo(ctx: FedContext, e: Entity, req: InfoRequest): Record<string, unknown> {
  const { faults } = ctx;
  const metadata = e.template.metadata(e);
  const types = typesOf(e);
  const asked = req.entityClaims;
  const wanted = (claim: string): boolean =>
    asked === undefined || asked.includes(claim) || faults.has("coll-entity-claims-additive");
  // A fault: entity_claims taken as the whole projection, entity_id included, so it is left out
  // unless named.
  const idDropped =
    asked !== undefined && !asked.includes("entity_id") && faults.has("coll-entity-claims-drops-entity-id");
  const out: Record<string, unknown> = idDropped ? {} : { entity_id: e.id };
  // Stryker disable ConditionalExpression,LogicalOperator,StringLiteral: entity_infos is OPTIONAL and specs/001 (Entity Info object) names no entity type it must describe, only that with entity_type no other type but federation_entity may appear: each variant describes fewer types (none but federation_entity, or without it), a responder's choice. Silenced with them and killed (federation.collection-filters, federation.collection-info-claims): the variants describing every type whatever entity_type asks, or none
  const allTypes =
    req.entityTypes.length === 0 ||
    faults.has("coll-infos-unrequested-types") ||
    faults.has("coll-entity-type-ignored");
  const infoTypes = types.filter((t) => allTypes || req.entityTypes.includes(t) || t === "federation_entity");
  // Stryker restore ConditionalExpression,LogicalOperator,StringLiteral
  const infos = Object.fromEntries(infoTypes.map((t) => [t, typeInfo(ctx, t, metadata[t] ?? {}, req)]));
  const typesOmitted = asked === undefined && faults.has("coll-entity-types-omitted");
  if (wanted("entity_types") && !typesOmitted)
    out.entity_types = faults.has("coll-entity-types-from-infos") ? Object.keys(infos) : types;
  if (wanted("entity_infos")) out.entity_infos = infos;
  const marksAsked =
    wanted("trust_marks") && !(asked !== undefined && faults.has("coll-entity-claims-no-trust-marks"));
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent: an entity without Trust Marks then carries trust_marks [], which says as much as no trust_marks (specs/001 Entity Info object: trust_marks OPTIONAL, an array). Silenced with them and killed (federation.collection-entity-claims): the whole test true or false, and <= 0
  if (marksAsked && e.trustMarks.length > 0) {
    out.trust_marks = faults.has("coll-trust-marks-strings")
      ? e.trustMarks.map((m) => m.jwt)
      : publishedMarks(e);
  }
  return out;
}
