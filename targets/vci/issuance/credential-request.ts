import { isConfigurationId, PROOF_ALGS, type ConfigurationId } from "../configurations.js";
import type { VciContext } from "../context.js";
import { badRequest } from "../http/errors.js";
import { LIMITS } from "../limits.js";
import { batchSize } from "../metadata/issuer-metadata.js";
import type { Grant } from "../oauth/access-tokens.js";
import { anyTokenIdentifier } from "../oauth/authorization-details.js";
import { readEncryption, type ResponseEncryption } from "./encryption.js";
import { isObject } from "./jwk.js";

/** A Credential Request that passed every check before its proofs. */
export interface CredentialRequest {
  readonly configuration: ConfigurationId;
  /** undefined only under the `encryption-required-unenforced` fault. */
  readonly encryption: ResponseEncryption | undefined;
  /** The `jwt` proofs, not yet verified (none only under the `proof-optional` fault). */
  readonly proofs: readonly unknown[];
  /** Algorithms the configuration accepts for proofs. */
  readonly proofAlgs: readonly string[];
}

// Stryker disable all: read only under the unknown-member-rejected fault
const KNOWN = new Set([
  "credential_identifier",
  "credential_configuration_id",
  "proofs",
  "credential_response_encryption",
]);
// Stryker restore all

/**
 * Validates the encryption parameters (encryption_required: true). Missing or unusable
 * parameters are invalid_encryption_parameters, unless `encryption-required-unenforced`
 * lets a request without them through.
 */
export async function requiredEncryption(
  ctx: VciContext,
  value: unknown,
): Promise<ResponseEncryption | undefined> {
  if (value === undefined && ctx.faults.has("encryption-required-unenforced")) return undefined;
  const encryption = await readEncryption(value);
  if (encryption === undefined) {
    throw badRequest("invalid_encryption_parameters", "credential_response_encryption is required");
  }
  return encryption;
}

/** The configuration the request asks for, through its identifier or its configuration id. */
function requestedConfiguration(
  ctx: VciContext,
  body: Record<string, unknown>,
  grant: Grant,
): ConfigurationId {
  const { faults } = ctx;
  const identifier = body.credential_identifier;
  const configurationId = body.credential_configuration_id;
  // `identifier-pair-accepted-without-identifiers`: on a token given no identifiers the pair is
  // read as the configuration id alone (the identifier is ignored).
  // Stryker disable all: runs only under the fault "identifier-pair-accepted-without-identifiers"
  if (
    faults.has("identifier-pair-accepted-without-identifiers") &&
    identifier !== undefined &&
    grant.identifiers === undefined &&
    configurationId !== undefined
  )
    return requestedConfiguration(ctx, { credential_configuration_id: configurationId }, grant);
  // Stryker restore all
  if (identifier !== undefined && configurationId !== undefined && !faults.has("both-identifiers-accepted")) {
    throw badRequest(
      "invalid_credential_request",
      "credential_identifier and credential_configuration_id are exclusive",
    );
  }
  if (identifier !== undefined) {
    const configuration =
      // Stryker disable next-line ConditionalExpression: equivalent when false: a non-string identifier is in no map of identifiers, so it is unknown either way
      typeof identifier !== "string"
        ? undefined
        : faults.has("identifier-any-token")
          ? anyTokenIdentifier(ctx, identifier)
          : grant.identifiers?.get(identifier);
    if (configuration === undefined) {
      const code = faults.has("unknown-identifier-invalid-request")
        ? "invalid_request"
        : "unknown_credential_identifier";
      throw badRequest(code, "credential_identifier was not issued with this access token");
    }
    return configuration;
  }
  // Stryker disable all: a request naming no credential: the documents name no error code for it, and without this test it is still refused 400 unknown_credential_configuration
  if (configurationId === undefined) {
    throw badRequest(
      "invalid_credential_request",
      "credential_identifier or credential_configuration_id is required",
    );
  }
  // Stryker restore all
  if (!isConfigurationId(configurationId) || !grant.configurationIds.includes(configurationId)) {
    const code = faults.has("unknown-config-invalid-request")
      ? "invalid_request"
      : "unknown_credential_configuration";
    throw badRequest(code, "credential_configuration_id is unknown or not authorized by this access token");
  }
  // Stryker disable all: specs/000 puts "MUST NOT be used" on the Wallet; it states no issuer duty to refuse a configuration id on a token that got identifiers
  if (grant.identifiers !== undefined) {
    throw badRequest(
      "invalid_credential_request",
      "this access token was issued credential_identifiers: use one",
    );
  }
  // Stryker restore all
  return configurationId;
}

/**
 * The `jwt` proofs of the request: `proofs` with exactly one member, `jwt`, a non-empty array.
 * Under `proof-optional` a request without `proofs` has none.
 */
function jwtProofs(ctx: VciContext, body: Record<string, unknown>): unknown[] {
  const { proofs } = body;
  if (proofs === undefined && ctx.faults.has("proof-optional")) return [];
  // `singular-proof-accepted` reads the draft-era `proof` ({proof_type, jwt}) as one jwt proof.
  // Stryker disable next-line all: runs only under the fault "singular-proof-accepted"
  if (proofs === undefined && ctx.faults.has("singular-proof-accepted") && isObject(body.proof))
    return [body.proof.jwt];
  if (
    !isObject(proofs) ||
    // Stryker disable next-line ConditionalExpression: specs/000 gives proofs one member, but states no issuer duty to refuse a second proof type beside jwt (it ignores unknown parameters)
    Object.keys(proofs).length !== 1 ||
    !Array.isArray(proofs.jwt) ||
    proofs.jwt.length === 0
  ) {
    throw badRequest("invalid_proof", "proofs must have exactly one member, jwt, a non-empty array");
  }
  const limit = ctx.faults.has("batch-size-unchecked") ? LIMITS.maxProofs : batchSize(ctx);
  if (proofs.jwt.length > limit) {
    throw badRequest("invalid_credential_request", `at most ${batchSize(ctx)} proofs are accepted`);
  }
  return proofs.jwt as unknown[];
}

/**
 * Checks a Credential Request (specs/000 Resources: Credential Request body; public-spec-facts
 * §1, §8.2, §8.3.1) up to its proofs, in this order: encryption parameters, exclusive and
 * known identifiers, then the shape and number of proofs. Unknown members are ignored.
 */
export async function readCredentialRequest(
  ctx: VciContext,
  body: Record<string, unknown>,
  grant: Grant,
): Promise<CredentialRequest> {
  if (ctx.faults.has("unknown-member-rejected")) {
    const other = Object.keys(body).find((k) => !KNOWN.has(k));
    if (other !== undefined)
      throw badRequest("invalid_credential_request", `unknown member ${other.slice(0, 64)}`);
  }
  const encryption = await requiredEncryption(ctx, body.credential_response_encryption);
  const configuration = requestedConfiguration(ctx, body, grant);
  const proofs = jwtProofs(ctx, body);
  return { configuration, encryption, proofs, proofAlgs: PROOF_ALGS };
}
