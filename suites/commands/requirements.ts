import { defineCatalog } from "../../src/engine/requirement.js";

const A = "specs/002 area A";
const PUB = "public: OpenID Provider Commands draft 02 (public-spec-facts §3)";

/**
 * Account commands (specs/002 area A) and the public facts of OpenID Provider Commands it
 * relies on (public-spec-facts §3). idconform plays the OP; the target is the RP's Command
 * Endpoint.
 */
export const catalog = defineCatalog("commands", [
  // Requests and responses (Endpoints: Command Endpoint)
  {
    id: "CMD-RESPONSE-NO-STORE",
    level: "MUST",
    source: `${A} Endpoints (Success: header Cache-Control: no-store)`,
    text: "every successful command response carries Cache-Control: no-store",
  },
  {
    id: "CMD-RESPONSE-JSON",
    level: "MUST",
    source: `${A} Endpoints (any body is application/json); Errors (invalid-request responses carry error)`,
    text: "every command response body is application/json",
  },
  {
    id: "CMD-REQUEST-IGNORE-UNKNOWN",
    level: "MUST",
    source: `${A} Endpoints (body values not understood MUST be ignored)`,
    text: "unknown form parameters next to command_token are ignored",
  },
  {
    id: "CMD-TOKEN-NO-LEAK",
    level: "SHOULD",
    // A reading, not a sentence of the document: it defines the answers to a command (200/204,
    // 202, or a JSON error), none a redirect, and a Command Token is the OP's credential for
    // its command until it expires; RFC 6750 §5.3 says the same of bearer tokens ("SHOULD NOT"
    // be passed in page URLs), which is why this is a SHOULD.
    source: `${A} Endpoints (the answers to a command); RFC 6750 §5.3 (credentials not passed in page URLs), a harness recommendation`,
    text: "no answer of the Command Endpoint carries a Command Token in its Location header (a redirect would hand it to the browser and the redirect's target)",
  },
  {
    id: "CMD-REQUEST-MALFORMED",
    level: "MUST",
    source: `${A} Errors (malformed command request: 400 invalid_request)`,
    text: "a request without command_token, or with one that is not a JWT (any segment count, empty or non-base64url segments, a header or payload that is not a JSON object), answers 400 invalid_request",
  },

  // Metadata (Resources: Metadata Response; Endpoints: metadata)
  {
    id: "CMD-METADATA-SUPPORTED",
    level: "MUST",
    source: `${A} What the service does (the RP MUST support the Metadata Command)`,
    text: "a valid metadata command answers 200 with a JSON Metadata Response",
  },
  {
    id: "CMD-METADATA-CONTEXT",
    level: "MUST",
    source: `${A} Metadata Response (context REQUIRED)`,
    text: "context holds iss and tenant copied from the command token",
  },
  {
    id: "CMD-METADATA-COMMANDS",
    level: "MUST",
    source: `${A} Metadata Response (commands_supported MUST include metadata)`,
    text: "commands_supported is an array of command names that includes metadata",
  },
  {
    id: "CMD-METADATA-ENDPOINT",
    level: "MUST",
    source: `${A} Metadata Response (command_endpoint: the URL the token was sent to)`,
    text: "command_endpoint equals the URL the command was sent to",
  },
  {
    id: "CMD-METADATA-CLIENT-ID",
    level: "MUST",
    source: `${A} Metadata Response (client_id REQUIRED)`,
    text: "client_id is the RP's client identifier",
  },
  {
    id: "CMD-METADATA-MEMBERS",
    level: "MUST",
    source: `${A} Metadata Response and Response properties (types of the optional members)`,
    text: "optional members have their types: aud_sub_required boolean, roles objects with id and display, jwks_uri a URL",
  },
  {
    id: "CMD-METADATA-IGNORE-UNKNOWN",
    level: "MUST",
    source: `${A} OP Metadata object (unknown fields MUST be ignored)`,
    text: "a metadata claim with unknown fields is accepted",
  },
  {
    id: "CMD-METADATA-REPLACES",
    level: "MUST",
    source: `${A} Endpoints (metadata replaces metadata previously exchanged); What the service does (Terms: iss plus tenant identify a logically isolated Tenant)`,
    text: "a later metadata command replaces the earlier exchange of its tenant, and no other tenant's: notifications go to the newest notification_endpoint of the account's tenant",
  },

  // Command Token validation (Resources: Command Token; Authentication; Errors)
  {
    id: "CMD-TOKEN-TYP",
    level: "MUST",
    source: `${A} Command Token (typ MUST be exactly command+jwt); Errors`,
    text: "a command token whose typ is not command+jwt answers 400 invalid_request",
  },
  {
    id: "CMD-TOKEN-NONCE",
    level: "MUST",
    source: `${A} Command Token (a nonce claim MUST NOT be present); Errors`,
    text: "a command token with a nonce claim answers 400 invalid_request",
  },
  {
    id: "CMD-TOKEN-EXPIRED",
    level: "MUST",
    source: `${A} Command Token (exp); Errors`,
    text: "an expired command token answers 400 invalid_request",
  },
  {
    id: "CMD-TOKEN-AUD",
    level: "MUST",
    source: `${A} Command Token (aud: the RP Command Endpoint URL); Errors`,
    text: "a command token for another audience answers 400 invalid_request",
  },
  {
    id: "CMD-TOKEN-CLIENT-ID",
    level: "MUST",
    source: `${A} Command Token (client_id: the RP's); Errors`,
    text: "a command token for another client_id answers 400 invalid_request",
  },
  {
    id: "CMD-TOKEN-SIGNATURE",
    level: "MUST",
    source: `${A} Authentication 1 (MUST be signed by the OP); Errors`,
    text: "a command token with a bad signature answers 400 invalid_request",
  },
  {
    id: "CMD-TOKEN-KID",
    level: "MUST",
    source: `${A} Authentication 1 (keys from the OP's ID Token key discovery); Errors`,
    text: "a command token signed with a key the OP does not publish (unknown kid) answers 400 invalid_request",
  },
  {
    id: "CMD-TOKEN-ALG-NONE",
    level: "MUST",
    source: `${A} Authentication 1 (MUST be signed); Errors`,
    text: "an unsigned command token (alg none) answers 400 invalid_request",
  },
  {
    id: "CMD-TOKEN-REQUIRED-CLAIMS",
    level: "MUST",
    source: `${PUB}: iss, aud, client_id, iat, exp, jti, command REQUIRED; ${A} Command Token (claim types)`,
    text: "a command token missing a required claim, or carrying one not of its type, answers 400 invalid_request",
  },
  {
    id: "CMD-TOKEN-TENANT-SUB",
    level: "MUST",
    source: `${A} Command Token (sub PROHIBITED in Tenant Commands)`,
    text: "a tenant command carrying sub answers 400 invalid_request",
  },
  {
    id: "CMD-TOKEN-ACCOUNT-METADATA",
    level: "MUST",
    source: `${A} Command Token (metadata PROHIBITED outside the Metadata Command)`,
    text: "an account command carrying metadata answers 400 invalid_request",
  },
  {
    id: "CMD-TOKEN-AUTH-PROVIDER",
    level: "MUST",
    source: `${A} Command Token (authentication_provider PROHIBITED outside Migrate)`,
    text: "a command other than migrate carrying authentication_provider answers 400 invalid_request",
  },
  {
    id: "CMD-METADATA-CLAIM-REQUIRED",
    level: "MUST",
    source: `${A} Command Token (metadata REQUIRED in the Metadata Command); Errors`,
    text: "a metadata command without the metadata claim, or with one that is not a JSON object, answers 400 invalid_request",
  },
  {
    id: "CMD-TOKEN-ACCOUNT-SUB",
    level: "MUST",
    source: `${PUB}: sub REQUIRED for Account Commands; ${A} Endpoints (identify the Account by aud_sub, else iss and sub)`,
    text: "an account command naming no account (neither sub nor aud_sub) answers 400 invalid_request",
  },
  {
    id: "CMD-METADATA-SYNC-ONLY",
    level: "MUST",
    source: `${A} Endpoints (metadata: Tenant, synchronous only)`,
    text: "metadata_async is refused with 400 (unsupported_command or invalid_request)",
  },
  {
    id: "CMD-TOKEN-ISSUER",
    level: "MUST",
    source: `${A} Authentication 2; Errors (401 unrecognized_provider)`,
    text: "a command token from an unknown issuer answers 401 unrecognized_provider",
  },
  {
    id: "CMD-TOKEN-REPLAY",
    level: "SHOULD",
    source: `${PUB}: jti replay rule unconfirmed; a harness recommendation`,
    text: "a command token replayed with the same jti is refused",
  },

  // Supported commands
  {
    id: "CMD-UNSUPPORTED",
    level: "MUST",
    source: `${A} Errors (command not supported: 400 unsupported_command)`,
    text: "a command the RP does not support answers 400 unsupported_command",
  },
  {
    id: "CMD-SUPPORTED-CONSISTENT",
    level: "MUST",
    source: `${A} Metadata Response (commands_supported); Errors`,
    text: "unsupported_command answers agree with commands_supported",
  },
  {
    id: "CMD-REACTIVATE-OFFERED",
    level: "SHOULD",
    source: `${A} Endpoints (Reactivate SHOULD be supported with Suspend)`,
    text: "an RP that supports suspend supports reactivate",
  },
  {
    id: "CMD-RESTORE-OFFERED",
    level: "SHOULD",
    source: `${A} Endpoints (Restore SHOULD be supported with Archive)`,
    text: "an RP that supports archive supports restore",
  },

  // Account lifecycle (States and transitions: Account lifecycle)
  {
    id: "CMD-SUCCESS-RESPONSE",
    level: "MUST",
    source: `${A} Endpoints (Account Command success response: sub, account_state)`,
    text: "an account command succeeds with 200 (or 204) and, with a body, sub and account_state",
  },
  {
    id: "CMD-ACTIVATE",
    level: "MUST",
    source: `${A} States (unknown --activate--> active)`,
    text: "activate of an unknown account creates it: account_state active",
  },
  {
    id: "CMD-MAINTAIN",
    level: "MUST",
    source: `${A} States (active --maintain--> active, claims updated)`,
    text: "maintain of an active account updates its claims and keeps it active",
  },
  {
    id: "CMD-SUSPEND",
    level: "MUST",
    source: `${A} States (active --suspend--> suspended)`,
    text: "suspend of an active account makes it suspended",
  },
  {
    id: "CMD-REACTIVATE",
    level: "MUST",
    source: `${A} States (suspended --reactivate--> active)`,
    text: "reactivate of a suspended account makes it active",
  },
  {
    id: "CMD-ARCHIVE",
    level: "MUST",
    source: `${A} States (active or suspended --archive--> archived)`,
    text: "archive of an active or suspended account makes it archived",
  },
  {
    id: "CMD-RESTORE",
    level: "MUST",
    source: `${A} States (archived --restore--> active)`,
    text: "restore of an archived account makes it active",
  },
  {
    id: "CMD-DELETE",
    level: "MUST",
    source: `${A} States (any state but unknown --delete--> unknown)`,
    text: "delete of an existing account makes it unknown: its data is gone",
  },
  {
    id: "CMD-INVALIDATE",
    level: "MUST",
    source: `${A} States (active --invalidate--> active)`,
    text: "invalidate of an active account succeeds and keeps it active",
  },
  {
    id: "CMD-INCOMPATIBLE-STATE",
    level: "MUST",
    source: `${A} States (a failed precondition); Endpoints (Incompatible state response)`,
    text: "every command whose precondition fails answers 409 incompatible_state with the current account_state and sub, and is not performed: audit then shows the same state and retained claims",
  },
  {
    id: "CMD-AUDIT-STATE",
    level: "MUST",
    source: `${A} Endpoints (audit: RP MUST include the Account's state); States (not found is unknown)`,
    text: "audit answers the account's state, unknown for an account that does not exist",
  },
  {
    id: "CMD-AUDIT-CLAIMS",
    level: "MUST",
    source: `${A} Endpoints (audit: the claims it retained that the OP provided)`,
    text: "audit answers the claims the OP provided that the RP kept, as last maintained",
  },
  {
    id: "CMD-AUD-SUB",
    level: "MUST",
    source: `${A} What the service does (account resolution); Response properties (aud_sub included if aud_sub_required)`,
    text: "with aud_sub_required, responses include aud_sub, and a command naming that aud_sub acts on that account",
  },
  {
    id: "CMD-MIGRATE",
    level: "MUST",
    source: `${A} Endpoints (migrate REQUIRES authentication_provider op or op_migration)`,
    text: "migrate with authentication_provider op or op_migration succeeds, and without one answers 400 invalid_request",
  },
  {
    id: "CMD-MIGRATE-DENIED",
    level: "MUST",
    source: `${A} Endpoints (migrate errors); Errors (403 access_denied)`,
    text: "a migrate the RP's policy refuses answers 403 access_denied",
  },
  {
    id: "CMD-MIGRATE-NOT-TRANSFERABLE",
    level: "MUST",
    source: `${A} Endpoints (migrate errors); Errors (409 authentication_not_transferable)`,
    text: "a migrate the authentication provider cannot transfer answers 409 authentication_not_transferable",
  },
  {
    id: "CMD-INVALIDATE-EFFECT",
    level: "MUST",
    source: `${A} Endpoints (Invalidate Functionality: the RP MUST revoke all sessions and tokens; suspend, archive, delete perform it too)`,
    text: "invalidate, suspend, archive and delete revoke the account's sessions and tokens (seen through the profile's probe)",
  },
  {
    id: "CMD-LIFECYCLE-MODEL",
    level: "MUST",
    source: `${A} States and transitions (Account lifecycle)`,
    text: "any sequence of lifecycle commands and audits over several accounts follows the state table",
  },

  // Asynchronous commands
  {
    id: "CMD-ASYNC-ACCEPTED",
    level: "MUST",
    source: `${A} Endpoints (asynchronous commands: 202 Accepted)`,
    text: "an _async command the RP supports answers 202 Accepted",
  },
  {
    id: "CMD-ASYNC-PENDING",
    level: "SHOULD",
    source: `${A} States (the RP SHOULD enter the matching pending state)`,
    text: "while an _async command runs, audit shows its pending state (or already the final one), never the old state",
  },
  {
    id: "CMD-ASYNC-NOTIFIED",
    level: "MUST",
    source: `${A} What the service does; Events 2 (final response in a Notification Token signed by the RP)`,
    text: "the final result of an _async command reaches the OP's notification_endpoint in a Notification Token signed with a key from the RP's jwks_uri, naming the account (its sub, or its own aud_sub), and audit then shows that final state",
  },
  {
    id: "CMD-ASYNC-FAILURE",
    level: "MUST",
    source: `${A} States (failure of a pending operation: RP MUST return to the last steady state)`,
    text: "a failed _async command leaves the account in its last steady state, as it was (a failed maintain_async applies none of its claims)",
  },

  // Streaming tenant commands
  {
    id: "CMD-STREAM-HEADERS",
    level: "MUST",
    source: `${A} Tenant Commands with streaming (200, text/event-stream, Cache-Control no-cache, Connection keep-alive)`,
    text: "audit_tenant answers 200 with Content-Type text/event-stream, Cache-Control no-cache and Connection keep-alive",
  },
  {
    id: "CMD-STREAM-EVENTS",
    level: "MUST",
    source: `${A} Tenant Commands with streaming; Stream events`,
    text: "the stream holds one account-state event (sub, account_state) per account, then one command-complete with total_accounts equal to their count",
  },
  {
    id: "CMD-STREAM-EMPTY",
    level: "MUST",
    source: `${A} Tenant Commands with streaming (no Accounts: only command-complete with total_accounts 0)`,
    text: "a tenant with no accounts streams only command-complete with total_accounts 0",
  },
  {
    id: "CMD-STREAM-EVENT-IDS",
    level: "MUST",
    source: `${A} Stream events (id unique per event)`,
    text: "every stream event carries an id, unique within the stream",
  },
  {
    id: "CMD-STREAM-ENCODING",
    level: "MUST",
    source: `${A} Tenant Commands with streaming (MAY add Content-Encoding with a value the OP offered)`,
    text: "a stream is content-encoded only with an encoding the request offered, and decodes to the same events",
  },
  {
    id: "CMD-STREAM-RESUME",
    level: "MUST",
    source: `${A} Tenant Commands with streaming (Resume; 404 last-event-id-unavailable)`,
    text: "a stream resumed with Last-Event-Id loses and repeats nothing, or answers 404 last-event-id-unavailable; an id the RP never sent answers 404 last-event-id-unavailable",
  },
  {
    id: "CMD-STREAM-ERROR-EVENT",
    level: "SHOULD",
    source: `${A} Tenant Commands with streaming (unrecoverable failure: SHOULD send an error event)`,
    text: "an unrecoverable failure during a stream ends it with an error event carrying error_description",
  },
]);
