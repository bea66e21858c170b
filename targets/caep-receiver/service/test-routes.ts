import { Hono } from "hono";
import { readBoundedBody } from "../../../src/http/bounded-body.js";
import type { Directory } from "./directory.js";

// Stryker disable next-line all: a test hook outside the protocol: the size of its tiny JSON body is the Receiver's choice
const MAX_HOOK_BODY = 4096;

/** The member of a subject identifier of one format: `email` of an email subject, `id` of an opaque one. */
function member(subject: unknown, format: string, name: string): string | undefined {
  const s = subject as Record<string, unknown> | null;
  // Stryker disable next-line ConditionalExpression,LogicalOperator: the test hook's input checks: the harness sends well-formed bodies
  if (typeof s !== "object" || s === null || s.format !== format) return undefined;
  const value = s[name];
  // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,StringLiteral: the test hook's input checks: the harness sends well-formed bodies with fresh ids
  return typeof value === "string" && value !== "" && value.length <= 512 ? value : undefined;
}

/**
 * The vendor test hooks, outside the protocol and unauthenticated, through which a run sees
 * the effect of events: POST /hooks/session {user: email subject, session: opaque subject}
 * opens an active session (a login); GET /probe/sessions/{session} answers 200 while it is
 * active, 401 once revoked, 404 when unknown; GET /probe/users/{user}/access answers 200 while
 * the user has access, 403 once reduced, 404 when unknown.
 */
export function testRoutes(directory: Directory): Hono {
  const app = new Hono();
  app.post("/hooks/session", async (c) => {
    // Stryker disable all: the test hook's input checks and error answers: the harness sends well-formed bodies with fresh ids
    const text = await readBoundedBody(c.req.raw, MAX_HOOK_BODY);
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // answered below: no user or session
    }
    const user = member(body?.user, "email", "email");
    const session = member(body?.session, "opaque", "id");
    if (user === undefined || session === undefined) {
      return c.json(
        { error: "invalid_request", error_description: "user (email) and session (opaque) are required" },
        400,
      );
    }
    const opened = directory.open(user, session);
    if (opened === "conflict")
      return c.json({ error: "conflict", error_description: "the session exists" }, 409);
    if (opened === "full") return c.json({ error: "insufficient_storage" }, 507);
    // Stryker restore all
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: the hook's contract is its status; its body is for humans
    return c.json({ user, session, active: true }, 201);
  });
  app.get("/probe/sessions/:session", (c) => {
    const state = directory.sessionState(c.req.param("session"));
    // Stryker disable next-line all: equivalent: the probe's contract reads 401, 403 and 404 alike (not active)
    const inactive = state === "revoked" ? 401 : 404;
    // Stryker disable next-line ObjectLiteral: the probe's contract is its status; its body is for humans
    return c.json({ session: state }, state === "active" ? 200 : inactive);
  });
  app.get("/probe/users/:user/access", (c) => {
    const access = directory.accessOf(c.req.param("user"));
    // Stryker disable next-line all: equivalent: the probe's contract reads 401, 403 and 404 alike (no access)
    const denied = access === "reduced" ? 403 : 404;
    // Stryker disable next-line ObjectLiteral: the probe's contract is its status; its body is for humans
    return c.json({ access }, access === "granted" ? 200 : denied);
  });
  return app;
}
