import { Hono } from "hono";
import type { AccessRegistry } from "./access-registry.js";
import type { UserStore } from "./user-store.js";

/**
 * GET /probe/users/{id}/access: a vendor test hook, outside SCIM and unauthenticated, that
 * shows whether a user can still act in the Application (specs/002 area C States: after
 * deactivation "all access ... MUST also be deactivated"). 200 {"active":true} when it
 * holds a live session, 403 {"active":false} when not, 404 for an unknown id.
 */
export function probeRoute(users: UserStore, access: AccessRegistry): Hono {
  const app = new Hono();
  app.get("/users/:id/access", (c) => {
    const id = c.req.param("id");
    // Stryker disable next-line all: equivalent under the probe contract (users.ts: 2xx can act; 401, 403 or 404 cannot): an unknown user then answers 403, no access all the same
    if (users.get(id) === undefined) return c.json({ error: "not_found" }, 404);
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: the probe contract reads the status only; the body is for people
    return access.canAct(id) ? c.json({ active: true }, 200) : c.json({ active: false }, 403);
  });
  return app;
}
