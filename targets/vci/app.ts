import { Hono } from "hono";
import { ISSUER_PATH, type VciContext } from "./context.js";
import { jsonResponse } from "./http/reply.js";
import { credentialEndpoint } from "./issuance/credential-endpoint.js";
import { DeferredStore } from "./issuance/deferred-store.js";
import { deferredEndpoint } from "./issuance/deferred-endpoint.js";
import { nonceEndpoint } from "./issuance/nonce-endpoint.js";
import { Nonces } from "./issuance/nonces.js";
import { notificationEndpoint } from "./issuance/notification-endpoint.js";
import { metadataRoutes } from "./metadata/routes.js";
import { AccessTokens } from "./oauth/access-tokens.js";
import { authorizeRoutes, type Login } from "./oauth/authorize-routes.js";
import { AuthorizationCodes } from "./oauth/codes.js";
import { tokenEndpoint } from "./oauth/token-endpoint.js";
import { HOOK_PATH, hookRoute } from "./offer/hook-route.js";
import { offerRoute } from "./offer/offer-route.js";
import { OfferStore } from "./offer/store.js";

export interface VciAppOptions {
  readonly ctx: VciContext;
  readonly login: Login;
  /** Bearer token of the test hook. */
  readonly hookToken: string;
}

/**
 * The Credential Issuer of specs/000 and its own Authorization Server, as one Hono app:
 * discovery documents under /.well-known, the issuer's endpoints under /issuer, and the
 * test hook that makes offers. All state is in memory and bounded.
 */
export function createVciApp(o: VciAppOptions): Hono {
  const { ctx } = o;
  const offers = new OfferStore();
  const tokens = new AccessTokens();
  const codes = new AuthorizationCodes();
  const nonces = new Nonces(ctx.faults.has("nonce-predictable"));
  const deferred = new DeferredStore();

  const issuer = new Hono();
  issuer.get("/offers/:id", offerRoute(ctx, offers));
  issuer.route("/authorize", authorizeRoutes(ctx, offers, codes, o.login));
  issuer.post("/token", tokenEndpoint({ ctx, offers, codes, tokens }));
  issuer.post("/nonce", nonceEndpoint(ctx, nonces));
  issuer.post("/credential", credentialEndpoint({ ctx, tokens, nonces, deferred }));
  issuer.post("/deferred", deferredEndpoint({ ctx, tokens, deferred }));
  issuer.post("/notification", notificationEndpoint(ctx, tokens));

  const app = new Hono();
  // Stryker disable next-line StringLiteral: equivalent: Hono mounts a sub-app under "" exactly as under "/"
  app.route("/", metadataRoutes(ctx));
  app.post(HOOK_PATH, hookRoute(ctx, offers, o.hookToken));
  app.route(ISSUER_PATH, issuer);
  // Stryker disable next-line all: the status and body for a path or method the target does not serve are left open (specs/000 names none; RFC 9110 requires neither 404 nor 405 there), and no check probes one
  app.notFound(() => jsonResponse({ error: "not_found" }, 404));
  // Anything unexpected becomes a bare 500: never a stack, a path or a framework name.
  // Stryker disable next-line all: defensive: no handler of the correct target throws on any request, so this runs only on a target bug
  app.onError(() => jsonResponse({ error: "server_error" }, 500));
  return app;
}
