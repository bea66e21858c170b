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

/**
 * An error answer of stream management: the status SSF 1.0 names for the case, and an OAuth
 * style `{error, error_description}` body (the texts define no body; this is the vendor's).
 */
export function problem(status: number, error: string, description: string): Response {
  return json({ error, error_description: description }, status);
}
