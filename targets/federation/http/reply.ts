/** An error answer of a federation endpoint (public-spec-facts §2 Errors; specs/001 Errors). */
export class FedError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
  }
}

export const badRequest = (error: string, description: string): FedError =>
  new FedError(400, error, description);
export const invalidRequest = (description: string): FedError => badRequest("invalid_request", description);

/** A JSON response. */
export function json(body: unknown, status = 200, type = "application/json"): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": type } });
}

/** A signed statement, served with its media type. */
export function jwtResponse(token: string, type: string): Response {
  return new Response(token, { status: 200, headers: { "content-type": type } });
}

/** The JSON error body `{error, error_description}`; `bare` leaves the description out (a fault). */
export function errorResponse(err: FedError, o: { bare?: boolean; status?: number } = {}): Response {
  // Stryker disable next-line ObjectLiteral: fault machinery: bare is set only under the *-no-description faults
  const body = o.bare ? { error: err.error } : { error: err.error, error_description: err.description };
  return json(body, o.status ?? err.status);
}

// Stryker disable all: fault machinery: htmlError and textError answer only under faults (xl-from-unknown-html, evt-errors-plain-text)
/** A web framework's own HTML error page (what some faults answer instead of JSON). */
export function htmlError(status: number): Response {
  const text = `<!DOCTYPE html><html><head><title>Error</title></head><body><pre>Cannot GET page</pre></body></html>`;
  return new Response(text, { status, headers: { "content-type": "text/html; charset=utf-8" } });
}

/** A plain-text error body. */
export function textError(status: number, text: string): Response {
  return new Response(text, { status, headers: { "content-type": "text/plain; charset=utf-8" } });
}
// Stryker restore all
