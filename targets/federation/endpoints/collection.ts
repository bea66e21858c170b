import type { FedContext } from "../context.js";
import { parseLimit, type Params } from "../http/params.js";
import { badRequest, errorResponse, FedError, json } from "../http/reply.js";
import { LIMITS } from "../limits.js";
import { typesOf, type Entity } from "../model/entity.js";
import { holdsMark } from "../model/trust-marks.js";
import type { Cursors } from "./cursor.js";
import { ENTITY_CLAIMS, entityInfo, INFO_CLAIMS, searchText, type InfoRequest } from "./entity-info.js";
import { markCheck } from "./filters.js";
import { parseLocales } from "./locale.js";
import type { EndpointRequest } from "./request.js";

/** Claim names of entity_claims or info_claims (repeated, and comma-separated too), checked. */
function claimList(ctx: FedContext, p: Params, name: string, known: readonly string[]): string[] | undefined {
  if (!p.has(name)) return undefined;
  // Stryker disable MethodExpression,ConditionalExpression,StringLiteral: leniency no requirement states: specs/001 makes entity_claims and info_claims repeatable, one claim a value; how an empty item or spaces around a name in the comma form (public-spec-facts §2: seen in the wild) are read is the responder's (a harness sends neither)
  const names = p
    .all(name)
    .flatMap((v) => v.split(","))
    .map((s) => s.trim())
    .filter((s) => s !== "");
  // Stryker restore MethodExpression,ConditionalExpression,StringLiteral
  const unknown = names.find((n) => !known.includes(n));
  if (unknown !== undefined && !ctx.faults.has("coll-unknown-claim-ignored")) {
    throw badRequest("unsupported_claim", `${name}: ${unknown.slice(0, 64)} is not a supported claim`);
  }
  // Stryker disable next-line MethodExpression: fault machinery: an unknown name gets here only under coll-unknown-claim-ignored (it is refused above)
  return names.filter((n) => known.includes(n));
}

/**
 * The Trust Anchor a request collects under (specs/001 Endpoints: Entity collection,
 * trust_anchor): omitted, the responder when it is a Trust Anchor, else nothing (an empty
 * result); one of the federation's anchors; an external anchor the target was told about
 * (nothing collected below it); anything else is 404 invalid_trust_anchor.
 */
function anchorOf(ctx: FedContext, responder: Entity, given: string | undefined): string | "empty" {
  const { faults } = ctx;
  const own = responder.kind === "anchor" ? responder.id : undefined;
  if (given === undefined || faults.has("coll-trust-anchor-ignored")) {
    // Stryker disable next-line ConditionalExpression: equivalent when true: an undefined anchor collects nothing either (no entity is below it), the same empty 200; only a from sent where nothing is collected then gets page_not_found, which specs/001 allows as much as the empty result (from unknown: page_not_found; Rules 2: an empty result). The false variant, silenced with it, is killed (federation.collection-walk)
    if (own !== undefined) return own;
    if (faults.has("coll-intermediate-acts-as-anchor")) return responder.id;
    // Stryker disable next-line StringLiteral: equivalent: a request collected under "" lists nothing either (see above)
    return faults.has("coll-trust-anchor-ignored") ? ctx.ids.anchor : "empty";
  }
  if (ctx.registry.get(given)?.kind === "anchor") return given;
  // Stryker disable next-line ConditionalExpression,StringLiteral: test plumbing: otherAnchors is a start option (external Trust Anchors) no suite run passes, so the set is empty; and refusing such an anchor with invalid_trust_anchor is allowed (FED-COLL-TA-OTHER). The true variant, silenced with them, is killed (federation.collection-errors, FED-COLL-TA-UNKNOWN)
  if (ctx.otherAnchors.has(given)) return "empty";
  throw new FedError(404, "invalid_trust_anchor", "the Trust Anchor cannot be found or used");
}

/** The predicate of the request's filters over the entities below `anchor`. */
function filterOf(ctx: FedContext, p: Params, anchor: string, responder: Entity): (e: Entity) => boolean {
  const { faults, registry } = ctx;
  const types = faults.has("coll-entity-type-ignored") ? [] : p.all("entity_type");
  const markTypes = p.all("trust_mark_type");
  const check = {
    ...markCheck(ctx, faults.has("coll-trust-marks-unverified") ? { signature: false } : {}),
    anchor,
  };
  // Stryker disable StringLiteral,MethodExpression: query's matching semantics are the responder's (specs/001 Endpoints: Entity collection, query), and the responder MAY filter further (Entity collection response, entities): ignoring the query, or matching nothing, is such a choice
  const query = p.one("query");
  // coll-query-regex-500: the query becomes a regular expression, and a bad one throws (a 500).
  const pattern =
    query !== undefined && faults.has("coll-query-regex-500") ? new RegExp(query, "i") : undefined;
  const needle = query?.toLowerCase();
  // Stryker restore StringLiteral,MethodExpression
  return (e) => {
    const self = faults.has("coll-lists-anchor-itself") && anchor === responder.id && e.id === anchor;
    if (!(registry.isBelow(e, anchor) || self)) return false;
    // coll-omitted-anchor-immediate-only: without trust_anchor, only what the base list holds.
    if (
      faults.has("coll-omitted-anchor-immediate-only") &&
      !p.has("trust_anchor") &&
      !e.superiors.includes(anchor)
    )
      return false;
    // Stryker disable next-line MethodExpression: every type instead of any is a narrower result, which specs/001 allows (Entity collection response, entities: the responder MAY filter further)
    if (types.length > 0 && !typesOf(e).some((t) => types.includes(t))) return false;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent when true (or >= 0): every over no type is true, so nothing is left out. The false and <= 0 variants, silenced with them, are killed (federation.collection-filters)
    if (markTypes.length > 0) {
      const holds = (t: string): boolean => holdsMark(e, t, check);
      if (!(faults.has("coll-trust-mark-type-any") ? markTypes.some(holds) : markTypes.every(holds)))
        return false;
    }
    if (faults.has("coll-query-regex-500") && pattern !== undefined) return pattern.test(searchText(e));
    // Stryker disable next-line ConditionalExpression: query's matching semantics are the responder's (see above): true lists every entity for any query. The false variants, silenced with it, are killed (federation.collection-walk)
    return needle === undefined || searchText(e).includes(needle);
  };
}

/**
 * The entity collection endpoint (specs/001 Endpoints: Entity collection): GET with the
 * parameters in the query or form POST with them in the body; the entities directly or
 * indirectly below the chosen Trust Anchor in Entity Identifier order, filtered by entity_type
 * (any), trust_mark_type (every, verified with the collecting anchor's key and unexpired) and
 * query (a substring of the identifier or a display name), `limit` per page (never above the
 * upper limit), opaque `from`/`next`, and last_updated.
 */
export function collectionEndpoint(ctx: FedContext, cursors: Cursors, r: EndpointRequest): Response {
  const { faults, registry } = ctx;
  const p =
    faults.has("auth-coll-params-from-query") && r.method === "POST" && r.entity.protectedEndpoints
      ? r.query.over(r.params)
      : faults.has("coll-post-body-ignored") && r.method === "POST" && !r.entity.protectedEndpoints
        ? r.query
        : r.params;
  try {
    const anchor = anchorOf(ctx, r.entity, p.one("trust_anchor"));
    const limit = faults.has("coll-limit-ignored")
      ? LIMITS.collectionUpper
      : parseLimit(p.one("limit"), LIMITS.collectionUpper, LIMITS.collectionUpper);
    const req: InfoRequest = {
      entityClaims: claimList(
        ctx,
        p,
        "entity_claims",
        faults.has("coll-entity-claims-table-incomplete")
          ? ENTITY_CLAIMS.filter((n) => n !== "trust_marks")
          : ENTITY_CLAIMS,
      ),
      infoClaims: claimList(
        ctx,
        p,
        "info_claims",
        faults.has("coll-info-claims-table-incomplete")
          ? INFO_CLAIMS.filter((n) => n !== "logo_uri")
          : INFO_CLAIMS,
      ),
      locales: p.has("locale") ? parseLocales(p.all("locale")) : undefined,
      entityTypes: faults.has("coll-entity-type-ignored") ? [] : p.all("entity_type"),
    };
    const body: Record<string, unknown> = { entities: [] };
    // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent when true: nothing is below "empty" either, the same empty 200 (a from sent then gets page_not_found, allowed as much: see anchorOf). The false variant, silenced with them, is killed (federation.collection-walk)
    if (anchor !== "empty") {
      // Stryker disable next-line StringLiteral: a next issued for another responder or Trust Anchor is still a pointer the target issued: specs/001 (from: unknown or no longer known gives page_not_found) does not say it must be refused elsewhere, and FED-COLL-FROM-UNKNOWN judges never-issued values
      const scope = `coll|${r.entity.id}|${anchor}`;
      const from = p.one("from");
      // Stryker disable next-line ConditionalExpression: equivalent when false: decode of no from is undefined too (cursor.ts FORM does not match it). The true variant, silenced with it (from ignored), is killed (federation.collection-walk)
      let fromKey = from === undefined ? undefined : cursors.decode(scope, from);
      if (from !== undefined && fromKey === undefined) {
        if (faults.has("coll-from-unknown-first-page")) fromKey = undefined;
        else throw new FedError(404, "page_not_found", "from names no page of this collection");
      }
      const keep = filterOf(ctx, p, anchor, r.entity);
      const page = registry.page(registry.all(), { from: fromKey, limit, keep });
      let next = page.next;
      if (next !== undefined && faults.has("coll-next-skips-one"))
        next = registry.page(registry.all(), { from: next, limit: 1, keep }).next;
      if (next !== undefined && faults.has("coll-next-last-entry")) next = page.ids[page.ids.length - 1];
      body.entities = page.ids.map((id) => entityInfo(ctx, registry.get(id) as Entity, req));
      if (next !== undefined) body.next = cursors.encode(scope, next);
    }
    if ((body.entities as unknown[]).length === 0 && faults.has("coll-entities-null-when-empty"))
      body.entities = null;
    body.last_updated = faults.has("coll-no-last-updated") ? undefined : registry.lastChange;
    return json(body);
  } catch (err) {
    // Stryker disable next-line ConditionalExpression,BlockStatement: equivalent: app.ts answers a FedError thrown on with the same errorResponse(err), and anything else with a 500; this block differs only under coll-error-no-description and coll-page-not-found-400, and the one error other than FedError thrown here is coll-query-regex-500's SyntaxError
    if (err instanceof FedError) {
      const status =
        err.error === "page_not_found" && faults.has("coll-page-not-found-400") ? { status: 400 } : {};
      // Stryker disable next-line ObjectLiteral: fault machinery: the options differ from the defaults only under coll-error-no-description and coll-page-not-found-400
      return errorResponse(err, { bare: faults.has("coll-error-no-description"), ...status });
    }
    // Stryker disable next-line ConditionalExpression: fault machinery: a SyntaxError is thrown only under coll-query-regex-500
    if (err instanceof SyntaxError)
      // Stryker disable next-line ObjectLiteral,StringLiteral: fault machinery (coll-query-regex-500)
      return json({ error: "server_error", error_description: "internal error" }, 500);
    throw err;
  }
}
