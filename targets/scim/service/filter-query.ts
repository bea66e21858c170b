import type { FaultSet } from "../faults.js";
import { compileFilter, type FilterSchema, type Predicate } from "./filter-eval.js";
import { FilterError, parseFilter } from "./filter-parse.js";
import { badRequest, ScimError } from "./scim-error.js";

/**
 * The predicate of a `filter` query parameter (RFC 7644 §3.4.2.2), or every resource
 * when there is none. A filter that cannot be parsed or names what cannot be filtered is
 * 400 invalidFilter (public-spec-facts §5); under `invalid-filter-500` it is a 500.
 */
export function filterFromQuery<T>(
  text: string | undefined,
  schema: FilterSchema<T>,
  faults: FaultSet,
): Predicate<T> {
  if (text === undefined) return () => true;
  try {
    return compileFilter(parseFilter(text), schema);
  } catch (err) {
    // Stryker disable next-line ConditionalExpression: equivalent: parseFilter and compileFilter throw only FilterError for any text; this keeps a bug of theirs a 500 rather than a 400
    if (!(err instanceof FilterError)) throw err;
    if (faults.has("invalid-filter-500"))
      throw new ScimError(500, undefined, "the request could not be processed");
    throw badRequest("invalidFilter", `the filter is not supported: ${err.message}`);
  }
}
