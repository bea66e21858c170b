import { Hono } from "hono";
import type { FaultSet } from "../faults.js";
import { json } from "../http/reply.js";
import { ISSUER_PATH, PATHS, POLL_METHOD, PUSH_METHOD, WELL_KNOWN_SSF } from "../ssf.js";
import type { TransmitterKeys } from "./keys.js";

/** The delivery method URIs of an SSF draft (the `discovery-draft-methods` fault lists them). */
// Stryker disable next-line all: read only under the discovery-draft-methods fault
const DRAFT_METHODS = [
  "https://schemas.openid.net/secevent/risc/delivery-method/push",
  "https://schemas.openid.net/secevent/risc/delivery-method/poll",
];

/**
 * The Transmitter Configuration Metadata (SSF 1.0 §7.1): the issuer, its keys, both delivery
 * methods, every stream management endpoint, Bearer tokens (RFC 6750) as the authorization
 * scheme, and default_subjects NONE: a stream carries events only about subjects added to it.
 */
export function metadata(issuer: string, faults: FaultSet): Record<string, unknown> {
  const doc: Record<string, unknown> = {
    spec_version: faults.has("spec-version-draft") ? "1_0-ID2" : "1_0",
    issuer: faults.has("discovery-issuer-slash") ? `${issuer}/` : issuer,
    jwks_uri: `${issuer}${PATHS.jwks}`,
    delivery_methods_supported: faults.has("discovery-draft-methods")
      ? DRAFT_METHODS
      : [PUSH_METHOD, POLL_METHOD],
    configuration_endpoint: `${issuer}${PATHS.streams}`,
    status_endpoint: `${issuer}${PATHS.status}`,
    add_subject_endpoint: `${issuer}${PATHS.addSubject}`,
    remove_subject_endpoint: `${issuer}${PATHS.removeSubject}`,
    verification_endpoint: `${issuer}${PATHS.verify}`,
    // Stryker disable next-line ArrayDeclaration: equivalent: an empty authorization_schemes says no more than this one (SSF 1.0 §7.1 names no scheme a Transmitter must list)
    authorization_schemes: [{ spec_urn: "urn:ietf:rfc:6750" }],
    default_subjects: faults.has("default-subjects-lowercase") ? "none" : "NONE",
  };
  // A path where an absolute URL belongs: the implementer's router knows where it is.
  if (faults.has("discovery-status-endpoint-relative")) doc.status_endpoint = PATHS.status;
  return doc;
}

/**
 * Discovery routes: the document at the well-known segment inserted between host and issuer
 * path (SSF 1.0 §7.2), public and cacheable, and the JWK Set. The `discovery-path-appended`
 * fault serves the document after the issuer path instead.
 */
export function discoveryRoutes(issuer: () => string, keys: TransmitterKeys, faults: FaultSet): Hono {
  const app = new Hono();
  const at = faults.has("discovery-path-appended")
    ? `${ISSUER_PATH}${WELL_KNOWN_SSF}`
    : `${WELL_KNOWN_SSF}${ISSUER_PATH}`;
  // Stryker disable next-line ObjectLiteral,StringLiteral: how long the document may be cached no rule states
  app.get(at, () => json(metadata(issuer(), faults), 200, { "cache-control": "max-age=300" }));
  // Stryker disable next-line ObjectLiteral,StringLiteral: how long the key set may be cached no rule states
  app.get(`${ISSUER_PATH}${PATHS.jwks}`, () => json(keys.jwks(), 200, { "cache-control": "max-age=300" }));
  return app;
}
