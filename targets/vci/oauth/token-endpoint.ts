import type { Context } from "hono";
import { PRE_AUTHORIZED_GRANT } from "../../../src/protocols/vci.js";
import type { ConfigurationId } from "../configurations.js";
import type { VciContext } from "../context.js";
import { readForm } from "../http/body.js";
import { badRequest, VciError } from "../http/errors.js";
import { errorResponse, jsonResponse, NO_STORE } from "../http/reply.js";
import { LIMITS } from "../limits.js";
import { sameSecret } from "../random.js";
import type { OfferStore } from "../offer/store.js";
import { newGrant, tokenLifetime, type AccessTokens, type Grant } from "./access-tokens.js";
import { issueDetails, parseAuthorizationDetails } from "./authorization-details.js";
import { s256, type AuthorizationCodes } from "./codes.js";

export interface TokenDeps {
  readonly ctx: VciContext;
  readonly offers: OfferStore;
  readonly codes: AuthorizationCodes;
  readonly tokens: AccessTokens;
}

/** Form parameters this endpoint knows (the `token-unknown-param-rejected` fault refuses others). */
// Stryker disable all: read only under the token-unknown-param-rejected fault
const KNOWN = new Set([
  "grant_type",
  "pre-authorized_code",
  "tx_code",
  "authorization_details",
  "client_id",
  "code",
  "code_verifier",
  "redirect_uri",
  "resource",
  "scope",
  "client_assertion_type",
  "client_assertion",
]);
// Stryker restore all

const invalidRequest = (d: string): VciError => badRequest("invalid_request", d);
const invalidGrant = (d: string): VciError => badRequest("invalid_grant", d);

/** The outcome of a grant: what the token allows, and authorization_details to answer. */
interface Granted {
  readonly grant: Grant;
  readonly details: Record<string, unknown>[] | undefined;
}

/**
 * The pre-authorized code grant (specs/000 Rules 5, Resources: Token Request; public-spec-facts
 * §1): a live, unused code; tx_code exactly when the offer had one; anonymous access allowed.
 */
function preAuthorized(deps: TokenDeps, form: URLSearchParams): Granted {
  const { ctx, offers } = deps;
  const code = form.get("pre-authorized_code");
  if (code === null || code === "") throw invalidRequest("pre-authorized_code is required");
  if (!form.has("client_id") && ctx.faults.has("anonymous-refused")) {
    throw badRequest("invalid_client", "client_id is required");
  }
  const offer = offers.byPreAuthorizedCode(code);
  if (offer === undefined && ctx.faults.has("code-unchecked") && !offers.wasIssued(code)) {
    return neverIssued(ctx, form);
  }
  const pre = offer?.preAuthorized;
  // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent: an offer found by its pre-authorized code always has that grant, so the two tests agree
  if (offer === undefined || pre === undefined) {
    throw invalidGrant("the pre-authorized code is unknown, expired or already used");
  }
  const sent = form.get("tx_code");
  if (pre.txCode !== undefined) {
    if (sent === null) {
      // Stryker disable next-line ConditionalExpression: equivalent in a clean run: false only under the tx-code-missing-accepted fault
      if (!ctx.faults.has("tx-code-missing-accepted"))
        throw invalidRequest("tx_code is required for this offer");
    } else if (
      !sameSecret(sent, pre.txCode) &&
      !ctx.faults.has("tx-code-unchecked") &&
      !(ctx.faults.has("tx-code-any-offer") && offers.isLiveTxCode(sent))
    ) {
      // Stryker disable next-line all: a bound on tx_code guesses that no requirement states (specs/000 Authentication 7 names no attempt limit)
      pre.txAttempts += 1;
      // Stryker disable next-line all: a bound on tx_code guesses that no requirement states (specs/000 Authentication 7 names no attempt limit)
      if (pre.txAttempts >= LIMITS.maxTxCodeAttempts) offers.withdrawCode(code);
      throw invalidGrant("the tx_code is wrong");
    }
  } else if (sent !== null && !ctx.faults.has("tx-code-unexpected-accepted")) {
    throw invalidRequest("this offer has no tx_code");
  }
  const rawDetails = form.get("authorization_details");
  let configurationIds = offer.configurationIds;
  // Stryker disable next-line ConditionalExpression,BlockStatement: ignoring authorization_details grants the offer's configurations, which the pre-authorized code stands for: unoffered ones are still never granted, and specs/000 Token Response additions does not require the grant to shrink to a requested subset
  if (rawDetails !== null) {
    configurationIds = parseAuthorizationDetails(ctx, rawDetails);
    if (
      !ctx.faults.has("details-unoffered-granted") &&
      configurationIds.some((id) => !offer.configurationIds.includes(id))
    ) {
      throw invalidRequest("authorization_details asks for a configuration the offer does not contain");
    }
  }
  // Stryker disable next-line ConditionalExpression: equivalent in a clean run: false only under the code-reusable fault
  if (!ctx.faults.has("code-reusable")) offers.withdrawCode(code);
  if (rawDetails === null)
    return { grant: newGrant(configurationIds, undefined, offer.deferred), details: undefined };
  const issued = issueDetails(ctx, configurationIds);
  return { grant: newGrant(configurationIds, issued.identifiers, offer.deferred), details: issued.details };
}

/**
 * The `code-unchecked` fault: a pre-authorized code this issuer never made is taken as an
 * offer of identity_sd_jwt without tx_code (any tx_code is ignored).
 */
// Stryker disable all: reached only under the code-unchecked fault
function neverIssued(ctx: VciContext, form: URLSearchParams): Granted {
  const offered: readonly ConfigurationId[] = ["identity_sd_jwt"];
  const rawDetails = form.get("authorization_details");
  if (rawDetails === null) return { grant: newGrant(offered, undefined, false), details: undefined };
  const configurationIds = parseAuthorizationDetails(ctx, rawDetails);
  if (configurationIds.some((id) => !offered.includes(id))) {
    throw invalidRequest("authorization_details asks for a configuration the offer does not contain");
  }
  const issued = issueDetails(ctx, configurationIds);
  return { grant: newGrant(configurationIds, issued.identifiers, false), details: issued.details };
}
// Stryker restore all

/** The authorization code grant (RFC 6749 §4.1.3, RFC 7636 S256): single use, bound to its request. */
function authorizationCode(deps: TokenDeps, form: URLSearchParams): Granted {
  const { ctx } = deps;
  // Stryker disable next-line all: specs/000 Token Request puts "tx_code MUST only be used with the pre-authorized code grant" on the Wallet and names no Authorization Server reaction here (public §6.3's invalid_request covers the pre-authorized grant only), and it also says unknown parameters are ignored
  if (form.has("tx_code")) throw invalidRequest("tx_code is only used with the pre-authorized code grant");
  const [code, verifier, redirectUri, clientId] = ["code", "code_verifier", "redirect_uri", "client_id"].map(
    (n) => form.get(n),
  );
  if (!code || !verifier || !redirectUri || !clientId) {
    throw invalidRequest("code, code_verifier, redirect_uri and client_id are required");
  }
  // auth-code-reusable: the code is looked up, never taken out.
  const authorized = ctx.faults.has("auth-code-reusable") ? deps.codes.peek(code) : deps.codes.take(code);
  if (authorized === undefined) throw invalidGrant("the code is unknown, expired or already used");
  if (!ctx.faults.has("pkce-unchecked") && !sameSecret(s256(verifier), authorized.codeChallenge))
    throw invalidGrant("code_verifier does not match");
  if (!ctx.faults.has("redirect-uri-unchecked") && redirectUri !== authorized.redirectUri)
    throw invalidGrant("redirect_uri differs from the authorization request");
  if (clientId !== authorized.clientId)
    throw invalidGrant("client_id differs from the authorization request");
  const ids = authorized.configurationIds;
  // Stryker disable all: an AS may answer authorization_details to a request by scope too; the Wallet then names the credential by identifier (specs/000 Credential Request), so no requirement tells the two apart
  if (!authorized.viaDetails || ctx.faults.has("authz-details-dropped")) {
    return { grant: newGrant(ids, undefined, authorized.deferred), details: undefined };
  }
  // Stryker restore all
  const issued = issueDetails(ctx, ids);
  return { grant: newGrant(ids, issued.identifiers, authorized.deferred), details: issued.details };
}

/**
 * POST /issuer/token (specs/000 Endpoints: Token Endpoint): 200 JSON with a 5-minute Bearer
 * token and Cache-Control: no-store, or a 400 OAuth error, also no-store.
 */
export function tokenEndpoint(deps: TokenDeps) {
  const { faults } = deps.ctx;
  return async (c: Context): Promise<Response> => {
    try {
      const form = await readForm(c.req.raw, LIMITS.maxSmallBodyBytes);
      if (faults.has("token-unknown-param-rejected")) {
        const other = [...form.keys()].find((k) => !KNOWN.has(k));
        if (other !== undefined) throw invalidRequest(`unknown parameter ${other.slice(0, 64)}`);
      }
      const grantType = form.get("grant_type");
      let granted: Granted;
      if (grantType === PRE_AUTHORIZED_GRANT) granted = preAuthorized(deps, form);
      else if (grantType === "authorization_code") granted = authorizationCode(deps, form);
      else if (grantType === null) throw invalidRequest("grant_type is required");
      else if (faults.has("grant-type-unsupported-invalid-request"))
        throw invalidRequest("this grant_type is not supported");
      else throw badRequest("unsupported_grant_type", "this grant_type is not supported");
      // token-dpop-unbound: typed DPoP though the Wallet sent no DPoP proof (nothing to bind it
      // to), an hour long, and accepted as a plain Bearer token everywhere.
      const unbound = faults.has("token-dpop-unbound");
      const lifetime = tokenLifetime(faults.has("token-long-lived") || unbound);
      const token = deps.tokens.issue(granted.grant, lifetime);
      return jsonResponse(
        {
          access_token: token,
          ...(faults.has("token-type-missing") ? {} : { token_type: unbound ? "DPoP" : "Bearer" }),
          expires_in: lifetime,
          ...(granted.details ? { authorization_details: granted.details } : {}),
        },
        200,
        // details-token-cacheable: the response built for authorization_details forgets no-store.
        // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent in a clean run: true only under the token-cacheable and details-token-cacheable faults
        faults.has("token-cacheable") || (faults.has("details-token-cacheable") && granted.details)
          ? {}
          : NO_STORE,
      );
    } catch (err) {
      // Stryker disable next-line ConditionalExpression: equivalent: every failure this handler meets is a VciError (any other would be a target bug, a 500 either way)
      if (err instanceof VciError)
        // Stryker disable next-line ObjectLiteral: equivalent in a clean run: cacheable is true only under the token-error-cacheable and invalid-grant-cacheable faults
        return errorResponse(err, {
          cacheable:
            // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent in a clean run: true only under the token-error-cacheable and invalid-grant-cacheable faults
            faults.has("token-error-cacheable") ||
            (faults.has("invalid-grant-cacheable") && err.error === "invalid_grant"),
        });
      throw err;
    }
  };
}
