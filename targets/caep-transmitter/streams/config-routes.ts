import { Hono } from "hono";
import type { TransmitterContext } from "../context.js";
import type { JsonObject } from "../http/json-body.js";
import { empty, json, problem } from "../http/reply.js";
import { PATHS } from "../ssf.js";
import { configOf, mismatchedProperty } from "./config.js";
import { InputProblem, readConfig } from "./config-input.js";
import { body, caller, namedStream } from "./guard.js";
import { deliveryAsSent } from "./fault-unvalidated-delivery.js";
import { eventsDelivered, type Stream } from "./stream.js";

/**
 * Applies an update (PATCH) or replacement (PUT) to a stream (SSF 1.0 §8.1.1.3, §8.1.1.4):
 * Transmitter-Supplied properties present must match; the Receiver-Supplied ones are read
 * (merged into the stored ones for an update), applied and answered 200 with the whole
 * configuration.
 */
async function change(
  ctx: TransmitterContext,
  stream: Stream,
  b: JsonObject,
  mode: "update" | "replace",
): Promise<Response> {
  const current = configOf(stream, ctx.issuer());
  const mismatch = ctx.faults.has("change-trusts-transmitter-supplied")
    ? undefined
    : mismatchedProperty(b, current);
  if (mismatch !== undefined) return problem(400, `${mismatch} does not match the Transmitter's value`);
  const merge = (mode === "update" && !ctx.faults.has("patch-as-put")) || ctx.faults.has("put-as-patch");
  const next = readConfig(b, merge ? stream.config : undefined);
  if (next instanceof InputProblem) return problem(400, next.message);
  if (mode === "update" && ctx.faults.has("patch-ignored")) {
    const shown = { config: stream.config, delivered: stream.eventsDelivered };
    stream.config = next;
    stream.eventsDelivered = eventsDelivered(next.eventsRequested, ctx.faults);
    const answer = configOf(stream, ctx.issuer());
    stream.config = shown.config;
    stream.eventsDelivered = shown.delivered;
    return json(answer);
  }
  await stream.reconfigure(next);
  return json(configOf(stream, ctx.issuer()));
}

/**
 * The Configuration Endpoint (SSF 1.0 §8.1.1): create (POST, 201), read one or list (GET),
 * update (PATCH), replace (PUT), delete (DELETE, 204). Every call needs the Receiver's token,
 * and sees only that Receiver's streams.
 */
export function configRoutes(ctx: TransmitterContext): Hono {
  const app = new Hono();
  app.post(PATHS.streams, async (c) => {
    const who = caller(ctx, c);
    if (who instanceof Response) return who;
    const b = await body(c);
    if (b instanceof Response) return b;
    if (ctx.faults.has("create-requires-events-requested") && b.events_requested === undefined)
      return problem(400, "events_requested is required");
    const config = ctx.faults.has("create-unvalidated-delivery") ? deliveryAsSent(b) : readConfig(b);
    if (config instanceof InputProblem) return problem(400, config.message);
    const stream = ctx.streams.create(who, config);
    if (stream === undefined) return problem(403, "this Receiver holds the most streams it may");
    return json(configOf(stream, ctx.issuer()), ctx.faults.has("create-200") ? 200 : 201);
  });
  app.get(PATHS.streams, (c) => {
    const who = caller(ctx, c);
    if (who instanceof Response) return who;
    const id = c.req.query("stream_id");
    if (id === undefined) {
      const mine = ctx.streams.of(who);
      const listed = ctx.faults.has("list-latest-only") ? mine.slice(-1) : mine;
      return json(listed.map((s) => configOf(s, ctx.issuer())));
    }
    // Stryker disable next-line StringLiteral: equivalent: the access kind matters only under the owner-check faults
    const stream = namedStream(ctx, who, id, "read");
    if (stream instanceof Response) return stream;
    const view = configOf(stream, ctx.issuer());
    if (ctx.faults.has("read-no-aud")) delete view.aud;
    return json(view);
  });
  for (const [method, mode] of [
    ["patch", "update"],
    ["put", "replace"],
  ] as const) {
    app[method](PATHS.streams, async (c) => {
      const who = caller(ctx, c);
      if (who instanceof Response) return who;
      const b = await body(c);
      // Stryker disable next-line ConditionalExpression: equivalent: a refused body read as the request has no stream_id, which is answered 400 the same
      if (b instanceof Response) return b;
      // Stryker disable next-line StringLiteral: equivalent: the access kind matters only under the owner-check faults
      const stream = namedStream(ctx, who, b.stream_id, "write");
      return stream instanceof Response ? stream : change(ctx, stream, b, mode);
    });
  }
  app.delete(PATHS.streams, async (c) => {
    const who = caller(ctx, c);
    if (who instanceof Response) return who;
    // Stryker disable next-line StringLiteral: equivalent: the access kind matters only under the owner-check faults
    const stream = namedStream(ctx, who, c.req.query("stream_id"), "write");
    if (stream instanceof Response) return stream;
    const shown = configOf(stream, ctx.issuer());
    await ctx.streams.delete(stream);
    return ctx.faults.has("delete-200") ? json(shown) : empty(204);
  });
  return app;
}
