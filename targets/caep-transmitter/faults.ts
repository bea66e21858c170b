import { selectFaults, type FaultDef, type FaultSet as EngineFaultSet } from "../../src/engine/target.js";

/** Requirements the model-based lifecycle runs judge. */
const LIFECYCLE_REQUIREMENTS = [
  "CAEPT-LIFECYCLE-SUBJECTS",
  "CAEPT-LIFECYCLE-PAUSED",
  "CAEPT-LIFECYCLE-DISABLED",
  "CAEPT-LIFECYCLE-EXACTLY-ONCE",
] as const;

/**
 * Faults of the CAEP Transmitter reference target: each is a mistake a Transmitter's
 * implementer makes, and names the requirements (suites/caep-transmitter/requirements.ts) a
 * run must then fail (or warn on, for a SHOULD).
 */
export const faults = [
  // Discovery (SSF 1.0 §7).
  {
    id: "discovery-path-appended",
    description:
      "the discovery document is served at <issuer>/.well-known/ssf-configuration (appended to the issuer's path) instead of with the segment inserted after the host",
    breaks: ["CAEPT-DISC-WELL-KNOWN"],
    // Nothing else can be found without the document.
    skips: "rest",
  },
  {
    id: "discovery-issuer-slash",
    description:
      "the discovery document's issuer is written with a trailing slash (the configured base URL, not the issuer used)",
    breaks: ["CAEPT-DISC-ISSUER"],
  },
  {
    id: "discovery-draft-methods",
    description:
      "delivery_methods_supported lists the delivery method URIs of an SSF draft (…/risc/delivery-method/push and …/poll) instead of the RFC URNs",
    breaks: ["CAEPT-DISC-DELIVERY-METHODS"],
  },
  {
    id: "discovery-status-endpoint-relative",
    description: "the discovery document gives status_endpoint as a path (/ssf/status), not an absolute URL",
    breaks: ["CAEPT-DISC-ENDPOINTS"],
    // The status checks and the lifecycle runs need the status endpoint.
    skips: ["CAEPT-STATUS", ...LIFECYCLE_REQUIREMENTS],
  },
  {
    id: "default-subjects-lowercase",
    description:
      'default_subjects is written "none" in lower case (SSF 1.0 §7.1 allows exactly "ALL" or "NONE")',
    breaks: ["CAEPT-DISC-OPTIONAL-MEMBERS"],
    // Which subjects a new stream holds is then unknown: the lifecycle cannot judge them.
    skips: ["CAEPT-LIFECYCLE-SUBJECTS"],
  },
  {
    id: "spec-version-draft",
    description: "spec_version is left at the implementer's draft 1_0-ID2",
    breaks: ["CAEPT-DISC-SPEC-VERSION"],
  },
  {
    id: "jwks-alg-mismatch",
    description: "the key published at jwks_uri says alg RS256, though it is the EC key that signs ES256",
    // A Receiver that honours the key's alg cannot verify an ES256 signature with it.
    breaks: ["CAEPT-DISC-JWKS", "CAEPT-SET-SIGNATURE"],
  },
  // Stream management (SSF 1.0 §8.1).
  {
    id: "any-bearer-accepted",
    description:
      "an unknown Bearer token is taken as the first Receiver's (the token lookup falls back to a default)",
    // The poll endpoint authenticates the same way.
    breaks: ["CAEPT-STREAM-AUTH", "CAEPT-POLL-AUTH"],
  },
  {
    id: "authorization-last-word",
    description:
      "the token is read as the last word of the Authorization header, whatever the scheme and however many words (Basic <token> and Bearer <token> <token> pass)",
    // The poll endpoint authenticates the same way.
    breaks: ["CAEPT-STREAM-AUTH", "CAEPT-POLL-AUTH"],
  },
  {
    id: "create-200",
    description: "stream creation answers 200 instead of 201 Created",
    breaks: ["CAEPT-STREAM-CREATE"],
  },
  {
    id: "create-requires-events-requested",
    description:
      "a creation request without events_requested is refused with 400, though SSF 1.0 §8.1.1 makes it OPTIONAL (the implementer validates it as required)",
    breaks: ["CAEPT-STREAM-CREATE"],
  },
  {
    id: "create-unvalidated-delivery",
    description:
      "stream creation takes the delivery as sent: its method and endpoint_url are never checked (an unknown method or a delivery that is no object makes a poll stream, a push endpoint_url that is missing or no URL is stored)",
    breaks: ["CAEPT-STREAM-CREATE-INVALID"],
  },
  {
    id: "events-delivered-all-supported",
    description:
      "events_delivered lists every event the Transmitter supports, whatever the Receiver requested",
    breaks: ["CAEPT-STREAM-EVENTS-DELIVERED"],
  },
  {
    id: "read-no-aud",
    description:
      "a stream read by stream_id leaves out aud (reads use a slimmer view of the stream than its creation)",
    breaks: ["CAEPT-STREAM-READ"],
  },
  {
    id: "list-latest-only",
    description:
      "GET without stream_id lists only the Receiver's most recent stream (a find-one query where a find-all was meant)",
    breaks: ["CAEPT-STREAM-LIST"],
  },
  {
    id: "patch-ignored",
    description: "PATCH answers 200 with the updated configuration but does not store it",
    breaks: ["CAEPT-STREAM-UPDATE"],
  },
  {
    id: "patch-as-put",
    description:
      "PATCH is handled like PUT: a Receiver-Supplied property the update leaves out is deleted (events_requested emptied, delivery reset to poll)",
    breaks: ["CAEPT-STREAM-UPDATE"],
  },
  {
    id: "put-as-patch",
    description:
      "PUT merges the body into the stored configuration: a Receiver-Supplied property left out is kept instead of deleted",
    breaks: ["CAEPT-STREAM-REPLACE"],
  },
  {
    id: "change-trusts-transmitter-supplied",
    description:
      "an update or replacement never compares the Transmitter-Supplied properties it carries (iss, aud, events_delivered) with the stream's: a PUT naming another aud is applied as if it named the stream's",
    breaks: ["CAEPT-STREAM-CHANGE-INVALID"],
  },
  {
    id: "delete-200",
    description: "deleting a stream answers 200 with the deleted configuration instead of 204",
    breaks: ["CAEPT-STREAM-DELETE"],
  },
  {
    id: "delete-soft",
    description:
      "deleting a stream marks it deleted, but reading it by stream_id does not look at the mark: it is still readable",
    breaks: ["CAEPT-STREAM-DELETE"],
  },
  {
    id: "list-all-receivers",
    description: "GET without stream_id lists every Receiver's streams, not only the caller's",
    breaks: ["CAEPT-STREAM-ISOLATION"],
  },
  {
    id: "read-no-owner-check",
    description:
      "reading a stream (configuration and status) by stream_id does not check that it belongs to the caller",
    breaks: ["CAEPT-STREAM-ISOLATION"],
  },
  {
    id: "write-no-owner-check",
    description:
      "updating, replacing, deleting a stream and changing its status do not check that it belongs to the caller",
    breaks: ["CAEPT-STREAM-ISOLATION"],
  },
  {
    id: "status-read-enabled",
    description: "reading a stream's status always answers enabled (the stored status is not read back)",
    breaks: ["CAEPT-STATUS"],
  },
  {
    id: "status-unvalidated",
    description:
      "a status update checks only that status is a string and stores it: an unknown value such as active is accepted and read back",
    breaks: ["CAEPT-MANAGEMENT-INVALID"],
  },
  {
    id: "add-subject-201",
    description: "adding a subject answers 201 Created instead of 200",
    breaks: ["CAEPT-SUBJECT-ADD"],
  },
  {
    id: "remove-subject-200",
    description: "removing a subject answers 200 with a JSON body instead of 204",
    breaks: ["CAEPT-SUBJECT-REMOVE"],
  },
  {
    id: "verify-state-required",
    description:
      "a verification request without state is refused with 400, though state is OPTIONAL (the implementer validates it as a required string)",
    breaks: ["CAEPT-VERIFY"],
  },
  {
    id: "verification-no-state",
    description: "the verification SET leaves out the state the Receiver sent",
    breaks: ["CAEPT-VERIFY"],
  },
  {
    id: "verification-subject-receiver",
    description:
      "the verification SET's sub_id names the Receiver (its aud) instead of the stream being verified",
    breaks: ["CAEPT-VERIFY"],
  },
  // What is delivered: subjects, status, event types (SSF 1.0 §8.1.1 to §8.1.3).
  {
    id: "subjects-ignored",
    description:
      "events are sent for every subject, as if default_subjects were ALL, though discovery says NONE",
    breaks: ["CAEPT-LIFECYCLE-SUBJECTS"],
  },
  {
    id: "paused-drops",
    description: "a paused stream drops its events instead of holding them until it is enabled",
    breaks: ["CAEPT-LIFECYCLE-PAUSED"],
  },
  {
    id: "enable-replays-delivered",
    description:
      "enabling a stream again re-queues the SETs it had already delivered (the queue is rebuilt from the stream's event log)",
    breaks: ["CAEPT-LIFECYCLE-EXACTLY-ONCE"],
  },
  {
    id: "disabled-delivers",
    description: "a disabled stream still delivers events (the status is stored but delivery never reads it)",
    breaks: ["CAEPT-LIFECYCLE-DISABLED"],
  },
  {
    id: "assurance-level-change-unimplemented",
    description:
      "assurance-level-change is listed in events_supported and events_delivered, but the Transmitter never emits it",
    breaks: ["CAEPT-EVENTS-DELIVERED"],
  },
  // The SET (RFC 8417, SSF 1.0 §4, CAEP 1.0).
  {
    id: "signing-key-unpublished",
    description: "SETs are signed with a rotated-in key that jwks_uri does not publish yet",
    breaks: ["CAEPT-SET-SIGNATURE"],
  },
  {
    id: "typ-missing",
    description: "the SET's JOSE header carries no typ (a plain JWT library default)",
    breaks: ["CAEPT-SET-TYP"],
  },
  {
    id: "iss-trailing-slash",
    description: "the SET's iss is the issuer with a trailing slash",
    breaks: ["CAEPT-SET-ISS"],
  },
  {
    id: "aud-other-receiver",
    description: "SETs carry the aud of another Receiver (the audience is looked up by the wrong key)",
    breaks: ["CAEPT-SET-AUD"],
  },
  {
    id: "iat-milliseconds",
    description: "iat is Date.now() in milliseconds: a time far in the future",
    breaks: ["CAEPT-SET-IAT"],
  },
  {
    id: "jti-per-stream-counter",
    description: "jti is a counter per stream (1, 2, …): the same jti appears on every stream",
    breaks: ["CAEPT-SET-JTI"],
  },
  {
    id: "sub-claim",
    description: "SETs carry a JWT sub claim naming the subject, besides sub_id",
    breaks: ["CAEPT-SET-NO-SUB"],
  },
  {
    id: "exp-claim",
    description: "SETs carry an exp claim an hour after iat (the JWT library's default lifetime)",
    breaks: ["CAEPT-SET-NO-EXP"],
  },
  {
    id: "subject-in-event",
    description:
      "the subject is carried as a subject member inside the event, as in the SSF drafts, with no top-level sub_id",
    // The verification SET has no sub_id either.
    breaks: ["CAEPT-SET-SUB-ID", "CAEPT-EVENTS-SUBJECT", "CAEPT-VERIFY"],
  },
  {
    id: "two-events",
    description:
      "a credential-change SET also carries the session-revoked event the change caused (two events in one SET)",
    breaks: ["CAEPT-SET-EVENT"],
  },
  {
    id: "risk-no-principal",
    description: "risk-level-change events carry no principal",
    breaks: ["CAEPT-SET-EVENT-CLAIMS"],
  },
  {
    id: "credential-no-change-type",
    description: "credential-change events carry no change_type",
    breaks: ["CAEPT-SET-EVENT-CLAIMS"],
  },
  {
    id: "device-status-noncompliant",
    description: "device-compliance-change says non-compliant instead of not-compliant",
    breaks: ["CAEPT-SET-EVENT-CLAIMS"],
  },
  {
    id: "reason-admin-string",
    description: "reason_admin is a plain string, as in the SSF drafts, not a language map",
    breaks: ["CAEPT-SET-REASON-MAPS"],
  },
  {
    id: "no-txn",
    description: "SETs carry no txn claim",
    breaks: ["CAEPT-SET-TXN"],
  },
  // Push delivery (RFC 8935).
  {
    id: "push-no-authorization",
    description: "pushes omit the authorization_header the Receiver gave at stream creation",
    breaks: ["CAEPT-PUSH-REQUEST"],
  },
  {
    id: "push-json-content-type",
    description: "pushes are labelled Content-Type application/json instead of application/secevent+jwt",
    breaks: ["CAEPT-PUSH-REQUEST"],
  },
  {
    id: "push-retries-400",
    description: "a SET refused with 400 is pushed again, like a failure of the network",
    breaks: ["CAEPT-PUSH-NO-RESEND-400"],
  },
  {
    id: "push-ignores-retry-after",
    description:
      "after a 503 or 429 the SET is pushed again after the Transmitter's own short pause, whatever Retry-After says",
    breaks: ["CAEPT-PUSH-RETRY"],
  },
  {
    id: "push-no-retry",
    description: "a SET answered 503 or 429 is dropped: never pushed again",
    breaks: ["CAEPT-PUSH-RETRY"],
  },
  // Poll delivery (RFC 8936).
  {
    id: "no-www-authenticate",
    description:
      "every 401, of stream management and poll alike, is sent with no WWW-Authenticate challenge (the error is in the JSON body only)",
    breaks: ["CAEPT-POLL-AUTH", "CAEPT-STREAM-CHALLENGE"],
    // With no challenge there is no syntax or error attribute to judge.
    skips: ["CAEPT-CHALLENGE-ERROR", "CAEPT-CHALLENGE-SYNTAX"],
  },
  {
    id: "challenge-description-unquoted",
    description:
      "the Bearer challenge's error_description is written without quotes (error_description=the token is not valid), which no HTTP parser reads",
    breaks: ["CAEPT-CHALLENGE-SYNTAX"],
  },
  {
    id: "challenge-error-always",
    description:
      'every Bearer challenge says error="invalid_token", also for a request that sent no credentials at all',
    breaks: ["CAEPT-CHALLENGE-ERROR"],
  },
  {
    id: "token-in-query-accepted",
    description: "an access_token in the URL query is accepted like the Authorization header",
    breaks: ["CAEPT-POLL-TOKEN-IN-QUERY"],
  },
  {
    id: "poll-max-events-ignored",
    description: "maxEvents is ignored: a poll answers every waiting SET (up to the Transmitter's own batch)",
    breaks: ["CAEPT-POLL-MAX-EVENTS"],
    // No answer leaves SETs waiting.
    skips: ["CAEPT-POLL-MORE-AVAILABLE"],
  },
  {
    id: "poll-return-immediately-ignored",
    description: "returnImmediately is ignored: a poll with nothing to deliver is always held as a long poll",
    breaks: ["CAEPT-POLL-RETURN-IMMEDIATELY"],
  },
  {
    id: "poll-more-available-missing",
    description: "moreAvailable is never sent, even when more SETs are waiting",
    breaks: ["CAEPT-POLL-MORE-AVAILABLE"],
  },
  {
    id: "poll-ack-ignored",
    description: "acknowledgements are not applied: an acknowledged SET is delivered again",
    breaks: ["CAEPT-POLL-ACK", "CAEPT-LIFECYCLE-EXACTLY-ONCE"],
  },
  {
    id: "poll-no-redelivery",
    description:
      "a SET handed out by a poll is forgotten at once: when it is not acknowledged it is never delivered again",
    breaks: ["CAEPT-POLL-REDELIVER"],
  },
  {
    id: "poll-sets-array",
    description: "the poll answer's sets is an array of SETs instead of an object keyed by jti",
    breaks: ["CAEPT-POLL-RESPONSE"],
    // No SET can be read from a poll.
    skips: [
      "CAEPT-VERIFY",
      "CAEPT-EVENTS-DELIVERED",
      "CAEPT-EVENTS-SUBJECT",
      "CAEPT-POLL-MAX-EVENTS",
      "CAEPT-POLL-ACK",
      "CAEPT-POLL-REDELIVER",
      "CAEPT-POLL-MORE-AVAILABLE",
      ...LIFECYCLE_REQUIREMENTS,
    ],
  },
] as const satisfies readonly FaultDef[];

/** The id of a fault of this target. */
export type FaultId = (typeof faults)[number]["id"];

/** The faults a running target was started with. */
export type FaultSet = EngineFaultSet<FaultId>;

/** Validates the requested fault ids (an unknown one throws). */
export const faultSet = (ids: readonly string[]): FaultSet => selectFaults("caep-transmitter", faults, ids);
