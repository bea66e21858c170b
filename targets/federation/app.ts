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
    if (req.method !== "GET" && req.method !== "POST") {
      // 400, not 405: the base error table gives invalid_request that status (public-spec-facts §2 Errors).
      throw new FedError(400, "invalid_request", "the endpoint answers GET and POST");
    }
    const query = queryParams(url);
    let params = req.method === "POST" ? await formParams(req) : query;
    if (entity.protectedEndpoints && PROTECTABLE.has(name)) {
      if (req.method !== "POST")
        throw new FedError(401, "invalid_client", "client authentication (a form POST) is required");
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
        if (c.req.method !== "POST") throw new FedError(405, "invalid_request", "the hook answers POST");
        return await hook(c.req.raw, path.slice(HOOK_PATH.length));
      }
      if (path === EVENTS_DOC_PATH && c.req.method === "GET") return c.html(EVENTS_DOC);
      if (path.endsWith(WELL_KNOWN) && c.req.method === "GET") {
        const e = ctx.registry.get(`${ctx.origin}${path.slice(0, -WELL_KNOWN.length)}`);
        if (e) {
          const plain = e.id === ctx.ids.anchor && ctx.faults.has("ec-content-type-jwt");
          return jwtResponse(
            await entityConfiguration(ctx, e),
            plain ? "application/jwt" : "application/entity-statement+jwt",
          );
        }
      }
      const slash = path.lastIndexOf("/");
      const name = path.slice(slash + 1) as EndpointName;
      const e = ctx.registry.get(`${ctx.origin}${path.slice(0, slash)}`);
      if (e && endpointsOf(ctx, e).includes(name)) return await endpoint(name, e, c.req.raw, url);
      return json({ error: "not_found", error_description: "nothing is served at this path" }, 404);
    } catch (err) {
      if (err instanceof FedError) return errorResponse(err);
      throw err;
    }
  });
  // Anything unexpected becomes a bare 500: never a stack, a path or a framework name.
  app.onError(() =>
    json({ error: "server_error", error_description: "the request could not be processed" }, 500),
  );
  return app;
}
