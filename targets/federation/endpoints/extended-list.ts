import type { FedContext } from "../context.js";
import { parseBoolean, parseLimit, parseNumericDate, type Params } from "../http/params.js";
import { badRequest, errorResponse, FedError, htmlError, json } from "../http/reply.js";
import { LIMITS } from "../limits.js";
import type { Entity } from "../model/entity.js";
import type { Cursors } from "./cursor.js";
import { extendedEntry, updatedOf, type EntryRequest } from "./extended-entry.js";
import { offsetPage, type FaultPage, type Snapshots } from "./fault-pagers.js";
import { subordinate } from "./fetch.js";
import { listPredicate, readListFilters } from "./filters.js";
import type { EndpointRequest } from "./request.js";

/** The parameters the extended list knows (its own and the base list's filters). */
// Stryker disable ArrayDeclaration,StringLiteral: fault machinery: read only under unknown-parameter-rejected
const KNOWN = new Set([
  "from",
  "limit",
  "updated_after",
  "updated_before",
  "audit_timestamps",
  "claims",
  "entity_type",
  "trust_marked",
  "trust_mark_type",
  "intermediate",
]);
// Stryker restore ArrayDeclaration,StringLiteral

/** Thrown for a `from` the target never issued: answered per the faults' variants. */
class PageNotFound extends Error {}

/** The claims named in `claims`: comma-separated and repeated forms both (public-spec-facts §2). */
function claimNames(ctx: FedContext, p: Params): Set<string> {
  const values = ctx.faults.has("xl-claims-last-only") ? [p.lastValues().claims ?? ""] : p.all("claims");
  // Stryker disable next-line MethodExpression: spaces around a name are leniency specs/001 does not ask (claims is comma-separated), and an empty name matches no claim
  const names = values.flatMap((v) => v.split(",").map((s) => s.trim())).filter(Boolean);
  if (names.length > LIMITS.maxValuesPerName) throw badRequest("invalid_request", "too many claims");
  return new Set(names);
}

// Stryker disable all: fault machinery: called only under xl-offset-cursor or xl-snapshot-cursor
/** A faulty pager's page, its next key made a cursor. */
function faultyPage(deps: { cursors: Cursors }, scope: string, faulty: FaultPage | "unknown"): FaultPage {
  if (faulty === "unknown") throw new PageNotFound();
  return { ids: faulty.ids, nextKey: faulty.nextKey && deps.cursors.encode(scope, faulty.nextKey) };
}
// Stryker restore all

/** One page of the Immediate Subordinates of `issuer` that `keep` accepts. */
function pageOf(
  ctx: FedContext,
  deps: { cursors: Cursors; snapshots: Snapshots | undefined },
  issuer: Entity,
  o: { from: string | undefined; limit: number; keep: (e: Entity) => boolean; descending: boolean },
): FaultPage {
  const { faults, registry } = ctx;
  // Stryker disable next-line StringLiteral: equivalent: the list's cursors are made and read with the same scope, and every other list's scope differs from "" as well
  const scope = `xl|${issuer.id}`;
  const sorted = registry.subordinates(issuer.id);
  let fromKey: string | undefined;
  if (o.from !== undefined) {
    fromKey = deps.cursors.decode(scope, o.from);
    if (fromKey === undefined) throw new PageNotFound();
  }
  // Stryker disable next-line ObjectLiteral: fault machinery: read only under xl-offset-cursor or xl-snapshot-cursor
  if (faults.has("xl-offset-cursor"))
    return faultyPage(deps, scope, offsetPage(registry, sorted, { fromKey, limit: o.limit, keep: o.keep }));
  if (faults.has("xl-snapshot-cursor"))
    return faultyPage(
      deps,
      scope,
      (deps.snapshots as Snapshots).page(registry, sorted, { fromKey, limit: o.limit, keep: o.keep }),
    );
  if (
    fromKey !== undefined &&
    faults.has("xl-removed-from-ends-walk") &&
    !subordinate(ctx, issuer.id, fromKey)
  ) {
    return { ids: [], nextKey: undefined };
  }
  const page = registry.page(sorted, {
    from: fromKey,
    limit: o.limit,
    keep: o.keep,
    descending: o.descending,
  });
  let next = page.next;
  if (next !== undefined && faults.has("xl-border-repeats")) next = page.ids[page.ids.length - 1];
  if (next !== undefined && faults.has("xl-next-missing-one-left")) {
    const rest = registry.page(sorted, { from: next, limit: 1, keep: o.keep, descending: o.descending });
    if (rest.next === undefined) next = undefined;
  }
  return { ids: page.ids, nextKey: next === undefined ? undefined : deps.cursors.encode(scope, next) };
}

/**
 * The extended subordinate listing endpoint (specs/001 Endpoints: Extended subordinate
 * listing): the Immediate Subordinates in Entity Identifier order, `limit` per page (default
 * and upper limit in LIMITS), opaque inclusive `from`/`next` cursors, the base list's filters,
 * `updated_after`/`updated_before` (inclusive), `audit_timestamps` and `claims`.
 */
export async function extendedListEndpoint(
  ctx: FedContext,
  deps: { cursors: Cursors; snapshots: Snapshots | undefined },
  r: EndpointRequest,
): Promise<Response> {
  const { faults } = ctx;
  const p =
    faults.has("auth-xl-params-from-query") && r.entity.protectedEndpoints && r.method === "POST"
      ? r.query.over(r.params)
      : r.params;
  try {
    if (faults.has("unknown-parameter-rejected")) {
      const unknown = p.names().find((n) => !KNOWN.has(n));
      if (unknown !== undefined)
        throw badRequest("invalid_request", `unknown parameter ${unknown.slice(0, 64)}`);
    }
    if (faults.has("xl-limit-refused") && p.has("limit")) {
      throw badRequest("unsupported_parameter", "limit is not supported: the list comes in one response");
    }
    const limitGiven = p.one("limit");
    // xl-no-limit-unbounded: the page size is applied only to a limit given, so a request
    // without one gets every entry in one page, past the upper limit.
    const limit = faults.has("xl-limit-refused")
      ? Number.MAX_SAFE_INTEGER
      : limitGiven === undefined && faults.has("xl-no-limit-unbounded")
        ? Number.MAX_SAFE_INTEGER
        : faults.has("xl-limit-ignored")
          ? LIMITS.extendedListDefault
          : parseLimit(limitGiven, LIMITS.extendedListDefault, LIMITS.extendedListUpper);
    const after = parseNumericDate(
      // Stryker disable next-line StringLiteral: the name only words the error_description (free text)
      "updated_after",
      p.one("updated_after"),
    );
    const given = parseNumericDate(
      // Stryker disable next-line StringLiteral: the name only words the error_description (free text)
      "updated_before",
      p.one("updated_before"),
    );
    const before =
      after !== undefined && faults.has("xl-updated-before-dropped-with-after") ? undefined : given;
    const audit =
      parseBoolean(
        // Stryker disable next-line StringLiteral: the name only words the error_description (free text)
        "audit_timestamps",
        p.one("audit_timestamps"),
      ) === true;
    // Stryker disable next-line ObjectLiteral: fault machinery: both options differ from the defaults only under xl-trust-mark-type-every or xl-entity-type-from-statement
    const filters = listPredicate(ctx, readListFilters(p), {
      every: faults.has("xl-trust-mark-type-every"),
      // A fault: the types of the entity's statement, not its own.
      types: faults.has("xl-entity-type-from-statement")
        ? (e: Entity) => Object.keys(e.template.statementMetadata?.(e) ?? {})
        : undefined,
    });
    const keep = (e: Entity): boolean => {
      const u = updatedOf(ctx, e);
      if (after !== undefined && (faults.has("xl-updated-after-exclusive") ? u <= after : u < after))
        return false;
      if (before !== undefined && u > before) return false;
      return filters(e);
    };
    const descending = faults.has("xl-order-varies-with-limit") && limitGiven === undefined;
    const page = pageOf(ctx, deps, r.entity, { from: p.one("from"), limit, keep, descending });
    const req: EntryRequest = {
      claims: claimNames(ctx, p),
      claimsPresent: p.has("claims"),
      timestamps:
        (audit && !faults.has("xl-audit-timestamps-ignored")) ||
        ((after !== undefined || given !== undefined) && !faults.has("xl-updated-filter-no-timestamps")),
    };
    const entries = await Promise.all(page.ids.map((id) => extendedEntry(ctx, r.entity, id, req)));
    const body: Record<string, unknown> = { immediate_subordinate_entities: entries };
    if (page.nextKey !== undefined) body.next = page.nextKey;
    else if (faults.has("xl-next-empty-string")) body.next = "";
    return json(body, 200, faults.has("xl-served-as-html") ? "text/html; charset=utf-8" : "application/json");
  } catch (err) {
    if (err instanceof PageNotFound) {
      if (faults.has("xl-from-unknown-html")) return htmlError(404);
      if (faults.has("xl-from-unknown-400"))
        return errorResponse(badRequest("invalid_request", "from is not valid"));
      return errorResponse(new FedError(404, "page_not_found", "from names no page of this list"));
    }
    // Stryker disable next-line ConditionalExpression: equivalent: app.ts answers a FedError rethrown from here with the same errorResponse, and nothing here throws another error
    if (err instanceof FedError) return errorResponse(err);
    throw err;
  }
}
