import type { FaultSet } from "../faults.js";
import type { ScimError } from "./scim-error.js";

export const ERROR_URN = "urn:ietf:params:scim:api:messages:2.0:Error";
export const LIST_URN = "urn:ietf:params:scim:api:messages:2.0:ListResponse";
export const SCIM_MEDIA_TYPE = "application/scim+json";

/** What a fault makes an error detail look like: an internal stack trace with file paths. */
const FAKE_STACK =
  "\nError: {detail}\n    at UserStore.get (/srv/app/src/store.js:42:11)\n" +
  "    at Router.handle (/srv/app/src/router.js:118:5)";

/** The database's own words for a uniqueness conflict, passed on by the `conflict-leaks-sql` fault. */
const DUPLICATE_KEY =
  // Stryker disable next-line StringLiteral: fault machinery: shown only under conflict-leaks-sql, never in a mutation run
  'ERROR: duplicate key value violates unique constraint "users_user_name_key" (SQLSTATE 23505)';

/** A filter parser's own runtime error, passed on by the `filter-error-runtime-message` fault. */
const RUNTIME_ERROR = "TypeError: Cannot read properties of undefined (reading 'toLowerCase')";

// Stryker disable all: used only under the error-no-scimtype fault, and a mutation run has no fault on
/** The scimTypes the error-no-scimtype fault leaves out: those of an unparsable filter or body. */
const omittable = (err: ScimError): boolean =>
  err.scimType === "invalidFilter" || err.scimType === "invalidSyntax";
// Stryker restore all

/** Writes SCIM responses: the media type and the error format, in one place. */
export interface Responder {
  /** A SCIM JSON body (RFC 7644 §3.1: application/scim+json). */
  json(body: unknown, status?: number, headers?: Record<string, string>): Response;
  /** A SCIM error body (RFC 7644 §3.12): status as a string, scimType when there is one. */
  error(err: ScimError): Response;
}

/**
 * The responder of one target. Faults `media-type-json`, `status-number` and
 * `error-stack-trace` act here and nowhere else, so they change only the shape they name.
 */
export function createResponder(faults: FaultSet): Responder {
  const mediaType = faults.has("media-type-json") ? "application/json" : SCIM_MEDIA_TYPE;
  const json: Responder["json"] = (body, status = 200, headers = {}) =>
    new Response(JSON.stringify(body), { status, headers: { ...headers, "content-type": mediaType } });
  return {
    json,
    error(err) {
      const detail = faults.has("error-stack-trace")
        ? `${err.detail}${FAKE_STACK.replace("{detail}", err.detail)}`
        : faults.has("conflict-leaks-sql") && err.scimType === "uniqueness"
          ? `${err.detail}: ${DUPLICATE_KEY}`
          : faults.has("filter-error-runtime-message") && err.scimType === "invalidFilter"
            ? RUNTIME_ERROR
            : err.detail;
      // error-no-scimtype: the 400s of an unparsable filter or body name no scimType.
      const scimType = faults.has("error-no-scimtype") && omittable(err) ? undefined : err.scimType;
      const body = {
        schemas: [ERROR_URN],
        status: faults.has("status-number") ? err.status : String(err.status),
        // Stryker disable next-line ConditionalExpression: equivalent when true: an undefined scimType is left out of the JSON body
        ...(scimType !== undefined ? { scimType } : {}),
        detail,
      };
      // error-powered-by-header: the framework's banner, as Express sends it unless disabled.
      const banner: Record<string, string> = faults.has("error-powered-by-header")
        ? { "x-powered-by": "Express" }
        : {};
      return json(body, err.status, { ...err.headers, ...banner });
    },
  };
}
