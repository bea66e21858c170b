import { safeDescription, type VciError } from "./errors.js";

/** A JSON response with the given status and headers. */
export function jsonResponse(
  body: unknown,
  status = 200,
  headers: Record<string, string> = {},
  type = "application/json",
): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...headers, "content-type": type } });
}

/** Cache-Control: no-store, for every response carrying secrets or one-time values. */
export const NO_STORE = { "cache-control": "no-store" } as const;

/**
 * The JSON error response of `err`: `{error, error_description}`, its extra headers and,
 * unless `cacheable`, Cache-Control: no-store. `describe` may rewrite the description (the
 * `error-description-quotes` fault); otherwise it is kept to the allowed characters.
 */
export function errorResponse(
  err: VciError,
  opts: { cacheable?: boolean; describe?: (d: string) => string } = {},
): Response {
  const description = opts.describe ? opts.describe(err.description) : safeDescription(err.description);
  return jsonResponse({ error: err.error, error_description: description }, err.status, {
    // Stryker disable next-line ConditionalExpression: equivalent in a clean run: cacheable is true only under the token-error-cacheable and invalid-grant-cacheable faults
    ...(opts.cacheable === true ? {} : NO_STORE),
    ...err.headers,
  });
}
