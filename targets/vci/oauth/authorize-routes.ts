import { Hono, type Context } from "hono";
import { endpoint, type VciContext } from "../context.js";
import { readForm } from "../http/body.js";
import { VciError } from "../http/errors.js";
import { LIMITS } from "../limits.js";
import type { OfferStore } from "../offer/store.js";
import { randomId, sameSecret } from "../random.js";
import { ExpiringStore } from "../store.js";
import { consentPage, errorPage, loginPage } from "./auth-pages.js";
import { AuthorizeError, readAuthorizationRequest, type AuthorizationRequest } from "./authorize-request.js";
import type { AuthorizationCodes } from "./codes.js";

/** The demo End-User's login (the password is random per start). */
export interface Login {
  readonly username: string;
  readonly password: string;
}

interface Pending {
  readonly request: AuthorizationRequest;
  authenticated: boolean;
}

// Stryker disable all: the headers of the AS's own login, consent and error pages: specs/000 and RFC 6749 state none (RFC 9700's anti-framing advice is not cited)
const html = (body: string, status = 200): Response =>
  new Response(body, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
      "x-frame-options": "DENY",
    },
  });
// Stryker restore all

/** 302 to the client's redirect_uri with `params` (RFC 6749 §4.1.2). */
function redirect(uri: string, params: Record<string, string | undefined>): Response {
  const url = new URL(uri);
  // Stryker disable next-line ConditionalExpression: only a request without state reaches it; RFC 6749 §4.1.2.1 asks state back only when the request had one and forbids no other
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return new Response(null, {
    status: 302,
    // Stryker disable next-line StringLiteral: no requirement states the headers of the redirect beyond Location
    headers: { location: url.toString(), "cache-control": "no-store" },
  });
}

/**
 * The Authorization Endpoint (specs/000 Rules 4): GET validates the request and shows a
 * login page; the pages post back to the same URL with the pending request's random id in
 * a hidden field (no cookies). After login the consent page lists the claims; consent
 * redirects with a code, deny with `access_denied`.
 */
export function authorizeRoutes(
  ctx: VciContext,
  offers: OfferStore,
  codes: AuthorizationCodes,
  login: Login,
): Hono {
  const pending = new ExpiringStore<Pending>();
  const action = () => endpoint(ctx, "authorize");
  const app = new Hono();

  // Stryker disable next-line StringLiteral: equivalent: Hono routes "" as "/" in a mounted app
  app.get("/", (c: Context) => {
    // authorize-issuer-state-error-page: issuer_state looked up in the wrong store, so every
    // request carrying one (a valid request of an offer among them) gets an error page.
    if (ctx.faults.has("authorize-issuer-state-error-page") && c.req.query("issuer_state") !== undefined)
      return html(errorPage("issuer_state is unknown or expired"), 400);
    try {
      const request = readAuthorizationRequest(ctx, offers, (n) => c.req.query(n));
      const id = randomId();
      pending.set(id, { request, authenticated: false }, LIMITS.pendingAuthorizationLifetimeSeconds);
      return html(loginPage(action(), id));
    } catch (err) {
      if (err instanceof AuthorizeError && err.redirect) {
        return redirect(err.redirect.uri, {
          error: err.error,
          error_description: err.description,
          state: ctx.faults.has("authorize-error-no-state") ? undefined : err.redirect.state,
        });
      }
      // Stryker disable next-line all: runs only under the fault "authorize-error-open-redirect"
      const open = ctx.faults.has("authorize-error-open-redirect") ? c.req.query("redirect_uri") : undefined;
      // Stryker disable next-line all: runs only under the fault "authorize-error-open-redirect"
      if (err instanceof AuthorizeError && open !== undefined && URL.canParse(open))
        return redirect(open, { error: err.error, state: c.req.query("state") });
      if (err instanceof VciError) return html(errorPage(err.description), 400);
      throw err;
    }
  });

  // Stryker disable next-line StringLiteral: equivalent: Hono routes "" as "/" in a mounted app
  app.post("/", async (c: Context) => {
    let form: URLSearchParams;
    try {
      form = await readForm(c.req.raw, LIMITS.maxSmallBodyBytes);
    } catch (err) {
      if (err instanceof VciError) return html(errorPage(err.description), err.status);
      throw err;
    }
    const id = form.get("pending") ?? "";
    const p = pending.get(id);
    if (p === undefined) return html(errorPage("This authorization request is unknown or has expired."), 400);
    const decision = form.get("decision");
    if (!p.authenticated) {
      const ok =
        sameSecret(form.get("username") ?? "", login.username) &&
        sameSecret(form.get("password") ?? "", login.password);
      if (!ok) return html(loginPage(action(), id, "Unknown user name or wrong password."));
      p.authenticated = true;
      return html(consentPage(action(), id, p.request.configurationIds));
    }
    const { request } = p;
    if (decision === "deny") {
      pending.delete(id);
      return redirect(request.redirectUri, { error: "access_denied", state: request.state });
    }
    if (decision !== "consent") return html(consentPage(action(), id, request.configurationIds));
    pending.delete(id);
    const code = codes.issue({
      clientId: request.clientId,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      configurationIds: request.configurationIds,
      viaDetails: request.viaDetails,
      deferred: request.deferred,
    });
    return redirect(request.redirectUri, { code, state: request.state });
  });
  return app;
}
