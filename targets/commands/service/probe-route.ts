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
    if (
      account === undefined ||
      // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent: an account whose steady state is unknown holds no session, so it answers 403, which the probe's contract reads as 404 (cannot act)
      account.steady === "unknown"
    )
      // Stryker disable next-line ObjectLiteral,StringLiteral: the probe's contract is its status (2xx: can act; 401, 403 or 404: cannot); its body is for humans
      return c.json({ error: "not_found" }, 404);
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: the probe's contract is its status; its body is for humans
    return sessions.canAct(account.audSub) ? c.json({ active: true }, 200) : c.json({ active: false }, 403);
  });
  return app;
}
