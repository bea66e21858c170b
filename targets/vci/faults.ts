import { selectFaults, type FaultDef, type FaultSet as EngineFaultSet } from "../../src/engine/target.js";

/**
 * Faults of the credential-issuance reference target (specs/000). Each changes one
 * behaviour and names the requirements (suites/vci/requirements.ts) a run must then fail
 * (or warn on, for a SHOULD).
 */
export const faults = [
  {
    id: "authorize-issuer-state-error-page",
    description:
      "the authorization endpoint answers every Authorization Request carrying an issuer_state (a live one of an offer too) with a 400 HTML error page",
    breaks: ["VCI-AUTHZ-FLOW"],
    skips: ["VCI-AUTHZ-CODE-REPLAY", "VCI-AUTHZ-PKCE", "VCI-AUTHZ-REDIRECT-URI"],
  },
  {
    id: "token-dpop-unbound",
    description:
      "token responses (both grants) say token_type DPoP though the Wallet sent no DPoP proof, with expires_in 3600; the token works as a plain Bearer token",
    breaks: ["VCI-TOKEN-LIFETIME"],
  },
  {
    id: "metadata-issuer-mismatch",
    description: "metadata credential_issuer has a trailing slash added",
    breaks: ["VCI-META-ISSUER-MATCH"],
    skips: "rest",
  },
  {
    id: "well-known-appended",
    description: "metadata served only at <issuer>/.well-known/... (appended), 404 at the right URL",
    breaks: ["VCI-META-WELL-KNOWN"],
    skips: "rest",
  },
  {
    id: "metadata-not-json",
    description: "metadata JSON served with Content-Type: text/plain",
    breaks: ["VCI-META-JSON"],
    skips: [
      "VCI-META-AUTH-SERVERS",
      "VCI-META-BATCH-SIZE",
      "VCI-META-DISPLAY-LOCALE",
      "VCI-META-DISPLAY-SHAPE",
      "VCI-META-ENCRYPTION-SHAPE",
      "VCI-META-HTTPS",
      "VCI-META-ISSUER-MATCH",
      "VCI-META-REQUIRED",
    ],
  },
  {
    id: "metadata-http-endpoint",
    description: "notification_endpoint advertised as http://127.0.0.1:<port>/issuer/notification",
    breaks: ["VCI-META-HTTPS"],
    skips: [
      "VCI-NOTIF-204",
      "VCI-NOTIF-BAD-REQUEST",
      "VCI-NOTIF-IDEMPOTENT",
      "VCI-NOTIF-OK",
      "VCI-NOTIF-TOKEN",
      "VCI-NOTIF-UNKNOWN",
    ],
  },
  {
    id: "proof-types-without-binding",
    description:
      "identity_jwt_vc keeps proof_types_supported but drops cryptographic_binding_methods_supported (still works otherwise)",
    breaks: ["VCI-META-BINDING-PROOF"],
  },
  {
    id: "batch-size-one",
    description: "batch_size: 1 (and the endpoint allows 1 proof)",
    breaks: ["VCI-META-BATCH-SIZE"],
    skips: ["VCI-BATCH", "VCI-BATCH-DISTINCT", "VCI-BATCH-LIMIT"],
  },
  {
    id: "display-locale-duplicate",
    description: "issuer display has two objects with locale en-US",
    breaks: ["VCI-META-DISPLAY-LOCALE"],
  },
  {
    id: "signed-metadata-sub",
    description: "signed metadata sub is the issuer with a trailing slash",
    breaks: ["VCI-META-SIGNED-SUB"],
  },
  {
    id: "signed-metadata-mac",
    description: "signed metadata signed with HS256 (a random secret)",
    breaks: ["VCI-META-SIGNED-ALG", "VCI-META-SIGNED-SIGNATURE"],
  },
  {
    id: "signed-metadata-typ",
    description: "signed metadata typ is JWT",
    breaks: ["VCI-META-SIGNED-TYP"],
  },
  {
    id: "as-issuer-mismatch",
    description: "AS metadata issuer is the origin without the path",
    breaks: ["VCI-AS-DISCOVERY"],
    skips: "rest",
  },
  {
    id: "anonymous-refused",
    description:
      "pre-authorized token requests without client_id answer 400 invalid_client (metadata still says anonymous access is supported)",
    breaks: ["VCI-AS-ANONYMOUS"],
  },
  {
    id: "offer-cacheable",
    description:
      "offers by reference are all served at one fixed URI (/issuer/offers/current, the latest offer) with Cache-Control: public, max-age=3600",
    breaks: ["VCI-OFFER-NOT-CACHEABLE"],
  },
  {
    id: "offer-both-params",
    description: "the hook's invocation URL carries both credential_offer and credential_offer_uri",
    breaks: ["VCI-OFFER-ONE-PARAM"],
  },
  {
    id: "offer-unknown-config",
    description:
      "offers list an extra configuration id retired_config absent from metadata (token/credential flows still work for the real one)",
    breaks: ["VCI-OFFER-CONFIG-KNOWN"],
  },
  {
    id: "offer-wrong-issuer",
    description: "offer credential_issuer has a trailing slash",
    breaks: ["VCI-OFFER-MEMBERS"],
  },
  {
    id: "tx-code-description-long",
    description: "tx_code.description is 301+ characters",
    breaks: ["VCI-OFFER-TX-CODE"],
  },
  {
    id: "code-reusable",
    description: "a pre-authorized code can be exchanged again",
    breaks: ["VCI-TOKEN-CODE-REPLAY"],
  },
  {
    id: "tx-code-unchecked",
    description: "a wrong tx_code is accepted (a missing one is still invalid_request)",
    breaks: ["VCI-TOKEN-TX-WRONG"],
  },
  {
    id: "tx-code-missing-accepted",
    description: "a missing tx_code is accepted",
    breaks: ["VCI-TOKEN-TX-MISSING"],
  },
  {
    id: "tx-code-unexpected-accepted",
    description: "a tx_code sent when the offer had none is accepted",
    breaks: ["VCI-TOKEN-TX-UNEXPECTED"],
  },
  {
    id: "token-cacheable",
    description: "successful token responses lack Cache-Control: no-store",
    breaks: ["VCI-TOKEN-NO-STORE"],
  },
  {
    id: "token-error-cacheable",
    description: "token error responses lack Cache-Control: no-store",
    breaks: ["VCI-TOKEN-ERROR-FORMAT"],
  },
  {
    id: "auth-code-reusable",
    description: "an authorization code can be exchanged again and again until it expires",
    breaks: ["VCI-AUTHZ-CODE-REPLAY"],
  },
  {
    id: "pkce-unchecked",
    description: "the code_verifier is required but never compared with the code_challenge",
    breaks: ["VCI-AUTHZ-PKCE"],
  },
  {
    id: "redirect-uri-unchecked",
    description:
      "the redirect_uri of the exchange is required but not compared with the authorization request's",
    breaks: ["VCI-AUTHZ-REDIRECT-URI"],
  },
  {
    id: "proof-typ-optional",
    description: "a jwt proof without typ is accepted (a wrong typ is still refused)",
    breaks: ["VCI-PROOF-TYP"],
  },
  {
    id: "proof-aud-optional",
    description: "a jwt proof without aud is accepted (a wrong aud is still refused)",
    breaks: ["VCI-PROOF-AUD"],
  },
  {
    id: "proof-hmac-accepted",
    description: "a jwt proof in HS256 is verified with its own jwk's public key (PEM) as the HMAC secret",
    breaks: ["VCI-PROOF-SIGNATURE"],
  },
  {
    id: "details-token-cacheable",
    description:
      "token responses that carry authorization_details lack Cache-Control: no-store (the plain ones keep it)",
    breaks: ["VCI-TOKEN-NO-STORE"],
  },
  {
    id: "invalid-grant-cacheable",
    description: "invalid_grant token errors lack Cache-Control: no-store (other token errors keep it)",
    breaks: ["VCI-TOKEN-ERROR-FORMAT"],
  },
  {
    id: "proof-error-quotes",
    description:
      "invalid_proof errors quote the rejected proof header in error_description, double quotes included",
    breaks: ["VCI-CRED-ERROR-FORMAT"],
  },
  {
    id: "token-long-lived",
    description: "bearer tokens with expires_in 3600",
    breaks: ["VCI-TOKEN-LIFETIME"],
  },
  {
    id: "token-unknown-param-rejected",
    description: "an unknown form parameter at the token endpoint gives 400 invalid_request",
    breaks: ["VCI-TOKEN-UNKNOWN-PARAM"],
  },
  {
    id: "auth-details-no-identifiers",
    description:
      "token responses to requests with authorization_details (pre-authorized, or an authorization code asked with them) omit credential_identifiers",
    breaks: ["VCI-TOKEN-AUTH-DETAILS", "VCI-AUTHZ-FLOW"],
    // VCI-CRED-UNKNOWN-ID and VCI-CRED-ID-EXCLUSIVE are still judged on a token that was given no identifiers.
  },
  {
    id: "nonce-cacheable",
    description: "nonce responses lack no-store",
    breaks: ["VCI-NONCE-NO-STORE"],
  },
  {
    id: "nonce-predictable",
    description: "nonces are a zero-padded counter",
    breaks: ["VCI-NONCE-UNPREDICTABLE"],
  },
  {
    id: "nonce-unchecked",
    description: "a proof nonce that was never issued is accepted",
    breaks: ["VCI-NONCE-INVALID"],
  },
  {
    id: "nonce-reuse-invalid-proof",
    description: "a nonce used once before is refused with invalid_proof (not invalid_nonce)",
    breaks: ["VCI-NONCE-REUSE"],
  },
  {
    id: "nonce-optional",
    description: "a proof without nonce is accepted",
    breaks: ["VCI-PROOF-NONCE-MISSING"],
  },
  {
    id: "proof-aud-unchecked",
    description: "proof aud not compared",
    breaks: ["VCI-PROOF-AUD"],
  },
  {
    id: "proof-typ-unchecked",
    description: "proof typ not compared",
    breaks: ["VCI-PROOF-TYP"],
  },
  {
    id: "proof-alg-none-accepted",
    description: "an unsigned (alg none) proof is accepted, key taken from its jwk header",
    breaks: ["VCI-PROOF-ALG-NONE"],
  },
  {
    id: "proof-signature-unchecked",
    description: "proof signature not verified",
    breaks: ["VCI-PROOF-SIGNATURE"],
  },
  {
    id: "proof-private-key-accepted",
    description: "a proof whose header jwk carries private members is accepted",
    breaks: ["VCI-PROOF-PRIVATE-KEY"],
  },
  {
    id: "no-token-400",
    description:
      'a credential request without token answers 400 {error:"invalid_request"}, no WWW-Authenticate',
    // A request with Basic credentials has no token either (VCI-CRED-BEARER-SYNTAX judges it).
    breaks: ["VCI-CRED-BEARER-401", "VCI-CRED-BEARER-SYNTAX"],
  },
  {
    id: "bad-token-accepted",
    description:
      "the credential endpoint accepts any non-empty bearer token as if it were the latest issued one",
    breaks: ["VCI-CRED-BAD-TOKEN"],
  },
  {
    id: "both-identifiers-accepted",
    description:
      "credential_identifier + credential_configuration_id together accepted (the identifier wins)",
    breaks: ["VCI-CRED-ID-EXCLUSIVE"],
  },
  {
    id: "unknown-config-invalid-request",
    description: "an unknown configuration answers 400 invalid_request",
    breaks: ["VCI-CRED-UNKNOWN-CONFIG"],
  },
  {
    id: "unknown-identifier-invalid-request",
    description: "an unknown identifier answers 400 invalid_request",
    breaks: ["VCI-CRED-UNKNOWN-ID"],
  },
  {
    id: "batch-size-unchecked",
    description: "more proofs than batch_size accepted",
    breaks: ["VCI-BATCH-LIMIT"],
  },
  {
    id: "batch-one-key",
    description: "in a batch every credential is bound to the first proof's key",
    breaks: ["VCI-BATCH"],
  },
  {
    id: "proof-iat-unchecked",
    description: "a jwt proof's iat is neither required nor held to a window",
    breaks: ["VCI-PROOF-IAT"],
  },
  {
    id: "tx-code-any-offer",
    description: "a tx_code is accepted when it belongs to any live offer, not only to the offer of the code",
    breaks: ["VCI-TOKEN-TX-WRONG"],
  },
  {
    id: "batch-first-proof-only",
    description:
      "only the first proof of a batch is verified; the rest only have their header jwk read (signature, aud and nonce unchecked)",
    breaks: ["VCI-PROOF-SIGNATURE", "VCI-PROOF-AUD", "VCI-NONCE-INVALID"],
  },
  {
    id: "batch-tail-stale-key",
    description:
      "the credentials after the first of a batch are signed with a key from before a rotation, under the published kid",
    breaks: ["VCI-CRED-SIGNATURE"],
  },
  {
    id: "identifier-any-token",
    description:
      "credential_identifiers are looked up among all the issuer ever gave, so one token's identifier serves any access token",
    breaks: ["VCI-CRED-UNKNOWN-ID"],
  },
  {
    id: "deferred-unbound",
    description: "a deferred transaction keeps no holder keys: its credentials arrive bound to no key",
    breaks: ["VCI-CRED-BOUND-TO-PROOF"],
  },
  {
    id: "credential-unbound",
    description: "credentials carry cnf of a fresh key made by the issuer, not the proof's",
    breaks: ["VCI-CRED-BOUND-TO-PROOF", "VCI-BATCH"],
  },
  {
    id: "credential-bad-signature",
    description: "credentials' issuer signature is corrupted (last signature byte flipped)",
    breaks: ["VCI-CRED-SIGNATURE"],
  },
  {
    id: "unknown-member-rejected",
    description: "an unknown member in the credential request answers 400 invalid_credential_request",
    // The draft-era singular `proof` is such a member: ignored, the request has no proofs and is
    // refused invalid_proof (specs/000 Rules 10); this issuer refuses it for the member instead.
    breaks: ["VCI-CRED-IGNORE-UNKNOWN", "VCI-PROOF-REQUIRED"],
  },
  {
    id: "token-single-use",
    description:
      "an access token works for one credential request only; later requests answer 401 invalid_token. Allowed (Rules 9: the issuer may stop accepting a token): VCI-CRED-TOKEN-REUSE is a MAY, so the run reports the observation and fails nothing",
    breaks: [],
  },
  {
    id: "error-description-quotes",
    description: "credential error error_description contains a double quote and a backslash",
    breaks: ["VCI-CRED-ERROR-FORMAT"],
  },
  {
    id: "response-not-encrypted",
    description: "success responses are plain JSON although encryption was requested",
    breaks: ["VCI-ENC-RESPONSE"],
  },
  {
    id: "encryption-required-unenforced",
    description: "a request without credential_response_encryption gets a plain JSON success",
    breaks: ["VCI-ENC-REQUIRED"],
  },
  {
    id: "deferred-no-interval",
    description: "the 202 of a deferred issuance lacks interval",
    breaks: ["VCI-DEFERRED-202"],
    skips: ["VCI-DEFERRED-ISSUED", "VCI-DEFERRED-PENDING", "VCI-DEFERRED-USED"],
  },
  {
    id: "deferred-pending-new-id",
    description: "a still-pending 202 carries a new transaction_id",
    breaks: ["VCI-DEFERRED-PENDING"],
  },
  {
    id: "deferred-id-reusable",
    description: "a delivered transaction_id can be fetched again (200)",
    breaks: ["VCI-DEFERRED-USED"],
  },
  {
    id: "notification-unknown-accepted",
    description: "an unknown notification_id gets 204",
    breaks: ["VCI-NOTIF-UNKNOWN"],
  },
  {
    id: "notification-no-token-400",
    description: 'a notification without token answers 400 {error:"invalid_request"} no WWW-Authenticate',
    breaks: ["VCI-NOTIF-TOKEN"],
  },
  {
    id: "notification-200",
    description: "successful notifications answer 200 {} instead of 204",
    breaks: ["VCI-NOTIF-204"],
  },
  {
    id: "notification-bad-event-accepted",
    description: "an unknown event value gets 204",
    breaks: ["VCI-NOTIF-BAD-REQUEST"],
  },
  {
    id: "authz-details-dropped",
    description:
      "in the authorization code flow the token response omits authorization_details (the credential endpoint then takes credential_configuration_id)",
    breaks: ["VCI-AUTHZ-FLOW"],
  },
  {
    id: "credential-endpoint-unlisted",
    description: "issuer metadata omits credential_endpoint (the endpoint itself keeps working)",
    breaks: ["VCI-META-REQUIRED"],
    skips: "rest",
  },
  {
    id: "authorization-servers-string",
    description:
      "issuer metadata has authorization_servers as a single string (the issuer identifier), not an array",
    breaks: ["VCI-META-AUTH-SERVERS"],
  },
  {
    id: "configuration-scope-array",
    description: 'identity_jwt_vc.scope is the array ["identity_jwt_vc"] instead of a string',
    breaks: ["VCI-META-CONFIG-FORMAT"],
  },
  {
    id: "binding-method-invalid",
    description:
      'identity_jwt_vc.cryptographic_binding_methods_supported is ["jwk", "did"] (did without a method name)',
    breaks: ["VCI-META-BINDING-VALUES"],
  },
  {
    id: "key-attestations-malformed",
    description:
      "identity_jwt_vc.proof_types_supported.jwt.key_attestations_required is {key_storage: []} (metadata only; the endpoint requires no attestations)",
    breaks: ["VCI-META-PROOF-TYPES"],
    // Format, binding and signature are still judged on the batch and deferred deliveries.
    skips: ["VCI-CRED-ISSUE", "VCI-CRED-RESPONSE-SHAPE"],
  },
  {
    id: "display-logo-no-uri",
    description: "the issuer display[0].logo has alt_text but no uri",
    breaks: ["VCI-META-DISPLAY-SHAPE"],
  },
  {
    id: "encryption-required-missing",
    description:
      "metadata credential_response_encryption lacks encryption_required (the endpoint still requires encryption)",
    breaks: ["VCI-META-ENCRYPTION-SHAPE"],
    skips: ["VCI-ENC-REQUIRED"],
  },
  {
    id: "signed-metadata-json-type",
    description:
      "the signed metadata JWT (answer to Accept: application/jwt) is labelled Content-Type: application/json",
    breaks: ["VCI-META-SIGNED-CONTENT-TYPE"],
  },
  {
    id: "signed-metadata-other-key",
    description:
      "signed metadata is signed (ES256, same kid) with a fresh key that is not the published metadata key",
    breaks: ["VCI-META-SIGNED-SIGNATURE"],
  },
  {
    id: "signed-metadata-embedded-jwk",
    description:
      "signed metadata carries its own verification key in the header jwk (a fresh key, not the published metadata key)",
    breaks: ["VCI-META-SIGNED-SIGNATURE"],
  },
  {
    id: "offer-uri-http",
    description:
      "credential_offer_uri in invocations is http://127.0.0.1:<port>/issuer/offers/<id> (plain http; the server only speaks https)",
    breaks: ["VCI-OFFER-URI-HTTPS"],
    skips: "rest",
  },
  {
    id: "offer-uri-text",
    description: "offers by reference are served with Content-Type: text/plain (same JSON body)",
    breaks: ["VCI-OFFER-URI-JSON"],
    skips: ["VCI-OFFER-NOT-CACHEABLE"],
  },
  {
    id: "offer-jwt",
    description:
      "offers by reference are served as application/jwt: an unsigned JWT (alg none) whose payload is the offer",
    breaks: ["VCI-OFFER-UNSIGNED", "VCI-OFFER-URI-JSON"],
    skips: "rest",
  },
  {
    id: "offer-authorization-server",
    description:
      "the pre-authorized grant of every offer carries authorization_server = the issuer identifier (metadata still lists no authorization_servers)",
    breaks: ["VCI-OFFER-AUTH-SERVER"],
  },
  {
    id: "token-type-missing",
    description: "successful token responses (both grants) lack token_type",
    breaks: ["VCI-TOKEN-PRE-AUTH"],
    skips: ["VCI-TOKEN-LIFETIME"],
  },
  {
    id: "code-unchecked",
    description:
      "a pre-authorized code that was never issued is accepted (a token for identity_sd_jwt, no tx_code needed); issued codes keep their rules (single use, tx_code)",
    breaks: ["VCI-TOKEN-CODE-UNKNOWN"],
  },
  {
    id: "nonce-text-type",
    description: "nonce responses carry Content-Type: text/plain (same JSON body, same no-store)",
    breaks: ["VCI-NONCE-RESPONSE"],
  },
  {
    id: "jwt-vc-refused",
    description:
      "credential requests for identity_jwt_vc (by configuration id or identifier) are refused 400 credential_request_denied; identity_sd_jwt is unaffected",
    breaks: ["VCI-CRED-ISSUE"],
  },
  {
    id: "notification-id-number",
    description:
      "credential responses (and deferred 200s) carry notification_id as a number; the notification endpoint accepts that number or its string form",
    breaks: ["VCI-CRED-RESPONSE-SHAPE"],
    skips: [
      "VCI-NOTIF-204",
      "VCI-NOTIF-BAD-REQUEST",
      "VCI-NOTIF-IDEMPOTENT",
      "VCI-NOTIF-OK",
      "VCI-NOTIF-TOKEN",
      "VCI-NOTIF-UNKNOWN",
    ],
  },
  {
    id: "sd-jwt-no-vct",
    description: "SD-JWT VC credentials lack the vct claim",
    breaks: ["VCI-CRED-FORMAT"],
  },
  {
    id: "proof-optional",
    description:
      "a credential request without proofs for a key-bound configuration is answered 200 with one credential without cnf",
    breaks: ["VCI-PROOF-REQUIRED"],
  },
  {
    id: "eddsa-proof-refused",
    description: "proofs signed with EdDSA are refused 400 invalid_proof (metadata still advertises EdDSA)",
    breaks: ["VCI-PROOF-ALG-SUPPORTED"],
  },
  {
    id: "deferred-never-issued",
    description:
      "a deferred transaction stays pending forever (every poll 202 with the same transaction_id and interval 1). Not a failure: the document sets no deadline, so the run says the credential was still pending when its budget ended",
    breaks: [],
    skips: ["VCI-DEFERRED-ISSUED", "VCI-DEFERRED-PENDING", "VCI-DEFERRED-USED"],
  },
  {
    id: "notification-deleted-refused",
    description:
      "event credential_deleted is refused 400 invalid_notification_request (the other events work)",
    breaks: ["VCI-NOTIF-OK"],
  },
  {
    id: "notification-repeat-refused",
    description:
      "an identical repeat of an accepted notification (same id, same event) is refused 400 invalid_notification_request; the id stays valid for other events",
    breaks: ["VCI-NOTIF-IDEMPOTENT"],
  },
  {
    id: "grant-type-unsupported-invalid-request",
    description:
      "a Token Request with a grant_type the AS does not support is refused 400 invalid_request instead of unsupported_grant_type",
    breaks: ["VCI-TOKEN-MALFORMED"],
  },
  {
    id: "authorize-error-open-redirect",
    description:
      "an Authorization Request without client_id, or with a redirect_uri that is not an allowed loopback URI but parses as a URL, is refused by a redirect to that redirect_uri (error and state)",
    breaks: ["VCI-AUTHZ-REQ-NO-REDIRECT"],
  },
  {
    id: "authorize-error-no-state",
    description: "error redirects from the Authorization Endpoint leave out the request's state",
    breaks: ["VCI-AUTHZ-REQ-ERROR-REDIRECT", "VCI-AUTHZ-REQ-DETAILS-INVALID"],
  },
  {
    id: "authorization-details-invalid-request",
    description:
      "bad authorization_details in an Authorization Request are answered with error invalid_request instead of invalid_authorization_details",
    breaks: ["VCI-AUTHZ-REQ-DETAILS-INVALID"],
  },
  {
    id: "deferred-any-token",
    description:
      "the deferred endpoint looks at no access token: a transaction_id is served without one, or with one never issued",
    breaks: ["VCI-DEFERRED-TOKEN"],
  },
  {
    id: "deferred-other-token",
    description:
      "the deferred endpoint serves a transaction_id to any valid access token, not only to the one that made it",
    breaks: ["VCI-DEFERRED-OTHER-TOKEN"],
  },
  {
    id: "deferred-id-optional",
    description:
      "a Deferred Credential Request without transaction_id is answered 202 (pending) with an interval",
    breaks: ["VCI-DEFERRED-NO-ID"],
  },
  {
    id: "signed-metadata-claims-missing",
    description: "signed metadata carries only sub, iat and iss, none of the metadata parameters",
    breaks: ["VCI-META-SIGNED-CLAIMS"],
  },
  {
    id: "details-unoffered-granted",
    description:
      "a pre-authorized Token Request gets any configuration its authorization_details name, offered or not",
    breaks: ["VCI-TOKEN-DETAILS-OFFERED"],
  },
  {
    id: "as-grant-types-no-pre-authorized",
    description:
      "AS metadata grant_types_supported lists only authorization_code, not the pre-authorized code grant its offers use",
    breaks: ["VCI-AS-METADATA-LISTS"],
  },
  {
    id: "bearer-scheme-case-sensitive",
    description:
      'the credential endpoint takes the Authorization scheme only as "Bearer": "bearer <token>" or "BEARER <token>" is refused 401 invalid_token',
    breaks: ["VCI-CRED-BEARER-SYNTAX"],
  },
  {
    id: "offer-value-unencoded",
    description:
      "the credential_offer of an invocation by value is the offer's JSON as is, not URL-encoded (braces, quotes and colons raw)",
    breaks: ["VCI-OFFER-MEMBERS"],
  },
  {
    id: "jwt-vc-thumbprint-subject",
    description:
      "jwt_vc_json credentials name their holder only by sub (and vc.credentialSubject.id): the RFC 9278 sha-256 JWK thumbprint URI of the proof's key, no cnf. Not a failure: a thumbprint URI of the proof's key binds the credential to it",
    breaks: [],
  },
  {
    id: "jwt-vc-thumbprint-other-key",
    description:
      "jwt_vc_json credentials name their holder only by sub: the JWK thumbprint URI of a key the issuer made, not the proof's",
    breaks: ["VCI-CRED-BOUND-TO-PROOF"],
  },
  {
    id: "singular-proof-accepted",
    description:
      "a request with the draft-era singular proof ({proof_type: jwt, jwt}) and no proofs is taken as one jwt proof and answered 200",
    breaks: ["VCI-PROOF-REQUIRED"],
  },
  {
    id: "identifier-pair-accepted-without-identifiers",
    description:
      "on an access token given no credential_identifiers, a request with credential_identifier and credential_configuration_id ignores the identifier and issues the configuration",
    breaks: ["VCI-CRED-ID-EXCLUSIVE"],
  },
  {
    id: "proof-error-500",
    description:
      "every request refused for its proof (invalid_proof) answers 500 server_error instead of 400 invalid_proof",
    breaks: [
      "VCI-PROOF-REQUIRED",
      "VCI-PROOF-AUD",
      "VCI-PROOF-TYP",
      "VCI-PROOF-ALG-NONE",
      "VCI-PROOF-SIGNATURE",
      "VCI-PROOF-PRIVATE-KEY",
      "VCI-PROOF-NONCE-MISSING",
      "VCI-PROOF-IAT",
    ],
  },
  {
    id: "error-description-unsafe-chars",
    description:
      "invalid_proof errors carry a line feed and non-ASCII letters in error_description (the exception text, localised)",
    breaks: ["VCI-CRED-ERROR-FORMAT"],
  },
  {
    id: "www-authenticate-malformed",
    description:
      "the credential endpoint's 401 challenges are WWW-Authenticate: Bearer error, error_description, scope (attribute names without values)",
    breaks: ["VCI-CRED-CHALLENGE-SYNTAX"],
  },
] as const satisfies readonly FaultDef[];

/** The id of a fault of this target. */
export type FaultId = (typeof faults)[number]["id"];

/** The faults a running target was started with. */
export type FaultSet = EngineFaultSet<FaultId>;

/** Validates the requested fault ids (an unknown one throws). */
export const faultSet = (ids: readonly string[]): FaultSet => selectFaults("vci", faults, ids);
