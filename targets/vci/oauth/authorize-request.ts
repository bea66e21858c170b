import { configurationOfScope, type ConfigurationId } from "../configurations.js";
import type { VciContext } from "../context.js";
import { VciError } from "../http/errors.js";
import type { OfferStore } from "../offer/store.js";
import { parseAuthorizationDetails } from "./authorization-details.js";
import { isPkceValue } from "./codes.js";

/** A validated Authorization Request (RFC 6749 §4.1.1, RFC 7636, RFC 9396, specs/000 Rules 4). */
export interface AuthorizationRequest {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly state: string | undefined;
  readonly codeChallenge: string;
  readonly configurationIds: readonly ConfigurationId[];
  readonly viaDetails: boolean;
  readonly deferred: boolean;
}

/** A problem the client is told by redirect (RFC 6749 §4.1.2.1), or on a page when it cannot be. */
export class AuthorizeError extends VciError {
  constructor(
    error: string,
    description: string,
    /** Where to redirect; undefined when client_id or redirect_uri are not trustworthy. */
    readonly redirect: { uri: string; state: string | undefined } | undefined,
  ) {
    super(400, error, description);
    // Stryker disable next-line StringLiteral: the class name never reaches the wire
    this.name = "AuthorizeError";
  }
}

/** RFC 8252 §7.3: loopback redirect URIs on 127.0.0.1 with a port, any path. */
const isLoopbackRedirect = (uri: string): boolean => {
  if (
    !/^http:\/\/127\.0\.0\.1:\d+(\/|\?|$)/.test(uri) ||
    // Stryker disable next-line EqualityOperator: a defensive bound; no requirement names 2048, and a 2048-character loopback URI is as allowed as a shorter one
    uri.length > 2048 ||
    uri.includes("#")
  )
    return false;
  try {
    // Stryker disable next-line ConditionalExpression: equivalent: a URI the anchored test above passes has host 127.0.0.1 (the port is followed by /, ? or the end)
    return new URL(uri).hostname === "127.0.0.1";
    // Stryker disable next-line all: a port above 65535 fails here; refused or accepted, the URI cannot be redirected to (new URL fails again), so the answer is never a redirect to it
  } catch {
    // Stryker disable next-line all: see the line above
    return false;
  }
};

/**
 * Validates the query of GET /issuer/authorize: response_type code, a client_id, a loopback
 * redirect_uri, PKCE S256, the credentials asked for by `authorization_details` or `scope`,
 * and an `issuer_state` (when present) of a live offer.
 */
export function readAuthorizationRequest(
  ctx: VciContext,
  offers: OfferStore,
  q: (name: string) => string | undefined,
): AuthorizationRequest {
  const clientId = q("client_id");
  const redirectUri = q("redirect_uri");
  if (
    clientId === undefined ||
    clientId === "" ||
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a defensive bound: this AS takes any client_id (no registration) and no requirement names 256
    clientId.length > 256
  ) {
    // Stryker disable next-line StringLiteral: shown on the error page only (no redirect): RFC 6749 §4.1.2.1 asks no code or text of it
    throw new AuthorizeError("invalid_request", "client_id is required", undefined);
  }
  if (redirectUri === undefined || !isLoopbackRedirect(redirectUri)) {
    throw new AuthorizeError(
      // Stryker disable next-line StringLiteral: shown on the error page only (no redirect); RFC 6749 §4.1.2.1 asks no error code of it
      "invalid_request",
      // Stryker disable next-line StringLiteral: free text for a person on the error page
      "redirect_uri must be an http://127.0.0.1:<port> URL",
      undefined,
    );
  }
  const state = q("state");
  const fail = (error: string, description: string) =>
    new AuthorizeError(error, description, { uri: redirectUri, state });
  if (q("response_type") !== "code") throw fail("unsupported_response_type", "response_type must be code");
  const challenge = q("code_challenge");
  // Stryker disable next-line ConditionalExpression,LogicalOperator: whether an AS requires PKCE is left open (RFC 7636 §4.4.1 "if the server requires PKCE"; specs/000 says nothing), so accepting a request without a well-formed code_challenge is no violation the suite can judge; the flow with PKCE is judged by VCI-AUTHZ-PKCE
  if (challenge === undefined || !isPkceValue(challenge))
    // Stryker disable next-line StringLiteral: reached only by a request the suite cannot judge (see the line above)
    throw fail("invalid_request", "code_challenge is required");
  if (q("code_challenge_method") !== "S256")
    throw fail("invalid_request", "code_challenge_method must be S256");
  const details = q("authorization_details");
  let configurationIds: ConfigurationId[];
  if (details !== undefined) {
    try {
      configurationIds = parseAuthorizationDetails(ctx, details);
    } catch (err) {
      // RFC 9396 §5: authorization_details that do not conform answer invalid_authorization_details.
      throw fail(
        ctx.faults.has("authorization-details-invalid-request")
          ? "invalid_request"
          : "invalid_authorization_details",
        // Stryker disable next-line all: error_description is free text (RFC 6749 §4.1.2.1), and parseAuthorizationDetails throws only VciErrors
        err instanceof VciError ? err.description : "bad authorization_details",
      );
    }
  } else {
    const scopes = (q("scope") ?? "").split(" ").filter((s) => s !== "");
    configurationIds = [
      ...new Set(scopes.map(configurationOfScope).filter((id): id is ConfigurationId => id !== undefined)),
    ];
    if (configurationIds.length === 0)
      throw fail("invalid_scope", "no credential is requested by scope or authorization_details");
  }
  const issuerState = q("issuer_state");
  const offer = issuerState === undefined ? undefined : offers.byState(issuerState);
  if (issuerState !== undefined && offer === undefined)
    throw fail("invalid_request", "issuer_state is unknown or expired");
  return {
    clientId,
    redirectUri,
    state,
    codeChallenge: challenge,
    configurationIds,
    viaDetails: details !== undefined,
    deferred: offer?.deferred ?? false,
  };
}
