import type { FedContext } from "../context.js";
import { parseBoolean, type Params } from "../http/params.js";
import { typesOf, type Entity } from "../model/entity.js";
import { holdsMark, type MarkCheck } from "../model/trust-marks.js";

/** The base list's filters (public-spec-facts §2 List), which the extended list accepts too. */
export interface ListFilters {
  readonly entityTypes: readonly string[];
  readonly trustMarked: boolean | undefined;
  readonly trustMarkTypes: readonly string[];
  readonly intermediate: boolean | undefined;
}

export function readListFilters(params: Params): ListFilters {
  return {
    entityTypes: params.all("entity_type"),
    // Stryker disable next-line StringLiteral: the first name only words the error_description (free text)
    trustMarked: parseBoolean("trust_marked", params.one("trust_marked")),
    trustMarkTypes: params.all("trust_mark_type"),
    // Stryker disable next-line StringLiteral: the first name only words the error_description (free text)
    intermediate: parseBoolean("intermediate", params.one("intermediate")),
  };
}

/** How the Trust Anchor's marks are judged: issued by it (signature) and still valid (exp). */
export const markCheck = (ctx: FedContext, o: { signature?: boolean } = {}): MarkCheck => ({
  anchor: ctx.ids.anchor,
  now: ctx.now(),
  expiry: !ctx.faults.has("trust-mark-expiry-ignored"),
  signature: o.signature ?? true,
});

/**
 * The predicate of `f` over subordinates: entity_type keeps entities with any of the types,
 * trust_mark_type those holding a valid mark of any listed type (specs/001: "at least one
 * listed Trust Mark type has been issued and is still valid"), or of every type when `every`
 * (a fault), trust_marked those with any valid mark, intermediate=true the Intermediates.
 */
export function listPredicate(
  ctx: FedContext,
  f: ListFilters,
  o: { every?: boolean; types?: ((e: Entity) => readonly string[]) | undefined } = {},
): (e: Entity) => boolean {
  const check = markCheck(ctx);
  const types = o.types ?? typesOf;
  return (e) => {
    if (f.entityTypes.length > 0) {
      const has = types(e);
      if (!f.entityTypes.some((t) => has.includes(t))) return false;
    }
    if (f.trustMarkTypes.length > 0) {
      const holds = (t: string): boolean => holdsMark(e, t, check);
      if (!(o.every ? f.trustMarkTypes.every(holds) : f.trustMarkTypes.some(holds))) return false;
    }
    if (f.trustMarked === true) {
      // A fault: trust_marked reads whether the configuration lists marks at all, not whether one holds.
      const marked = ctx.faults.has("list-trust-marked-presence")
        ? e.trustMarks.length > 0
        : e.trustMarks.some((m) => holdsMark(e, m.type, check));
      if (!marked) return false;
    }
    if (f.intermediate === true && e.kind !== "intermediate") return false;
    return true;
  };
}
