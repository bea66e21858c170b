import type { JsonObject } from "../http/json-body.js";
import { EVENTS_SUPPORTED, PATHS, PUSH_METHOD } from "../ssf.js";
import { canonical } from "./subjects.js";
import type { Stream } from "./stream.js";

/** The poll endpoint of a stream (SSF 1.0 §6.1.2: unique per stream). */
export const pollUrl = (issuer: string, streamId: string): string =>
  `${issuer}${PATHS.poll}/${encodeURIComponent(streamId)}`;

/**
 * A stream's configuration as the API shows it (SSF 1.0 §8.1.1). The authorization_header
 * is the Receiver's secret: it is used, never shown back.
 */
export function configOf(stream: Stream, issuer: string): JsonObject {
  const { delivery, eventsRequested, description } = stream.config;
  return {
    stream_id: stream.id,
    iss: issuer,
    aud: stream.owner.aud,
    delivery:
      delivery.method === PUSH_METHOD
        ? { method: delivery.method, endpoint_url: delivery.endpointUrl }
        : { method: delivery.method, endpoint_url: pollUrl(issuer, stream.id) },
    events_supported: EVENTS_SUPPORTED,
    ...(eventsRequested !== undefined ? { events_requested: eventsRequested } : {}),
    events_delivered: stream.eventsDelivered,
    ...(description !== undefined ? { description } : {}),
  };
}

/** Transmitter-Supplied properties an update or replace may repeat, but only with their values. */
const TRANSMITTER_SUPPLIED = ["iss", "aud", "events_supported", "events_delivered"];

/**
 * The first Transmitter-Supplied property of `body` that differs from the stored one (SSF 1.0
 * §8.1.1.3, §8.1.1.4: "they MUST match the expected value"), or undefined.
 */
export function mismatchedProperty(body: JsonObject, current: JsonObject): string | undefined {
  return TRANSMITTER_SUPPLIED.find(
    (k) => body[k] !== undefined && canonical(body[k]) !== canonical(current[k]),
  );
}
