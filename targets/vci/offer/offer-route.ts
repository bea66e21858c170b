import type { Context } from "hono";
import { jsonResponse, NO_STORE } from "../http/reply.js";
import type { VciContext } from "../context.js";
import type { OfferStore } from "./store.js";

/** An unsigned JWT (`alg: none`) whose payload is `payload` (the `offer-jwt` fault). */
// Stryker disable all: runs only under the fault "offer-jwt"
const unsignedJwt = (payload: unknown): string =>
  `${Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url")}.${Buffer.from(
    JSON.stringify(payload),
  ).toString("base64url")}.`;
// Stryker restore all

/** The offer object as served: JSON, or under a fault text/plain JSON or an unsigned JWT. */
function offerResponse(ctx: VciContext, object: Record<string, unknown>): Response {
  if (ctx.faults.has("offer-jwt")) {
    return new Response(unsignedJwt(object), {
      headers: { ...NO_STORE, "content-type": "application/jwt" },
    });
  }
  return jsonResponse(object, 200, NO_STORE, ctx.faults.has("offer-uri-text") ? "text/plain" : undefined);
}

/**
 * GET /issuer/offers/<id>: a Credential Offer by reference (specs/000 Endpoints: Wallet
 * Credential Offer Endpoint), `application/json`, unsigned, never cacheable. The
 * `offer-cacheable` fault serves the latest offer at `/issuer/offers/current`, cacheable;
 * `offer-uri-text` labels it text/plain, `offer-jwt` serves it as an unsigned JWT.
 */
export function offerRoute(ctx: VciContext, offers: OfferStore) {
  return (c: Context): Response => {
    // Stryker disable next-line StringLiteral: the route /offers/:id always has the parameter
    const id = c.req.param("id") ?? "";
    if (ctx.faults.has("offer-cacheable")) {
      if (id === "current" && offers.latest) {
        return jsonResponse(offers.latest.object, 200, { "cache-control": "public, max-age=3600" });
      }
      return jsonResponse({ error: "not_found" }, 404);
    }
    const offer = offers.byReference(id);
    // Stryker disable next-line all: the document defines no answer for a URI that names no offer (Endpoints: Wallet Credential Offer Endpoint); the suite only fetches URIs the issuer gave, and any error tells a Wallet there is no offer
    if (offer === undefined) return jsonResponse({ error: "not_found" }, 404, NO_STORE);
    return offerResponse(ctx, offer.object);
  };
}
