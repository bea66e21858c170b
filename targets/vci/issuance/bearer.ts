import { VciError } from "../http/errors.js";
import type { AccessTokens, Grant } from "../oauth/access-tokens.js";

/** How a protected endpoint treats requests, per its faults. */
export interface BearerPolicy {
  /** A request without a token answers 400 invalid_request without a challenge. */
  readonly missingIs400: boolean;
  /** Any non-empty token is taken as the latest issued one. */
  readonly anyToken: boolean;
}

/**
 * The `error` of a 401's JSON body: RFC 6750 §3 carries the code in the WWW-Authenticate
 * challenge and leaves the body open.
 */
// Stryker disable next-line StringLiteral: RFC 6750 §3 leaves the body of a 401 open (the code travels in WWW-Authenticate, which is judged)
const INVALID_TOKEN = "invalid_token";

/**
 * The grant of the request's bearer token (RFC 6750 §2.1, §3): none → 401 with
 * `WWW-Authenticate: Bearer`; unknown or expired → 401 with `error="invalid_token"`.
 */
export function bearerGrant(
  authorization: string | undefined,
  tokens: AccessTokens,
  policy: BearerPolicy,
): Grant {
  // Stryker disable next-line StringLiteral: equivalent: without a header the test below refuses the request before the token is used
  const token = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(authorization ?? "")?.[1];
  if (authorization === undefined || !/^Bearer\b/i.test(authorization)) {
    // Stryker disable next-line all: missingIs400 is true only under the faults no-token-400 and notification-no-token-400
    if (policy.missingIs400) throw new VciError(400, "invalid_request", "an access token is required");
    throw new VciError(401, INVALID_TOKEN, "an access token is required", { "www-authenticate": "Bearer" });
  }
  // Stryker disable next-line ConditionalExpression: equivalent when false: no token is looked up as undefined, which finds no grant (anyToken is true only under the bad-token-accepted fault)
  const grant = token === undefined ? undefined : policy.anyToken ? tokens.latest : tokens.find(token);
  if (grant === undefined) throw invalidToken("the access token is unknown or expired");
  return grant;
}

/** 401 invalid_token with its challenge. */
export const invalidToken = (description: string): VciError =>
  new VciError(401, INVALID_TOKEN, description, { "www-authenticate": 'Bearer error="invalid_token"' });
