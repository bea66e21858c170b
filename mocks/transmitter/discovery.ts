import { DELIVERY_POLL, DELIVERY_PUSH, ssfConfigurationUrl } from "../../src/protocols/caep.js";
import type { TransmitterConfig } from "./state.js";

/**
 * The SSF discovery document the mock serves (SSF 1.0 Transmitter configuration metadata;
 * public-spec-facts §4): issuer, spec_version 1_0, jwks_uri, the delivery methods it offers
 * (only the profile's, so the Receiver picks it), the stream management endpoints and Bearer
 * authorization (RFC 6750). One source for the discovery route and `GET /__idc/configuration`.
 */
export function discoveryDocument(c: TransmitterConfig): Record<string, unknown> {
  return {
    spec_version: "1_0",
    issuer: c.issuer,
    jwks_uri: `${c.base}/jwks`,
    delivery_methods_supported: c.deliveryMethods.map((d) => (d === "push" ? DELIVERY_PUSH : DELIVERY_POLL)),
    configuration_endpoint: `${c.base}/ssf/stream`,
    status_endpoint: `${c.base}/ssf/status`,
    add_subject_endpoint: `${c.base}/ssf/subjects/add`,
    remove_subject_endpoint: `${c.base}/ssf/subjects/remove`,
    verification_endpoint: `${c.base}/ssf/verify`,
    authorization_schemes: [{ spec_urn: "urn:ietf:rfc:6750" }],
    default_subjects: "ALL",
  };
}

/** The path the discovery route listens on: the well-known segment, then the issuer's path. */
export const discoveryPath = (c: TransmitterConfig): string =>
  new URL(ssfConfigurationUrl(c.issuer)).pathname;
