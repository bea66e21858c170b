import type { MiddlewareHandler } from "hono";
import type { FaultSet } from "../faults.js";
import { ScimError } from "../service/scim-error.js";
import type { AccessTokens } from "./access-tokens.js";
import type { RateLimiter } from "./rate-limiter.js";

const REALM = 'Bearer realm="scim"';
/** RFC 6750 §2.1 b64token. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

export interface BearerGuardDeps {
  readonly tokens: AccessTokens;
  readonly rate: RateLimiter;
  readonly faults: FaultSet;
}

/**
 * Guards every SCIM endpoint (specs/002 area C Endpoints: "all SCIM operations are
 * authenticated and authorized with OAuth 2.0"; Authentication 2, 4; Limits):
 * no or a bad token → 401 with an RFC 6750 challenge; a token without `scim` → 403
 * insufficient_scope; more than the per-token rate → 429 with Retry-After.
 * Failures are thrown as SCIM errors, so they carry the SCIM error body.
 */
export function bearerGuard(deps: BearerGuardDeps): MiddlewareHandler {
  return async (c, next) => {
    // A client under a penalty (a gateway's limit, start option) is refused before any check.
    const penalty = deps.rate.penalty();
    if (penalty !== undefined)
      throw new ScimError(429, undefined, "too many requests from this client", {
        "retry-after": String(penalty),
      });
    const header = c.req.header("authorization");
    if (header === undefined && deps.faults.has("auth-optional")) return next();
    // Stryker disable next-line StringLiteral: equivalent: with no header, "" and the replacement text both fail the pattern
    const token = BEARER.exec(header ?? "")?.[1];
    if (token === undefined) {
      // A token was offered but not as a well-formed Bearer credential: say which.
      // Stryker disable next-line all: only chooses whether the challenge carries error="invalid_token", which RFC 6750 §3 leaves to the server
      const offered = header !== undefined && /^Bearer\b/i.test(header);
      // Under no-bearer-challenge the 401 carries no WWW-Authenticate challenge.
      throw new ScimError(
        401,
        undefined,
        "a valid Bearer access token is required",
        deps.faults.has("no-bearer-challenge")
          ? {}
          : { "www-authenticate": offered ? `${REALM}, error="invalid_token"` : REALM },
      );
    }
    // Under bad-token-accepted a token never issued (or expired) passes as one with scim.
    const grant =
      deps.tokens.lookup(token) ??
      (deps.faults.has("bad-token-accepted") ? { scopes: ["scim"], key: `unchecked:${token}` } : undefined);
    if (grant === undefined) {
      throw new ScimError(
        401,
        undefined,
        "the access token is unknown or expired",
        deps.faults.has("no-bearer-challenge")
          ? {}
          : { "www-authenticate": `${REALM}, error="invalid_token"` },
      );
    }
    // scope-checked-on-reads: the scope is checked on GET routes only.
    const unchecked =
      // Stryker disable next-line ConditionalExpression,LogicalOperator: fault machinery: false in a run without faults, whatever the operator
      deps.faults.has("scope-not-enforced") ||
      (deps.faults.has("scope-checked-on-reads") && c.req.method !== "GET");
    if (!grant.scopes.includes("scim") && !unchecked) {
      throw new ScimError(403, undefined, "the access token lacks the scim scope", {
        "www-authenticate": `${REALM}, error="insufficient_scope", scope="scim"`,
      });
    }
    // ratelimit-absent: no limit at all, however many requests a token sends.
    if (!deps.faults.has("ratelimit-absent") && !deps.rate.take(grant.key)) {
      throw new ScimError(
        429,
        undefined,
        "too many requests for this access token",
        deps.faults.has("ratelimit-no-retry-after")
          ? {}
          : { "retry-after": String(deps.rate.penalty() ?? 1) },
      );
    }
    await next();
  };
}
