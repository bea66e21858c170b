import { Hono } from "hono";
import type { TransmitterContext } from "../context.js";
import { json } from "../http/reply.js";
import { LIMITS } from "../limits.js";
import { PATHS, POLL_METHOD } from "../ssf.js";
import { body, caller } from "../streams/guard.js";
import type { Stream } from "../streams/stream.js";
import type { QueuedSet } from "./outbox.js";
import { readPoll, type PollInput } from "./poll-input.js";

/** An RFC 8936 error answer (§2.4.4 codes). */
// Stryker disable next-line ObjectLiteral,ArrowFunction: the body of a poll error: the run judges the status of a refused poll, and no requirement its body
const pollError = (status: number, err: string, description: string): Response =>
  json({ err, description }, status);

/**
 * Hands out a stream's SETs for one poll: at once when some wait, when `returnImmediately`
 * asks for it, or for an acknowledge-only poll (maxEvents 0); otherwise held until one arrives
 * or the long-poll bound passes (RFC 8936 §2.1), or the client goes away.
 */
async function collect(
  stream: Stream,
  p: PollInput,
  faults: TransmitterContext["faults"],
  signal: AbortSignal,
): Promise<{ sets: QueuedSet[]; more: boolean }> {
  const max = Math.min(
    faults.has("poll-max-events-ignored") ? LIMITS.pollMaxBatch : (p.maxEvents ?? LIMITS.pollMaxBatch),
    LIMITS.pollMaxBatch,
  );
  const immediate = (p.returnImmediately && !faults.has("poll-return-immediately-ignored")) || max === 0;
  // Stryker disable next-line all: how long a long poll is held: RFC 8936 §2.1 lets a Transmitter hold it until SETs come or answer at once, no requirement bounds the hold, and CAEPT-POLL-RETURN-IMMEDIATELY makes one only when the returnImmediately poll is slow
  const deadline = Date.now() + LIMITS.longPollMs;
  let taken = stream.outbox.take(max);
  // Stryker disable all: the long-poll hold, as above (a poll that must be answered at once never enters it: immediate)
  while (
    taken.sets.length === 0 &&
    !immediate &&
    Date.now() < deadline &&
    !signal.aborted &&
    !stream.deleted
  ) {
    await stream.outbox.wait(deadline - Date.now(), signal);
    taken = stream.outbox.take(max);
  }
  // Stryker restore all
  return taken;
}

/** The answer (RFC 8936 §2.2): `sets` maps each jti to its SET; `moreAvailable` says whether more wait. */
function answer(sets: QueuedSet[], more: boolean, faults: TransmitterContext["faults"]): Response {
  const out: Record<string, unknown> = {
    sets: faults.has("poll-sets-array")
      ? sets.map((s) => s.token)
      : Object.fromEntries(sets.map((s) => [s.jti, s.token])),
  };
  // Stryker disable next-line ConditionalExpression: equivalent without the poll-more-available-missing fault
  if (!faults.has("poll-more-available-missing")) out.moreAvailable = more;
  return json(out);
}

/**
 * The poll endpoint of each poll stream (RFC 8936, SSF 1.0 §6.1.2): POST with the Receiver's
 * token; acknowledgements and setErrs first settle SETs handed out before, then SETs not yet
 * acknowledged are handed out (those handed out before first, again).
 */
export function pollRoute(ctx: TransmitterContext): Hono {
  const app = new Hono();
  app.post(`${PATHS.poll}/:id`, async (c) => {
    const who = caller(ctx, c);
    if (who instanceof Response) return who;
    // Stryker disable next-line StringLiteral: equivalent: the access kind matters only under the owner-check faults
    const stream = ctx.streams.find(who, c.req.param("id"), "read");
    // Stryker disable next-line ConditionalExpression: a push stream is given no poll endpoint_url, and no run polls one
    if (stream === undefined || stream.config.delivery.method !== POLL_METHOD)
      return pollError(404, "invalid_request", "there is no poll stream here for this Receiver");
    const b = await body(c, LIMITS.maxPollBodyBytes);
    // Stryker disable next-line ConditionalExpression: malformed poll requests: the run's polls are well formed, and no requirement says what a Transmitter answers to one (poll-input.ts)
    if (b instanceof Response)
      return pollError(b.status, "invalid_request", "the body is no small JSON object");
    const p = readPoll(b);
    // Stryker disable next-line ConditionalExpression,StringLiteral: malformed poll requests, as above
    if (typeof p === "string") return pollError(400, "invalid_request", p);
    stream.outbox.acknowledge(p.settled);
    const { sets, more } = await collect(stream, p, ctx.faults, c.req.raw.signal);
    return answer(sets, more, ctx.faults);
  });
  return app;
}
