import { Hono } from "hono";
import type { TransmitterContext } from "../context.js";
import type { JsonObject } from "../http/json-body.js";
import { empty, json, problem } from "../http/reply.js";
import { PATHS } from "../ssf.js";
import { body, caller, namedStream } from "./guard.js";
import { subjectProblem } from "./subjects.js";

/**
 * The Add and Remove Subject Endpoints (SSF 1.0 §8.1.3.2, §8.1.3.3): a valid subject
 * identifier is added (200, empty) or removed (204); an invalid one is 400. A stream that
 * holds the most subjects it may answers 403 to one more.
 */
export function subjectRoutes(ctx: TransmitterContext): Hono {
  const app = new Hono();
  app.post(PATHS.addSubject, async (c) => {
    const who = caller(ctx, c);
    if (who instanceof Response) return who;
    const b = await body(c);
    // Stryker disable next-line ConditionalExpression: equivalent: a refused body read as the request has no stream_id, which is answered 400 the same
    if (b instanceof Response) return b;
    // Stryker disable next-line StringLiteral: equivalent: the access kind matters only under the owner-check faults
    const stream = namedStream(ctx, who, b.stream_id, "write");
    if (stream instanceof Response) return stream;
    const p = subjectProblem(b.subject);
    if (p !== undefined) return problem(400, p);
    if (b.verified !== undefined && typeof b.verified !== "boolean")
      return problem(400, "verified is not a boolean");
    if (!stream.subjects.add(b.subject as JsonObject))
      return problem(403, "the stream holds the most subjects it may");
    return empty(ctx.faults.has("add-subject-201") ? 201 : 200);
  });
  app.post(PATHS.removeSubject, async (c) => {
    const who = caller(ctx, c);
    if (who instanceof Response) return who;
    const b = await body(c);
    // Stryker disable next-line ConditionalExpression: equivalent: a refused body read as the request has no stream_id, which is answered 400 the same
    if (b instanceof Response) return b;
    // Stryker disable next-line StringLiteral: equivalent: the access kind matters only under the owner-check faults
    const stream = namedStream(ctx, who, b.stream_id, "write");
    if (stream instanceof Response) return stream;
    const p = subjectProblem(b.subject);
    if (p !== undefined) return problem(400, p);
    stream.subjects.remove(b.subject as JsonObject);
    return ctx.faults.has("remove-subject-200") ? json({ stream_id: stream.id, removed: true }) : empty(204);
  });
  return app;
}
