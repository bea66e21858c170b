import type { FedContext } from "../context.js";
import { badRequest, errorResponse, FedError, json } from "../http/reply.js";
import { listPredicate, readListFilters } from "./filters.js";
import type { EndpointRequest } from "./request.js";

/**
 * The base list endpoint (public-spec-facts §2 List): a JSON array of the Immediate
 * Subordinates' identifiers, filtered by entity_type, trust_marked, trust_mark_type and
 * intermediate. It has no paging (that is what the extended list adds), so it is the one
 * answer whose size grows with the list.
 */
export function listEndpoint(ctx: FedContext, r: EndpointRequest): Response {
  try {
    if (r.params.has("intermediate") && ctx.faults.has("list-intermediate-invalid-request")) {
      throw badRequest("invalid_request", "unknown parameter: intermediate");
    }
    const filters = readListFilters(r.params);
    // A fault: the intermediate filter is parsed (a bad value is refused) but never applied.
    const keep = listPredicate(
      ctx,
      ctx.faults.has("list-intermediate-ignored") ? { ...filters, intermediate: undefined } : filters,
    );
    const out: string[] = [];
    for (const id of ctx.registry.subordinates(r.entity.id)) {
      const e = ctx.registry.get(id);
      if (e && keep(e) && !(ctx.faults.has("list-hides-suspended") && e.suspended)) out.push(id);
    }
    // A fault: the list wrapped in an envelope object, as the framework's collection resources are.
    // Stryker disable BlockStatement: the catch below runs only for a malformed filter value (trust_marked=maybe), whose answer no requirement states
    return json(ctx.faults.has("list-entities-object") ? { entities: out } : out);
  } catch (err) {
    // Stryker restore BlockStatement
    // Stryker disable next-line ConditionalExpression: see above
    if (err instanceof FedError) return errorResponse(err);
    throw err;
  }
}
