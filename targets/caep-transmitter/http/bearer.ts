import type { FaultSet } from "../faults.js";
import type { ReceiverAccount, Receivers } from "../service/receivers.js";
import { json } from "./reply.js";

/** Longest Authorization header looked at (a token is far shorter). */
const MAX_AUTHORIZATION = 4_096;

/**
 * A 401 with the RFC 6750 §3 challenge: the error attribute only when a token was sent and
 * failed (none for a request without credentials). The `no-www-authenticate` fault leaves the
 * challenge out, `challenge-error-always` says invalid_token even without a token, and
 * `challenge-description-unquoted` writes error_description without its quotes.
 */
function unauthorized(realm: string, faults: FaultSet, error?: string, description?: string): Response {
  const e = error ?? (faults.has("challenge-error-always") ? "invalid_token" : undefined);
  const params = [`realm="${realm}"`];
  if (e !== undefined) params.push(`error="${e}"`);
  if (description !== undefined)
    params.push(
      faults.has("challenge-description-unquoted")
        ? `error_description=${description}`
        : `error_description="${description}"`,
    );
  const headers: Record<string, string> = faults.has("no-www-authenticate")
    ? {}
    : { "www-authenticate": `Bearer ${params.join(", ")}` };
  return json(
    { error: e ?? "invalid_request", error_description: description ?? "a Bearer token is required" },
    401,
    headers,
  );
}

/** The token of `Authorization: Bearer <token>`, or undefined. */
function headerToken(req: Request, faults: FaultSet): string | undefined {
  const value = req.headers.get("authorization");
  if (value === null || value.length > MAX_AUTHORIZATION) return undefined;
  if (faults.has("authorization-last-word")) return value.trim().split(/\s+/).at(-1);
  const m = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(value);
  return m?.[1];
}

/**
 * Authenticates a stream management or poll request (SSF 1.0 §8, RFC 8936 §4, RFC 6750):
 * the Receiver's token only in the Authorization header. A token in the URL query is refused
 * (it leaks into logs): 400 when a header is present too (two methods at once, RFC 6750 §2),
 * else 401 with the challenge, as for no token; an unknown token is 401 invalid_token.
 */
export function authenticate(
  req: Request,
  receivers: Receivers,
  realm: string,
  faults: FaultSet,
): ReceiverAccount | Response {
  const header = headerToken(req, faults);
  const query = new URL(req.url).searchParams.get("access_token");
  if (query !== null && !faults.has("token-in-query-accepted")) {
    if (header !== undefined)
      return json({ error: "invalid_request", error_description: "use one way to send the token" }, 400);
    return unauthorized(realm, faults, "invalid_request", "send the token in the Authorization header");
  }
  const token = header ?? query ?? undefined;
  if (token === undefined) return unauthorized(realm, faults);
  const receiver = receivers.byToken(token);
  if (receiver !== undefined) return receiver;
  const fallback = receivers.all()[0];
  if (faults.has("any-bearer-accepted") && fallback !== undefined) return fallback;
  return unauthorized(realm, faults, "invalid_token", "the token is not valid");
}
