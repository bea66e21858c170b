import { defineCatalog } from "../../src/engine/requirement.js";

const D = "specs/000";
const pub = (section: string): string => `public: OID4VCI 1.0 ${section} (public-spec-facts §1)`;

/**
 * Credential issuance (specs/000) and the public OID4VCI 1.0 facts it leaves out
 * (public-spec-facts §1). idconform plays the Wallet; the target is a Credential Issuer and
 * its Authorization Server. Identifiers read `std` or `openid` per the profile
 * (src/protocols/vci.ts); the texts use the document's names.
 */
export const catalog = defineCatalog("vci", [
  // Issuer metadata (Endpoints: Credential Issuer Metadata endpoint; Resources: Credential Issuer Metadata)
  {
    id: "VCI-META-WELL-KNOWN",
    level: "MUST",
    source: `${D} Endpoints: Credential Issuer Metadata endpoint (path: insert the well-known segment between host and path)`,
    text: "GET of the issuer identifier with /.well-known/std-credential-issuer inserted after the host answers 200 with the metadata",
  },
  {
    id: "VCI-META-JSON",
    level: "MUST",
    source: `${D} Endpoints: Credential Issuer Metadata endpoint (application/json, issuer MUST support, matching Content-Type)`,
    text: "the metadata is a JSON object served with Content-Type application/json",
  },
  {
    id: "VCI-META-ACCEPT",
    level: "SHOULD",
    source: `${D} Endpoints: Credential Issuer Metadata endpoint (the issuer SHOULD match the requested Accept); public: RFC 9110 §12.5.1 (weights, q=0 not acceptable, the most specific range counts), §12.5.5 (Vary)`,
    text: "a request whose Accept does not prefer application/jwt (application/json, application/jwt;q=0, a higher weight for JSON, directly or through a wildcard) is not answered with signed metadata; an issuer that signs its metadata (or whose profile trusts metadataKeys) answers every Accept preferring application/jwt with it, and both forms carry Vary: Accept",
  },
  {
    id: "VCI-META-ISSUER-MATCH",
    level: "MUST",
    source: `${D} Resources: Credential Issuer Metadata (credential_issuer MUST equal the identifier, simple string comparison)`,
    text: "credential_issuer equals the issuer identifier used to build the metadata URL, character for character",
  },
  {
    id: "VCI-META-REQUIRED",
    level: "MUST",
    source: `${D} Resources: Credential Issuer Metadata (credential_issuer, credential_endpoint, credential_configurations_supported REQUIRED)`,
    text: "credential_endpoint is a URL string and credential_configurations_supported a non-empty object",
  },
  {
    id: "VCI-META-HTTPS",
    level: "MUST",
    source: `${D} Resources: Credential Issuer Metadata (endpoint URLs are https); Authentication 5 (TLS mandatory)`,
    text: "every endpoint URL in the metadata (credential, nonce, deferred, notification) is an https URL",
  },
  {
    id: "VCI-META-AUTH-SERVERS",
    level: "MUST",
    source: `${D} Resources: Credential Issuer Metadata (authorization_servers: non-empty array of strings)`,
    text: "authorization_servers, when present, is a non-empty array of https identifiers",
  },
  {
    id: "VCI-META-CONFIG-FORMAT",
    level: "MUST",
    source: `${D} Resources: configuration object (format REQUIRED; scope string; credential_signing_alg_values_supported non-empty)`,
    text: "every configuration object has a format string, and scope and credential_signing_alg_values_supported are well formed when present",
  },
  {
    id: "VCI-META-BINDING-PROOF",
    level: "MUST",
    source: `${D} Resources: configuration object (proof_types_supported MUST be present when cryptographic_binding_methods_supported is, omitted otherwise)`,
    text: "a configuration has proof_types_supported exactly when it has cryptographic_binding_methods_supported",
  },
  {
    id: "VCI-META-BINDING-VALUES",
    level: "MUST",
    source: `${D} Resources: configuration object (cryptographic_binding_methods_supported: jwk, cose_key or did:<method>)`,
    text: "cryptographic_binding_methods_supported is a non-empty array of jwk, cose_key or did:<method> values",
  },
  {
    id: "VCI-META-PROOF-TYPES",
    level: "MUST",
    source: `${D} Resources: configuration object (proof_signing_alg_values_supported REQUIRED, non-empty; key_attestations_required object with non-empty arrays)`,
    text: "each proof type has a non-empty proof_signing_alg_values_supported, and key_attestations_required, when present, is an object of non-empty arrays",
  },
  {
    id: "VCI-META-BATCH-SIZE",
    level: "MUST",
    source: `${D} Resources: Credential Issuer Metadata (batch_size REQUIRED integer, MUST be 2 or greater); Limits`,
    text: "batch_credential_issuance, when present, has an integer batch_size of at least 2",
  },
  {
    id: "VCI-META-DISPLAY-LOCALE",
    level: "MUST",
    source: `${D} Resources: Credential Issuer Metadata (display: one object per language); configuration credential_metadata.display`,
    text: "no two display objects (of the issuer, or of one configuration) share a locale",
  },
  {
    id: "VCI-META-DISPLAY-SHAPE",
    level: "MUST",
    source: `${D} Resources: Credential Issuer Metadata (display: non-empty array, locale a BCP47 tag, logo.uri REQUIRED); credential_metadata.display (name REQUIRED, background_color a CSS color value); credential_metadata.claims (non-empty array of claims descriptions with path); RFC 5646 §2.1`,
    text: "display arrays are non-empty, credential display objects have a name, locales are language tags, colors are non-empty, every logo or background_image has a URI, and claims descriptions are objects with a non-empty path",
  },
  {
    id: "VCI-META-ENCRYPTION-SHAPE",
    level: "MUST",
    source: `${D} Resources: Credential Issuer Metadata (credential_response_encryption and credential_request_encryption members REQUIRED)`,
    text: "credential_response_encryption has alg and enc value arrays and a boolean encryption_required; credential_request_encryption has jwks with unique kids, enc values and encryption_required",
  },
  {
    id: "VCI-META-SIGNED-CONTENT-TYPE",
    level: "MUST",
    source: `${D} Endpoints: Credential Issuer Metadata endpoint (application/jwt with a matching Content-Type)`,
    text: "an issuer answering Accept: application/jwt with signed metadata labels it application/jwt",
  },
  {
    id: "VCI-META-SIGNED-TYP",
    level: "MUST",
    source: `${D} Resources: Signed Credential Issuer Metadata (typ MUST be stdvci-issuer-metadata+jwt)`,
    text: "signed metadata has typ stdvci-issuer-metadata+jwt",
  },
  {
    id: "VCI-META-SIGNED-ALG",
    level: "MUST",
    source: `${D} Resources: Signed Credential Issuer Metadata (alg MUST NOT be none or a MAC algorithm)`,
    text: "signed metadata is signed with an asymmetric algorithm, never none or a MAC",
  },
  {
    id: "VCI-META-SIGNED-SUB",
    level: "MUST",
    source: `${D} Resources: Signed Credential Issuer Metadata (sub REQUIRED, MUST equal the issuer identifier; iat REQUIRED integer)`,
    text: "signed metadata has sub equal to the issuer identifier and an integer iat",
  },
  {
    id: "VCI-META-SIGNED-SIGNATURE",
    level: "MUST",
    source: `${D} Resources: Signed Credential Issuer Metadata (the Wallet MUST establish trust in the signer); Authentication 6`,
    text: "signed metadata verifies with a key the profile trusts for the issuer",
  },

  // Authorization Server discovery (Resources: authorization_servers; Other metadata)
  {
    id: "VCI-AS-DISCOVERY",
    level: "MUST",
    source: `${D} Resources: Credential Issuer Metadata (authorization_servers omitted: the issuer is the AS, metadata at the RFC 8414 location); public: RFC 8414 §3.3`,
    text: "Authorization Server metadata is found at the RFC 8414 location of the issuer (or each authorization_servers entry), with issuer equal to that identifier and an https token_endpoint",
  },
  {
    id: "VCI-AS-ANONYMOUS",
    level: "MUST",
    source: `${D} Other metadata (pre-authorized_grant_anonymous_access_supported); Authentication 3`,
    text: "an AS that says pre-authorized_grant_anonymous_access_supported accepts a pre-authorized Token Request without client_id",
  },

  // Credential Offer (Resources: Credential Offer object, Grant parameters; Endpoints: Wallet Credential Offer Endpoint)
  {
    id: "VCI-OFFER-ONE-PARAM",
    level: "MUST",
    source: `${D} Endpoints: Wallet Credential Offer Endpoint (exactly one of credential_offer and credential_offer_uri; never both)`,
    text: "an offer invocation carries exactly one of credential_offer and credential_offer_uri",
  },
  {
    id: "VCI-OFFER-URI-HTTPS",
    level: "MUST",
    source: `${D} Endpoints: Wallet Credential Offer Endpoint (credential_offer_uri: https URL); Authentication 5`,
    text: "credential_offer_uri is an https URL",
  },
  {
    id: "VCI-OFFER-URI-JSON",
    level: "MUST",
    source: `${D} Endpoints: Wallet Credential Offer Endpoint (GET of the URI answers application/json with the offer object)`,
    text: "GET of credential_offer_uri answers 200 application/json with the offer object",
  },
  {
    id: "VCI-OFFER-UNSIGNED",
    level: "MUST",
    source: `${D} Endpoints: Wallet Credential Offer Endpoint (the offer cannot be signed; application/jwt with alg none MUST NOT be used)`,
    text: "an offer by reference is never served as application/jwt",
  },
  {
    id: "VCI-OFFER-NOT-CACHEABLE",
    level: "SHOULD",
    source: `${D} Endpoints: Wallet Credential Offer Endpoint (the issuer SHOULD use a unique URI per offer or otherwise prevent caching)`,
    text: "each offer has its own credential_offer_uri, or its response forbids caching (no-store)",
  },
  {
    id: "VCI-OFFER-MEMBERS",
    level: "MUST",
    source: `${D} Resources: Credential Offer object (credential_issuer REQUIRED; credential_configuration_ids REQUIRED, unique, non-empty; grants object)`,
    text: "the offer names the profile's issuer identifier exactly, a non-empty array of unique configuration ids, and grants as an object",
  },
  {
    id: "VCI-OFFER-CONFIG-KNOWN",
    level: "MUST",
    source: `${D} Resources: Credential Offer object (each id is a key of credential_configurations_supported)`,
    text: "every credential_configuration_id of an offer is a key of credential_configurations_supported",
  },
  {
    id: "VCI-OFFER-PRE-AUTH-CODE",
    level: "MUST",
    source: `${D} Grant parameters (pre-authorized_code REQUIRED string)`,
    text: "a pre-authorized grant carries a pre-authorized_code string",
    untestable:
      "the reference target's offers always carry a code; a grant without one cannot be redeemed, so every flow would stop",
  },
  {
    id: "VCI-OFFER-TX-CODE",
    level: "MUST",
    source: `${D} Grant parameters (tx_code: input_mode numeric (digits only, the default) or text, length integer (the code's length), description at most 300 characters); Limits`,
    text: "tx_code has input_mode numeric or text, an integer length and a description of at most 300 characters, each when present; the tx_code given for the offer fits them (numeric: digits only; length: that many characters)",
  },
  {
    id: "VCI-OFFER-AUTH-SERVER",
    level: "MUST",
    source: `${D} Grant parameters (authorization_server only with several authorization_servers; MUST equal one of them)`,
    text: "a grant's authorization_server appears only when metadata lists several authorization_servers, and equals one of them",
  },

  // Token endpoint (Endpoints: Token Endpoint; Errors; public §6)
  {
    id: "VCI-TOKEN-PRE-AUTH",
    level: "MUST",
    source: `${D} Rules 5 (pre-authorized code, with tx_code when required, gives an access token); Endpoints: Token Endpoint (200 JSON)`,
    text: "a fresh pre-authorized code (with its tx_code when offered) gives 200 JSON with access_token and token_type",
  },
  {
    id: "VCI-TOKEN-NO-STORE",
    level: "MUST",
    source: `${D} Endpoints: Token Endpoint (Success: Cache-Control: no-store)`,
    text: "a successful token response carries Cache-Control: no-store",
  },
  {
    id: "VCI-TOKEN-ERROR-FORMAT",
    level: "MUST",
    source: `${D} Errors (token errors: 400 JSON with error, Cache-Control: no-store); RFC 6749 §5.2 (error_description: %x20-21 / %x23-5B / %x5D-7E only)`,
    text: "token errors are 400 JSON objects with an error string, an error_description (if any) of the allowed characters, and Cache-Control: no-store",
  },
  {
    id: "VCI-TOKEN-CODE-REPLAY",
    level: "MUST",
    source: `${D} Grant parameters (single use); ${pub("§6.3")} (used code: invalid_grant)`,
    text: "a pre-authorized code already exchanged is refused with 400 invalid_grant",
  },
  {
    id: "VCI-TOKEN-CODE-UNKNOWN",
    level: "MUST",
    source: pub("§6.3 (wrong, expired or used pre-authorized code: invalid_grant)"),
    text: "a pre-authorized code the issuer never made is refused with 400 invalid_grant",
  },
  {
    id: "VCI-TOKEN-TX-WRONG",
    level: "MUST",
    source: `${D} Rules 6 (tx_code verified by the AS); ${pub("§6.3")} (wrong tx_code: invalid_grant)`,
    text: "a wrong tx_code is refused with 400 invalid_grant",
  },
  {
    id: "VCI-TOKEN-TX-MISSING",
    level: "MUST",
    source: `${D} Token Request (tx_code MUST be present when the offer had tx_code); ${pub("§6.3")} (invalid_request)`,
    text: "a Token Request without the tx_code its offer required is refused with 400 invalid_request",
  },
  {
    id: "VCI-TOKEN-TX-UNEXPECTED",
    level: "MUST",
    source: `${D} Token Request (tx_code only when offered); ${pub("§6.3")} (sent but not expected: invalid_request)`,
    text: "a tx_code sent for an offer without tx_code is refused with 400 invalid_request",
  },
  {
    id: "VCI-TOKEN-LIFETIME",
    level: "MUST",
    source: `${D} Authentication 4; Limits (lifetime over 5 minutes only when sender-constrained)`,
    text: "a bearer (not sender-constrained) access token lives at most 300 seconds: its expires_in, when stated, is at most 300 (a token typed DPoP that works as a Bearer token is a bearer token)",
  },
  {
    id: "VCI-TOKEN-UNKNOWN-PARAM",
    level: "MUST",
    source: `${D} Token Request (the Authorization Server ignores unknown parameters); Rules 10; Versioning 1`,
    text: "an unknown form parameter in a Token Request is ignored",
  },
  {
    id: "VCI-TOKEN-AUTH-DETAILS",
    level: "MUST",
    source: `${D} Token Response additions (authorization_details REQUIRED when requested; type, credential_configuration_id, non-empty credential_identifiers)`,
    text: "a Token Request with authorization_details gets authorization_details of type std_credential with its configuration id and non-empty credential_identifiers",
  },

  // Authorization code flow (Rules 4; Endpoints)
  {
    id: "VCI-AUTHZ-FLOW",
    level: "MUST",
    source: `${D} Rules 3 and 4 (authorization code flow with authorization_details of type std_credential; credential_identifiers used in the Credential Request)`,
    text: "login and consent in a browser give a code; its Token Response carries authorization_details with credential_identifiers, which obtain a credential",
  },
  {
    id: "VCI-AUTHZ-CODE-REPLAY",
    level: "MUST",
    source: `${D} Token Request (code: as in OAuth 2.0); RFC 6749 §4.1.2 (a code used more than once MUST be denied), §5.2`,
    text: "an authorization code exchanged once is refused with 400 invalid_grant when exchanged again",
  },
  {
    id: "VCI-AUTHZ-PKCE",
    level: "MUST",
    source: `${D} Token Request (code_verifier: as in OAuth 2.0); RFC 7636 §4.6 (a verifier that does not match: invalid_grant)`,
    text: "an authorization code exchanged with a code_verifier that does not match its code_challenge is refused with 400 invalid_grant",
  },
  {
    id: "VCI-AUTHZ-REDIRECT-URI",
    level: "MUST",
    source: `${D} Token Request (redirect_uri: as in OAuth 2.0); RFC 6749 §4.1.3 (identical to the authorization request's), §5.2`,
    text: "an authorization code exchanged with another redirect_uri than its Authorization Request's is refused with 400 invalid_grant",
  },

  // Nonce endpoint (Endpoints: Nonce Endpoint; Resources: Nonce Response; States 3)
  {
    id: "VCI-NONCE-RESPONSE",
    level: "MUST",
    source: `${D} Endpoints: Nonce Endpoint (POST, empty body, no token: 2xx application/json with c_nonce)`,
    text: "an empty POST to the nonce endpoint, without a token, answers 2xx application/json with a c_nonce string",
  },
  {
    id: "VCI-NONCE-NO-STORE",
    level: "MUST",
    source: `${D} Endpoints: Nonce Endpoint (the response MUST carry Cache-Control with no-store)`,
    text: "the nonce response carries Cache-Control: no-store",
  },
  {
    id: "VCI-NONCE-UNPREDICTABLE",
    level: "MUST",
    source: `${D} Resources: Nonce Response (new values MUST be unpredictable)`,
    text: "fresh nonces are all distinct, read as no counter or clock, and change in at least 64 bits from one to the next",
  },
  {
    id: "VCI-NONCE-INVALID",
    level: "MUST",
    source: pub("§8.3.1 (a nonce present but not valid: invalid_nonce)"),
    text: "a proof with a nonce the issuer never gave is refused with 400 invalid_nonce",
  },
  {
    id: "VCI-NONCE-REUSE",
    level: "MUST",
    source: `${D} States 3 (a c_nonce may be reused until the issuer rejects it); ${pub("§8.3.1")} (rejection: invalid_nonce)`,
    text: "a c_nonce used again is either accepted or refused with invalid_nonce, so the Wallet knows to fetch a new one",
  },

  // Credential endpoint: access (Authentication 1; public §8.3.1)
  {
    id: "VCI-CRED-BEARER-401",
    level: "MUST",
    source: `${D} Authentication 1 (Bearer token required); ${pub("§8.3.1")} (RFC 6750 §3: 401 with WWW-Authenticate)`,
    text: "a Credential Request without an access token is refused with 401 and a WWW-Authenticate: Bearer challenge",
  },
  {
    id: "VCI-CRED-BAD-TOKEN",
    level: "MUST",
    source: `${D} Authentication 1; ${pub("§8.3.1")} (invalid_token 401 with WWW-Authenticate)`,
    text: "a Credential Request with an access token the issuer never issued is refused with 401 and WWW-Authenticate",
  },

  // Credential endpoint: request and response (Resources: Credential Request; public §8.2, §8.3)
  {
    id: "VCI-CRED-ISSUE",
    level: "MUST",
    source: `${D} Endpoints: Credential Endpoint (support REQUIRED); ${pub("§8.3")} (200 with credentials)`,
    text: "a Credential Request with a valid jwt proof is answered 200 with the credential",
  },
  {
    id: "VCI-CRED-RESPONSE-SHAPE",
    level: "MUST",
    source: pub(
      "§8.3 (credentials: array of {credential}; optional notification_id string; never with transaction_id)",
    ),
    text: "a 200 Credential Response has credentials as a non-empty array of {credential} objects, at most one per proof, and notification_id, when present, a string",
  },
  {
    id: "VCI-CRED-FORMAT",
    level: "MUST",
    source: `${D} Resources: configuration object (format, credential_signing_alg_values_supported); ${pub("§8.3")}; public: SD-JWT VC §3.2.1 (typ dc+sd-jwt), VCDM 1.1 §4.1 and §6.3.1 (the JWT encoding of jwt_vc_json), RFC 7519 §4.1 (iat, nbf, exp)`,
    text: "each credential is of its configuration's format (a dc+sd-jwt SD-JWT with vct and matching disclosures, or a jwt_vc_json JWT with iss and a vc whose @context starts with the VCDM context, whose type includes VerifiableCredential and whose credentialSubject is not empty), signed with an algorithm the configuration lists, with its typ, and with no iat or nbf in the future and no exp past (300 s leeway)",
  },
  {
    id: "VCI-CRED-BOUND-TO-PROOF",
    level: "MUST",
    // Rules 8's SHOULD is whether an issuer binds at all; a configuration with
    // cryptographic_binding_methods_supported says key binding is required, and the key is the proof's.
    source: `${D} Rules 8 (key binding conveyed in proofs); Resources: configuration object (cryptographic_binding_methods_supported MUST be present when key binding is required); ${pub("§8.3")} (one credential per proof key); public: RFC 9278 (JWK thumbprint URI)`,
    text: "a credential of a configuration with key binding is bound to the key of its proof (cnf.jwk, or for jwt_vc_json a did:jwk or RFC 9278 JWK thumbprint URI subject), and names no other key",
  },
  {
    id: "VCI-CRED-SIGNATURE",
    level: "MUST",
    source: `${D} What the service does (verifiable credentials); public: SD-JWT VC issuer metadata (/.well-known/jwt-vc-issuer: jwks or jwks_uri); issue: credential issuance suite §5 (parse it, check cnf and, where the issuer key is discoverable, the signature)`,
    text: "a dc+sd-jwt credential's issuer signature verifies with a key its iss publishes in SD-JWT VC issuer metadata (/.well-known/jwt-vc-issuer)",
  },
  {
    id: "VCI-CRED-ID-EXCLUSIVE",
    level: "MUST",
    source: `${D} Resources: Credential Request (credential_identifier MUST NOT be combined with credential_configuration_id); ${pub("§8.3.1")} (invalid_credential_request)`,
    text: "a request with both credential_identifier and credential_configuration_id is refused with 400 invalid_credential_request",
  },
  {
    id: "VCI-CRED-UNKNOWN-CONFIG",
    level: "MUST",
    source: pub("§8.3.1 (unknown_credential_configuration; takes precedence over invalid_request)"),
    text: "an unknown credential_configuration_id is refused with 400 unknown_credential_configuration",
  },
  {
    id: "VCI-CRED-UNKNOWN-ID",
    level: "MUST",
    source: `${pub("§8.3.1 (unknown_credential_identifier; takes precedence over invalid_request)")}; ${D} Token Response (credential_identifiers: datasets issuable with this access token)`,
    text: "a credential_identifier unknown to the access token (never issued, or given with another token) is refused with 400 unknown_credential_identifier",
  },
  {
    id: "VCI-CRED-IGNORE-UNKNOWN",
    level: "MUST",
    source: `${D} Resources: Credential Request (the issuer ignores unknown request parameters); Rules 10`,
    text: "an unknown member in a Credential Request is ignored",
  },
  {
    id: "VCI-CRED-TOKEN-REUSE",
    level: "MAY",
    source: `${D} Rules 9 (the Credential Endpoint may be called repeatedly with the same access token); States 2`,
    text: "the same access token serves a second Credential Request (an issuer may also stop accepting it)",
  },
  {
    id: "VCI-CRED-ERROR-FORMAT",
    level: "MUST",
    source: pub(
      "§8.3.1 (400 JSON {error, error_description}; error_description only %x20-21 / %x23-5B / %x5D-7E; errors never encrypted)",
    ),
    text: "Credential errors are 400 JSON objects with an error string, unencrypted, whose error_description uses only the allowed characters",
  },
  {
    id: "VCI-CRED-CHALLENGE-SYNTAX",
    level: "MUST",
    source: `${D} Authentication 1 (Bearer token); ${pub("§8.3.1")} (RFC 6750 §3); public: RFC 6750 §3 (Bearer challenge: auth-params, each at most once; error, error_description, scope and error_uri character sets), RFC 9110 §11.6.1 and §11.2 (challenge and auth-param syntax)`,
    text: "every WWW-Authenticate the Credential Endpoint sends is well formed: its Bearer challenge is the scheme alone or name=value attributes (token or quoted-string), none twice, with the characters RFC 6750 allows",
  },

  // Proofs (Resources: Credential Request rules for proofs; public appendix F.1)
  {
    id: "VCI-PROOF-REQUIRED",
    level: "MUST",
    source: `${D} Resources: Credential Request (proofs MUST be present when proof_types_supported is); ${pub("§8.3.1")} (invalid_proof)`,
    text: "a Credential Request without proofs, for a configuration with proof types, is refused with 400 invalid_proof",
  },
  {
    id: "VCI-PROOF-AUD",
    level: "MUST",
    source: `${D} Resources: Credential Request (every proof MUST incorporate the issuer identifier as audience); ${pub("F.1")}`,
    text: "a jwt proof whose aud is not the issuer identifier is refused with 400 invalid_proof",
  },
  {
    id: "VCI-PROOF-TYP",
    level: "MUST",
    source: pub("appendix F.1 (typ std4vci-proof+jwt; a wrong typ is rejected)"),
    text: "a jwt proof with a wrong typ is refused with 400 invalid_proof",
  },
  {
    id: "VCI-PROOF-ALG-NONE",
    level: "MUST",
    source: pub("appendix F.1 (alg asymmetric, not none)"),
    text: "an unsigned (alg none) jwt proof is refused with 400 invalid_proof",
  },
  {
    id: "VCI-PROOF-SIGNATURE",
    level: "MUST",
    source: pub("appendix F.1 (a bad signature is rejected)"),
    text: "a jwt proof whose signature does not verify is refused with 400 invalid_proof",
  },
  {
    id: "VCI-PROOF-PRIVATE-KEY",
    level: "MUST",
    source: pub("appendix F.1 (a private key in the header is rejected)"),
    text: "a jwt proof whose header jwk carries private key members is refused with 400 invalid_proof",
  },
  {
    id: "VCI-PROOF-NONCE-MISSING",
    level: "MUST",
    source: `${D} Resources: Credential Request (with a Nonce Endpoint every proof MUST carry a c_nonce); ${pub("§8.3.1")} (no nonce: invalid_proof)`,
    text: "a jwt proof without nonce, at an issuer with a nonce endpoint, is refused with 400 invalid_proof",
  },
  {
    id: "VCI-PROOF-IAT",
    level: "MUST",
    source: pub(
      "appendix F.1 (iat REQUIRED; the issuer rejects an iat outside its window, a slightly future one may pass)",
    ),
    text: "a jwt proof without iat, or issued an hour or more in the future, is refused with 400 invalid_proof",
  },
  {
    id: "VCI-PROOF-ALG-SUPPORTED",
    level: "MUST",
    source: `${D} Resources: configuration object (proof_signing_alg_values_supported); ${pub("F.1")}`,
    text: "a proof signed with each advertised algorithm the Wallet can produce (ES256, EdDSA) is accepted",
  },

  // Batch (Rules 1; Resources: batch_credential_issuance)
  {
    id: "VCI-BATCH",
    level: "MUST",
    source: `${D} Rules 1 (a batch of one or more credentials); Resources: proofs (array length at most batch_size); ${pub("§8.3")}`,
    text: "a request with batch_size proofs of distinct keys gets that many credentials, each bound to its own proof's key",
  },
  {
    id: "VCI-BATCH-DISTINCT",
    level: "SHOULD",
    source: `${D} Rules 1 (credentials of one response SHOULD differ in cryptographic data)`,
    text: "the credentials of one batch share no disclosure salt and no signature",
  },
  {
    id: "VCI-BATCH-LIMIT",
    level: "MUST",
    source: `${D} Resources: Credential Request (proofs array length at most batch_size)`,
    text: "a request with more proofs than batch_size is refused with a 400 error",
  },

  // Response encryption (Resources: credential_response_encryption)
  {
    id: "VCI-ENC-RESPONSE",
    level: "MUST",
    source: `${D} Resources: Credential Request (credential_response_encryption: jwk, enc); ${pub("§8.3")} (application/jwt when encrypted)`,
    text: "with credential_response_encryption the response is an application/jwt JWE that decrypts with the Wallet's key and uses the requested enc",
  },
  {
    id: "VCI-ENC-REQUIRED",
    level: "MUST",
    source: `${D} Resources: Credential Issuer Metadata (credential_response_encryption.encryption_required: the Wallet MUST provide keys in every request), Credential Request (jwk: one public JWK, enc REQUIRED); ${pub("§8.3.1")} (invalid_encryption_parameters: invalid or missing)`,
    text: "an issuer with encryption_required true refuses a Credential Request without credential_response_encryption, or with one that gives no usable public key or enc",
  },

  // Deferred (public §9)
  {
    id: "VCI-DEFERRED-202",
    level: "MUST",
    source: `${D} Components (Deferred Credential Endpoint); ${pub("§8.3")} (202 with transaction_id and positive interval, no credentials)`,
    text: "a deferred issuance answers 202 with transaction_id and a positive interval, and no credentials",
  },
  {
    id: "VCI-DEFERRED-PENDING",
    level: "MUST",
    source: pub("§9 (still pending: 202 with the same transaction_id and interval)"),
    text: "a deferred request still pending answers 202 with the same transaction_id and an interval",
  },
  {
    id: "VCI-DEFERRED-ISSUED",
    level: "MUST",
    source: pub("§9 (issued: 200 with credentials)"),
    text: "a deferred credential, once issued, is answered 200 with credentials",
    untestable:
      "an issuer that never issues cannot be told from a slow one within a bounded run (the document sets no deadline): the check skips, saying how long it waited",
  },
  {
    id: "VCI-DEFERRED-USED",
    level: "MUST",
    source: pub(
      "§9 (the transaction_id is invalidated once delivered; unknown or used: 400 invalid_transaction_id)",
    ),
    text: "a transaction_id already delivered is refused with 400 invalid_transaction_id",
  },

  // Notification (Endpoints: Notification Endpoint; Events; Errors; public §11)
  {
    id: "VCI-NOTIF-OK",
    level: "MUST",
    source: `${D} Endpoints: Notification Endpoint (success: any 2xx); Events`,
    text: "a valid notification (credential_accepted, credential_failure, credential_deleted) is answered 2xx",
  },
  {
    id: "VCI-NOTIF-204",
    level: "SHOULD",
    source: `${D} Endpoints: Notification Endpoint (204 No Content is RECOMMENDED)`,
    text: "a successful notification is answered 204 No Content",
  },
  {
    id: "VCI-NOTIF-UNKNOWN",
    level: "MUST",
    source: `${D} Errors (invalid notification_id: 400 application/json with error, Cache-Control: no-store); Events`,
    text: "a notification with an unknown notification_id is refused with 400 JSON invalid_notification_id and Cache-Control: no-store",
  },
  {
    id: "VCI-NOTIF-TOKEN",
    level: "MUST",
    source: `${D} Errors (missing or invalid token: RFC 6750 §3); Authentication 1`,
    text: "a notification without an access token, or with one the issuer never issued, is refused with 401 and a WWW-Authenticate: Bearer challenge",
  },
  {
    id: "VCI-NOTIF-BAD-REQUEST",
    level: "MUST",
    source: pub(
      "§11 (notification_id and event REQUIRED; event is one of credential_accepted, credential_failure, credential_deleted; else invalid_notification_request)",
    ),
    text: "a notification with an event outside the defined values, without event or notification_id, or with an event_description that is no string, is refused with 400 invalid_notification_request",
  },
  {
    id: "VCI-NOTIF-IDEMPOTENT",
    level: "MUST",
    source: pub("§11 (identical repeats are idempotent)"),
    text: "an identical notification sent again is answered 2xx again",
  },
  {
    id: "VCI-TOKEN-MALFORMED",
    level: "MUST",
    source: `${D} Errors (Token Request invalid: OAuth 2.0 token error format); RFC 6749 §5.2 (a missing parameter: invalid_request; a grant type the AS does not support: unsupported_grant_type), §3.1 (an empty parameter counts as omitted), §4.1.3 (code REQUIRED)`,
    text: "a Token Request without grant_type, a pre-authorized one without (or with an empty) pre-authorized_code, or (when the AS lists authorization_code) an authorization_code one without (or with an empty) code, is refused with 400 invalid_request, and one with a grant_type the AS does not support with 400 unsupported_grant_type",
  },
  {
    id: "VCI-AUTHZ-REQ-NO-REDIRECT",
    level: "MUST",
    source: `${D} Rules 4 (Authorization Endpoint as in OAuth 2.0); RFC 6749 §4.1.2.1 (a missing or invalid client_id or redirect_uri: MUST NOT redirect to it), §3.1 (an empty parameter counts as omitted), §3.1.2 (no fragment in a redirection URI)`,
    text: "an Authorization Request without client_id, or with a redirect_uri the client may not use (another scheme, a fragment, an unregistered URI), is not redirected to that redirect_uri, even when it has other errors",
  },
  {
    id: "VCI-AUTHZ-REQ-ERROR-REDIRECT",
    level: "MUST",
    source: `${D} Rules 4 (Authorization Endpoint as in OAuth 2.0); RFC 6749 §4.1.2.1 (other errors go to the redirect_uri with error and the request's state), §3.3 (no scope: a default or invalid_scope); RFC 7636 §4.4.1 (an unsupported code_challenge_method: invalid_request); RFC 9396 §5`,
    text: "an Authorization Request from the client, with its redirect_uri, but a response_type or code_challenge_method the AS does not support, or authorization_details that are no JSON array, is redirected to the redirect_uri with an error (unsupported_response_type / invalid_request / invalid_authorization_details), the same state and no code; one the AS may also accept (no scope, an unknown issuer_state), when refused by redirect, likewise, and the configuration's own scope is never refused as invalid_scope",
  },
  {
    id: "VCI-AUTHZ-REQ-DETAILS-INVALID",
    level: "MUST",
    source: `${D} Rules 3 and 11 (authorization_details of type std_credential); RFC 9396 §5 (an unknown type, missing required fields or invalid values: MUST answer invalid_authorization_details); RFC 6749 §4.1.2.1`,
    text: "an Authorization Request whose authorization_details has an unknown type, an unknown credential_configuration_id or none, is redirected to the redirect_uri with error invalid_authorization_details, the same state and no code",
  },
  {
    id: "VCI-DEFERRED-TOKEN",
    level: "MUST",
    source: `${pub("§9 (the Deferred Credential Request is sent with the access token)")}; ${pub("§8.3.1")} (RFC 6750 §3: invalid_token 401 with WWW-Authenticate)`,
    text: "a Deferred Credential Request without an access token, or with one the issuer never issued, is refused with 401 and a WWW-Authenticate: Bearer challenge",
  },
  {
    id: "VCI-DEFERRED-OTHER-TOKEN",
    level: "MUST",
    source: pub(
      "§9 (POST with the access token of the issuance; a transaction_id the issuer does not know for it: 400 invalid_transaction_id)",
    ),
    text: "a transaction_id sent with another valid access token than the one whose Credential Request made it is refused (4xx), never answered 200 or 202",
  },
  {
    id: "VCI-DEFERRED-NO-ID",
    level: "MUST",
    source: pub(
      "§9 (transaction_id REQUIRED in the Deferred Credential Request); §8.3.1 (request errors: 400 JSON with error)",
    ),
    text: "a Deferred Credential Request without transaction_id is refused with 400 invalid_credential_request (or invalid_transaction_id)",
  },
  {
    id: "VCI-META-SIGNED-CLAIMS",
    level: "MUST",
    source: `${D} Resources: Signed Credential Issuer Metadata (payload: all metadata parameters as top-level claims)`,
    text: "signed metadata carries every parameter of the JSON metadata as a top-level claim, with the same credential_issuer and credential_endpoint",
  },
  {
    id: "VCI-TOKEN-DETAILS-OFFERED",
    level: "MUST",
    source: `${D} Rules 5 (the pre-authorized code stands for the offered configurations the issuer collected consent for); Grant parameters; Token Response additions (authorization_details as granted)`,
    text: "a pre-authorized Token Request whose authorization_details name a configuration its offer did not contain does not get that configuration granted (an error, or authorization_details without it)",
  },
  {
    id: "VCI-CRED-BEARER-SYNTAX",
    level: "SHOULD",
    source: `${D} Authentication 1 (Bearer token in the Authorization header); RFC 7235 §2.1 (the auth-scheme is case-insensitive); RFC 6750 §2.1 ("Bearer" 1*SP b64token), §3 (a challenge when the request has no access token), §3.1 (no error code when the request has no authentication information or uses another method)`,
    text: "the Credential Endpoint accepts the Bearer scheme in any case and with several spaces before the token, refuses a header with more after the token (400 or 401), and answers a request without Bearer credentials (none, or Basic) with 401 and a Bearer challenge naming no error",
  },
  {
    id: "VCI-AS-METADATA-LISTS",
    level: "MUST",
    source: `${D} Resources: Credential Issuer Metadata (the Wallet may select an Authorization Server by grant_types_supported); public: RFC 8414 §2 (response_types_supported REQUIRED; the *_supported members list the values the server supports), RFC 7636 §4.2 (S256 mandatory to implement on the server), RFC 9396 §10`,
    text: "the Authorization Server metadata's supported-value lists are non-empty arrays of names (scopes_supported an array of scope values), response_types_supported lists code when there is an authorization_endpoint, grant_types_supported (when present) lists the pre-authorized code grant of the issuer's offers, and code_challenge_methods_supported (when present) lists S256",
  },
]);
