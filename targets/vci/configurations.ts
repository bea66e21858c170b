/**
 * The credentials this issuer offers (specs/000 Resources: Credential Issuer Metadata,
 * configuration object) and the fixed demo End-User they describe.
 */

/** The identifier of a configuration this issuer supports. */
export type ConfigurationId = "identity_sd_jwt" | "identity_jwt_vc";

export const CONFIGURATION_IDS: readonly ConfigurationId[] = ["identity_sd_jwt", "identity_jwt_vc"];

/** The SD-JWT VC type of the identity credential. */
export const IDENTITY_VCT = "https://credentials.idconform.test/identity";

/** Proof signing algorithms accepted for every configuration (asymmetric only). */
export const PROOF_ALGS = ["ES256", "EdDSA"] as const;

/** The claims of the demo End-User, in the order they are disclosed. */
export const SUBJECT = {
  given_name: "Erika",
  family_name: "Mustermann",
  birthdate: "1964-08-12",
} as const;

export type ClaimName = keyof typeof SUBJECT;

/** Display names of each claim, per locale (rendered on the consent page, too). */
export const CLAIM_DISPLAY: Readonly<Record<ClaimName, { en: string; de: string }>> = {
  // Stryker disable next-line StringLiteral: display text (a claim display name is free text)
  given_name: { en: "Given name", de: "Vorname" },
  // Stryker disable next-line StringLiteral: display text (a claim display name is free text)
  family_name: { en: "Family name", de: "Nachname" },
  // Stryker disable next-line StringLiteral: display text (a claim display name is free text)
  birthdate: { en: "Date of birth", de: "Geburtsdatum" },
};

/** Display names of each configuration, per locale. */
export const CONFIGURATION_DISPLAY: Readonly<Record<ConfigurationId, { en: string; de: string }>> = {
  identity_sd_jwt: { en: "Identity credential (SD-JWT VC)", de: "Identitätsnachweis (SD-JWT VC)" },
  identity_jwt_vc: { en: "Identity credential (JWT VC)", de: "Identitätsnachweis (JWT VC)" },
};

/** Whether `id` names a configuration of this issuer. */
export const isConfigurationId = (id: unknown): id is ConfigurationId =>
  (CONFIGURATION_IDS as readonly unknown[]).includes(id);

/** The configuration whose `scope` is `scope` (each configuration's scope is its id). */
export const configurationOfScope = (scope: string): ConfigurationId | undefined =>
  isConfigurationId(scope) ? scope : undefined;
