import { isConfigurationId, type ConfigurationId } from "../configurations.js";
import type { VciContext } from "../context.js";
import { badRequest } from "../http/errors.js";
import { randomId } from "../random.js";

/**
 * Parses `authorization_details` (RFC 9396; specs/000 Resources: Token Request, type
 * from the identifier set): a non-empty JSON array of objects whose `type` is the identifier set's
 * and whose `credential_configuration_id` names a configuration of this issuer. Extra
 * members (`claims`, `locations`, ...) are ignored. Anything else is invalid_request.
 */
export function parseAuthorizationDetails(ctx: VciContext, raw: string): ConfigurationId[] {
  let value: unknown;
  try {
    value = JSON.parse(raw);
    // Stryker disable next-line BlockStatement: equivalent: left undefined, the value fails the array test below with the same error code
  } catch {
    throw badRequest("invalid_request", "authorization_details is not JSON");
  }
  if (
    !Array.isArray(value) ||
    // Stryker disable next-line ConditionalExpression: RFC 9396 does not call an empty array invalid (an AS may fall back to scope or refuse); only a request the suite cannot judge reaches it
    value.length === 0 ||
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a defensive bound: no requirement limits the entries, and a conforming AS may take more than 8
    value.length > 8
  ) {
    throw badRequest("invalid_request", "authorization_details must be a non-empty JSON array");
  }
  const ids: ConfigurationId[] = [];
  for (const entry of value as unknown[]) {
    const e = (typeof entry === "object" && entry !== null ? entry : {}) as Record<string, unknown>;
    if (e.type !== ctx.ids.authorizationDetailsType) {
      throw badRequest(
        "invalid_request",
        `authorization_details entries must have type ${ctx.ids.authorizationDetailsType}`,
      );
    }
    if (!isConfigurationId(e.credential_configuration_id)) {
      throw badRequest(
        "invalid_request",
        "authorization_details names an unknown credential_configuration_id",
      );
    }
    // Stryker disable next-line ConditionalExpression: a configuration named twice: RFC 9396 and specs/000 leave open whether the grant lists it once or twice
    if (!ids.includes(e.credential_configuration_id)) ids.push(e.credential_configuration_id);
  }
  return ids;
}

/** Every identifier the issuer ever gave, for the `identifier-any-token` fault's lookup. */
const everIssued = new WeakMap<VciContext, Map<string, ConfigurationId>>();

/**
 * The `identifier-any-token` fault: an identifier looked up among all the issuer ever gave,
 * whichever access token it was given with.
 */
// Stryker disable all: reached only under the identifier-any-token fault
export function anyTokenIdentifier(ctx: VciContext, identifier: string): ConfigurationId | undefined {
  return everIssued.get(ctx)?.get(identifier);
}
// Stryker restore all

/** How many Credential Datasets (identifiers) this issuer authorizes per configuration. */
const DATASETS: Readonly<Record<ConfigurationId, number>> = { identity_sd_jwt: 2, identity_jwt_vc: 1 };

/** The authorization_details of a Token Response and the identifiers they issue. */
export interface IssuedDetails {
  readonly details: Record<string, unknown>[];
  /** undefined when no credential_identifiers are issued (the `auth-details-no-identifiers` fault). */
  readonly identifiers: Map<string, ConfigurationId> | undefined;
}

/**
 * Token Response `authorization_details` (specs/000 Resources: Token Response additions):
 * one object per configuration with fresh `credential_identifiers` (one or two).
 */
export function issueDetails(ctx: VciContext, configurationIds: readonly ConfigurationId[]): IssuedDetails {
  const withIds = !ctx.faults.has("auth-details-no-identifiers");
  const identifiers = new Map<string, ConfigurationId>();
  const details = configurationIds.map((id) => {
    const credentialIdentifiers = Array.from({ length: DATASETS[id] }, () => `${id}-${randomId(12)}`);
    for (const ci of credentialIdentifiers) identifiers.set(ci, id);
    if (ctx.faults.has("identifier-any-token")) {
      const all = everIssued.get(ctx) ?? new Map<string, ConfigurationId>();
      everIssued.set(ctx, all);
      for (const ci of credentialIdentifiers) all.set(ci, id);
    }
    return {
      type: ctx.ids.authorizationDetailsType,
      credential_configuration_id: id,
      ...(withIds ? { credential_identifiers: credentialIdentifiers } : {}),
    };
  });
  return { details, identifiers: withIds ? identifiers : undefined };
}
