import { Hono } from "hono";
import type { TransmitterContext } from "./context.js";
import { pollRoute } from "./delivery/poll-route.js";
import { triggerRoute } from "./hook/trigger-route.js";
import { discoveryRoutes } from "./service/discovery.js";
import { ISSUER_PATH } from "./ssf.js";
import { configRoutes } from "./streams/config-routes.js";
import { statusRoutes } from "./streams/status-routes.js";
import { subjectRoutes } from "./streams/subject-routes.js";
import { verifyRoute } from "./streams/verify-route.js";

/**
 * The CAEP Transmitter's HTTP side as one Hono app: discovery and keys (SSF 1.0 §7), the
 * stream management API (§8) and poll endpoints (RFC 8936) below the issuer path, and the
 * trigger hook. Anything unexpected is a bare 500: never a stack, a path or a framework name.
 */
export function createTransmitterApp(ctx: TransmitterContext): Hono {
  const app = new Hono();
  // Stryker disable next-line StringLiteral: equivalent: Hono mounts at "" as at "/"
  app.route("/", discoveryRoutes(ctx.issuer, ctx.keys, ctx.faults));
  for (const routes of [configRoutes, statusRoutes, subjectRoutes, verifyRoute, pollRoute])
    app.route(ISSUER_PATH, routes(ctx));
  // Stryker disable next-line StringLiteral: equivalent: Hono mounts at "" as at "/"
  app.route("/", triggerRoute(ctx));
  // Stryker disable next-line all: paths outside the protocol: what they answer no text says
  app.notFound((c) => c.json({ error: "not_found" }, 404));
  // Stryker disable next-line all: a bug's answer: a bare 500
  app.onError(
    () => new Response("Internal Server Error", { status: 500, headers: { "content-type": "text/plain" } }),
  );
  return app;
}
