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
  const names = p
    .all(name)
    .flatMap((v) => v.split(","))
    .map((s) => s.trim())
    .filter((s) => s !== "");
  const unknown = names.find((n) => !known.includes(n));
  if (unknown !== undefined && !ctx.faults.has("coll-unknown-claim-ignored")) {
    throw badRequest("unsupported_claim", `${name}: ${unknown.slice(0, 64)} is not a supported claim`);
  }
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
    if (own !== undefined) return own;
    if (faults.has("coll-intermediate-acts-as-anchor")) return responder.id;
    return faults.has("coll-trust-anchor-ignored") ? ctx.ids.anchor : "empty";
  }
  if (ctx.registry.get(given)?.kind === "anchor") return given;
  if (ctx.otherAnchors.has(given)) return "empty";
  throw new FedError(404, "invalid_trust_anchor", "the Trust Anchor cannot be found or used");
}

/** The predicate of the request's filters over the entities below `anchor`. */
function filterOf(ctx: FedContext, p: Params, anchor: string, responder: Entity): (e: Entity) => boolean {
  // coll-omitted-anchor-immediate-only: without trust_anchor, only what the base list holds.
  const immediate = !p.has("trust_anchor") && ctx.faults.has("coll-omitted-anchor-immediate-only");
  const { faults, registry } = ctx;
  const types = faults.has("coll-entity-type-ignored") ? [] : p.all("entity_type");
  const markTypes = p.all("trust_mark_type");
  const check = { ...markCheck(ctx, { signature: !faults.has("coll-trust-marks-unverified") }), anchor };
  const query = p.one("query");
  // coll-query-regex-500: the query becomes a regular expression, and a bad one throws (a 500).
  const pattern =
    query !== undefined && faults.has("coll-query-regex-500") ? new RegExp(query, "i") : undefined;
  const needle = query?.toLowerCase();
  const self = faults.has("coll-lists-anchor-itself") && anchor === responder.id;
  return (e) => {
    if (!(registry.isBelow(e, anchor) || (self && e.id === anchor))) return false;
    if (immediate && !e.superiors.includes(anchor)) return false;
    if (types.length > 0 && !typesOf(e).some((t) => types.includes(t))) return false;
    if (markTypes.length > 0) {
      const holds = (t: string): boolean => holdsMark(e, t, check);
      if (!(faults.has("coll-trust-mark-type-any") ? markTypes.some(holds) : markTypes.every(holds)))
        return false;
    }
    if (pattern !== undefined) return pattern.test(searchText(e));
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
  const post = r.method === "POST";
  const p =
    post && r.entity.protectedEndpoints && faults.has("auth-coll-params-from-query")
      ? r.query.over(r.params)
      : post && !r.entity.protectedEndpoints && faults.has("coll-post-body-ignored")
        ? r.query
        : r.params;
  try {
    const anchor = anchorOf(ctx, r.entity, p.one("trust_anchor"));
    const limit = faults.has("coll-limit-ignored")
      ? LIMITS.collectionUpper
      : parseLimit(p.one("limit"), LIMITS.collectionUpper, LIMITS.collectionUpper);
    const req: InfoRequest = {
      entityClaims: claimList(ctx, p, "entity_claims", ENTITY_CLAIMS),
      infoClaims: claimList(ctx, p, "info_claims", INFO_CLAIMS),
      locales: p.has("locale") ? parseLocales(p.all("locale")) : undefined,
      entityTypes: faults.has("coll-entity-type-ignored") ? [] : p.all("entity_type"),
    };
    const body: Record<string, unknown> = { entities: [] };
    if (anchor !== "empty") {
      const scope = `coll|${r.entity.id}|${anchor}`;
      const from = p.one("from");
      let fromKey = from === undefined ? undefined : cursors.decode(scope, from);
      if (from !== undefined && fromKey === undefined) {
        if (!faults.has("coll-from-unknown-first-page")) {
          throw new FedError(404, "page_not_found", "from names no page of this collection");
        }
        fromKey = undefined;
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
    if (!faults.has("coll-no-last-updated")) body.last_updated = registry.lastChange;
    return json(body);
  } catch (err) {
    if (err instanceof FedError) {
      const status =
        err.error === "page_not_found" && faults.has("coll-page-not-found-400") ? { status: 400 } : {};
      return errorResponse(err, { bare: faults.has("coll-error-no-description"), ...status });
    }
    if (err instanceof SyntaxError)
      return json({ error: "server_error", error_description: "internal error" }, 500);
    throw err;
  }
}
