import { selectFaults, type FaultDef, type FaultSet as EngineFaultSet } from "../../src/engine/target.js";

/**
 * Faults of the SCIM reference target (specs/002 area C). Each changes one behaviour and
 * names the requirements (suites/scim/requirements.ts) a run must then fail.
 */
export const faults = [
  {
    id: "username-filter-case-sensitive",
    description: "filter userName eq compares case-sensitively",
    breaks: ["SCIM-USER-FILTER-USERNAME"],
  },
  {
    id: "deleted-username-reserved",
    description: "a deleted user's userName stays taken: re-creating it answers 409",
    breaks: ["SCIM-USER-DELETE-REUSE", "SCIM-USER-LIFECYCLE"],
  },
  {
    id: "deactivation-keeps-access",
    description: "deactivating a user leaves its sessions alive: the probe still answers active",
    breaks: ["SCIM-USER-DEACTIVATE-REVOKES"],
  },
  {
    id: "page-border-drops",
    description: "GET /Users index pages after the first start one item late (one user is skipped)",
    breaks: ["SCIM-LIST-PAGINATION"],
  },
  {
    id: "page-border-repeats",
    description: "GET /Users index pages after the first start one item early (the last one repeats)",
    breaks: ["SCIM-LIST-PAGINATION"],
  },
  {
    id: "ratelimit-no-retry-after",
    description: "429 answers carry no Retry-After header",
    breaks: ["SCIM-RATE-LIMIT"],
    skips: ["SCIM-RATE-LIMIT-RECOVERS"],
  },
  {
    id: "ratelimit-absent",
    description: "no rate limit at all: a token may send any number of requests a second",
    breaks: ["SCIM-RATE-LIMIT"],
    skips: ["SCIM-RATE-LIMIT-RECOVERS"],
  },
  {
    id: "filter-error-runtime-message",
    description:
      "an invalid filter's error detail is the parser's own runtime error (a TypeError message), still 400 invalidFilter",
    breaks: ["SCIM-ERROR-NO-LEAK"],
  },
  {
    id: "error-stack-trace",
    description: "every SCIM error detail carries a Node-style stack trace with file paths",
    breaks: ["SCIM-ERROR-NO-LEAK"],
  },
  {
    id: "scope-not-enforced",
    description: "access tokens without the scim scope are accepted on SCIM endpoints",
    breaks: ["SCIM-AUTH-SCOPE"],
  },
  {
    id: "excluded-attributes-ignored",
    description: "excludedAttributes is ignored on groups: members are always returned",
    breaks: ["SCIM-GROUP-GET-EXCLUDE", "SCIM-GROUP-FILTER", "SCIM-GROUP-EXCLUDED-ATTRIBUTES"],
  },
  {
    id: "delete-soft-revive",
    description:
      "DELETE hides the user; a new user with the same userName revives the old record: its id and the attributes the new one leaves out",
    breaks: ["SCIM-USER-DELETE-REUSE"],
  },
  {
    id: "uniqueness-case-sensitive",
    description:
      "userName uniqueness compares names as spelled: the same name in another case makes a second user",
    breaks: ["SCIM-USER-UNIQUENESS"],
  },
  {
    id: "uniqueness-on-create-only",
    description:
      "userName uniqueness is enforced on create only: a PATCH may rename a user to a taken userName",
    breaks: ["SCIM-USER-UNIQUENESS"],
  },
  {
    id: "scope-checked-on-reads",
    description: "the scim scope is checked on GET requests only: writes with a token without it go through",
    breaks: ["SCIM-AUTH-SCOPE"],
  },
  {
    id: "conflict-leaks-sql",
    description:
      "a userName conflict (409 uniqueness) passes on the database's duplicate-key message with its SQLSTATE",
    breaks: ["SCIM-ERROR-NO-LEAK"],
  },
  {
    id: "group-404-plain",
    description:
      "an unknown group id (GET, DELETE) answers 404 with a JSON body of its own, not a SCIM error",
    breaks: ["SCIM-ERROR-SCHEMA", "SCIM-MEDIA-TYPE"],
  },
  {
    id: "status-number",
    description: "SCIM error bodies carry status as a number",
    breaks: ["SCIM-ERROR-SCHEMA"],
  },
  {
    id: "reactivation-refused",
    description: "PATCH active true on a deactivated user answers 400 mutability",
    breaks: ["SCIM-USER-REACTIVATE", "SCIM-USER-LIFECYCLE"],
  },
  {
    id: "assertion-aud-unchecked",
    description: "the token endpoint does not check the client assertion's aud",
    breaks: ["SCIM-AUTH-ASSERTION-AUD"],
  },
  {
    id: "assertion-replay-accepted",
    description: "the token endpoint accepts a client assertion whose jti was already used",
    breaks: ["SCIM-AUTH-ASSERTION-REPLAY"],
  },
  {
    id: "no-location-header",
    description: "POST /Users answers 201 without a Location header",
    breaks: ["SCIM-USER-CREATE"],
  },
  {
    id: "uniqueness-not-enforced",
    description: "POST /Users with a taken userName answers 201 (a duplicate)",
    breaks: ["SCIM-USER-UNIQUENESS", "SCIM-USER-LIFECYCLE"],
  },
  {
    id: "email-filter-unsupported",
    description: "filters emails[value eq ...] and emails.value eq ... answer 400 invalidFilter",
    breaks: ["SCIM-USER-FILTER-EMAIL"],
    skips: ["SCIM-LIST-PAGINATION", "SCIM-LIST-RESPONSE"],
  },
  {
    id: "member-remove-ignored",
    description: "PATCH remove of group members answers 200 but keeps them",
    breaks: ["SCIM-GROUP-MEMBER-REMOVE"],
  },
  {
    id: "auth-optional",
    description: "SCIM requests without any Authorization header are served",
    breaks: ["SCIM-AUTH-NO-TOKEN"],
  },
  {
    id: "invalid-filter-500",
    description: 'an unparsable filter answers 500 (SCIM error, status "500", no scimType)',
    breaks: ["SCIM-ERROR-FILTER"],
  },
  {
    id: "token-scope-broad",
    description: 'the token endpoint grants every requested scope (e.g. "scim admin")',
    breaks: ["SCIM-AUTH-SCOPE-ONLY"],
  },
  {
    id: "media-type-json",
    description: "SCIM responses use Content-Type application/json",
    breaks: ["SCIM-MEDIA-TYPE"],
  },
  {
    id: "spc-no-filter",
    description: "ServiceProviderConfig says filter.supported false",
    breaks: ["SCIM-SPC-CAPABILITIES"],
  },
  {
    id: "delete-keeps-user",
    description: "DELETE /Users/{id} answers 204 but the user stays readable",
    breaks: ["SCIM-USER-DELETE", "SCIM-USER-LIFECYCLE"],
    skips: ["SCIM-USER-DELETE-REUSE"],
  },
  {
    id: "spc-missing",
    description: "GET /ServiceProviderConfig answers 404 (SCIM error): there is no such endpoint",
    breaks: ["SCIM-SPC-AVAILABLE"],
    skips: ["SCIM-LIST-CURSOR", "SCIM-SPC-CAPABILITIES", "SCIM-SPC-PAGINATION"],
  },
  {
    id: "resource-types-no-group",
    description: "GET /ResourceTypes lists only the User resource type, not Group",
    breaks: ["SCIM-RT-USERS-GROUPS"],
  },
  {
    id: "bad-token-accepted",
    description:
      "a well-formed Bearer token the server never issued is served as if it held the scim scope (no token at all is still 401)",
    breaks: ["SCIM-AUTH-BAD-TOKEN"],
  },
  {
    id: "token-type-missing",
    description: "the token response carries no token_type (the token itself works)",
    breaks: ["SCIM-AUTH-JWT-CLIENT"],
    // SCIM-AUTH-SCOPE-ONLY stays decided: scim.auth-scope-unknown judges it without token_type.
    skips: ["SCIM-AUTH-TOKEN-EXPIRES"],
  },
  {
    id: "token-no-expiry",
    description:
      "access tokens never expire, and the token response carries no expires_in (RFC 6749 §5.1 only RECOMMENDS it: from outside, nothing shows the lifetime, and the suite says so)",
    skips: ["SCIM-AUTH-TOKEN-EXPIRES"],
    breaks: [],
  },
  {
    id: "token-expires-in-zero",
    description: "access tokens never expire, which the token response states as expires_in 0",
    breaks: ["SCIM-AUTH-TOKEN-EXPIRES"],
  },
  {
    id: "assertion-embedded-jwk-trusted",
    description: "a client assertion carrying a header jwk is verified with that key instead of the client's",
    breaks: ["SCIM-AUTH-ASSERTION-SIG"],
  },
  {
    id: "assertion-signature-unchecked",
    description:
      "the token endpoint does not verify the client assertion's signature (its claims are still checked)",
    breaks: ["SCIM-AUTH-ASSERTION-SIG"],
  },
  {
    id: "assertion-exp-unchecked",
    description: "the token endpoint accepts a client assertion whose exp has passed",
    breaks: ["SCIM-AUTH-ASSERTION-EXP"],
  },
  {
    id: "email-primary-dropped",
    description: "POST /Users drops the primary flag of the emails given (values and types are kept)",
    breaks: ["SCIM-USER-REQUIRED-ATTRS", "SCIM-USER-GET"],
  },
  {
    id: "get-user-no-username",
    description: "GET /Users/{id} answers the user without its userName (lists and PATCH answers keep it)",
    breaks: ["SCIM-USER-GET"],
  },
  {
    id: "externalid-filter-unsupported",
    description: "filters on externalId answer 400 invalidFilter",
    breaks: ["SCIM-USER-FILTER-EXTERNALID"],
  },
  {
    id: "patch-displayname-ignored",
    description: "PATCH of a user's displayName answers 200 but leaves it unchanged",
    breaks: ["SCIM-USER-PATCH"],
  },
  {
    id: "deactivation-refused",
    description: "PATCH active false on an active user answers 400 mutability: users cannot be deactivated",
    breaks: ["SCIM-USER-DEACTIVATE", "SCIM-USER-LIFECYCLE"],
    skips: ["SCIM-USER-DEACTIVATE-REVOKES", "SCIM-USER-REACTIVATE"],
  },
  {
    id: "list-start-index-zero-based",
    description: "ListResponses of index paging state startIndex 0-based (one less than the page asked)",
    breaks: ["SCIM-LIST-RESPONSE", "SCIM-GROUP-LIST"],
    skips: ["SCIM-LIST-PAGINATION"],
  },
  {
    id: "cursor-repeats",
    description:
      "GET /Users nextCursor continues before the page's last user, so each cursor page repeats it",
    breaks: ["SCIM-LIST-CURSOR"],
  },
  {
    id: "group-create-200",
    description: "POST /Group (and /Groups) creates the group but answers 200 instead of 201",
    breaks: ["SCIM-GROUP-CREATE"],
    skips: [
      "SCIM-GROUP-FILTER",
      "SCIM-GROUP-GET-EXCLUDE",
      "SCIM-GROUP-LIST",
      "SCIM-GROUP-MEMBER-ADD",
      "SCIM-GROUP-MEMBER-REMOVE",
    ],
  },
  {
    id: "groups-list-ignores-count",
    description: "GET /Groups ignores count: every page holds up to the default page size (50)",
    breaks: ["SCIM-GROUP-LIST", "SCIM-LIST-CURSOR"],
  },
  {
    id: "member-add-ignored",
    description: "PATCH add of group members answers 200 but adds nobody",
    breaks: ["SCIM-GROUP-MEMBER-ADD"],
    skips: ["SCIM-GROUP-MEMBER-REMOVE"],
  },
  {
    id: "invalid-json-500",
    description: 'a request body that is not JSON answers 500 (SCIM error, status "500", no scimType)',
    breaks: ["SCIM-ERROR-SYNTAX"],
  },
  {
    id: "group-not-found-200",
    description: "GET /Groups/{id} of an unknown id answers 200 with an empty ListResponse instead of 404",
    breaks: ["SCIM-ERROR-NOT-FOUND", "SCIM-GROUP-DELETE"],
  },
  {
    id: "member-add-replaces",
    description: "PATCH add of group members replaces the member list with the members given",
    breaks: ["SCIM-GROUP-MEMBER-ADD"],
    skips: ["SCIM-GROUP-MEMBER-REMOVE"],
  },
  {
    id: "member-remove-filter-ignored",
    description: 'PATCH remove members[value eq "id"] ignores the filter and removes every member',
    breaks: ["SCIM-GROUP-MEMBER-REMOVE"],
  },
  {
    id: "group-create-drops-members",
    description: "POST /Group (and /Groups) creates the group without the members given (201, members empty)",
    breaks: ["SCIM-GROUP-CREATE"],
    skips: ["SCIM-GROUP-MEMBER-ADD", "SCIM-GROUP-MEMBER-REMOVE"],
  },
  {
    id: "patch-drops-attributes",
    description:
      "a PATCH replace of a user works like a PUT: attributes the operations do not name are dropped (userName and active stay)",
    breaks: ["SCIM-USER-PATCH", "SCIM-USER-DEACTIVATE"],
  },
  {
    id: "list-omits-paging-members",
    description:
      "index pages of /Users and /Groups after the first (startIndex above 1) leave itemsPerPage out",
    breaks: ["SCIM-LIST-RESPONSE", "SCIM-GROUP-LIST"],
  },
  {
    id: "schema-username-case-exact",
    description:
      "the User schema of /Schemas describes userName as caseExact, though filters and uniqueness ignore its case",
    breaks: ["SCIM-SCHEMAS-AVAILABLE"],
  },
  {
    id: "assertion-issuer-unchecked",
    description:
      "the token endpoint verifies the client assertion's signature but not that iss and sub (or a client_id parameter) name the client",
    breaks: ["SCIM-AUTH-ASSERTION-ISS"],
  },
  {
    id: "token-without-assertion",
    description:
      "a token request that names the client in client_id but carries no client assertion gets a scim token",
    breaks: ["SCIM-AUTH-ASSERTION-REQUIRED"],
  },
  {
    id: "token-response-cacheable",
    description: "the token response carries no Cache-Control: no-store (RFC 6749 §5.1)",
    breaks: ["SCIM-AUTH-JWT-CLIENT"],
  },
  {
    id: "no-bearer-challenge",
    description: "401 answers of the SCIM endpoints carry no WWW-Authenticate challenge",
    breaks: ["SCIM-AUTH-NO-TOKEN", "SCIM-AUTH-BAD-TOKEN"],
  },
  {
    id: "token-request-unchecked",
    description:
      "the token endpoint serves a valid client assertion whatever the grant_type, and a request that repeats a parameter (the first value wins)",
    breaks: ["SCIM-AUTH-TOKEN-REQUEST"],
  },
  {
    id: "patch-invalid-ignored",
    description:
      "a user PATCH the service provider cannot read or apply is answered 200 with the user unchanged, instead of 400",
    breaks: ["SCIM-USER-PATCH-INVALID"],
  },
  {
    id: "null-attribute-refused",
    description: "POST /Users refuses a null attribute or sub-attribute value with 400 invalidValue",
    breaks: ["SCIM-USER-NULL-UNASSIGNED"],
  },
  {
    id: "empty-username-accepted",
    description: "POST /Users creates a user whose userName is an empty string",
    breaks: ["SCIM-USER-INVALID-VALUE"],
  },
  {
    id: "group-delete-keeps",
    description: "DELETE /Groups/{id} answers 204 but the group stays and still reads 200",
    breaks: ["SCIM-GROUP-DELETE"],
  },
  {
    id: "excluded-attributes-members-only",
    description: "excludedAttributes on groups leaves out members when named, and ignores every other name",
    breaks: ["SCIM-GROUP-EXCLUDED-ATTRIBUTES"],
  },
  {
    id: "group-path-singular-missing",
    description:
      "groups are served at /Groups only (as RFC 7644 and /ResourceTypes say): POST /Group and GET /Group/{id} answer 404, before any authentication (seen in every provider tried)",
    breaks: ["SCIM-GROUP-PROFILE-PATHS"],
  },
  {
    id: "list-start-index-wraps",
    description:
      "GET /Users with a startIndex past the last user wraps around and lists users from the first again (seen in a real provider)",
    breaks: ["SCIM-LIST-PAGINATION"],
  },
  {
    id: "error-no-scimtype",
    description:
      'the 400 for an unparsable filter or a request body that is not JSON carries no scimType (SCIM error, status "400")',
    breaks: ["SCIM-ERROR-SCIMTYPE"],
  },
  {
    id: "email-filter-case-sensitive",
    description: "filter emails[value eq ...] compares the address case-sensitively",
    breaks: ["SCIM-USER-FILTER-EMAIL"],
  },
  {
    id: "filter-missing-emails-error",
    description:
      "an emails filter answers 400 with the evaluator's runtime error as detail whenever some user has no emails (seen in a real provider)",
    breaks: ["SCIM-USER-FILTER-EMAIL", "SCIM-ERROR-NO-LEAK"],
  },
  {
    id: "error-powered-by-header",
    description: "SCIM error responses carry the framework's banner header X-Powered-By: Express",
    breaks: ["SCIM-ERROR-NO-BANNER"],
  },
  {
    id: "unknown-endpoint-plain-404",
    description:
      "a path under the SCIM base URL that no endpoint serves answers the web framework's plain-text 404, not a SCIM error",
    breaks: ["SCIM-ERROR-UNKNOWN-ENDPOINT"],
  },
  {
    id: "page-overrun-empty",
    description:
      "a /Users index page after the first that would reach past the last user answers no Resources (a bounds check on startIndex + count), so the last users of a walk by 2 are lost",
    breaks: ["SCIM-LIST-PAGINATION"],
  },
  {
    id: "items-per-page-count",
    description:
      "/Users index pages state itemsPerPage equal to count, also on a last page holding fewer resources",
    breaks: ["SCIM-LIST-RESPONSE"],
  },
] as const satisfies readonly FaultDef[];

/** The id of a fault of this target. */
export type FaultId = (typeof faults)[number]["id"];

/** The faults a running target was started with. */
export type FaultSet = EngineFaultSet<FaultId>;

/** Validates the requested fault ids (an unknown one throws). */
export const faultSet = (ids: readonly string[]): FaultSet => selectFaults("SCIM", faults, ids);
