import { defineCatalog } from "../../src/engine/requirement.js";

const B = "specs/002 area B";
// The published texts behind public-spec-facts §4 (and the JWT texts they build on). A source
// that starts with one of these is a public-spec requirement, not a sentence of specs/002.
const SSF = "public: OpenID Shared Signals Framework 1.0";
const CAEP = "public: OpenID CAEP 1.0";
const SET = "public: RFC 8417 (SET)";
const PUSH = "public: RFC 8935 (push delivery)";
const POLL = "public: RFC 8936 (poll delivery)";
const SUBID = "public: RFC 9493 (subject identifiers)";
const JWT = "public: RFC 7519 (JWT)";
const BCP = "public: RFC 8725 (JWT best current practices)";
const FACTS = "public-spec-facts §4";
/** What a harness recommendation says of itself in `source`. */
const HARNESS = "a harness recommendation, not a sentence of a spec";

/** How the refusal of a SET looks in each delivery mode (RFC 8935 §2.3, RFC 8936 §2.2). */
const REFUSED =
  "refused: answered with a 4xx (push; that it is 400 with an RFC 8935 error is CAEPR-PUSH-REFUSAL-400's and CAEPR-PUSH-ERROR-FORMAT's) or reported in setErrs and not acknowledged (poll)";
/** How the acceptance of a SET looks in each delivery mode (RFC 8935 §2.2, RFC 8936 §2). */
const ACCEPTED = "accepted: answered 202 with an empty body (push) or acknowledged (poll)";

/**
 * The CAEP receiver suite: certifies a Shared Signals Receiver of CAEP events. idconform plays
 * the Transmitter (discovery, jwks_uri, stream management, a poll endpoint, signed SETs); the
 * target is the Receiver's push endpoint or its poller, and, when it sets up its own stream,
 * its stream management calls. Covered: the eight CAEP event types and the security event
 * token envelope of specs/002 area B, and the SET, subject identifier, push, poll, discovery
 * and stream rules of public-spec-facts §4 that a Receiver must keep (SSF 1.0, CAEP 1.0, RFC
 * 8417, RFC 8935, RFC 8936, RFC 9493), with RFC 7519 and RFC 8725 for JWT validation. What the
 * Receiver does with an event (a session ended, access reduced) is certified only through the
 * probes its profile declares. Not covered: the Transmitter side (a separate suite), stream
 * updates, status and subject management by the Receiver, encrypted SETs, TLS.
 *
 * Several Receiver rules are written in the texts only as the Transmitter's duty ("sub MUST
 * NOT be present"). RFC 8935 §2 has the Recipient validate every SET it receives (parse it,
 * check it is authentic, its audience and its issuer) and §2.3-2.4 has it answer 400
 * invalid_request for a SET that "cannot be parsed as a SET" or whose payload "does not conform
 * to the event's definition"; RFC 8936 §2 applies the same validation to polled SETs. Where the
 * comment above a requirement says "derived", its level comes from that reading.
 */
export const catalog = defineCatalog("caep-receiver", [
  // Acceptance: a valid SET is accepted (RFC 8935 §2.2, RFC 8936 §2)
  {
    id: "CAEPR-ACCEPT-EVENTS",
    level: "MUST",
    source: `${B} Events 3; security event token envelope (event types, each with its claims); ${PUSH} §2.2 (a valid SET is acknowledged with 202); ${POLL} §2 (the Recipient MUST acknowledge receipt)`,
    text: `a valid SET of each CAEP event type the stream delivers (all eight for a preconfigured stream) carrying only its REQUIRED claims is ${ACCEPTED}`,
  },
  {
    id: "CAEPR-ACCEPT-OPTIONAL-CLAIMS",
    level: "MUST",
    source: `${B} security event token envelope (claims available in every event; event types: optional claims); ${CAEP} §2, §3; ${PUSH} §2.2`,
    text: `a valid SET of each type the stream delivers carrying every optional claim (reason_admin and reason_user language maps, initiating_entity, event_timestamp, the type's own optional claims) is ${ACCEPTED}`,
  },
  {
    id: "CAEPR-ACCEPT-SUBJECTS",
    level: "MUST",
    source: `${B} security event token envelope (subject formats seen: opaque, iss_sub, email, jwt_id, saml_assertion_id, complex); ${PUSH} §2.2`,
    text: `a valid SET whose sub_id is in each format of the document (opaque, iss_sub, email, jwt_id, saml_assertion_id, complex) is ${ACCEPTED}`,
  },
  // No text obliges a Receiver to understand every registered format: SSF §3.6 asks a "best
  // effort" to process all members of a subject, and RFC 8935 §2 lets a Recipient decline SETs
  // it is not willing to accept from this Transmitter. A SET in a registered format is still a
  // valid SET; RFC 8935 §3 leaves Recipients "free to ignore SETs that are not of interest"
  // (no keyword), and RFC 8936 §3 has them ignored after acknowledging their receipt, so
  // accepting them is what a Receiver should do: a SHOULD.
  {
    id: "CAEPR-ACCEPT-SUBJECTS-PUBLIC",
    level: "SHOULD",
    source: `${SUBID} §3.2 (account, email, iss_sub, opaque, phone_number, did, uri, aliases); ${SSF} §3.5 (ip-addresses), §3.3 (complex members), §3.6 (best effort to process every member); ${FACTS}`,
    text: `a valid SET whose sub_id is in each other format of the public texts (account, phone_number, did, uri, aliases, ip-addresses) is ${ACCEPTED}`,
  },
  {
    id: "CAEPR-ACCEPT-VERIFICATION",
    level: "MUST",
    source: `${SSF} §8.1.4.1 (the Receiver SHALL parse the verification SET and validate its claims; sub_id opaque with the stream_id), §8.1.4.2 (state echoed); ${PUSH} §2.2; ${FACTS} (stream management: verification)`,
    text: `a verification SET for the Receiver's stream (sub_id opaque with the stream_id; the state of the Receiver's verification request, when it made one) is ${ACCEPTED}`,
  },
  {
    id: "CAEPR-ACCEPT-AUD-ARRAY",
    level: "MUST",
    source: `${SSF} §4.1.8 (aud a string or an array of strings); ${JWT} §4.1.3 (aud an array of audience values); ${FACTS} (aud string or array)`,
    text: `a valid SET whose aud is an array containing the Receiver's audience next to another value is ${ACCEPTED}`,
  },

  // Push answers: judged on every push response of the run (observers)
  {
    id: "CAEPR-PUSH-SUCCESS-202",
    level: "MUST",
    source: `${PUSH} §2.2 (success: 202 Accepted; the body of the response MUST be empty); ${FACTS}`,
    text: "every push the Receiver accepts is answered 202 Accepted with an empty body (not 200 or 204, no body)",
  },
  // RFC 8935 §2.3 also has the 400 carry a Content-Language header (a MUST); this requirement
  // is judged as the plan fixes it (status, media type, err and description).
  {
    id: "CAEPR-PUSH-ERROR-FORMAT",
    level: "MUST",
    source: `${PUSH} §2.3 (400, Content-Type application/json, a JSON object with err and description), §2.4 (error codes; SSF §11 registers invalid_state); ${FACTS}`,
    text: "every 400 answer to a push is an application/json object whose err is a registered Security Event Token error code and whose description is a string",
  },
  // The refusal requirements (CAEPR-SIGNATURE, CAEPR-ISS...) take any 4xx as a refusal, so a
  // Receiver that refuses a forgery with 401 is not failed for letting it in; which status a
  // refused SET gets is this requirement's, judged on every refused push.
  {
    id: "CAEPR-PUSH-REFUSAL-400",
    level: "MUST",
    source: `${PUSH} §2.3 (an error parsing, validating or authenticating a SET: the Recipient SHALL respond 400); ${FACTS}`,
    text: "every push of a SET the Receiver refuses (a forgery, a defective envelope or event, garbage) is answered 400, not another 4xx; an authorization failure of the request itself may be 401 or 403",
  },
  // Derived: RFC 8935 §2.3 answers an invalid SET with 400 (SHALL) and §2.2 a valid one with
  // 202 (SHALL); a 5xx is neither, whatever the Receiver thought of the SET.
  {
    id: "CAEPR-NO-5XX",
    level: "MUST",
    source: `${PUSH} §2.2 (valid: 202), §2.3 (an error parsing, validating or authenticating a SET: 400)`,
    text: "no push of a SET, valid or not, well-formed or garbage, is answered with a 5xx status",
  },
  // No text speaks of what an error description may reveal; stack traces and file paths help
  // an attacker and no Transmitter needs them.
  {
    id: "CAEPR-ERROR-NO-LEAK",
    level: "SHOULD",
    source: `${PUSH} §2.3 (description: a human-readable description of the error); ${POLL} §2.2 (setErrs: each value holds the "err" and "description" of §2.6), §2.6 (error response: as RFC 8935 §2.3, a JSON object with err and description); ${HARNESS}`,
    text: "no push answer body, and no setErrs err or description of a poll request, carries a stack trace, a file-system path or another internal detail of the Receiver",
  },
  // RFC 8935 §2.4 gives each code a meaning but does not say which one a Recipient must pick;
  // a fitting code lets the Transmitter tell a configuration problem from a broken SET.
  {
    id: "CAEPR-PUSH-ERR-CODE",
    level: "SHOULD",
    source: `${PUSH} §2.4 (invalid_issuer: the SET Issuer is invalid; invalid_audience: the audience does not correspond; invalid_key: a key used to sign is invalid or unacceptable; invalid_request: the SET cannot be parsed or does not conform)`,
    text: "the err of a refused push fits the defect: invalid_issuer for another iss, invalid_audience for another aud, invalid_key for a key or signature the Receiver does not accept, invalid_request for a malformed SET or claims",
  },

  // Refusals: each answered 400 with the RFC 8935 error (push) or reported in setErrs (poll)
  // The SET itself must be authentic, whatever the transport: RFC 8935 §2 lets a Transmitter
  // relay SETs issued by another entity, so the Recipient judges the signature, not the channel.
  {
    id: "CAEPR-SIGNATURE",
    level: "MUST",
    source: `${PUSH} §2 (the SET is authentic: signed by a key belonging to the issuer), §2.3; ${SSF} §4.1.4 (keys from jwks_uri), §7.1 (jwks_uri holds the keys the Receiver uses to validate signatures); ${BCP} §3.10 (do not trust keys the token names)`,
    text: `a SET whose signature does not verify with a key the Transmitter publishes at jwks_uri (a flipped signature, a stranger's key, a key embedded in the header as jwk or x5c, a key at a jku URL) is ${REFUSED}`,
  },
  // RFC 7515 §4.1.11: a JWS listing in crit a header parameter the recipient does not understand
  // is invalid (MUST); SETs are JWS.
  {
    id: "CAEPR-CRIT",
    level: "MUST",
    source: `public: RFC 7515 §4.1.11 (crit: the JWS is invalid if a listed extension is not understood); ${PUSH} §2 (the SET is validated)`,
    text: `a SET whose JWS header lists in crit an extension parameter no one defines is ${REFUSED}`,
  },
  // RFC 8417 allows unsecured SETs where another mechanism protects them; this Transmitter
  // publishes jwks_uri, which SSF §7.1 requires of a Transmitter that signs, and no other
  // protection of the SET is agreed.
  {
    id: "CAEPR-ALG-NONE",
    level: "MUST",
    source: `${PUSH} §2 (the SET is authentic); ${SSF} §7.1 (jwks_uri given when the Transmitter signs); ${BCP} §3.1 (algorithm verification), §3.2 (none only when requested)`,
    text: `an unsigned SET (alg none, empty signature) is ${REFUSED}`,
  },
  {
    id: "CAEPR-ALG-CONFUSION",
    level: "MUST",
    source: `${BCP} §2.1 (algorithm substitution), §3.1 (each key used with exactly one algorithm); ${PUSH} §2 (the SET is authentic)`,
    text: `a SET signed HS256 with the Transmitter's public key as the MAC secret is ${REFUSED}`,
  },
  {
    id: "CAEPR-KID-UNKNOWN",
    level: "MUST",
    source: `${SSF} §4.1.4 (signature keys from jwks_uri); ${PUSH} §2 (signed by a key belonging to the issuer), §2.4 (invalid_key)`,
    text: `a SET signed with a key whose kid is in no key set the Transmitter publishes at jwks_uri is ${REFUSED}`,
  },
  {
    id: "CAEPR-ISS",
    level: "MUST",
    source: `${SSF} §4.1.6 (Receivers MUST validate that iss matches the stream's iss and the Issuer the configuration came from); ${PUSH} §2 (issuer recognized), §2.4 (invalid_issuer)`,
    text: `a SET whose iss is not the Transmitter's issuer is ${REFUSED}`,
  },
  {
    id: "CAEPR-AUD",
    level: "MUST",
    source: `${JWT} §4.1.3 (a principal not identified in aud MUST reject the JWT); ${PUSH} §2 (the Recipient is an intended audience), §2.4 (invalid_audience); ${BCP} §3.9`,
    text: `a SET whose aud (a string, or an array) does not contain the Receiver's audience is ${REFUSED}`,
  },
  // Derived: SSF §4.1.1 makes explicit typing a MUST of every SSF SET, as the defence against
  // taking another JWT for a SET (SSF §4.1.3, RFC 8417 §4.5-4.7); a token without it is not an
  // SSF SET, which RFC 8935 §2.4 answers with invalid_request. The typ value compares as a media
  // type (RFC 7515 §4.1.9): "application/secevent+jwt" is the same type and must be accepted.
  {
    id: "CAEPR-TYP",
    level: "MUST",
    source: `${SSF} §4.1.1 (SSF events MUST use explicit typing, RFC 8417 §2.3), §4.1.3; ${SET} §2.3; ${BCP} §3.11; ${FACTS} (typ secevent+jwt)`,
    text: `a SET whose JOSE header typ is missing or is not secevent+jwt is ${REFUSED}`,
  },
  // Derived, as CAEPR-TYP: SSF §4.1.2 and §4.1.3 forbid the JWT sub claim in any SET carrying
  // an SSF event, precisely so that a SET cannot be taken for another kind of JWT.
  {
    id: "CAEPR-SUB-CLAIM",
    level: "MUST",
    source: `${SSF} §4.1.2 (the JWT sub claim MUST NOT be present), §4.1.3; ${PUSH} §2.4 (invalid_request); ${FACTS}`,
    text: `a SET carrying a JWT sub claim is ${REFUSED}`,
  },
  // Derived, as CAEPR-TYP: SSF §4.1.7 ("exp MUST NOT be used in SETs") and §4.1.3 make a token
  // with exp something other than an SSF SET, whatever its value.
  {
    id: "CAEPR-EXP-CLAIM",
    level: "MUST",
    source: `${SSF} §4.1.7 (exp MUST NOT be used), §4.1.3; ${PUSH} §2.4 (invalid_request); ${FACTS}`,
    text: `a SET carrying an exp claim is ${REFUSED}`,
  },
  {
    id: "CAEPR-REQUIRED-CLAIMS",
    level: "MUST",
    source: `${B} security event token envelope (iss, jti, iat, aud, txn, sub_id, events); ${SSF} §3.1 (a top-level sub_id MUST be used); ${SET} §2.2; ${FACTS} (iss, iat, jti, events, sub_id REQUIRED); ${PUSH} §2.4`,
    text: `a SET missing jti, iat, events or sub_id is ${REFUSED}`,
  },
  {
    id: "CAEPR-EVENT-CLAIMS",
    level: "MUST",
    source: `${B} security event token envelope (event types: REQUIRED claims, value sets); ${CAEP} §2, §3 (value sets a claim MUST take); ${PUSH} §2.4 (invalid_request: the event payload does not conform to the event's definition)`,
    text: `a CAEP event missing a REQUIRED claim (for example token-claims-change without claims, risk-level-change without principal), or with a claim of the wrong type or outside a closed value set, is ${REFUSED}`,
  },
  // Derived: RFC 9493 §3 has a subject identifier name its format and carry every member the
  // format requires, SSF §3.3 a complex subject one or more subject members, RFC 9493 §3.2.8
  // aliases that do not nest; a sub_id that breaks them identifies nobody, and a format neither
  // registered nor agreed (SSF §3.4) cannot be read.
  {
    id: "CAEPR-SUBJECT-INVALID",
    level: "MUST",
    source: `${SUBID} §3 (format; all required members), §3.2.8 (aliases not nested); ${SSF} §3.3 (complex members), §3.4 (formats registered or agreed); ${PUSH} §2.4 (invalid_request)`,
    text: `a SET whose sub_id is not a subject identifier (no format, a format of no registered kind, a required member missing or empty, a complex subject naming no member, aliases nested) is ${REFUSED}`,
  },
  {
    id: "CAEPR-MALFORMED",
    level: "MUST",
    source: `${PUSH} §2.3 (an error parsing the SET: 400), §2.4 (invalid_request: the body cannot be parsed as a SET); ${POLL} §2`,
    text: `a body that is not a compact JWS, or whose header or payload is not a JSON object, is ${REFUSED}`,
  },
  // No text bounds iat (RFC 7519 §4.1.6 only defines it); a SET dated well ahead of now does
  // not report an event that has happened, and accepting it lets a stolen signing oracle
  // pre-date events.
  {
    id: "CAEPR-IAT-FUTURE",
    level: "SHOULD",
    source: `${JWT} §4.1.6 (iat: the time the JWT was issued); ${HARNESS}`,
    text: `a SET whose iat lies hours in the future, far beyond any clock skew, is ${REFUSED}`,
  },
  // RFC 8935 §2.1 makes the media type a duty of the Transmitter; nothing has the Recipient
  // refuse another one. Refusing it keeps a cross-site text/plain POST (a CORS simple request)
  // from reaching the SET parser. 415 is the general HTTP answer RFC 8935 §2.3 allows.
  {
    id: "CAEPR-CONTENT-TYPE",
    level: "SHOULD",
    source: `${PUSH} §2.1 (Content-Type MUST be application/secevent+jwt), §2.3 (general HTTP errors use the applicable status); ${HARNESS} for the Recipient side`,
    text: "a push whose Content-Type is not application/secevent+jwt is refused with 400 (an RFC 8935 error) or 415, never accepted",
  },
  // The profile states the size the Receiver refuses; no text sets a bound.
  {
    id: "CAEPR-BODY-SIZE",
    level: "SHOULD",
    source: `profile maxBodyBytes; ${HARNESS}`,
    text: "a push body over the profile's maxBodyBytes is refused with 400 or 413, never answered 2xx",
  },
  // SSF §6.1.1 lets a push endpoint require authorization (the Receiver gives the header at
  // stream creation); RFC 8935 §3 also allows authorizing a Transmitter by the SET's issuer
  // alone, so requiring the header the Receiver asked for is a SHOULD, judged only when the
  // Receiver gave one (authorization_header, or push.authorization of a preconfigured stream).
  {
    id: "CAEPR-PUSH-AUTH",
    level: "SHOULD",
    source: `${SSF} §6.1.1 (authorization_header, sent with every push); ${PUSH} §2.4 (authentication_failed, access_denied), §3 (HTTP authentication)`,
    text: "a push without the authorization the Receiver asked for, or with a wrong one, is refused: 401 or 403, or 400 with authentication_failed or access_denied",
  },

  // Robustness
  {
    id: "CAEPR-UNKNOWN-EVENT",
    level: "MUST",
    source: `${SSF} §4.2.3 (Receivers MUST ignore any fields they do not understand), §4.2.1 (events may hold alternative URIs of one event); ${PUSH} §3 (SETs are not commands: Recipients are free to ignore SETs not of interest); ${POLL} §3 (ignored after acknowledging their receipt)`,
    text: `a SET whose events claim names its known CAEP event also under an alternative event type URI the Receiver does not know (SSF: several URIs only as alternative URIs of the same event) is ${ACCEPTED}, the unknown URI ignored`,
  },
  // Unknown members inside a simple subject identifier are left out: RFC 9493 §3 forbids a
  // Transmitter to send members its format does not describe, so a Receiver may refuse them.
  {
    id: "CAEPR-UNKNOWN-MEMBERS",
    level: "MUST",
    source: `${SSF} §4.2.3 (additional fields anywhere in the SET; Receivers MUST ignore fields they do not understand), §3.3 (additional complex member names); ${JWT} §4 (claims not understood MUST be ignored)`,
    text: `a SET with unknown top-level claims, unknown members in an event object and unknown member names in a complex subject is ${ACCEPTED}`,
  },
  // Push and poll put a re-sent SET at different levels, hence two requirements. RFC 8935 §2:
  // the Transmitter "MAY transmit the same SET ... multiple times, regardless of the response",
  // and the Recipient "MUST respond as it would if the SET had not been previously received";
  // the facts' "a re-sent SET is answered as if new".
  {
    id: "CAEPR-DUPLICATE-JTI",
    level: "MUST",
    source: `${PUSH} §2 (the Transmitter MAY transmit the same SET multiple times; the Recipient MUST respond as if it had not been previously received), §2.2 (202, empty body); ${FACTS} (push: a re-sent SET is answered as if new)`,
    text: "a SET pushed again with the same jti is answered as it was the first time: 202 with an empty body, never refused (4xx) or answered 5xx",
  },
  // RFC 8936 §2.4: a Transmitter "MAY redeliver SETs it has previously delivered", and the
  // Recipient "SHOULD accept repeat SETs and acknowledge the SETs regardless of whether the
  // Recipient believes it has already acknowledged the SETs previously": a SHOULD.
  {
    id: "CAEPR-POLL-DUPLICATE-JTI",
    level: "SHOULD",
    source: `${POLL} §2.4 (the Transmitter MAY redeliver SETs; the Recipient SHOULD accept repeat SETs and acknowledge them regardless of an earlier acknowledgement)`,
    text: "a SET handed out by poll again with the same jti (after it was acknowledged) is acknowledged again: not reported in setErrs, not skipped",
  },
  {
    id: "CAEPR-VERIFICATION-NO-STATE",
    level: "MUST",
    source: `${SSF} §8.1.4 (a Transmitter MAY send a verification event at any time), §8.1.4.1 (state OPTIONAL), §8.1.4.2 (state MUST not be set when the Transmitter initiates it)`,
    text: `an unsolicited verification SET for the Receiver's stream without state is ${ACCEPTED}`,
  },
  // SSF §9.3 has Receivers tolerate events for subjects removed from the stream and not report
  // them as errors; RFC 8935 §2 still lets a Recipient decline SETs it does not expect from
  // this Transmitter (its subject among the examples). Accepting is the recommended reading.
  {
    id: "CAEPR-UNKNOWN-SUBJECT",
    level: "SHOULD",
    source: `${SSF} §9.3 (events for subjects removed from the stream MUST be tolerated, not reported as errors), §8.1.3; ${PUSH} §2`,
    text: `a valid SET about a subject the Receiver does not know is ${ACCEPTED}`,
  },

  // Keys
  // Derived: the new key belongs to the issuer as soon as jwks_uri publishes it (SSF §7.1), so
  // the SET is authentic and RFC 8935 §2.2 has it accepted; how is the Receiver's affair, the
  // usual way being to fetch jwks_uri again on an unknown kid (OpenID Connect Core §10.1.1).
  {
    id: "CAEPR-KEY-ROTATION",
    level: "MUST",
    source: `${SSF} §4.1.4 (keys from jwks_uri), §7.1 (jwks_uri holds the signing keys); ${PUSH} §2 (signed by a key belonging to the issuer), §2.2`,
    text: `after the Transmitter publishes a new key at jwks_uri, a SET signed with it (a kid new to the Receiver) is ${ACCEPTED}`,
  },
  // A SHOULD because of its second half: a correct Receiver may keep a key set it fetched for
  // a while (a cache lifetime), so a key just dropped from jwks_uri can still verify there. A kid
  // in no published set is refused under CAEPR-KID-UNKNOWN (MUST) too.
  {
    id: "CAEPR-KEY-ROTATION-STRANGER",
    level: "SHOULD",
    source: `${SSF} §4.1.4, §7.1; ${PUSH} §2, §2.4 (invalid_key: a key expired, revoked or otherwise unacceptable)`,
    text: `after a key rotation, a SET signed with a kid in no published key set, or with the old key once dropped from jwks_uri, is ${REFUSED}`,
  },

  // Effects (seen only through the profile's probes; without them the checks skip)
  // The texts leave what a Receiver does with an event to the deployment (SSF §4.1.5, RFC 8935
  // §3: SETs are not commands). A profile that declares a probe, and the events it counts as
  // reducing access, declares that the Receiver enforces them: the requirement is that the
  // declared enforcement happens, within the profile's effects.timeoutMs.
  {
    id: "CAEPR-EFFECT-SESSION-REVOKED",
    level: "MUST",
    source: `${B} events (a Transmitter sends SETs so that the Receiver can attenuate access); ${CAEP} §3.1 (the session identified by the subject has been revoked); ${SSF} §4.1.5 (the deployment defines processing)`,
    text: "after a session-revoked SET for an active session is accepted, the profile's sessionActive probe answers 401, 403 or 404 for it within effects.timeoutMs",
  },
  {
    id: "CAEPR-EFFECT-SESSION-SUBJECTS",
    level: "MUST",
    source: `${B} security event token envelope (complex: the event applies to anything matching the combined claims); ${CAEP} §3.1 (with a complex subject, the revocation applies to any session matching the combined claims); ${SSF} §3.6 (process all members)`,
    text: "session-revoked ends the session under each subject form the profile declares: complex {user, session}, email of the user, iss_sub of the user, opaque session id",
  },
  {
    id: "CAEPR-EFFECT-ACCESS-REDUCING",
    level: "MUST",
    source: `${B} events (so that the Receiver can attenuate access); ${CAEP} §3.3, §3.4, §3.5, §3.8; ${SSF} §4.1.5 (the deployment defines processing: the profile's effects.accessReducing)`,
    text: "each event the profile declares access-reducing (credential-change revoke, assurance-level-change decrease, device-compliance-change to not-compliant, risk-level-change to HIGH) makes the subjectAccess probe refuse the user within effects.timeoutMs",
  },
  {
    id: "CAEPR-EFFECT-NO-RESURRECT",
    level: "MUST",
    source: `${CAEP} §3.6 (session-established: the Transmitter has established a new session), §3.1`,
    text: "a session-established SET for the same subject after a session-revoked does not bring the revoked session back: the sessionActive probe still refuses it",
  },
  // Derived: an event concerns its subject (CAEP §3.1 "the session identified by the subject";
  // SSF §3.1.4 each subject member refers to exactly one principal); ending another principal's
  // session or access is acting on an event about someone else.
  {
    id: "CAEPR-EFFECT-SCOPE",
    level: "MUST",
    source: `${CAEP} §3.1; ${SSF} §3.1.4 (a subject member refers to exactly one Subject Principal), §3.3.1; ${B} security event token envelope (complex: the event applies to anything matching the combined claims)`,
    text: "an event changes only the subject it names: another session and another user of the run keep their access (sessionActive and subjectAccess probes)",
  },
  // RFC 8935 §2: the Recipient parses, authenticates and validates the SET before it takes it;
  // a refused SET is not one it successfully received (RFC 8936 §2.2 acknowledges only those),
  // so it cannot have been acted on.
  {
    id: "CAEPR-EFFECT-REFUSED",
    level: "MUST",
    source: `${PUSH} §2 (the SET is parsed, authenticated and validated by the Recipient before it takes it), §2.3; ${POLL} §2.2 (ack: only SETs successfully received); ${CAEP} §3.1`,
    text: "a SET the Receiver refuses has no effect: a forged or defective session-revoked leaves the session active (sessionActive probe)",
  },

  // Poll delivery (judged on the mock Transmitter's log)
  {
    id: "CAEPR-POLL-ACK",
    level: "MUST",
    source: `${POLL} §2 (the Recipient validates each SET as RFC 8935 §2 and MUST acknowledge receipt), §2.2 (ack: jti values of SETs successfully received)`,
    text: "every valid SET handed out by poll is acknowledged: its jti appears in the ack of a later poll request within deliveryTimeoutMs",
  },
  // Derived: RFC 8936 §2.4.4 says only that the Recipient "MAY use the setErrs member". The MUST
  // comes from §2 (the Recipient MUST acknowledge receipt to the Transmitter) with §2.2 (ack
  // names only SETs "successfully received"; setErrs the invalid SETs received): for an invalid
  // SET, setErrs is the only way to acknowledge its receipt.
  {
    id: "CAEPR-POLL-SETERRS",
    level: "MUST",
    source: `${POLL} §2 (the Recipient MUST acknowledge receipt), §2.2 (ack: only SETs successfully received; setErrs: jti of an invalid SET received to {err, description}), §2.4.4 (the Recipient MAY use setErrs); ${PUSH} §2.4 (error codes); ${SSF} §8.1.4.1 (invalid_state)`,
    text: "every invalid SET handed out by poll is reported in setErrs with a registered err code and a description, and never acknowledged",
  },
  {
    id: "CAEPR-POLL-NO-LOSS",
    level: "MUST",
    source: `${POLL} §2 (the Recipient MUST acknowledge receipt of each SET), §2.2 (maxEvents, ack, setErrs); ${FACTS} (moreAvailable)`,
    text: "no SET is lost: every SET handed out, in pages split by moreAvailable and again while unacknowledged, ends acknowledged or reported in setErrs",
  },
  // A repeated acknowledgement of a SET delivered again (a lost ack) is CAEPR-POLL-DUPLICATE-JTI's
  // and allowed; what this forbids is acknowledging what was never received.
  {
    id: "CAEPR-POLL-ACK-ONLY-DELIVERED",
    level: "MUST",
    source: `${POLL} §2.2 (ack: the jti values of SETs successfully received)`,
    text: "every ack names only jtis the Transmitter handed to this Receiver, and a SET is acknowledged again only after it was handed out again",
  },
  {
    id: "CAEPR-POLL-REQUEST-FORMAT",
    level: "MUST",
    source: `${POLL} §2.2 (a JSON object: maxEvents integer, returnImmediately boolean, ack array of strings, setErrs object of {err, description}); ${FACTS}`,
    text: "every poll request is a JSON object whose members, when present, have their RFC 8936 types: maxEvents a non-negative integer, returnImmediately a boolean, ack an array of strings, setErrs an object of jti to {err, description}",
  },
  // SSF §7.1.1 protects the poll endpoint with the Transmitter's authorization schemes, and
  // RFC 8936 §3 relies on HTTP authentication; this run's Transmitter requires it, so a poll
  // without it is refused and its acknowledgements are lost, breaking RFC 8936 §2's MUST.
  {
    id: "CAEPR-POLL-AUTH",
    level: "MUST",
    source: `${SSF} §7.1.1 (authorization schemes also protect the polling endpoint); ${POLL} §3 (HTTP authentication), §2`,
    text: "every poll request carries the authorization the Transmitter gave the Receiver",
  },

  // Stream set-up (stream: receiver-creates; judged on the mock Transmitter's log)
  {
    id: "CAEPR-STREAM-DISCOVERY",
    level: "MUST",
    source: `${SSF} §7.2 ("/.well-known/ssf-configuration" inserted between host and path), §7.2.1 (queried with GET; a terminating / removed); ${FACTS} (transmitter discovery)`,
    text: "the Receiver reads the Transmitter configuration with GET at the issuer's host + /.well-known/ssf-configuration + the issuer's path (its trailing / removed)",
  },
  {
    id: "CAEPR-STREAM-AUTH",
    level: "MUST",
    source: `${SSF} §8 (Stream Management API endpoints MUST use standard HTTP authentication and authorization)`,
    text: "every stream management request (configuration, status, subject and verification endpoints) carries the authorization the Transmitter gave the Receiver",
  },
  // Derived: a method the Transmitter did not advertise gets no stream (SSF §8.1.1.1: it MAY
  // answer 400), and a push stream without endpoint_url has nowhere to deliver. A create request
  // without delivery means poll (SSF §8.1.1.1) and is accepted as such.
  {
    id: "CAEPR-STREAM-DELIVERY",
    level: "MUST",
    source: `${SSF} §6.1 (methods urn:ietf:rfc:8935, urn:ietf:rfc:8936), §6.1.1 (push endpoint_url set by the Receiver), §6.1.2 (poll endpoint_url supplied by the Transmitter), §7.1 (delivery_methods_supported), §8.1.1.1 (no delivery means poll)`,
    text: "the create-stream request names a delivery method the Transmitter advertised: push with an absolute endpoint_url, or poll (or no delivery) without an endpoint_url of its own",
  },
  // The plan's "only URIs the Transmitter supports" has no text behind it: the Receiver learns
  // events_supported only in the create-stream answer, and SSF §8.1.1 has the Transmitter ignore
  // values it does not understand. The text asks the Receiver to request only events it
  // understands and not to send an empty array: a SHOULD.
  {
    id: "CAEPR-STREAM-EVENTS",
    level: "SHOULD",
    source: `${SSF} §8.1.1 (events_requested: an array of URIs; only events the Receiver understands; SHOULD NOT be empty)`,
    text: "events_requested, when sent, is a non-empty array of event type URIs",
  },
  {
    id: "CAEPR-STREAM-VERIFICATION",
    level: "MAY",
    source: `${SSF} §8.1.4 (Receivers can request a verification event), §8.1.4.2 (stream_id REQUIRED, state OPTIONAL)`,
    text: "after creating its stream the Receiver asks for a verification event: POST to verification_endpoint with its stream_id and a state",
  },
  // The body being a JSON object is SSF's; the Content-Type header is RFC 9110 §8.3's SHOULD
  // (SSF's own create-stream example shows none), so the requirement is a SHOULD.
  {
    id: "CAEPR-STREAM-JSON",
    level: "SHOULD",
    source: `${SSF} §8.1.1 (the stream configuration is a JSON object), §8.1.4.2 (a JSON object); public: RFC 9110 §8.3 (Content-Type SHOULD be sent)`,
    text: "every stream management request with a body sends a JSON object with Content-Type application/json",
  },
]);
