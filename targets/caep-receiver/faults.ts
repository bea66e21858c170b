import { selectFaults, type FaultDef, type FaultSet as EngineFaultSet } from "../../src/engine/target.js";

/**
 * Faults of the CAEP Receiver reference target: each is a mistake a Receiver's implementer
 * makes, and names the requirements (suites/caep-receiver/requirements.ts) a run must then
 * fail (or warn on, for a SHOULD).
 */
export const faults = [
  // The signature and its key.
  {
    id: "signature-unchecked",
    description: "a SET naming a known kid is accepted without verifying its signature",
    breaks: ["CAEPR-SIGNATURE"],
  },
  {
    id: "embedded-jwk-trusted",
    description: "a SET carrying a header jwk is verified with that key (the token brings its own trust)",
    breaks: ["CAEPR-SIGNATURE"],
  },
  {
    id: "alg-none-accepted",
    description: "an unsigned SET (alg none) is accepted",
    breaks: ["CAEPR-ALG-NONE"],
  },
  {
    id: "hmac-public-key",
    description:
      "an HS256 SET is verified with the Transmitter's public key (PEM) as the HMAC secret (algorithm confusion)",
    breaks: ["CAEPR-ALG-CONFUSION"],
  },
  {
    id: "unknown-kid-accepted",
    description: "a SET whose kid is in no key set of the Transmitter is accepted without verification",
    breaks: ["CAEPR-KID-UNKNOWN", "CAEPR-KEY-ROTATION-STRANGER"],
  },
  {
    id: "no-jwks-refetch",
    description:
      "the keys are read from jwks_uri once at start: a SET signed with a rotated-in key is refused",
    breaks: ["CAEPR-KEY-ROTATION"],
    // The removed key is probed only once the Receiver showed it read the new set.
    skips: ["CAEPR-KEY-ROTATION-STRANGER"],
  },
  {
    id: "crit-ignored",
    description:
      "the JWS crit header is never looked at: a SET listing an extension the Receiver does not understand is verified and accepted",
    breaks: ["CAEPR-CRIT"],
  },
  {
    id: "keys-merged-on-refetch",
    description:
      "a refetch of jwks_uri adds the new keys to the cache and keeps the old ones: a key removed from the set is still trusted",
    breaks: ["CAEPR-KEY-ROTATION-STRANGER"],
  },
  // The envelope (RFC 8417, SSF).
  {
    id: "typ-unchecked",
    description: "the SET's typ header is not checked: any typ (or none) is accepted",
    breaks: ["CAEPR-TYP"],
  },
  {
    id: "iss-ignored",
    description: "the SET's iss is not compared with the Transmitter's issuer",
    breaks: ["CAEPR-ISS"],
  },
  {
    id: "iss-trailing-slash-normalised",
    description:
      "iss and the Transmitter's issuer are compared after trailing slashes are stripped (as URL helpers do): an iss with a trailing slash is taken as the Transmitter's",
    breaks: ["CAEPR-ISS"],
  },
  {
    id: "aud-prefix-match",
    description:
      "aud is matched with startsWith: a string that begins with the Receiver's audience (its URL with more after it) is taken as naming this Receiver",
    breaks: ["CAEPR-AUD"],
  },
  {
    id: "aud-ignored",
    description: "the SET's aud is not compared with the Receiver's audience",
    breaks: ["CAEPR-AUD"],
  },
  {
    id: "aud-string-only",
    description:
      "aud must be a string equal to the Receiver's audience: an array that contains it is refused",
    breaks: ["CAEPR-ACCEPT-AUD-ARRAY"],
  },
  {
    id: "exp-accepted",
    description: "a SET with an exp claim is accepted (exp is never looked at)",
    breaks: ["CAEPR-EXP-CLAIM"],
  },
  {
    id: "sub-accepted",
    description: "a SET with a JWT sub claim is accepted",
    breaks: ["CAEPR-SUB-CLAIM"],
  },
  {
    id: "jti-optional",
    description: "a SET without jti is accepted",
    breaks: ["CAEPR-REQUIRED-CLAIMS"],
  },
  {
    id: "iat-optional",
    description: "a SET without iat is accepted",
    breaks: ["CAEPR-REQUIRED-CLAIMS"],
  },
  {
    id: "sub-id-optional",
    description:
      "a SET without sub_id is accepted (the subject is looked for inside the event, as in older drafts)",
    breaks: ["CAEPR-REQUIRED-CLAIMS"],
  },
  {
    id: "iat-future-accepted",
    description: "a SET issued far in the future is accepted (iat is only checked to be a number)",
    breaks: ["CAEPR-IAT-FUTURE"],
  },
  {
    id: "subject-format-unchecked",
    description: "sub_id is only checked to be an object: an unknown format or missing members are accepted",
    breaks: ["CAEPR-SUBJECT-INVALID"],
  },
  {
    id: "txn-required",
    description: "a SET without txn is refused: the OPTIONAL txn claim is read as REQUIRED",
    breaks: ["CAEPR-ACCEPT-EVENTS"],
  },
  // The events (CAEP 1.0).
  {
    id: "event-required-unchecked",
    description:
      "an event's REQUIRED claims are not checked (token-claims-change without claims, risk-level-change without principal are accepted)",
    breaks: ["CAEPR-EVENT-CLAIMS"],
  },
  {
    id: "value-sets-unchecked",
    description:
      "claim values are not checked against their closed value sets (change_type, current_level, ...)",
    breaks: ["CAEPR-EVENT-CLAIMS"],
  },
  {
    id: "previous-level-required",
    description:
      "assurance-level-change and risk-level-change without previous_level are refused (the Receiver compares both levels), though CAEP 1.0 reads an absent previous_level as unknown",
    breaks: ["CAEPR-ACCEPT-EVENTS"],
  },
  {
    id: "reason-as-string",
    description:
      "reason_admin and reason_user must be strings, as in the SSF drafts: the language maps of CAEP 1.0 are refused",
    // It takes the draft's string form: a string reason, which CAEP 1.0 refuses, passes.
    breaks: ["CAEPR-ACCEPT-OPTIONAL-CLAIMS", "CAEPR-EVENT-CLAIMS"],
  },
  {
    id: "ssf-subject-formats-unknown",
    description:
      "only the subject formats of the RFC 9493 registry are known: SSF's jwt_id and saml_assertion_id are refused",
    breaks: ["CAEPR-ACCEPT-SUBJECTS"],
  },
  {
    id: "verification-not-requested-refused",
    description:
      "a SET whose events are none the Receiver requested is refused, the verification event included (it is never in events_requested)",
    breaks: ["CAEPR-ACCEPT-VERIFICATION", "CAEPR-VERIFICATION-NO-STATE"],
  },
  {
    id: "unknown-event-refused",
    description: "a SET carrying an event type URI the Receiver does not know is refused",
    breaks: ["CAEPR-UNKNOWN-EVENT"],
  },
  {
    id: "event-type-by-last-segment",
    description:
      "an event type is recognised by the last segment of its URI: another namespace's .../credential-change is read as CAEP's",
    breaks: ["CAEPR-UNKNOWN-EVENT"],
  },
  {
    id: "unknown-member-refused",
    description: "an event carrying a member its definition does not list is refused (a closed schema)",
    breaks: ["CAEPR-UNKNOWN-MEMBERS"],
  },
  {
    id: "verification-state-required",
    description: "a verification event without state is refused",
    breaks: ["CAEPR-VERIFICATION-NO-STATE"],
  },
  {
    id: "aliases-crash",
    description: "an aliases subject makes the Receiver throw (it reads identifiers as an object): 500",
    breaks: ["CAEPR-ACCEPT-SUBJECTS-PUBLIC", "CAEPR-NO-5XX"],
  },
  // Push answers (RFC 8935).
  {
    id: "push-auth-unchecked",
    description: "the push endpoint does not check the Authorization header",
    breaks: ["CAEPR-PUSH-AUTH"],
  },
  {
    id: "content-type-unchecked",
    description: "the push endpoint takes any Content-Type",
    breaks: ["CAEPR-CONTENT-TYPE"],
  },
  {
    id: "no-body-limit",
    description: "the push endpoint reads bodies of any size",
    breaks: ["CAEPR-BODY-SIZE"],
  },
  {
    id: "signature-failure-401",
    description:
      "a SET whose key or signature fails is answered 401 Unauthorized, as a bad bearer token would be, instead of RFC 8935's 400",
    breaks: ["CAEPR-PUSH-REFUSAL-400"],
  },
  {
    id: "success-200-json",
    description:
      'an accepted SET is answered 200 with {"status":"accepted"} instead of 202 with an empty body',
    breaks: ["CAEPR-PUSH-SUCCESS-202"],
  },
  {
    id: "error-text-plain",
    description: "a refusal is answered 400 with a text/plain message instead of the JSON error",
    breaks: ["CAEPR-PUSH-ERROR-FORMAT"],
    // No JSON err is left whose fit could be judged.
    skips: ["CAEPR-PUSH-ERR-CODE"],
  },
  {
    id: "malformed-500",
    description: "a body that is no compact JWS makes the Receiver throw: 500",
    breaks: ["CAEPR-MALFORMED", "CAEPR-NO-5XX"],
  },
  {
    id: "stack-in-error",
    description: "the error description is the exception's stack trace (with the Receiver's file paths)",
    breaks: ["CAEPR-ERROR-NO-LEAK"],
  },
  {
    id: "err-always-invalid-request",
    description: "every refusal carries err invalid_request, whatever the defect",
    breaks: ["CAEPR-PUSH-ERR-CODE"],
  },
  // The matrix runs it with the push profile (CAEPR-DUPLICATE-JTI); a poller that reports a
  // SET handed out again in setErrs is poll-duplicate-reported's (CAEPR-POLL-DUPLICATE-JTI).
  {
    id: "duplicate-jti-409",
    description: "a SET whose jti was already received is refused (409 in push, setErrs in poll)",
    breaks: ["CAEPR-DUPLICATE-JTI"],
  },
  {
    id: "unknown-subject-404",
    description:
      "an event about a subject the Receiver does not know is refused (404 in push, setErrs in poll)",
    breaks: ["CAEPR-UNKNOWN-SUBJECT"],
    // The formats no session hook can register are only sent about subjects the Receiver does not know.
    skips: ["CAEPR-ACCEPT-SUBJECTS", "CAEPR-ACCEPT-SUBJECTS-PUBLIC"],
  },
  // Effects (CAEP 1.0 §3).
  {
    id: "session-revoked-logged-only",
    description: "session-revoked is accepted and logged, but ends no session",
    breaks: ["CAEPR-EFFECT-SESSION-REVOKED", "CAEPR-EFFECT-SESSION-SUBJECTS"],
    // No form ends a session, so a refused SET could show no effect either.
    skips: ["CAEPR-EFFECT-NO-RESURRECT", "CAEPR-EFFECT-SCOPE", "CAEPR-EFFECT-REFUSED"],
  },
  {
    id: "acts-before-verify",
    description:
      "the events of a SET are dispatched as soon as it is decoded and its signature and claims verified afterwards: a forged or defective session-revoked is refused, but has already ended the session",
    breaks: ["CAEPR-EFFECT-REFUSED"],
  },
  {
    id: "complex-session-revoked-ignored",
    description: "session-revoked with a complex subject is accepted but ends no session",
    breaks: ["CAEPR-EFFECT-SESSION-SUBJECTS"],
  },
  {
    id: "email-session-revoked-ignored",
    description: "session-revoked naming the user by email is accepted but ends none of the user's sessions",
    breaks: ["CAEPR-EFFECT-SESSION-SUBJECTS"],
  },
  {
    id: "device-noncompliance-ignored",
    description:
      "device-compliance-change to not-compliant is accepted but leaves the user's access as it was",
    breaks: ["CAEPR-EFFECT-ACCESS-REDUCING"],
  },
  {
    id: "session-established-revives",
    description: "session-established marks the sessions it names active again, even a revoked one",
    breaks: ["CAEPR-EFFECT-NO-RESURRECT"],
  },
  {
    id: "iss-sub-issuer-ignored",
    description:
      "an iss_sub subject is matched by its sub alone: another issuer's sub that equals a user's email names that user",
    breaks: ["CAEPR-EFFECT-SCOPE"],
  },
  {
    id: "complex-session-member-only",
    description:
      "a complex subject's session member is matched without checking it belongs to the user member",
    breaks: ["CAEPR-EFFECT-SCOPE"],
  },
  {
    id: "revoke-all-sessions",
    description: "session-revoked ends every session the Receiver holds, not only the subject's",
    breaks: ["CAEPR-EFFECT-SCOPE"],
    // The later valid SET the refused ones are read after ends every session: whether a refused
    // one acted late is then not known.
    skips: ["CAEPR-EFFECT-REFUSED"],
  },
  // Poll delivery (RFC 8936).
  {
    id: "poll-foreign-iss-acked",
    description:
      "the poller acknowledges a SET from another issuer without reporting it (not ours: dropped silently)",
    breaks: ["CAEPR-ISS", "CAEPR-POLL-SETERRS"],
  },
  {
    id: "poll-own-err-codes",
    description:
      "setErrs entries carry the Receiver's own error codes (invalid_signature, invalid_claims, ...) instead of RFC 8935's",
    breaks: ["CAEPR-POLL-SETERRS"],
  },
  {
    id: "poll-acks-repeated",
    description:
      "the poller never clears its acknowledgement list: every poll acknowledges again all jtis acknowledged before",
    breaks: ["CAEPR-POLL-ACK-ONLY-DELIVERED"],
  },
  {
    id: "poll-duplicates-silent",
    description:
      "a SET handed out again after it was processed (a lost acknowledgement) is skipped: neither acknowledged nor reported",
    breaks: ["CAEPR-POLL-DUPLICATE-JTI"],
  },
  {
    id: "poll-duplicate-reported",
    description:
      "a SET handed out again after it was processed (a lost acknowledgement) is reported in setErrs as a duplicate instead of acknowledged",
    breaks: ["CAEPR-POLL-DUPLICATE-JTI"],
  },
  {
    id: "poll-page-rejected-whole",
    description:
      "the poller validates a poll answer as a whole: one refused SET puts every SET of the page in setErrs with its error, the valid ones (already acted on) included",
    breaks: ["CAEPR-POLL-ACK"],
  },
  {
    id: "poll-unhandled-event-skipped",
    description:
      "the poller dispatches SETs to a handler per event type and records nothing for a type it has no handler for (session-presented): such a SET is neither acknowledged nor reported",
    breaks: ["CAEPR-ACCEPT-EVENTS", "CAEPR-ACCEPT-OPTIONAL-CLAIMS", "CAEPR-POLL-ACK", "CAEPR-POLL-NO-LOSS"],
  },
  {
    id: "poll-get-probe",
    description:
      "the poller first checks the poll endpoint with a GET (a connection test), then polls with POST",
    breaks: ["CAEPR-POLL-REQUEST-FORMAT"],
  },
  {
    id: "poll-auth-on-challenge",
    description:
      "the poller sends its token only after the Transmitter's 401 challenge: its first poll carries no Authorization",
    breaks: ["CAEPR-POLL-AUTH"],
  },
  // Discovery and stream set-up (SSF 1.0 §7, §8).
  {
    id: "stream-endpoint-guessed",
    description:
      "the Receiver creates its stream at <issuer>/ssf/stream (a path it assumes) before it reads the discovery document, which it reads afterwards for jwks_uri",
    breaks: ["CAEPR-STREAM-DISCOVERY"],
  },
  {
    id: "stream-auth-on-challenge",
    description:
      "stream management calls are sent without Authorization first, and with the token only after the 401 challenge",
    breaks: ["CAEPR-STREAM-AUTH"],
  },
  {
    id: "stream-draft-uri-first",
    description:
      "the stream is first requested with the delivery method URI of an SSF draft (https://schemas.openid.net/secevent/risc/delivery-method/push or .../poll), and with the URN only after that is refused",
    breaks: ["CAEPR-STREAM-DELIVERY"],
  },
  {
    id: "stream-events-names",
    description: "events_requested lists event names (session-revoked, ...) instead of event type URIs",
    breaks: ["CAEPR-STREAM-EVENTS"],
    // The Transmitter then delivers no CAEP event type on the stream: the acceptance checks
    // judge only the event types delivered (a Receiver may decline what it did not request).
    skips: [
      "CAEPR-ACCEPT-EVENTS",
      "CAEPR-ACCEPT-OPTIONAL-CLAIMS",
      "CAEPR-ACCEPT-SUBJECTS",
      "CAEPR-ACCEPT-SUBJECTS-PUBLIC",
      "CAEPR-ACCEPT-AUD-ARRAY",
    ],
  },
  {
    id: "stream-text-plain",
    description:
      "stream management requests carry a JSON body labelled text/plain (the Content-Type is forgotten)",
    breaks: ["CAEPR-STREAM-JSON"],
  },
] as const satisfies readonly FaultDef[];

/** The id of a fault of this target. */
export type FaultId = (typeof faults)[number]["id"];

/** The faults a running target was started with. */
export type FaultSet = EngineFaultSet<FaultId>;

/** Validates the requested fault ids (an unknown one throws). */
export const faultSet = (ids: readonly string[]): FaultSet => selectFaults("caep-receiver", faults, ids);
