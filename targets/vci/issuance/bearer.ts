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
 * The grant of the request's bearer token (RFC 6750 §2.1, §3): none → 401 with
 * `WWW-Authenticate: Bearer`; unknown or expired → 401 with `error="invalid_token"`.
 */
export function bearerGrant(
  authorization: string | undefined,
  tokens: AccessTokens,
  policy: BearerPolicy,
): Grant {
  const token = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(authorization ?? "")?.[1];
  if (authorization === undefined || !/^Bearer\b/i.test(authorization)) {
    if (policy.missingIs400) throw new VciError(400, "invalid_request", "an access token is required");
    throw new VciError(401, "invalid_token", "an access token is required", { "www-authenticate": "Bearer" });
  }
  const grant = token === undefined ? undefined : policy.anyToken ? tokens.latest : tokens.find(token);
  if (grant === undefined) throw invalidToken("the access token is unknown or expired");
  return grant;
}

/** 401 invalid_token with its challenge. */
export const invalidToken = (description: string): VciError =>
  new VciError(401, "invalid_token", description, { "www-authenticate": 'Bearer error="invalid_token"' });
