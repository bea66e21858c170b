import { selectFaults, type FaultDef, type FaultSet as EngineFaultSet } from "../../src/engine/target.js";

/**
 * Faults of the account-commands reference target (specs/002 area A). Each changes one
 * behaviour and names the requirements (suites/commands/requirements.ts) a run must then
 * fail (or warn on, for a SHOULD).
 */
export const faults = [
  {
    id: "typ-unchecked",
    description: "the Command Token's typ header is not checked: any typ (or none) is accepted",
    breaks: ["CMD-TOKEN-TYP"],
  },
  {
    id: "nonce-accepted",
    description: "a Command Token carrying a nonce claim is accepted",
    breaks: ["CMD-TOKEN-NONCE"],
  },
  {
    id: "expired-accepted",
    description: "an expired Command Token is accepted",
    breaks: ["CMD-TOKEN-EXPIRED"],
  },
  {
    id: "aud-ignored",
    description: "the Command Token's aud is required but its value is not compared",
    breaks: ["CMD-TOKEN-AUD"],
  },
  {
    id: "client-id-ignored",
    description: "the Command Token's client_id is required but its value is not compared",
    breaks: ["CMD-TOKEN-CLIENT-ID"],
  },
  {
    id: "signature-unchecked",
    description: "a Command Token naming a trusted kid is accepted without verifying its signature",
    breaks: ["CMD-TOKEN-SIGNATURE"],
  },
  {
    id: "unknown-kid-accepted",
    description: "a Command Token naming an unknown kid is accepted without verification",
    breaks: ["CMD-TOKEN-KID"],
  },
  {
    id: "embedded-jwk-trusted",
    description: "a Command Token carrying a header jwk is verified with that key (any key is trusted)",
    breaks: ["CMD-TOKEN-SIGNATURE"],
  },
  {
    id: "account-commands-trust-embedded-jwk",
    description:
      "an account command's token carrying a header jwk is verified with that key; tenant commands (metadata) still need the OP's key",
    breaks: ["CMD-TOKEN-SIGNATURE"],
  },
  {
    id: "x5c-trusted",
    description: "a Command Token carrying a header x5c is verified with its certificate, whoever issued it",
    breaks: ["CMD-TOKEN-SIGNATURE"],
  },
  {
    id: "jku-trusted",
    description: "a Command Token naming a jku is verified with the keys fetched from that URL",
    breaks: ["CMD-TOKEN-SIGNATURE"],
  },
  {
    id: "hmac-public-key",
    description: "an HS256 Command Token is verified with the OP's public key (PEM) as the HMAC secret",
    breaks: ["CMD-TOKEN-SIGNATURE"],
  },
  {
    id: "alg-none-accepted",
    description: "an unsigned Command Token (alg none) is accepted",
    breaks: ["CMD-TOKEN-ALG-NONE"],
  },
  {
    id: "unknown-issuer-400",
    description: "a Command Token from an unknown issuer answers 400 invalid_request instead of 401",
    breaks: ["CMD-TOKEN-ISSUER"],
  },
  {
    id: "tenant-sub-accepted",
    description: "a tenant command (metadata, audit_tenant) carrying sub is accepted",
    breaks: ["CMD-TOKEN-TENANT-SUB"],
  },
  {
    id: "replay-accepted",
    description: "a Command Token whose jti was already used is accepted again",
    breaks: ["CMD-TOKEN-REPLAY"],
  },
  {
    id: "no-store-missing",
    description: "successful command responses carry no Cache-Control: no-store",
    breaks: ["CMD-RESPONSE-NO-STORE"],
  },
  {
    id: "metadata-context-no-tenant",
    description: "the Metadata Response's context lacks tenant",
    breaks: ["CMD-METADATA-CONTEXT"],
  },
  {
    id: "metadata-not-replaced",
    description: "notifications keep going to the first notification_endpoint received for an iss and tenant",
    breaks: ["CMD-METADATA-REPLACES"],
  },
  {
    id: "unsupported-as-invalid",
    description: "an unsupported command answers 400 invalid_request instead of unsupported_command",
    // The commands commands_supported leaves out then no longer answer unsupported_command.
    breaks: ["CMD-UNSUPPORTED", "CMD-SUPPORTED-CONSISTENT"],
  },
  {
    id: "activate-existing-succeeds",
    description: "activate of an existing active account answers 200 active and replaces its claims",
    breaks: ["CMD-INCOMPATIBLE-STATE", "CMD-LIFECYCLE-MODEL"],
  },
  {
    id: "activate-existing-overwrites",
    description:
      "activate of an existing account answers 409 incompatible_state, but has already replaced its claims with the token's",
    breaks: ["CMD-INCOMPATIBLE-STATE"],
  },
  {
    id: "delete-unknown-200",
    description: "delete of an account that does not exist answers 200 with account_state unknown",
    breaks: ["CMD-INCOMPATIBLE-STATE", "CMD-LIFECYCLE-MODEL"],
  },
  {
    id: "restore-to-suspended",
    description: "restore makes an archived account suspended instead of active",
    breaks: ["CMD-RESTORE", "CMD-LIFECYCLE-MODEL"],
  },
  {
    id: "conflict-without-state",
    description: "409 incompatible_state bodies lack account_state",
    breaks: ["CMD-INCOMPATIBLE-STATE", "CMD-LIFECYCLE-MODEL"],
  },
  {
    id: "suspend-keeps-sessions",
    description: "suspend does not revoke the account's sessions: the probe still answers active",
    breaks: ["CMD-INVALIDATE-EFFECT"],
  },
  {
    id: "audit-drops-claims",
    description:
      "audit answers sub, account_state, aud_sub (and authentication_provider), none of the retained claims",
    breaks: ["CMD-AUDIT-CLAIMS"],
  },
  {
    id: "aud-sub-ignored",
    description:
      "responses carry no aud_sub although aud_sub_required is true, and aud_sub in tokens is ignored",
    breaks: ["CMD-AUD-SUB"],
  },
  {
    id: "migrate-without-provider",
    description: "migrate without authentication_provider succeeds",
    breaks: ["CMD-MIGRATE"],
  },
  {
    id: "stream-no-complete",
    description: "audit_tenant streams never end with a command-complete event",
    breaks: ["CMD-STREAM-EVENTS", "CMD-STREAM-EMPTY"],
    skips: ["CMD-STREAM-RESUME"],
  },
  {
    id: "stream-total-wrong",
    description: "command-complete's total_accounts is one more than the account-state events sent",
    breaks: ["CMD-STREAM-EVENTS", "CMD-STREAM-EMPTY"],
    skips: ["CMD-STREAM-RESUME"],
  },
  {
    id: "stream-resume-repeats",
    description: "a resumed stream sends the Last-Event-Id event itself again",
    breaks: ["CMD-STREAM-RESUME"],
  },
  {
    id: "stream-resume-unknown-restarts",
    description:
      "a Last-Event-Id the RP never sent starts the stream over instead of 404 last-event-id-unavailable",
    breaks: ["CMD-STREAM-RESUME"],
  },
  {
    id: "stream-gzip-unoffered",
    description: "streams are gzip-encoded even when the request did not offer gzip",
    breaks: ["CMD-STREAM-ENCODING"],
  },
  {
    id: "stream-no-error-event",
    description: "a stream that fails ends silently, without an error event",
    breaks: ["CMD-STREAM-ERROR-EVENT"],
  },
  {
    id: "async-never-notified",
    description: "asynchronous commands complete but no Notification Token is ever sent",
    breaks: ["CMD-ASYNC-NOTIFIED"],
    skips: ["CMD-METADATA-REPLACES"],
  },
  {
    id: "async-notifies-without-applying",
    description:
      "an asynchronous command notifies its final state, but is never applied: audit shows the old steady state",
    breaks: ["CMD-ASYNC-NOTIFIED"],
  },
  {
    id: "async-no-pending",
    description: "while an asynchronous command runs, audit shows the old steady state",
    breaks: ["CMD-ASYNC-PENDING"],
  },
  {
    id: "pending-kept-after-failure",
    description: "a failed asynchronous command leaves the account in its pending state",
    breaks: ["CMD-ASYNC-FAILURE"],
  },
  {
    id: "unknown-param-rejected",
    description: "form parameters other than command_token answer 400 invalid_request",
    breaks: ["CMD-REQUEST-IGNORE-UNKNOWN"],
  },
  {
    id: "metadata-unknown-field-rejected",
    description: "a metadata claim with a member this RP does not know answers 400 invalid_request",
    breaks: ["CMD-METADATA-IGNORE-UNKNOWN"],
  },
  // Beyond the first list: one fault for each other MUST requirement, so that every checked
  // MUST can be seen failing (test/unit/catalog.test.ts).
  {
    id: "delete-soft",
    description:
      "delete only marks the account unknown and keeps its data; activating the same sub again revives the old claims",
    breaks: ["CMD-DELETE"],
  },
  {
    id: "reactivate-not-stored",
    description: "reactivate answers active, but the stored state stays suspended",
    breaks: ["CMD-REACTIVATE"],
  },
  {
    id: "audit-cacheable",
    description:
      "the audit response, built by its own handler, carries no Cache-Control (every other success keeps no-store)",
    breaks: ["CMD-RESPONSE-NO-STORE"],
  },
  {
    id: "conflict-content-type-text",
    description:
      "409 incompatible_state answers are labelled text/plain (other errors stay application/json)",
    breaks: ["CMD-RESPONSE-JSON"],
  },
  {
    id: "error-content-type-text",
    description: "error responses carry Content-Type text/plain (the body is still the JSON text)",
    breaks: ["CMD-RESPONSE-JSON"],
  },
  {
    id: "malformed-500",
    description: "a request without command_token, or whose command_token is not a compact JWS, answers 500",
    breaks: ["CMD-REQUEST-MALFORMED"],
  },
  {
    id: "metadata-unsupported",
    description: "the metadata command answers 400 unsupported_command",
    breaks: ["CMD-METADATA-SUPPORTED"],
    skips: "rest",
  },
  {
    id: "commands-supported-no-metadata",
    description: "commands_supported does not list metadata",
    // metadata, left out of the list, still succeeds instead of answering unsupported_command.
    breaks: ["CMD-METADATA-COMMANDS", "CMD-SUPPORTED-CONSISTENT"],
  },
  {
    id: "commands-supported-overclaims",
    description: "commands_supported also lists invalidate_async, which answers unsupported_command",
    breaks: ["CMD-SUPPORTED-CONSISTENT"],
  },
  {
    id: "metadata-endpoint-wrong",
    description: "the Metadata Response's command_endpoint is the RP's origin, not the Command Endpoint URL",
    breaks: ["CMD-METADATA-ENDPOINT"],
  },
  {
    id: "metadata-no-client-id",
    description: "the Metadata Response lacks client_id",
    breaks: ["CMD-METADATA-CLIENT-ID"],
  },
  {
    id: "roles-without-display",
    description: "the Metadata Response's roles carry only id, no display",
    breaks: ["CMD-METADATA-MEMBERS"],
  },
  {
    id: "jti-optional",
    description: "a Command Token without jti is accepted",
    breaks: ["CMD-TOKEN-REQUIRED-CLAIMS"],
  },
  {
    id: "account-metadata-accepted",
    description: "an account command carrying a metadata claim is accepted (the claim is ignored)",
    breaks: ["CMD-TOKEN-ACCOUNT-METADATA"],
  },
  {
    id: "auth-provider-anywhere",
    description:
      "commands other than migrate carrying authentication_provider are accepted (the claim is ignored)",
    breaks: ["CMD-TOKEN-AUTH-PROVIDER"],
  },
  {
    id: "success-no-sub",
    description: "activate success bodies lack sub",
    breaks: ["CMD-SUCCESS-RESPONSE", "CMD-ACTIVATE"],
    // The other rows are decided by their asynchronous forms (commands.async), which this
    // fault leaves correct; invalidate has none.
    skips: ["CMD-INVALIDATE"],
  },
  {
    id: "activate-answers-unknown",
    description: "activate creates the account active but answers account_state unknown",
    breaks: ["CMD-ACTIVATE", "CMD-LIFECYCLE-MODEL"],
    // The other rows are decided by their asynchronous forms (commands.async), which this
    // fault leaves correct; invalidate has none.
    skips: ["CMD-INVALIDATE"],
  },
  {
    id: "maintain-answers-suspended",
    description: "maintain keeps the account active (claims updated) but answers account_state suspended",
    breaks: ["CMD-MAINTAIN", "CMD-LIFECYCLE-MODEL"],
  },
  {
    id: "suspend-answers-active",
    description: "suspend suspends the account but answers account_state active",
    breaks: ["CMD-SUSPEND", "CMD-LIFECYCLE-MODEL"],
  },
  {
    id: "reactivate-answers-suspended",
    description: "reactivate makes the account active but answers account_state suspended",
    breaks: ["CMD-REACTIVATE", "CMD-LIFECYCLE-MODEL"],
  },
  {
    id: "archive-answers-suspended",
    description: "archive archives the account but answers account_state suspended",
    breaks: ["CMD-ARCHIVE", "CMD-LIFECYCLE-MODEL"],
  },
  {
    id: "delete-answers-archived",
    description: "delete deletes the account but answers account_state archived",
    breaks: ["CMD-DELETE", "CMD-LIFECYCLE-MODEL"],
  },
  {
    id: "invalidate-answers-suspended",
    description: "invalidate keeps the account active but answers account_state suspended",
    breaks: ["CMD-INVALIDATE", "CMD-LIFECYCLE-MODEL"],
  },
  {
    id: "audit-unknown-409",
    description:
      "audit of an account that does not exist answers 409 incompatible_state instead of 200 unknown",
    breaks: ["CMD-AUDIT-STATE", "CMD-LIFECYCLE-MODEL"],
    skips: [
      "CMD-METADATA-SYNC-ONLY",
      "CMD-TOKEN-ACCOUNT-METADATA",
      "CMD-TOKEN-ACCOUNT-SUB",
      "CMD-TOKEN-AUTH-PROVIDER",
      "CMD-TOKEN-TENANT-SUB",
    ],
  },
  {
    id: "migrate-denied-succeeds",
    description: "the migrate policy hook never refuses: an @denied.invalid account migrates",
    breaks: ["CMD-MIGRATE-DENIED"],
  },
  {
    id: "migrate-transfer-succeeds",
    description: "the not-transferable hook never refuses: an @external.invalid account migrates",
    breaks: ["CMD-MIGRATE-NOT-TRANSFERABLE"],
  },
  {
    id: "async-answers-200",
    description: "asynchronous commands answer 200 instead of 202 (and still complete later)",
    breaks: ["CMD-ASYNC-ACCEPTED"],
    skips: ["CMD-ASYNC-FAILURE", "CMD-ASYNC-NOTIFIED", "CMD-ASYNC-PENDING", "CMD-METADATA-REPLACES"],
  },
  {
    id: "stream-cache-control-no-store",
    description: "audit_tenant streams carry Cache-Control no-store instead of no-cache",
    breaks: ["CMD-STREAM-HEADERS"],
  },
  {
    id: "stream-ids-repeat",
    description: "a stream's command-complete event repeats the id of the event before it",
    breaks: ["CMD-STREAM-EVENT-IDS"],
  },
  {
    id: "metadata-claim-optional",
    description: "a metadata command without the metadata claim is accepted (as empty metadata)",
    breaks: ["CMD-METADATA-CLAIM-REQUIRED"],
  },
  {
    id: "account-sub-optional",
    description: 'an account command with neither sub nor aud_sub is accepted and acts on the account ""',
    breaks: ["CMD-TOKEN-ACCOUNT-SUB"],
  },
  {
    id: "metadata-async-accepted",
    description: "metadata_async is served like the (synchronous only) metadata command",
    breaks: ["CMD-METADATA-SYNC-ONLY"],
  },
  {
    id: "metadata-per-issuer",
    description:
      "the RP keeps one OP metadata per issuer: a metadata command of one tenant replaces another tenant's notification_endpoint",
    breaks: ["CMD-METADATA-REPLACES"],
  },
  {
    id: "login-hint-redirect",
    description:
      "a valid command with an iss or login_hint form parameter is taken for the start of a login (as by an RP of an older draft): 302 to the login page with the Command Token in the Location",
    breaks: ["CMD-REQUEST-IGNORE-UNKNOWN", "CMD-TOKEN-NO-LEAK"],
  },
  {
    id: "unknown-kid-same-alg",
    description:
      "the RP pins its OP's algorithm, but a token of that algorithm whose kid it does not know is accepted without verification (only strangers signing like the OP show it)",
    breaks: ["CMD-TOKEN-KID"],
  },
] as const satisfies readonly FaultDef[];

/** The id of a fault of this target. */
export type FaultId = (typeof faults)[number]["id"];

/** The faults a running target was started with. */
export type FaultSet = EngineFaultSet<FaultId>;

/** Validates the requested fault ids (an unknown one throws). */
export const faultSet = (ids: readonly string[]): FaultSet => selectFaults("commands", faults, ids);
