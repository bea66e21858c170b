import { Hono } from "hono";
import type { FedContext } from "./context.js";
import { AUTH_PARAMETERS, ClientAuth } from "./endpoints/client-auth.js";
import { collectionEndpoint } from "./endpoints/collection.js";
import { Cursors } from "./endpoints/cursor.js";
import { EVENTS_DOC_PATH, eventsEndpoint } from "./endpoints/events.js";
import { extendedListEndpoint } from "./endpoints/extended-list.js";
import { Snapshots } from "./endpoints/fault-pagers.js";
import { fetchEndpoint } from "./endpoints/fetch.js";
import { listEndpoint } from "./endpoints/list.js";
import type { EndpointRequest } from "./endpoints/request.js";
import { resolveEndpoint } from "./endpoints/resolve.js";
import { changeHook, HOOK_PATH } from "./hook/change-hook.js";
import { formParams, queryParams } from "./http/params.js";
import { errorResponse, FedError, json, jwtResponse } from "./http/reply.js";
import type { Entity } from "./model/entity.js";
import { endpointsOf, type EndpointName } from "./statements/endpoints.js";
import { entityConfiguration } from "./statements/entity-configuration.js";

const WELL_KNOWN = "/.well-known/openid-federation";

/** The endpoints of specs/001 that the protected Intermediate serves only to authenticated clients. */
const PROTECTABLE: ReadonlySet<EndpointName> = new Set(["extended-list", "collection", "events"]);

// Stryker disable next-line StringLiteral: free text: the events documentation page is for people (FED-EVT-EVENT-KNOWN reads the operator's documented types from the profile)
const EVENTS_DOC = `<!DOCTYPE html><html lang="en"><head><title>Federation events</title></head><body>
<h1>Events of the idconform demo federation</h1><dl>
<dt id="metadata_update">metadata_update</dt><dd>The registry changed what it asserts about the entity's metadata.</dd>
<dt id="metadata_policy_update">metadata_policy_update</dt><dd>The metadata policy for the entity changed.</dd>
<dt id="jwks_update">jwks_update</dt><dd>The entity's Federation Entity Keys changed.</dd>
<dt id="suspension">suspension</dt><dd>The registration is suspended.</dd>
<dt id="revocation">revocation</dt><dd>The registration is revoked.</dd></dl></body></html>`;

/**
 * The federation reference target as one Hono app. Every entity lives under the target's
 * origin at its own path; a request is routed by its path: `<entity>/.well-known/openid-federation`
 * is the entity's Entity Configuration, `<entity>/<endpoint>` one of its endpoints, plus the
 * change hook and the events documentation page. All state is in memory and bounded.
 */
export function createFederationApp(ctx: FedContext, hookToken: string): Hono {
  const cursors = new Cursors(ctx.cursorKey);
  // The snapshot pager exists only while its fault is on (fault-pagers.ts is fault machinery).
  const snapshots = ctx.faults.has("xl-snapshot-cursor") ? new Snapshots() : undefined;
  const auth = new ClientAuth(ctx);
  const hook = changeHook(ctx, hookToken);

  async function endpoint(name: EndpointName, entity: Entity, req: Request, url: URL): Promise<Response> {
    // Stryker disable next-line ConditionalExpression,BlockStatement: a method other than GET or POST: public-spec-facts §2 Endpoints names the two a client uses, and no requirement states the answer to another
    if (req.method !== "GET" && req.method !== "POST") {
      // 400, not 405: the base error table gives invalid_request that status (public-spec-facts §2 Errors).
      // Stryker disable next-line StringLiteral: a method other than GET or POST (see above)
      throw new FedError(400, "invalid_request", "the endpoint answers GET and POST");
    }
    const query = queryParams(url);
    let params = req.method === "POST" ? await formParams(req) : query;
    if (entity.protectedEndpoints && PROTECTABLE.has(name)) {
      // Stryker disable next-line ConditionalExpression: equivalent for a GET without an assertion (authenticate refuses it 401 invalid_client just the same); a GET carrying an assertion in its query differs, and "authenticated requests MUST be POST" (specs/001 Authentication 1) binds the client, stating no answer for the server
      if (req.method !== "POST")
        // Stryker disable next-line StringLiteral: the code of the refusal of a GET: a GET is not how an authenticated request is made (specs/001 Authentication 1), so FED-AUTH-ASSERTION-CHECKED asks it only to be refused without data, any code
        throw new FedError(401, "invalid_client", "client authentication (a form POST) is required");
      // Stryker disable next-line StringLiteral: fault machinery: the endpoint's URL is read only under auth-aud-endpoint-url
      await auth.authenticate(entity, params, `${url.origin}${url.pathname}`);
    }
    params = params.without(AUTH_PARAMETERS);
    const r: EndpointRequest = { entity, method: req.method, url, params, query };
    switch (name) {
      case "fetch":
        return fetchEndpoint(ctx, r);
      case "list":
        return listEndpoint(ctx, r);
      case "resolve":
        return resolveEndpoint(ctx, r);
      case "extended-list":
        return extendedListEndpoint(ctx, { cursors, snapshots }, r);
      case "collection":
        return collectionEndpoint(ctx, cursors, r);
      case "events":
        return eventsEndpoint(ctx, r);
    }
  }

  const app = new Hono();
  app.all("*", async (c) => {
    const url = new URL(c.req.url);
    const path = url.pathname;
    try {
      if (path === HOOK_PATH || path.startsWith(`${HOOK_PATH}/`)) {
        // Stryker disable next-line ConditionalExpression,StringLiteral: test plumbing: the change hook's own method check; the suite always POSTs to it
        if (c.req.method !== "POST") throw new FedError(405, "invalid_request", "the hook answers POST");
        return await hook(c.req.raw, path.slice(HOOK_PATH.length));
      }
      // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: the events documentation page, linked as information_uri: specs/001 makes that member OPTIONAL for the End-User, and no requirement asks that it resolve
      if (path === EVENTS_DOC_PATH && c.req.method === "GET") return c.html(EVENTS_DOC);
      // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent for a GET: every other path this target serves is shorter than the suffix, so no entity is found and the request goes on below; another method on an Entity Configuration: no requirement states the answer
      if (path.endsWith(WELL_KNOWN) && c.req.method === "GET") {
        const e = ctx.registry.get(`${ctx.origin}${path.slice(0, -WELL_KNOWN.length)}`);
        // Stryker disable next-line ConditionalExpression: the Entity Configuration of an entity this target does not serve (then a 500, not a 404): no requirement states that answer
        if (e) {
          const plain = e.id === ctx.ids.anchor && ctx.faults.has("ec-content-type-jwt");
          return jwtResponse(
            await entityConfiguration(ctx, e),
            // Stryker disable next-line StringLiteral: fault machinery: plain is true only under ec-content-type-jwt
            plain ? "application/jwt" : "application/entity-statement+jwt",
          );
        }
      }
      const slash = path.lastIndexOf("/");
      const name = path.slice(slash + 1) as EndpointName;
      const e = ctx.registry.get(`${ctx.origin}${path.slice(0, slash)}`);
      // Stryker disable next-line ConditionalExpression,LogicalOperator: paths this target does not publish (an endpoint an entity does not have, no entity at all): no requirement states their answer, and the suite calls only the endpoints Entity Configurations publish
      if (e && endpointsOf(ctx, e).includes(name)) return await endpoint(name, e, c.req.raw, url);
      // Stryker disable next-line ObjectLiteral,StringLiteral: paths this target does not publish (see above)
      return json({ error: "not_found", error_description: "nothing is served at this path" }, 404);
    } catch (err) {
      // Stryker disable next-line ConditionalExpression: equivalent: nothing the routes call throws anything but a FedError (app.onError below is for what would)
      if (err instanceof FedError) return errorResponse(err);
      throw err;
    }
  });
  // Anything unexpected becomes a bare 500: never a stack, a path or a framework name.
  // Stryker disable next-line ArrowFunction: runs only for an error other than a FedError, which nothing the routes call throws
  app.onError(() =>
    // Stryker disable next-line ObjectLiteral,StringLiteral: see above
    json({ error: "server_error", error_description: "the request could not be processed" }, 500),
  );
  return app;
}
