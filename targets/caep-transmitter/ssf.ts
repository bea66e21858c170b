/**
 * The names this Transmitter speaks, written from the published texts (a vendor's own copy;
 * the reference target never imports the harness's protocol module).
 */

/** CAEP 1.0 §3: every CAEP event type URI is this base followed by the event name. */
export const CAEP_BASE = "https://schemas.openid.net/secevent/caep/event-type/";

/** The eight CAEP 1.0 event types this Transmitter emits (its events_supported). */
export const CAEP_EVENT_NAMES = [
  "session-revoked",
  "token-claims-change",
  "credential-change",
  "assurance-level-change",
  "device-compliance-change",
  "session-established",
  "session-presented",
  "risk-level-change",
] as const;
export type CaepEventName = (typeof CAEP_EVENT_NAMES)[number];

/** The event type URIs of `CAEP_EVENT_NAMES`, in the same order. */
export const EVENTS_SUPPORTED: readonly string[] = CAEP_EVENT_NAMES.map((n) => `${CAEP_BASE}${n}`);

/** The CAEP event name of a URI this Transmitter supports, or undefined. */
export function eventNameOf(uri: string): CaepEventName | undefined {
  const i = EVENTS_SUPPORTED.indexOf(uri);
  // Stryker disable next-line ConditionalExpression: equivalent: index -1 of the names is undefined too
  return i < 0 ? undefined : CAEP_EVENT_NAMES[i];
}

/** SSF 1.0 §8.1.4: the verification event, sent after a verification request. */
export const VERIFICATION_EVENT = "https://schemas.openid.net/secevent/ssf/event-type/verification";

/** RFC 8417 §2.3 and SSF 1.0 §4.1.1: the explicit JOSE `typ` of a SET. */
export const SET_TYP = "secevent+jwt";

/** RFC 8935 §2: the media type of a pushed SET. */
export const SET_MEDIA_TYPE = "application/secevent+jwt";

/** SSF 1.0 §6.1: delivery method URNs: push (RFC 8935) and poll (RFC 8936). */
export const PUSH_METHOD = "urn:ietf:rfc:8935";
export const POLL_METHOD = "urn:ietf:rfc:8936";

/** SSF 1.0 §7.2: the discovery document's well-known segment, inserted after the host. */
export const WELL_KNOWN_SSF = "/.well-known/ssf-configuration";

/**
 * The path of this Transmitter's issuer: a tenant of a multi-tenant service (SSF 1.0 §7.2
 * shows why issuers carry paths). Every endpoint lives below it.
 */
// Stryker disable next-line StringLiteral: the reference deployment's issuer path: another (or none) is as valid, and the run is given the issuer URL
export const ISSUER_PATH = "/tenants/acme";

/** Endpoint paths below the issuer path. (No colons: a router reads `:add` as a parameter.) */
export const PATHS = {
  jwks: "/jwks.json",
  streams: "/streams",
  status: "/streams/status",
  addSubject: "/subjects/add",
  removeSubject: "/subjects/remove",
  verify: "/verify",
  poll: "/poll",
} as const;

/** The vendor test hook that makes the Transmitter emit an event (outside the protocol). */
// Stryker disable next-line StringLiteral: the hook's path is the deployment's: the run is given its URL
export const TRIGGER_PATH = "/hooks/trigger";
