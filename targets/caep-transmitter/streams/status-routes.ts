import { Hono } from "hono";
import type { TransmitterContext } from "../context.js";
import type { StreamStatus } from "../delivery/outbox.js";
import { json, problem } from "../http/reply.js";
import { LIMITS } from "../limits.js";
import { PATHS } from "../ssf.js";
import { body, caller, namedStream } from "./guard.js";
import type { Stream } from "./stream.js";

const STATUSES: readonly string[] = ["enabled", "paused", "disabled"] satisfies StreamStatus[];

/** A stream's status as the Status Endpoint shows it (SSF 1.0 §8.1.2.1). */
function statusOf(stream: Stream, ctx: TransmitterContext): Record<string, string> {
  const status = ctx.faults.has("status-read-enabled") ? "enabled" : stream.status;
  // Stryker disable next-line ConditionalExpression,EqualityOperator,ObjectLiteral: reason is OPTIONAL in a status answer (SSF 1.0 §8.1.2.1)
  return { stream_id: stream.id, status, ...(stream.reason !== undefined ? { reason: stream.reason } : {}) };
}

/**
 * The Status Endpoint (SSF 1.0 §8.1.2): GET reads a stream's status, POST sets it to
 * enabled, paused or disabled (with an optional reason) and answers the new status.
 */
export function statusRoutes(ctx: TransmitterContext): Hono {
  const app = new Hono();
  app.get(PATHS.status, (c) => {
    const who = caller(ctx, c);
    if (who instanceof Response) return who;
    // Stryker disable next-line StringLiteral: equivalent: the access kind matters only under the owner-check faults
    const stream = namedStream(ctx, who, c.req.query("stream_id"), "read");
    return stream instanceof Response ? stream : json(statusOf(stream, ctx));
  });
  app.post(PATHS.status, async (c) => {
    const who = caller(ctx, c);
    if (who instanceof Response) return who;
    const b = await body(c);
    // Stryker disable next-line ConditionalExpression: equivalent: a refused body read as the request has no stream_id, which is answered 400 the same
    if (b instanceof Response) return b;
    // Stryker disable next-line StringLiteral: equivalent: the access kind matters only under the owner-check faults
    const stream = namedStream(ctx, who, b.stream_id, "write");
    if (stream instanceof Response) return stream;
    if (
      // Stryker disable next-line ConditionalExpression: equivalent: a status that is no string is in no list of statuses either
      typeof b.status !== "string" ||
      (!ctx.faults.has("status-unvalidated") && !STATUSES.includes(b.status))
    )
      return problem(400, "status is not enabled, paused or disabled");
    const reason = b.reason;
    // Stryker disable next-line EqualityOperator: a bound of this Transmitter (SSF states none); no run sends a reason this long
    if (reason !== undefined && (typeof reason !== "string" || reason.length > LIMITS.maxStateLength))
      return problem(400, "reason is not a short string");
    stream.setStatus(b.status as StreamStatus, reason);
    return json(statusOf(stream, ctx));
  });
  return app;
}
