import { Hono } from "hono";
import type { FaultSet } from "./faults.js";
import type { PushAuthorizations } from "./http/push-auth.js";
import { pushRoute } from "./http/push-route.js";
import type { Directory } from "./service/directory.js";
import type { Receiver } from "./service/receiver.js";
import { testRoutes } from "./service/test-routes.js";
import { PUSH_PATH } from "./ssf.js";

export interface ReceiverAppOptions {
  readonly faults: FaultSet;
  readonly receiver: Receiver;
  readonly directory: Directory;
  readonly authorizations: PushAuthorizations;
}

/**
 * The CAEP Receiver's HTTP side as one Hono app: the push endpoint (RFC 8935) and the test
 * hooks that show the effect of events. Anything unexpected is a bare 500: never a stack, a
 * path or a framework name.
 */
export function createReceiverApp(o: ReceiverAppOptions): Hono {
  const app = new Hono();
  app.post(
    PUSH_PATH,
    pushRoute({ receiver: o.receiver, authorizations: o.authorizations, faults: o.faults }),
  );
  // Stryker disable next-line all: RFC 8935 defines POST only; what other methods answer it leaves open
  app.all(PUSH_PATH, (c) => c.json({ err: "invalid_request", description: "use POST" }, 405));
  // Stryker disable next-line StringLiteral: equivalent: Hono mounts a sub-app at the root for "" as for "/"
  app.route("/", testRoutes(o.directory));
  // Stryker disable next-line all: paths outside the protocol: what they answer no text says
  app.notFound((c) => c.json({ error: "not_found" }, 404));
  // Stryker disable all: a bug's answer: a bare 500 (the malformed-500 and aliases-crash faults end here)
  app.onError(
    () => new Response("Internal Server Error", { status: 500, headers: { "content-type": "text/plain" } }),
  );
  // Stryker restore all
  return app;
}
