import { defineCatalog } from "../../src/engine/requirement.js";

const B = "specs/002 area B";
// The published texts behind public-spec-facts §4 (and the HTTP and OAuth texts they build on).
// A source that starts with one of these is a public-spec requirement, not a sentence of specs/002.
const SSF = "public: OpenID Shared Signals Framework 1.0";
const CAEP = "public: OpenID CAEP 1.0";
const SET = "public: RFC 8417 (SET)";
const PUSH = "public: RFC 8935 (push delivery)";
const POLL = "public: RFC 8936 (poll delivery)";
const SUBID = "public: RFC 9493 (subject identifiers)";
const JWT = "public: RFC 7519 (JWT)";
const JWS = "public: RFC 7515 (JWS)";
const JWK = "public: RFC 7517 (JWK)";
const HTTP = "public: RFC 9110 (HTTP semantics)";
const BEARER = "public: RFC 6750 (bearer tokens)";
const OAUTH_BCP = "public: RFC 9700 (OAuth 2.0 security BCP)";
const FACTS = "public-spec-facts §4";
/** What a harness recommendation says of itself in `source`. */
const HARNESS = "a harness recommendation, not a sentence of a spec";
/** The bound a profile sets where no text sets one. */
const PROFILE = "the profile's suites.caep-transmitter section";

/** The eight event types the suite requests and triggers (specs/002 area B, Events 3). */
const EIGHT =
  "session-revoked, token-claims-change, credential-change, assurance-level-change, device-compliance-change, session-established, session-presented, risk-level-change";

/**
 * The CAEP transmitter suite: certifies a Shared Signals Transmitter of CAEP events. idconform
 * plays the Receiver (stream management client with the profile's tokens, a push endpoint, a
 * poller); the target is the Transmitter's discovery document, its stream management API, its
 * poll endpoint, the pushes it makes and every SET it issues, and, through the profile's trigger
 * hook, the events it emits. Covered: the eight CAEP event types and the security event token
 * envelope of specs/002 area B, and the discovery, stream management, status, subject,
 * verification, SET, subject identifier, push and poll rules of public-spec-facts §4 that a
 * Transmitter must keep (SSF 1.0, CAEP 1.0, RFC 8417, RFC 8935, RFC 8936, RFC 9493), with RFC
 * 7515/7517/7519 for the JWS and its keys and RFC 6750/9110 for the HTTP authentication of the
 * poll endpoint. Not covered: the Receiver side (a separate suite), encrypted SETs, TLS, the
 * stream-updated event a Transmitter owes when it changes a status on its own (no hook can make it
 * do that), inactivity timeouts, min_verification_interval, complex-subject matching.
 *
 * The texts often state the Transmitter's answer in the indicative ("the Event Transmitter
 * responds with a 201 Created response") rather than with a BCP 14 keyword: that sentence is the
 * protocol's definition of the operation's success, and an answer of another kind is not this
 * protocol, so such requirements are MUST. Where the comment above a requirement says "derived",
 * its level comes from a definition the text gives (what a member or a status means) rather than
 * from a keyword; the comment says which. Where the text gives only SHOULD, RECOMMENDED or MAY, the
 * requirement says so, whatever the plan of the suite expected. Where a text leaves a behaviour to
 * the Transmitter, the requirement holds only what is required and the comment says what is left
 * open.
 *
 * Levels verified against the SSF 1.0 and CAEP 1.0 final texts (openid/sharedsignals,
 * openid-sharedsignals-framework-1_0.md of 2025-08-29, openid-caep-1_0.md). The SSF section
 * numbers below are those of the published document (1 Introduction … 8 Management API, 9
 * Security Considerations).
 */
export const catalog = defineCatalog("caep-transmitter", [
  // Discovery (SSF §7)
  {
    id: "CAEPT-DISC-WELL-KNOWN",
    level: "MUST",
    source: `${SSF} §7.2 (Transmitters supporting Discovery MUST make a JSON document available at the path formed by inserting /.well-known/ssf-configuration between host and path; MUST be returned as application/json), §7.2.1 (queried with GET; a terminating / of the issuer removed), §7.2.3 (success: 200 OK with a JSON object); ${FACTS} (transmitter discovery)`,
    text: "a GET at the issuer's host + /.well-known/ssf-configuration + the issuer's path (its trailing / removed) answers 200 with Content-Type application/json and a JSON object",
  },
  {
    id: "CAEPT-DISC-ISSUER",
    level: "MUST",
    source: `${SSF} §7.1 (issuer REQUIRED: a URL using the https scheme with no query or fragment), §7.2.4 (the issuer returned MUST be identical to the Issuer URL used to retrieve the configuration); ${FACTS} (issuer REQUIRED, equals the URL used)`,
    text: "the configuration's issuer is present and identical, character for character, to the issuer URL it was retrieved for (the profile's baseUrl): an https URL with no query or fragment (plain http only under options.allowInsecureHttp)",
  },
  // Derived, in part: SSF §7.1 makes jwks_uri a MUST for a Transmitter that signs (every SET of
  // this suite is judged by its signature, CAEPT-SET-SIGNATURE) and says it holds the keys the
  // Receiver validates signatures with, so its keys are public keys a Receiver can use: a key
  // whose alg (RFC 7517 §4.4) or use (§4.2) contradicts its key type or signing cannot be used
  // to verify, and a published private key lets anyone sign as the issuer. A kid is OPTIONAL
  // (RFC 7517 §4.5); a SET whose header names a kid the set does not hold fails
  // CAEPT-SET-SIGNATURE, not this requirement.
  {
    id: "CAEPT-DISC-JWKS",
    level: "MUST",
    source: `${SSF} §7.1 (jwks_uri MUST be specified if the Transmitter intends to generate signed JWTs; it holds the signing keys the Receiver uses to validate signatures; https), §4.1.4 (signature keys through jwks_uri); ${JWK} §4.2 (use), §4.4 (alg), §5 (JWK Set)`,
    text: "jwks_uri is present and answers a JWK Set (a JSON object with a keys array) of public keys only, each parseable, and none whose alg or use, when given, contradicts its key type or use for signatures",
  },
  // RECOMMENDED in SSF §7.1; a Transmitter may tell its methods out of band.
  {
    id: "CAEPT-DISC-DELIVERY-METHODS",
    level: "SHOULD",
    source: `${SSF} §7.1 (delivery_methods_supported RECOMMENDED: the supported delivery method URIs), §6.1 (methods urn:ietf:rfc:8935 push, urn:ietf:rfc:8936 poll); ${FACTS}`,
    text: "delivery_methods_supported is present and lists, by the URIs of SSF §6.1, each delivery method the Transmitter's streams accept (urn:ietf:rfc:8935 for push, urn:ietf:rfc:8936 for poll)",
  },
  // Derived: each endpoint is OPTIONAL (SSF §7.1) and so is the management API (§8, RECOMMENDED,
  // "especially the endpoints for querying the Stream Status and for triggering Verification"),
  // but §7.2.3 has the configuration response hold "all necessary endpoints", and a Receiver has
  // no other way to find an endpoint the Transmitter serves. A check sees only what the document
  // names; a Transmitter naming no configuration_endpoint has its stream checks skipped as not
  // offered, not failed here.
  {
    id: "CAEPT-DISC-ENDPOINTS",
    level: "MUST",
    source: `${SSF} §7.1 (configuration_endpoint, status_endpoint, add_subject_endpoint, remove_subject_endpoint, verification_endpoint; if present, each URL MUST use HTTP over TLS), §7.2.3 (the response includes all necessary endpoints), §8 (Management API RECOMMENDED); ${FACTS}`,
    text: "each stream management endpoint the configuration names (configuration_endpoint, status_endpoint, add_subject_endpoint, remove_subject_endpoint, verification_endpoint) is an absolute https URL (plain http only under options.allowInsecureHttp); one not named is a part of the API not offered",
  },
  // Both members are OPTIONAL; what they hold when present is bound.
  {
    id: "CAEPT-DISC-OPTIONAL-MEMBERS",
    level: "MUST",
    source: `${SSF} §7.1 (default_subjects OPTIONAL: if present, the value MUST be either "ALL" or "NONE"; authorization_schemes OPTIONAL: an array of JSON objects), §7.1.1 (spec_urn REQUIRED: a URN that describes the specification of the protocol being used); public: RFC 8141 §2 (URN syntax)`,
    text: 'in the Transmitter Configuration Metadata, default_subjects, when present, is "ALL" or "NONE", and authorization_schemes, when present, is an array of JSON objects each with a spec_urn that is a URN',
  },
  // spec_version is OPTIONAL, but its absence declares "1_0-ID1" (SSF §7.1), and another value
  // declares a draft: a Transmitter of the final text says "1_0". Not a MUST: the field is
  // optional and the suite can still certify what the Transmitter does.
  {
    id: "CAEPT-DISC-SPEC-VERSION",
    level: "SHOULD",
    source: `${SSF} §7.1 (spec_version OPTIONAL; "1_0" is the final specification; absent, the Transmitter is assumed to conform to 1_0-ID1); ${FACTS} (spec_version 1_0)`,
    text: 'the configuration\'s spec_version is "1_0", declaring the final SSF 1.0 this suite certifies against',
  },

  // Stream management (SSF §8.1), with the profile's receiverToken
  // The negative probes come from the shared token attack family (no Authorization header,
  // another scheme, an empty or malformed Bearer value, an unknown token). RFC 9110 §11.6.1 also
  // has every 401 carry WWW-Authenticate; this requirement is the refusal, as the plan fixes it.
  {
    id: "CAEPT-STREAM-AUTH",
    level: "MUST",
    source: `${SSF} §8 (all Stream Management API endpoints MUST use standard HTTP authentication and authorization; only authorized Receivers access or modify their streams), §8.1.1.1-§8.1.4.2 (401 if authorization failed or is missing), §8.1.2.1 (an unauthorized request: the Transmitter MUST respond with 401)`,
    text: "every stream management request (configuration, status, add subject, remove subject, verification) without credentials or with wrong ones (no Authorization header, another scheme, an empty, malformed or unknown Bearer token) is answered 401 and changes nothing",
  },
  // SSF names the scheme only in its examples (Authorization: Bearer); HTTP itself binds every
  // 401: RFC 9110 §15.5.2 "The server generating a 401 response MUST send a WWW-Authenticate
  // header field containing at least one challenge applicable to the target resource". CAEPT-POLL-AUTH
  // judges the same for the poll endpoint.
  {
    id: "CAEPT-STREAM-CHALLENGE",
    level: "MUST",
    source: `${HTTP} §15.5.2 (a server generating a 401 MUST send a WWW-Authenticate header field containing at least one challenge), §11.6.1; ${BEARER} §3 (a request without credentials or without an access token that enables access: the resource server MUST include WWW-Authenticate); ${SSF} §8.1.1.1-§8.1.4.2 (401 if authorization failed or it is missing)`,
    text: "every stream management request (configuration, status, add subject, remove subject, verification) the Transmitter refuses with 401 carries a WWW-Authenticate header holding at least one challenge",
  },
  {
    id: "CAEPT-CHALLENGE-SYNTAX",
    level: "MUST",
    source: `${HTTP} §11.6.1 (WWW-Authenticate = #challenge; challenge = auth-scheme [ 1*SP ( token68 / #auth-param ) ]), §11.2, §5.6.4 (auth-param values are tokens or quoted-strings); ${BEARER} §3 (Bearer attributes: none more than once, realm per RFC 9110, error and error_description of %x20-21 / %x23-5B / %x5D-7E)`,
    text: "every WWW-Authenticate header the stream management and poll endpoints send is well formed: challenges of RFC 9110's grammar, and in a Bearer challenge name=value attributes, none twice, realm a quoted-string, error, error_description, error_uri and scope of the characters RFC 6750 allows",
  },
  // RFC 6750 §3's advice on the error attribute is a SHOULD NOT and a SHOULD.
  {
    id: "CAEPT-CHALLENGE-ERROR",
    level: "SHOULD",
    source: `${BEARER} §3 (if the request lacks any authentication information, e.g. an unsupported authentication method, the resource server SHOULD NOT include an error code or other error information; if the request included an access token and failed authentication, the resource server SHOULD include the error attribute), §3.1 (invalid_token: the access token provided is expired, revoked, malformed, or invalid for other reasons)`,
    text: 'the Bearer challenge refusing a stream management or poll request that has no Authorization header, or the token under another scheme, carries no error attribute; the one refusing a Bearer token never issued (or a near miss of the real one) carries error="invalid_token"',
  },
  // 201 is stated in the indicative (see the header). events_supported is OPTIONAL (SSF §8.1.1:
  // if omitted, the Transmitter SHOULD make the set available by other means), so it is not
  // required here; events_requested is the Receiver's own value, part of the configuration the
  // answer represents. Derived for events_requested: the answer is "a JSON representation of the
  // stream's configuration", and the Receiver-Supplied values sent are part of it.
  {
    id: "CAEPT-STREAM-CREATE",
    level: "MUST",
    source: `${SSF} §8.1.1.1 (on a valid request the Transmitter responds with 201 Created and the JSON configuration; no delivery means poll, and the response then MUST include delivery with method and endpoint_url), §8.1.1 (stream_id REQUIRED and unique among the Transmitter's non-deleted streams; iss REQUIRED, identical to the SETs' iss; aud REQUIRED; events_delivered REQUIRED; delivery REQUIRED), §6.1.1 (push endpoint_url set by the Receiver), §6.1.2 (poll endpoint_url supplied by the Transmitter, unique per stream for a given Receiver); ${FACTS} (create POST 201)`,
    text: "a valid create-stream request is answered 201 Created with a JSON object holding stream_id (a string no other stream of the Transmitter has), iss (the discovery issuer), aud (a string or an array of strings), events_delivered (an array), delivery with the method asked for (push: the endpoint_url the Receiver gave; poll: an endpoint_url of the Transmitter's, different for each of the Receiver's poll streams) and events_requested as sent",
  },
  // SHOULD: no keyword binds the refusal. SSF §8.1.1.1 answers 201 only "on receiving a valid
  // request", lists "400 | if the request cannot be parsed" among its errors, and says a
  // Transmitter that "does not support the delivery method" MAY respond 400; §6.1.1 has the
  // Receiver set a push stream's endpoint_url, where the SETs are POSTed, and §8.1.1 types
  // events_requested (an array of URIs) and description (a string). The table names 400 and no
  // other code, so only 400 meets this; a stream made from such a body is the acceptance.
  {
    id: "CAEPT-STREAM-CREATE-INVALID",
    level: "SHOULD",
    source: `${SSF} §8.1.1.1 (on receiving a valid request the Transmitter responds 201; Create Stream Errors: 400 if the request cannot be parsed; a delivery method the Transmitter does not support MAY be answered 400), §8.1.1 (events_requested an array of URIs, description a string, delivery a JSON object with its method), §6.1.1 (push endpoint_url: the URL SETs are POSTed to, set by the Receiver; authorization_header a header value)`,
    text: "a stream creation request whose body is not valid for the Transmitter (not JSON, not a JSON object, delivery not an object, an unknown delivery method URN, push without endpoint_url or with one that is not an absolute URL, events_requested not an array of strings, description not a string, authorization_header not a string) is refused with 400 and creates no stream",
  },
  // SHOULD, as CAEPT-STREAM-CREATE-INVALID: the Update and Replace Stream Configuration Errors
  // tables give "400 | if the request body cannot be parsed, a Transmitter-Supplied property is
  // incorrect, or if the request is otherwise invalid" with no BCP 14 keyword. Transmitter-Supplied
  // properties in the body "MUST match the expected value" (a rule for the Receiver: the table
  // says what the Transmitter answers when they do not). A refused change leaves the stream as it
  // was, read back.
  {
    id: "CAEPT-STREAM-CHANGE-INVALID",
    level: "SHOULD",
    source: `${SSF} §8.1.1.3 (on receiving a valid request the Transmitter responds 200; Transmitter-Supplied properties besides the stream_id MAY be present, but they MUST match the expected value; events_delivered, if present, MUST match the Transmitter's expected value before any updates are applied; Update Stream Configuration Errors: 400 if the request body cannot be parsed, a Transmitter-Supplied property is incorrect, or if the request is otherwise invalid), §8.1.1.4 (the same for PUT; Replace Stream Configuration Errors: 400 likewise), §8.1.1 (iss, aud, events_supported, events_delivered Transmitter-Supplied; delivery a JSON object, events_requested an array of URIs, description a string)`,
    text: "an update (PATCH) or replacement (PUT) of the Receiver's own stream, with its valid token, whose body is not valid (not JSON, not a JSON object, delivery not an object or of an unknown method, a push endpoint_url that is not a URL, events_requested not an array of strings, description not a string, iss, aud, events_supported or events_delivered not the stream's) is refused with 400, and the configuration read back is as it was",
  },
  // Judged on every configuration the Transmitter returns (create, read, list, update, replace).
  // With events_supported absent the Transmitter's set is not known, and only events_requested
  // bounds events_delivered.
  {
    id: "CAEPT-STREAM-EVENTS-DELIVERED",
    level: "MUST",
    source: `${SSF} §8.1.1 (events_delivered: a subset, not necessarily proper, of the intersection of events_supported and events_requested; the Transmitter MUST ignore events_requested values it does not understand); ${FACTS}`,
    text: "in every stream configuration the Transmitter returns, each URI of events_delivered is also in events_requested and, when events_supported is given, in events_supported",
  },
  {
    id: "CAEPT-STREAM-READ",
    level: "MUST",
    source: `${SSF} §8.1.1.2 (GET with stream_id as a query parameter: 200 OK with the JSON configuration); ${FACTS} (read GET)`,
    text: "GET configuration_endpoint?stream_id=<id> of the Receiver's stream is answered 200 with a JSON object: that stream's configuration, with the stream_id, iss and aud its creation returned",
  },
  {
    id: "CAEPT-STREAM-LIST",
    level: "MUST",
    source: `${SSF} §8.1.1.2 (without stream_id the Transmitter MUST return a list of the stream configurations available to this Receiver; with no streams, it MUST return an empty list); ${FACTS} (list without stream_id)`,
    text: "GET configuration_endpoint without stream_id is answered 200 with a JSON array of the caller's stream configurations, holding every stream it created and has not deleted (an empty array for a Receiver with none)",
  },
  // 202 is the text's own answer for an update accepted but not yet processed (SSF §8.1.1.3,
  // §8.1.1.4): the read back is then waited for within the run's bound, not failed at once.
  {
    id: "CAEPT-STREAM-UPDATE",
    level: "MUST",
    source: `${SSF} §8.1.1.3 (PATCH: 200 OK with the entire updated configuration, or 202 accepted but not processed; any Receiver-Supplied property present MUST be updated; properties missing MUST NOT be changed); ${FACTS} (update PATCH 200)`,
    text: "PATCH with stream_id and a changed Receiver-Supplied property (description, events_requested) is answered 200 with the whole updated configuration (or 202), and a later read shows the change applied and every property the request left out unchanged",
  },
  {
    id: "CAEPT-STREAM-REPLACE",
    level: "MUST",
    source: `${SSF} §8.1.1.4 (PUT with stream_id and the full set of Receiver-Supplied properties: 200 OK with the updated configuration, or 202; missing Receiver-Supplied properties MUST be interpreted as requested to be deleted); ${FACTS} (replace PUT 200)`,
    text: "PUT with stream_id and a full set of Receiver-Supplied properties is answered 200 with the updated configuration (or 202), and a later read shows the new values, with each Receiver-Supplied property the request left out (description) deleted",
  },
  // "Then gone" is read through the texts' own answers: 404 for a stream_id with no stream for
  // this Receiver (SSF §8.1.1.2 errors), and the list of the Receiver's streams (§8.1.1.2).
  {
    id: "CAEPT-STREAM-DELETE",
    level: "MUST",
    source: `${SSF} §8.1.1.5 (DELETE with stream_id: the Transmitter responds with an empty 204 No Content when the configuration was removed), §8.1.1.2 (404 if there is no stream with the given stream_id for this Receiver); ${FACTS} (delete DELETE 204)`,
    text: "DELETE configuration_endpoint?stream_id=<id> is answered 204 with no body, after which reading that stream_id answers 404 and the list of the Receiver's streams no longer holds it",
  },
  // The poll endpoint is covered too: SSF §6.1.2 makes it unique per stream for a Receiver, and
  // §7.1.1 protects it with the management API's authorization schemes; handing one Receiver's
  // SETs to another is the "unauthorized access to private information" §9.2 warns of.
  {
    id: "CAEPT-STREAM-ISOLATION",
    level: "MUST",
    source: `${SSF} §8 (the authorization MUST associate a Receiver with stream IDs and aud values, such that only authorized Receivers are able to access or modify the details of the associated streams), §8.1 (streams identified for a request from its credentials), §8.1.1.2-§8.1.4.2 (403 not allowed, 404 no such stream for this Receiver), §6.1.2, §7.1.1, §9.2`,
    text: "with another Receiver's token (secondReceiverToken) the first Receiver's stream is not listed, and reading it (configuration or status), changing it (update, replace, delete, status, add or remove subject, verification) or polling it is answered 401, 403 or 404, hands out no SET and leaves the stream unchanged",
  },
  // Answers are stated in the indicative; the 202 of an undecided update is a MUST of §8.1.2.2.
  {
    id: "CAEPT-STATUS",
    level: "MUST",
    source: `${SSF} §8.1.2.1 (GET status_endpoint?stream_id: 200 OK with stream_id and status, a value that MUST be enabled, paused or disabled), §8.1.2.2 (POST with stream_id and status: 200 OK with the updated status; a Transmitter unable to decide MUST respond 202); ${FACTS} (status GET/POST with enabled, paused, disabled)`,
    text: "POST to status_endpoint setting each of enabled, paused and disabled is answered 200 with the updated status (or 202), and GET status_endpoint?stream_id=<id> then answers 200 with that stream_id and the status set, never a value other than enabled, paused or disabled",
  },
  // SSF §8.1.3.2 answers a successful add with an empty 200, and §9.1 speaks of a 204 for the
  // same answer: both are taken. A Transmitter MAY silently ignore the subject (§8.1.3.2, §9.2:
  // not obliged to transmit events about every subject added); that is left open here and is
  // the profile's to declare (its subjects template names subjects the hook emits about).
  {
    id: "CAEPT-SUBJECT-ADD",
    level: "MUST",
    source: `${SSF} §8.1.3.2 (POST with stream_id and subject; on success the Transmitter responds with an empty 200 OK), §9.1 (a 204 response); ${FACTS} (add subject POST 200)`,
    text: "POST to add_subject_endpoint with the Receiver's stream_id and a subject is answered 200 (or 204, which SSF §9.1 names for the same answer)",
  },
  {
    id: "CAEPT-SUBJECT-REMOVE",
    level: "MUST",
    source: `${SSF} §8.1.3.3 (POST with stream_id and subject; on success the Transmitter responds with 204 No Content); ${FACTS} (remove subject POST 204)`,
    text: "POST to remove_subject_endpoint with the Receiver's stream_id and a subject of the stream is answered 204",
  },
  // SSF §8.1.4.2 lets the event go out asynchronously (with an SLA the Transmitter SHOULD
  // publish); eventTimeoutMs is the profile's statement of that bound. The 204 itself says the
  // Transmitter "has transmitted the event or will do so".
  {
    id: "CAEPT-VERIFY",
    level: "MUST",
    source: `${SSF} §8.1.4.2 (POST with stream_id and state: 204 No Content; state OPTIONAL, and when sent the Transmitter MUST echo it back in the Verification Event), §8.1.4.1 (event type .../ssf/event-type/verification; sub_id MUST be of format opaque with the stream_id as id); ${FACTS} (verification POST 204, then a verification SET carrying the state); ${PROFILE} (eventTimeoutMs)`,
    text: "POST to verification_endpoint with stream_id and a state is answered 204, and within eventTimeoutMs a verification SET arrives on that stream (not another) carrying that state and a sub_id of format opaque whose id is the stream_id; a request without state (OPTIONAL) is answered 204 too, and a verification SET arrives on its stream",
  },
  // SHOULD, as CAEPT-STREAM-CREATE-INVALID: no keyword binds the refusal. Each of these
  // endpoints defines its success for a valid request ("On receiving a valid request", §8.1.2.2)
  // and gives its errors in a table ("Errors are signaled with HTTP status codes as follows")
  // whose row "400 | if the request body cannot be parsed or if the request is otherwise invalid"
  // carries no BCP 14 keyword (Update Stream Status, Add Subject, Remove Subject and Verification
  // Errors alike). What is invalid is the text's own: a status "MUST be one of" enabled, paused,
  // disabled (§8.1.2.1), reason is "a short text description", subject "a Subject claim" (a
  // subject identifier, §3.2: RFC 9493), verified "a boolean value", state "an arbitrary string".
  // The tables give 400 and no other code for it, so only 400 meets this; a status changed by a
  // refused update is the acceptance. SSF has no read of a stream's subjects: a subject or
  // verification request is judged by its answer alone.
  {
    id: "CAEPT-MANAGEMENT-INVALID",
    level: "SHOULD",
    source: `${SSF} §8.1.2.2 (on receiving a valid request the Transmitter responds 200; status REQUIRED, reason a short text description; Update Stream Status Errors: 400 if the request body cannot be parsed or if the request is otherwise invalid), §8.1.2.1 (status a string whose value MUST be enabled, paused or disabled), §8.1.3.2 (subject REQUIRED, a Subject claim; verified a boolean value; Add Subject Errors: 400 likewise), §8.1.3.3 (subject REQUIRED; Remove Subject Errors: 400 likewise), §8.1.4.2 (state an arbitrary string; Verification Errors: 400 likewise), §3.2 (a simple subject is a subject identifier of RFC 9493), §3.3 (a complex subject has a format field and one or more Simple Subject Members); ${SUBID} §3 (format and its required members)`,
    text: "a status update, add subject, remove subject or verification request on the Receiver's own stream, with the Receiver's valid token, whose body is not valid (status not a string or not enabled, paused or disabled, reason not a string; a body that is not JSON or not a JSON object, subject missing or not a subject identifier object, a complex subject with no simple subject member or one that is not a subject identifier, verified not a boolean; state not a string) is refused with 400, and a refused status update leaves the stream's status as it was",
  },

  // Every SET the run receives, pushed or polled (one validator, mocks/receiver/validator.ts)
  // RFC 8417 allows unsecured SETs where something else protects them; a Transmitter that
  // publishes jwks_uri declares that it signs (SSF §7.1) and no other protection is agreed. A SET
  // MAC'd with a secret shared out of band cannot be judged by this suite, which holds no such
  // secret: it is reported as not verifiable, not passed.
  {
    id: "CAEPT-SET-SIGNATURE",
    level: "MUST",
    source: `${SSF} §4.1.4 (signature keys through jwks_uri), §7.1 (jwks_uri holds the keys the Receiver uses to validate signatures); ${PUSH} §2 (the SET is authentic: if signed, by a key belonging to the issuer); ${JWS} §4.1.4 (kid)`,
    text: "every SET is a compact JWS, not alg none, whose signature verifies with a key published at jwks_uri (the key whose kid the header names, when it names one)",
  },
  // The typ value compares as a media type (RFC 7515 §4.1.9): application/secevent+jwt is the
  // same type.
  {
    id: "CAEPT-SET-TYP",
    level: "MUST",
    source: `${SSF} §4.1.1 (SSF events MUST use explicit typing, RFC 8417 §2.3), §4.1.3; ${SET} §2.3 (typ secevent+jwt); ${JWS} §4.1.9; ${FACTS} (header typ secevent+jwt)`,
    text: "every SET's JOSE header carries typ secevent+jwt (or application/secevent+jwt)",
  },
  {
    id: "CAEPT-SET-ISS",
    level: "MUST",
    source: `${SSF} §4.1.6 (iss MUST match the iss of the stream's configuration), §7.1 and §7.2.4 (the issuer MUST be identical to the iss of the Transmitter's SETs), §8.1.1 (the stream's iss identical to the SETs' iss); ${SET} §2.2; ${FACTS} (iss REQUIRED)`,
    text: "every SET carries iss identical to the discovery issuer and to the iss of the stream it arrived on",
  },
  // Derived: the stream's aud "identifies the Event Receiver(s) for the Event Stream" (SSF
  // §8.1.1), and RFC 8935 §2 has the Recipient refuse a SET it is not an audience of, so a SET
  // on the stream with another aud cannot be delivered. An array aud is allowed (SSF §4.1.8);
  // the Transmitter SHOULD send separate SETs to Receivers it does not know to be one entity.
  {
    id: "CAEPT-SET-AUD",
    level: "MUST",
    source: `${SSF} §4.1.8 (aud a string or an array of strings), §8.1.1 (the stream's aud identifies its Receivers); ${PUSH} §2 (the Recipient is an intended audience); ${JWT} §4.1.3; ${FACTS} (aud string or array)`,
    text: "every SET carries aud, a string or an array of strings, whose every value is an aud value of the stream it arrived on",
  },
  // Derived for the bound: no text bounds iat, but RFC 7519 §4.1.6 defines it as the time the JWT
  // was issued, and a time ahead of its arrival is not that time. The validator allows 60 s of
  // clock skew.
  {
    id: "CAEPT-SET-IAT",
    level: "MUST",
    source: `${SET} §2.2 (iat REQUIRED); ${JWT} §4.1.6 (iat: the time at which the JWT was issued, a NumericDate); ${FACTS} (iat REQUIRED)`,
    text: "every SET carries iat, a NumericDate (a number of seconds), no later than its arrival plus the run's clock-skew allowance",
  },
  // A SET delivered again (a push retry, an unacknowledged poll) keeps its jti: the same jti with
  // the same claims is the same SET, not a reuse. The validator keeps a fingerprint of the claims.
  {
    id: "CAEPT-SET-JTI",
    level: "MUST",
    source: `${SET} §2.2 (jti REQUIRED: a unique identifier of the SET); ${JWT} §4.1.7 (the identifier MUST be assigned so that the same value is not assigned to a different data object); ${FACTS} (jti REQUIRED)`,
    text: "every SET carries jti, a non-empty string, and no two different SETs of the run (across all its streams) share one",
  },
  {
    id: "CAEPT-SET-NO-SUB",
    level: "MUST",
    source: `${SSF} §4.1.2 (the JWT sub claim MUST NOT be present in any SET containing an SSF event), §4.1.3; ${FACTS}`,
    text: "no SET carries a JWT sub claim",
  },
  {
    id: "CAEPT-SET-NO-EXP",
    level: "MUST",
    source: `${SSF} §4.1.7 (the exp claim MUST NOT be used in SETs), §4.1.3; ${FACTS}`,
    text: "no SET carries an exp claim",
  },
  {
    id: "CAEPT-SET-SUB-ID",
    level: "MUST",
    source: `${B} security event token envelope (sub_id: subject identifier object with member format; subject formats); ${SSF} §3.1 (a top-level sub_id MUST be used; SSF Transmitters MUST include it even for CAEP events), §3.3 (complex: one or more simple members, each at most once), §3.4 (formats registered, of SSF, or agreed), §3.5 (jwt_id, saml_assertion_id, ip-addresses); ${SUBID} §3 (format and its required members); ${FACTS} (subject formats)`,
    text: "every SET carries a top-level sub_id that is a subject identifier of a known format with the members it requires (a complex subject naming one or more subject members)",
  },
  // SSF §4.2.1: "The events claim SHOULD contain only one event. Multiple event type URIs are
  // permitted only if they are alternative URIs defining the exact same event type." The eight
  // CAEP types have no alternative URIs, so two CAEP URIs are two events; the keyword of the
  // rule is SHOULD. That events is present and holds known event types is CAEPT-SET-EVENT-CLAIMS
  // (the validator's rule "events"); this is its rule "one-event".
  {
    id: "CAEPT-SET-EVENT",
    level: "SHOULD",
    source: `${SSF} §4.2.1 (events SHOULD contain only one event; several URIs only as alternative URIs of the same event type); ${FACTS} (events SHOULD hold one event)`,
    text: "every SET's events claim holds exactly one event",
  },
  // Derived for the event types: the suite requests only the eight CAEP types, and
  // events_delivered (SSF §8.1.1) tells the Receiver which types to expect; SSF §8.1.4 and §8.1.5
  // let verification and stream-updated events come on any stream. Value sets that the texts
  // leave open are not judged against their lists: credential_type ("or any other credential
  // type supported mutually"), namespace ("a custom namespace agreed"), principal ("or any other
  // entity"). Carries the validator's rules "events" and "event-claims".
  {
    id: "CAEPT-SET-EVENT-CLAIMS",
    level: "MUST",
    source: `${B} security event token envelope (events: object keyed by event type URI, the value the event claim object; event types and their REQUIRED claims; claims available in every event); ${CAEP} §2 (initiating_entity MUST be admin, user, policy or system), §3.2-§3.8 (REQUIRED claims; change_type, change_direction, previous_status, current_status, risk levels MUST be one of their values; amr MUST be an array of strings); ${SET} §2.2 (events REQUIRED); ${SSF} §4.2.1, §8.1.1; ${FACTS} (credential-change, initiating_entity, device statuses)`,
    text: `every SET carries events, a JSON object whose members are event objects under event type URIs of the eight CAEP types (${EIGHT}) or of SSF (verification, stream-updated); each CAEP event carries its REQUIRED claims with their types, and change_type, initiating_entity, previous_status, current_status, current_level and previous_level of risk-level-change, and change_direction take only the values CAEP lists`,
  },
  {
    id: "CAEPT-SET-REASON-MAPS",
    level: "MUST",
    source: `${CAEP} §2 (reason_admin and reason_user: a JSON object that MUST contain one or more pairs, a BCP47 language tag as key and the message as value); ${B} claims available in every event (map from BCP47 tag to message; at least one pair)`,
    text: "reason_admin and reason_user, when present in an event, are JSON objects of one or more members, each keyed by a BCP47 language tag with a string message",
  },
  // SSF §4.1.9 also has a present txn "unique to the underlying event" (a MUST), which a
  // Transmitter may reuse across SETs of one cause; that half is not judged here.
  {
    id: "CAEPT-SET-TXN",
    level: "SHOULD",
    source: `${SSF} §4.1.9 (Transmitters SHOULD set the txn claim); ${B} security event token envelope (txn: transaction id); ${FACTS} (txn SHOULD be present)`,
    text: "every SET carries txn, a non-empty string",
  },

  // Events, through the profile's trigger hook (skipped "needs hook" without it)
  // Derived: an enabled stream "MUST transmit events over the stream" (SSF §8.1.2.1) and
  // events_delivered names "the set of events that the Transmitter MUST include in the stream"
  // (§8.1.1). SSF §9.2 lets a Transmitter withhold events about a subject by its own policy;
  // the profile's hook and subjects template declare the subjects it emits about, and the
  // trigger's subject is added to the stream first. No text sets a delay: eventTimeoutMs is the
  // profile's bound.
  {
    id: "CAEPT-EVENTS-DELIVERED",
    level: "MUST",
    source: `${B} Events 3 (the eight event types, each carried in a SET under its URI); ${SSF} §8.1.2.1 (enabled: the Transmitter MUST transmit events over the stream, by its delivery method), §8.1.1 (events_delivered: the events the Transmitter MUST include in the stream), §8.1.3.1 (the Transmitter SHOULD send events relating to a subject added), §9.2; ${PUSH} §2; ${POLL} §2; ${PROFILE} (hooks.trigger, eventTimeoutMs, delivery)`,
    text: `for each of the eight CAEP types (${EIGHT}) in an enabled stream's events_delivered, a trigger through the profile's hook about a subject added to the stream makes a SET of that type arrive on the stream within eventTimeoutMs, on a push stream and on a poll stream alike (each delivery method the profile tests)`,
  },
  // Derived: sub_id describes "the primary subject of the event" (SSF §3.1), and the trigger
  // named the subject the event is about. A complex subject carrying it as a member names it
  // too (SSF §3.3.1: members are attributes of the one subject principal).
  {
    id: "CAEPT-EVENTS-SUBJECT",
    level: "MUST",
    source: `${SSF} §3.1 (the top-level sub_id describes the primary subject of the event), §3.3.1 (the members of a complex subject represent one subject principal); ${B} security event token envelope (sub_id); ${PROFILE} (hooks.trigger, subjects)`,
    text: "the SET a trigger causes names the subject the trigger named: its sub_id is that subject identifier, or a complex subject having it as a member",
  },

  // Push delivery (RFC 8935), judged on every push the mock Receiver records
  // RFC 8935 §2.1 also has the Accept header of the request be application/json (a MUST); this
  // requirement is judged as the plan fixes it (method, media type, body, authorization).
  {
    id: "CAEPT-PUSH-REQUEST",
    level: "MUST",
    source: `${PUSH} §2.1 (HTTP POST; the Content-Type MUST be application/secevent+jwt; the body MUST be the SET itself); ${SSF} §6.1.1 (push endpoint_url set by the Receiver; if authorization_header is present, the Transmitter MUST provide this value with every HTTP request to the endpoint_url); ${FACTS} (push delivery)`,
    text: "every push is an HTTP POST to the stream's endpoint_url with Content-Type application/secevent+jwt, a body that is one SET in compact form, and, when the Receiver gave an authorization_header, an Authorization header equal to it",
  },
  // RFC 8935 §4 leaves the retry strategy to the Transmitter ("Implementers SHOULD evaluate the
  // reliability requirements of their use cases"), and Retry-After (RFC 9110 §10.2.3) says how
  // long a client ought to wait, with no keyword. A SET never sent again after a transient
  // failure is lost; one sent again before Retry-After storms a Receiver that asked for a pause.
  // The retry timing seen is reported either way.
  {
    id: "CAEPT-PUSH-RETRY",
    level: "SHOULD",
    source: `${PUSH} §4 (delivery reliability: a retry strategy per error condition), §2.3 (general HTTP errors); ${HTTP} §10.2.3 (Retry-After: how long the user agent ought to wait before a follow-up request), §15.6.4 (503); public: RFC 6585 §4 (429); ${HARNESS}`,
    text: "after the Receiver answers a push 503 or 429 with Retry-After, the Transmitter pushes the same SET again, not before Retry-After has passed, within the run's bound",
  },
  // RFC 8935 §4: for many delivery errors "a retry is extremely unlikely to be successful", for
  // example invalid_request, "a structural error in the content of the request body that is
  // likely to remain when retransmitting the same SET"; no keyword forbids the resend.
  {
    id: "CAEPT-PUSH-NO-RESEND-400",
    level: "SHOULD",
    source: `${PUSH} §4 (a retry after invalid_request is extremely unlikely to succeed), §2.3 (400 with err and description), §2.4 (error codes); ${HARNESS}`,
    text: "a SET the Receiver refused with 400 and the RFC 8935 error invalid_request is not pushed again",
  },

  // Poll delivery (RFC 8936), the check's own requests to the stream's endpoint_url
  // Derived: SSF §7.1.1 has the management API's authorization schemes protect the polling
  // endpoint (SHOULD) and §6.1.2 gives each of a Receiver's streams its own endpoint; a poll
  // hands out and acknowledges (consumes) one Receiver's SETs, so an endpoint that answers
  // without the Receiver's credentials gives its SETs to anyone (SSF §9.2). This Transmitter
  // authorizes polls with the profile's receiverToken; once it refuses with 401, the challenge
  // is a MUST of RFC 9110 §11.6.1 and RFC 6750 §3.
  {
    id: "CAEPT-POLL-AUTH",
    level: "MUST",
    source: `${SSF} §7.1.1 (the authorization schemes SHOULD also protect any polling endpoint), §6.1.2 (endpoint_url unique per stream for a given Receiver), §9.2; ${POLL} §3 (HTTP authentication and authorization); ${HTTP} §11.6.1, §15.5.2 (a 401 MUST carry a WWW-Authenticate challenge); ${BEARER} §3 (WWW-Authenticate when the request has no or an invalid token)`,
    text: "a poll request without credentials or with wrong ones (no Authorization header, the token under another scheme, an empty, malformed, unknown or near-miss Bearer token) is refused with a WWW-Authenticate challenge (401; 400 allowed for an empty or malformed Bearer value, RFC 6750 §3.1 invalid_request) and hands out no SET",
  },
  // RFC 6750 §2.3 lets a resource server accept a query-parameter token (MAY), while §5.3 says
  // bearer tokens SHOULD NOT be passed in page URLs and RFC 9700 §4.3.2 forbids clients to send
  // them there (a MUST NOT on the client): a Transmitter that accepts one invites tokens into
  // logs and proxies. Nothing obliges the refusal.
  {
    id: "CAEPT-POLL-TOKEN-IN-QUERY",
    level: "SHOULD",
    source: `${BEARER} §2.3 (URI query parameter: resource servers MAY support it), §5.3 (bearer tokens SHOULD NOT be passed in page URLs); ${OAUTH_BCP} §4.3.2 (clients MUST NOT pass access tokens in a URI query parameter); ${HARNESS}`,
    text: "a poll request carrying the Receiver's valid token only as an access_token query parameter (no Authorization header) is refused (400, 401 or 403) and hands out no SET",
  },
  // RFC 8936 §2.2 words it as "The SET Transmitter SHOULD NOT send more SETs than the specified
  // maximum", not as a MUST NOT; maxEvents 0 is an acknowledge-only request.
  {
    id: "CAEPT-POLL-MAX-EVENTS",
    level: "SHOULD",
    source: `${POLL} §2.2 (maxEvents: the maximum number of unacknowledged SETs to be returned; the SET Transmitter SHOULD NOT send more; 0 is an acknowledge-only request); ${FACTS} (poll request maxEvents)`,
    text: "a poll answer holds no more SETs than the request's maxEvents (none for maxEvents 0), also when more are waiting",
  },
  // Derived: acknowledgement tells the Transmitter "that delivery has succeeded and redelivery is
  // no longer required" (RFC 8936 §2.1), and the answer's sets carry "SETs being transmitted for
  // the first time and SETs that are being retransmitted after not having been acknowledged"
  // (§2.3): an acknowledged SET is neither.
  {
    id: "CAEPT-POLL-ACK",
    level: "MUST",
    source: `${POLL} §2.1 (acknowledgement: delivery has succeeded, redelivery is no longer required), §2.2 (ack: jti values of SETs received; the Transmitter is then released from retaining them), §2.3 (sets: first transmissions and retransmissions of unacknowledged SETs); ${FACTS} (poll ack)`,
    text: "a SET whose jti a poll request acknowledged is never handed out again, on later polls of any kind (with or without ack, returnImmediately or not)",
  },
  // Derived: until acknowledged "redelivery is required" (§2.1 reads so by contrast), and §2.3
  // has retransmissions of unacknowledged SETs in the answer; RFC 8936 §2 lets a Transmitter
  // discard undelivered SETs only under deployment-specific conditions ("not polled for over too
  // long a period of time", "an excessive amount of storage"), which a run of seconds and a
  // handful of SETs do not meet. But §2.4 has the Transmitter redeliver "after a period of time
  // configured in an out-of-band manner" (MAY), which may be longer than the run's bound: so a
  // SHOULD, judged within eventTimeoutMs.
  {
    id: "CAEPT-POLL-REDELIVER",
    level: "SHOULD",
    source: `${POLL} §2 (the Transmitter may discard undelivered SETs only under deployment-specific conditions), §2.1 (acknowledged: redelivery is no longer required), §2.3 (sets include SETs retransmitted after not having been acknowledged), §2.4 (redelivery after an out-of-band period: MAY); ${PROFILE} (eventTimeoutMs)`,
    text: "a SET handed out by a poll and neither acknowledged nor reported in setErrs is handed out again by a later poll of the stream within the profile's eventTimeoutMs",
  },
  {
    id: "CAEPT-POLL-RETURN-IMMEDIATELY",
    level: "SHOULD",
    source: `${POLL} §2.2 (returnImmediately true: the SET Transmitter SHOULD return an immediate response even if no results are available; false, the default, is an HTTP long poll)`,
    text: "a poll with returnImmediately true on a stream with nothing waiting is answered at once, not held as a long poll is (the answer's form is CAEPT-POLL-RESPONSE's)",
  },
  // Derived: moreAvailable "indicates if more unacknowledged SETs are available to be returned"
  // and may be omitted only "with the meaning being the same as including it with the boolean
  // value false" (RFC 8936 §2.3): an answer that leaves SETs behind while saying false, or saying
  // nothing, misstates the member. Judged only for SETs waiting before the request was made.
  {
    id: "CAEPT-POLL-MORE-AVAILABLE",
    level: "MUST",
    source: `${POLL} §2.3 (moreAvailable: whether more unacknowledged SETs are available to be returned; omitted means false); ${FACTS} (moreAvailable)`,
    text: "a poll answer that leaves waiting SETs behind (maxEvents reached) carries moreAvailable true, and an answer carrying moreAvailable true leaves SETs to be returned",
  },
  {
    id: "CAEPT-POLL-RESPONSE",
    level: "MUST",
    source: `${POLL} §2.3 (sets: a JSON object whose member names are the jtis of the SETs and whose values are the SETs as JSON strings, empty when none are outstanding; moreAvailable a boolean); ${FACTS} (response 200 {"sets": {jti: SET}, "moreAvailable"?})`,
    text: "every successful poll is answered 200 with a JSON object whose sets is an object mapping each SET's jti (the jti claim of that SET) to the SET as a compact string, and whose moreAvailable, when present, is a boolean",
  },

  // Stream lifecycle (model-based: fast-check command sequences against a model of SSF §8.1.2)
  // SSF §8 ("only events with those Subjects are transmitted on the stream") and §7.1
  // (default_subjects NONE: adding subjects causes "only events for those subjects to be
  // transmitted") describe the behaviour in the indicative; the keyword the text gives it is
  // §8.1.3.1's SHOULD NOT broadcast an event whose subject matches none of the stream's, hence
  // SHOULD. Left open, and reported as seen, not judged: events about a subject after its
  // removal (SSF §9.3: a Transmitter MAY continue sending them "for some amount of time", so a
  // removed subject's events are allowed), and streams of a Transmitter whose default_subjects
  // is ALL or absent (unspecified).
  {
    id: "CAEPT-LIFECYCLE-SUBJECTS",
    level: "SHOULD",
    source: `${SSF} §8 (the stream keeps the subjects of interest; only events with those subjects are transmitted), §7.1 (default_subjects NONE: only events for subjects added), §8.1.3.1 (the Transmitter SHOULD NOT broadcast an event whose subject does not match), §9.2 (SHOULD validate it may share an event with the Receiver), §9.3 (MAY continue after removal)`,
    text: "on a Transmitter whose configuration says default_subjects NONE, no event about a subject never added to a stream is delivered on that stream",
  },
  // Holding is a SHOULD and dropping is allowed: "The Transmitter SHOULD hold any events it would
  // have transmitted while paused, and SHOULD transmit them when the stream's status becomes
  // enabled. The Transmitter MAY drop zero or more events that are held", and of successive held
  // events about one subject it may send only the last ones. Not transmitting while paused is
  // the MUST NOT of CAEPT-LIFECYCLE-DISABLED. Also a MUST of §8.1.2.1 not judged here: held
  // events about one subject go out in the order they were generated (or only the last ones).
  {
    id: "CAEPT-LIFECYCLE-PAUSED",
    level: "SHOULD",
    source: `${SSF} §8.1.2.1 (paused: the Transmitter SHOULD hold the events it would have transmitted and SHOULD transmit them when the status becomes enabled; it MAY drop held events, and MAY send only the last events about one subject principal); ${FACTS} (status paused)`,
    text: "events raised while a stream is paused are delivered after it is enabled again: for each subject, at least the latest of them",
  },
  // Both paused and disabled: "The Transmitter MUST NOT transmit events over the stream"
  // (SSF §8.1.2.1); for poll, handing a SET out in a poll answer is transmitting it, SETs queued
  // before the pause included. Derived for the second half: disabled "will not hold any events
  // for later transmission", which is what tells it apart from paused. Left open, reported as
  // seen: a verification SET asked for while the stream is paused or disabled (SSF §8.1.4: a
  // Transmitter MAY send one at any time), and the stream-updated event (§8.1.5).
  {
    id: "CAEPT-LIFECYCLE-DISABLED",
    level: "MUST",
    source: `${SSF} §8.1.2.1 (paused and disabled: the Transmitter MUST NOT transmit events over the stream; disabled: it will not hold any events for later transmission), §8.1.2.2; ${FACTS} (status enabled, paused, disabled)`,
    text: "no SET of a triggered event is delivered on a stream while it is paused or disabled (pushed, or handed out by a poll), and events raised while it is disabled are not delivered after it is enabled again",
  },
  // Derived, as CAEPT-EVENTS-DELIVERED for "none lost" and CAEPT-POLL-ACK for "none after
  // acknowledgement". A push of the same SET again after a 202 is not judged here: RFC 8935 §2
  // lets a Transmitter "transmit the same SET ... multiple times, regardless of the response"
  // (and SHOULD NOT outside a recoverable error); the run notes it. One event sent as two SETs
  // (two jtis) is a duplicate either way. Events raised while paused are
  // CAEPT-LIFECYCLE-PAUSED's (SSF lets them be dropped), those raised while disabled are not owed.
  {
    id: "CAEPT-LIFECYCLE-EXACTLY-ONCE",
    level: "MUST",
    source: `${SSF} §8.1.2.1 (enabled: MUST transmit), §8.1.1 (events_delivered); ${PUSH} §2 (the same SET MAY be sent again, regardless of the response), §2.2 (202: successful transmission); ${POLL} §2.1, §2.2, §2.3; ${PROFILE} (lifecycle, eventTimeoutMs)`,
    text: "over every command sequence, each event raised while the stream is enabled, about a subject in it, of a type it delivers, is delivered as one SET (never as two SETs with different jtis), and no SET is handed out by a poll again once acknowledged",
  },
]);
