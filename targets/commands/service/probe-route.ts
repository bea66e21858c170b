import { Hono } from "hono";
import type { AccountStore } from "./account-store.js";
import type { SessionRegistry } from "./sessions.js";

/**
 * GET /probe/accounts/{sub}/access: a vendor test hook, outside the protocol and
 * unauthenticated, showing whether an account of the trusted OP can still act at the RP
 * (specs/002 area A Endpoints, Invalidate Functionality). 200 {"active":true} when it holds
 * a live session, 403 {"active":false} when not, 404 for an account that does not exist.
 */
export function probeRoute(issuer: string, accounts: AccountStore, sessions: SessionRegistry): Hono {
  const app = new Hono();
  app.get("/accounts/:sub/access", (c) => {
    const account = accounts.bySub(issuer, c.req.param("sub"));
    if (account === undefined || account.steady === "unknown") return c.json({ error: "not_found" }, 404);
    return sessions.canAct(account.audSub) ? c.json({ active: true }, 200) : c.json({ active: false }, 403);
  });
  return app;
}
