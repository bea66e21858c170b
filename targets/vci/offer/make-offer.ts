import { PRE_AUTHORIZED_GRANT } from "../../../src/protocols/vci.js";
import type { ConfigurationId } from "../configurations.js";
import { endpoint, type VciContext } from "../context.js";
import { randomDigits, randomId } from "../random.js";
import { newOfferId, type Offer } from "./store.js";

/** What the test hook asks for (all validated). */
export interface OfferOrder {
  readonly configurationIds: readonly ConfigurationId[];
  readonly txCode: boolean;
  readonly byReference: boolean;
  readonly deferred: boolean;
  readonly grant: "pre-authorized_code" | "authorization_code";
}

/** Length of the numeric Transaction Codes this issuer sends. */
export const TX_CODE_LENGTH = 6;

const TX_CODE_DESCRIPTION = "Enter the 6-digit code shown by the idconform demo issuer.";

/** The `tx-code-description-long` fault's description: 301 characters and more. */
// Stryker disable next-line all: runs only under the fault "tx-code-description-long"
const LONG_DESCRIPTION = `${TX_CODE_DESCRIPTION} `.repeat(6).slice(0, 320);

/**
 * Makes a Credential Offer (specs/000 Resources: Credential Offer object, Grant
 * parameters): a random single-use pre-authorized code, with a numeric tx_code when
 * asked, or an issuer_state for the authorization code flow.
 */
export function makeOffer(ctx: VciContext, order: OfferOrder): Offer {
  const issuer = ctx.issuer();
  // Only a pre-authorized grant carries it: an authorization_code order never reads it.
  const txCode = order.txCode ? randomDigits(TX_CODE_LENGTH) : undefined;
  const preAuthorized =
    // Stryker disable next-line ConditionalExpression: which grants an offer carries is the issuer's choice (Credential Offer object: grants OPTIONAL; with several the Wallet chooses), and the authorization code flow needs no grant of the offer (issuer_state is OPTIONAL)
    order.grant === "pre-authorized_code" ? { code: randomId(), txCode, txAttempts: 0 } : undefined;
  // Stryker disable next-line all: issuer_state is OPTIONAL (Grant parameters: authorization_code), so an authorization_code offer without one is conforming; a state made for a pre-authorized offer is never sent anywhere
  const issuerState = order.grant === "authorization_code" ? randomId() : undefined;
  const grants = preAuthorized
    ? {
        [PRE_AUTHORIZED_GRANT]: {
          "pre-authorized_code": preAuthorized.code,
          ...(ctx.faults.has("offer-authorization-server") ? { authorization_server: issuer } : {}),
          ...(txCode !== undefined
            ? {
                // Stryker disable next-line ObjectLiteral: an empty tx_code object is conforming (Grant parameters: "may be empty"); the code the hook gives is numeric, the default input_mode
                tx_code: {
                  input_mode: "numeric",
                  length: TX_CODE_LENGTH,
                  description: ctx.faults.has("tx-code-description-long")
                    ? LONG_DESCRIPTION
                    : TX_CODE_DESCRIPTION,
                },
              }
            : {}),
        },
      }
    : // Stryker disable next-line ObjectLiteral: grants absent or empty, or an authorization_code grant without issuer_state, are all conforming (Credential Offer object: grants OPTIONAL; issuer_state OPTIONAL)
      { authorization_code: { issuer_state: issuerState } };
  const listed: string[] = [...order.configurationIds];
  if (ctx.faults.has("offer-unknown-config")) listed.push("retired_config");
  return {
    id: newOfferId(),
    object: {
      credential_issuer: ctx.faults.has("offer-wrong-issuer") ? `${issuer}/` : issuer,
      credential_configuration_ids: listed,
      grants,
    },
    configurationIds: order.configurationIds,
    deferred: order.deferred,
    preAuthorized,
    issuerState,
  };
}

/**
 * The by-reference URI of an offer: unique per offer, unless the `offer-cacheable` fault;
 * plain http (which the server does not speak) under `offer-uri-http`.
 */
export function offerUri(ctx: VciContext, offer: Offer): string {
  const uri = endpoint(ctx, `offers/${ctx.faults.has("offer-cacheable") ? "current" : offer.id}`);
  return ctx.faults.has("offer-uri-http") ? uri.replace(/^https:/, "http:") : uri;
}

/**
 * The query of an offer invocation (specs/000 Endpoints: Wallet Credential Offer Endpoint):
 * exactly one of `credential_offer` and `credential_offer_uri` (both with `offer-both-params`),
 * percent-encoded (spaces as %20, never `+`; raw JSON under `offer-value-unencoded`).
 */
export function invocationQuery(ctx: VciContext, offer: Offer, byReference: boolean): string {
  const both = ctx.faults.has("offer-both-params");
  const parts: string[] = [];
  const json = JSON.stringify(offer.object);
  if (!byReference || both)
    parts.push(
      `credential_offer=${ctx.faults.has("offer-value-unencoded") ? json : encodeURIComponent(json)}`,
    );
  if (byReference || both) parts.push(`credential_offer_uri=${encodeURIComponent(offerUri(ctx, offer))}`);
  // Stryker disable next-line StringLiteral: joins two parameters only under the fault "offer-both-params"; a conforming invocation has one
  return parts.join("&");
}

/** The invocation URL with the custom scheme of the identifier set (`ids.offerScheme`). */
export const invocationUrl = (ctx: VciContext, offer: Offer, byReference: boolean): string =>
  `${ctx.ids.offerScheme}?${invocationQuery(ctx, offer, byReference)}`;
