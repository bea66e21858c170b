import {
  CLAIM_DISPLAY,
  CONFIGURATION_DISPLAY,
  IDENTITY_VCT,
  PROOF_ALGS,
  type ClaimName,
  type ConfigurationId,
} from "../configurations.js";
import { endpoint, type VciContext } from "../context.js";
import { LIMITS } from "../limits.js";

/** The JWE parameters of encrypted credential responses (all required: encryption_required). */
export const RESPONSE_ENCRYPTION = {
  alg_values_supported: ["ECDH-ES"],
  enc_values_supported: ["A128GCM", "A256GCM"],
  encryption_required: true,
} as const;

/** The advertised batch size (the `batch-size-one` fault advertises, and enforces, 1). */
export const batchSize = (ctx: VciContext): number =>
  ctx.faults.has("batch-size-one") ? 1 : LIMITS.batchSize;

// Stryker disable next-line ArrowFunction: logo is OPTIONAL in a display object (specs/000 Resources: display)
const logo = (alt: string) => ({
  uri: "data:image/svg+xml,%3Csvg%20xmlns%3D%22http%3A//www.w3.org/2000/svg%22/%3E",
  alt_text: alt,
});

// Stryker disable next-line BlockStatement: the issuer's display is OPTIONAL (specs/000 Resources: Credential Issuer Metadata)
function issuerDisplay(ctx: VciContext) {
  const first = ctx.faults.has("display-logo-no-uri")
    ? { alt_text: "idconform logo" }
    : // Stryker disable next-line StringLiteral: display text (alt_text is OPTIONAL free text)
      logo("idconform logo");
  return [
    // Stryker disable next-line ObjectLiteral: name, locale and logo of an issuer display object are all OPTIONAL: an empty one is allowed
    { name: "idconform demo issuer", locale: "en-US", logo: first },
    // Stryker disable next-line ObjectLiteral: name, locale and logo of an issuer display object are all OPTIONAL: an empty one is allowed
    {
      // Stryker disable next-line StringLiteral: display text (the issuer's name)
      name: "idconform Demo-Aussteller",
      locale: ctx.faults.has("display-locale-duplicate") ? "en-US" : "de-DE",
      // Stryker disable next-line StringLiteral: display text (alt_text is OPTIONAL free text)
      logo: logo("idconform Logo"),
    },
  ];
}

// Stryker disable next-line ArrowFunction: credential_metadata.display is OPTIONAL (specs/000 Resources: configuration object)
const configurationDisplay = (id: ConfigurationId) => [
  { name: CONFIGURATION_DISPLAY[id].en, locale: "en-US", background_color: "#12107c", text_color: "#ffffff" },
  { name: CONFIGURATION_DISPLAY[id].de, locale: "de-DE", background_color: "#12107c", text_color: "#ffffff" },
];

// Stryker disable next-line ArrowFunction: credential_metadata.claims is OPTIONAL (specs/000 Resources: configuration object)
const claims = (path: (name: ClaimName) => string[]) =>
  (Object.keys(CLAIM_DISPLAY) as ClaimName[]).map((name) => ({
    path: path(name),
    display: [
      // Stryker disable next-line ObjectLiteral: a claim display object's name and locale are not REQUIRED (specs/000 names them as seen in use)
      { name: CLAIM_DISPLAY[name].en, locale: "en-US" },
      // Stryker disable next-line ObjectLiteral: a claim display object's name and locale are not REQUIRED (specs/000 names them as seen in use)
      { name: CLAIM_DISPLAY[name].de, locale: "de-DE" },
    ],
  }));

const binding = { cryptographic_binding_methods_supported: ["jwk"] };
const proofTypes = {
  proof_types_supported: { jwt: { proof_signing_alg_values_supported: [...PROOF_ALGS] } },
};

/** identity_jwt_vc's binding methods (`did` without a method name under `binding-method-invalid`). */
const jwtVcBinding = (ctx: VciContext) => {
  if (ctx.faults.has("proof-types-without-binding")) return {};
  return ctx.faults.has("binding-method-invalid")
    ? { cryptographic_binding_methods_supported: ["jwk", "did"] }
    : binding;
};

/** identity_jwt_vc's proof types (an empty key_attestations_required under `key-attestations-malformed`). */
const jwtVcProofTypes = (ctx: VciContext) =>
  ctx.faults.has("key-attestations-malformed")
    ? {
        proof_types_supported: {
          jwt: {
            proof_signing_alg_values_supported: [...PROOF_ALGS],
            key_attestations_required: { key_storage: [] },
          },
        },
      }
    : proofTypes;

/** The advertised response encryption (`encryption-required-missing` drops encryption_required). */
function responseEncryption(ctx: VciContext): Record<string, unknown> {
  if (ctx.faults.has("encryption-required-missing")) {
    const { encryption_required: _dropped, ...rest } = RESPONSE_ENCRYPTION;
    return rest;
  }
  return RESPONSE_ENCRYPTION;
}

/**
 * The Credential Issuer Metadata (specs/000 Resources: Credential Issuer Metadata). The
 * issuer is its own Authorization Server, so `authorization_servers` is absent (a bare
 * string under `authorization-servers-string`).
 */
export function issuerMetadata(ctx: VciContext): Record<string, unknown> {
  const issuer = ctx.issuer();
  const notification = ctx.faults.has("metadata-http-endpoint")
    ? `${issuer.replace(/^https:/, "http:")}/notification`
    : endpoint(ctx, "notification");
  return {
    credential_issuer: ctx.faults.has("metadata-issuer-mismatch") ? `${issuer}/` : issuer,
    ...(ctx.faults.has("authorization-servers-string") ? { authorization_servers: issuer } : {}),
    ...(ctx.faults.has("credential-endpoint-unlisted")
      ? {}
      : { credential_endpoint: endpoint(ctx, "credential") }),
    nonce_endpoint: endpoint(ctx, "nonce"),
    deferred_credential_endpoint: endpoint(ctx, "deferred"),
    notification_endpoint: notification,
    credential_response_encryption: responseEncryption(ctx),
    batch_credential_issuance: { batch_size: batchSize(ctx) },
    display: issuerDisplay(ctx),
    credential_configurations_supported: {
      identity_sd_jwt: {
        format: "dc+sd-jwt",
        vct: IDENTITY_VCT,
        scope: "identity_sd_jwt",
        ...binding,
        credential_signing_alg_values_supported: ["ES256"],
        ...proofTypes,
        // Stryker disable next-line ObjectLiteral: credential_metadata and its members are OPTIONAL (specs/000 Resources: configuration object)
        credential_metadata: {
          display: configurationDisplay("identity_sd_jwt"),
          claims: claims((name) => [name]),
        },
      },
      identity_jwt_vc: {
        format: "jwt_vc_json",
        scope: ctx.faults.has("configuration-scope-array") ? ["identity_jwt_vc"] : "identity_jwt_vc",
        ...jwtVcBinding(ctx),
        credential_signing_alg_values_supported: ["ES256"],
        ...jwtVcProofTypes(ctx),
        // Stryker disable next-line ObjectLiteral: credential_metadata and its members are OPTIONAL (specs/000 Resources: configuration object)
        credential_metadata: {
          display: configurationDisplay("identity_jwt_vc"),
          claims: claims((name) => ["credentialSubject", name]),
        },
      },
    },
  };
}
