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
  // Stryker disable next-line ArrayDeclaration: equivalent: realm is OPTIONAL (RFC 6750 §3)
  const params = [`realm="${realm}"`];
  if (e !== undefined) params.push(`error="${e}"`);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: error_description is OPTIONAL (RFC 6750 §3), and any text of it as good
  if (description !== undefined)
    params.push(
      faults.has("challenge-description-unquoted")
        ? `error_description=${description}`
        : // Stryker disable next-line StringLiteral: equivalent: an empty list element is allowed (RFC 9110 §5.6.1) and error_description is OPTIONAL
          `error_description="${description}"`,
    );
  const headers: Record<string, string> = faults.has("no-www-authenticate")
    ? {}
    : { "www-authenticate": `Bearer ${params.join(", ")}` };
  return json(
    // Stryker disable next-line all: the body of a 401: RFC 6750 names none (the challenge carries the error)
    { error: e ?? "invalid_request", error_description: description ?? "a Bearer token is required" },
    401,
    headers,
  );
}

/** The token of `Authorization: Bearer <token>`, or undefined. */
function headerToken(req: Request, faults: FaultSet): string | undefined {
  const value = req.headers.get("authorization");
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a bound of this Transmitter; no run sends a header this long
  if (value === null || value.length > MAX_AUTHORIZATION) return undefined;
  if (faults.has("authorization-last-word")) return value.trim().split(/\s+/).at(-1);
  // Stryker disable next-line Regex: lenient forms (junk before the scheme, one space or several) no probe sends; the shared family sends empty, doubled and foreign-scheme values
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
  // Stryker disable next-line StringLiteral: equivalent: a token in the query is refused either way (401 without a header token), and only the token-in-query-accepted fault reads it
  const query = new URL(req.url).searchParams.get("access_token");
  if (query !== null && !faults.has("token-in-query-accepted")) {
    // Stryker disable all: 400 or 401 for a token both in the header and the query (RFC 6750 §3.1 invalid_request, a SHOULD): no probe sends both
    if (header !== undefined)
      return json({ error: "invalid_request", error_description: "use one way to send the token" }, 400);
    // Stryker restore all
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
