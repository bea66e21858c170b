import type { DeliveryMethod } from "./profile.js";
import type { ReceiverId } from "./ledger.js";
import { CAEP_EVENT_NAMES, DELIVERY_POLL, DELIVERY_PUSH, eventUri } from "../../src/protocols/caep.js";

/**
 * The names the stream management client (client.ts) and the checks share: what the setup
 * provides, the discovery endpoints, a stream as the checks know it, and call options.
 */

/** What the suite's setup hands to the checks (suite.ts). */
export interface CaepTransmitterProvided {
  /** Where the checks reach the mock Receiver's control routes. */
  readonly receiverUrl: string;
  readonly controlToken: string;
  /** The run's shared directory: streams created, SETs polled (ledger.ts). */
  readonly runDir: string;
}

/** The stream management endpoints of the discovery document (SSF §7.1). */
export const ENDPOINTS = [
  "configuration_endpoint",
  "status_endpoint",
  "add_subject_endpoint",
  "remove_subject_endpoint",
  "verification_endpoint",
] as const;
export type EndpointName = (typeof ENDPOINTS)[number];

/** The URN of a delivery method (SSF §6.1). */
export const methodUrn = (m: DeliveryMethod): string => (m === "push" ? DELIVERY_PUSH : DELIVERY_POLL);

/** The eight CAEP event type URIs, the events a stream of this suite asks for. */
export const CAEP_EVENT_URIS: readonly string[] = CAEP_EVENT_NAMES.map(eventUri);

/** The discovery document as the checks use it (SSF §7). */
export interface Discovery {
  /** Where it was read: the well-known segment inserted after the host (SSF §7.2). */
  readonly url: string;
  readonly doc: Record<string, unknown>;
}

/** A stream this run created, as the checks use it. */
export interface Stream {
  readonly id: string;
  readonly method: DeliveryMethod;
  readonly receiver: ReceiverId;
  /** The configuration the create answer carried. */
  readonly config: Record<string, unknown>;
  /** events_delivered of the create answer (only its strings). */
  readonly delivered: readonly string[];
  /** Push: the mock Receiver's slot (its endpoint_url) for this stream. */
  readonly slot?: string;
  /** Push: the authorization_header given at creation (a secret; a PUT must repeat it). */
  readonly authorization?: string;
  /** Push: the endpoint_url given; poll: the one the Transmitter supplied (delivery.endpoint_url). */
  readonly endpointUrl?: string;
}

/** How a stream management call authenticates; default the receiver's Bearer token. */
export interface CallOptions {
  /** `null`: no Authorization header; a string: `Bearer <token>`. */
  readonly token?: string | null;
  /** The whole Authorization value (a wrong scheme, an empty Bearer); wins over `token`. */
  readonly authorization?: string;
  readonly label?: string;
  /** For observers: `attack` (a request the Transmitter must refuse). */
  readonly tags?: readonly string[];
  /** `if-cited`: one of many alike (a model's calls); the report keeps it only when a finding cites it. */
  readonly evidence?: "if-cited";
}

export interface OpenOptions extends CallOptions {
  /** events_requested; default the eight CAEP event types. */
  readonly events?: readonly string[];
  /** Members to add to (or, with undefined, remove from) the create request. */
  readonly body?: Record<string, unknown>;
}
