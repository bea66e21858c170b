/**
 * The Transmitter's JSON answers. Stream management answers carry `Cache-Control: no-store`
 * (SSF 1.0 §8.1.1 examples): they hold a Receiver's configuration.
 */
const NO_STORE = { "cache-control": "no-store" } as const;

/** A JSON answer with `status`. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...NO_STORE, ...headers },
  });
}

/** An empty answer (204 No Content, or 200 for an added subject). */
export function empty(status: number): Response {
  return new Response(null, { status, headers: NO_STORE });
}

/** The OAuth style error code of an error answer's body, by its status. */
// Stryker disable next-line all: SSF 1.0 signals stream management errors by status code alone; the body is the vendor's
const ERROR_CODES: Readonly<Record<number, string>> = { 403: "access_denied", 404: "not_found" };

/**
 * An error answer of stream management: the status SSF 1.0 names for the case, and an OAuth
 * style `{error, error_description}` body (the texts define no body; this is the vendor's).
 */
export function problem(status: number, description: string): Response {
  // Stryker disable next-line all: the body, as above
  return json({ error: ERROR_CODES[status] ?? "invalid_request", error_description: description }, status);
}
