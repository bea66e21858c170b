import { defineCatalog } from "../../src/engine/requirement.js";

const C = "specs/002 area C";
const PUB = "public: IPSIE SCIM AL1 / RFC 7644 (public-spec-facts §5)";

/**
 * The SCIM provisioning profile (specs/002 area C) and the SCIM base rules it relies on
 * (public-spec-facts §5). Sources name the section; public facts say so.
 */
export const catalog = defineCatalog("scim", [
  // Discovery
  {
    id: "SCIM-SPC-AVAILABLE",
    level: "MUST",
    source: `${C} Endpoints (GET /ServiceProviderConfig); RFC 7643 §5`,
    text: "GET /ServiceProviderConfig answers 200 with the ServiceProviderConfig schema and every member RFC 7643 §5 requires",
  },
  {
    id: "SCIM-SPC-CAPABILITIES",
    level: "MUST",
    source: `${C} Endpoints (ServiceProviderConfig lists the capabilities the profile needs)`,
    text: "ServiceProviderConfig lists patch and filter as supported (the profile's operations need both)",
  },
  {
    id: "SCIM-SPC-PAGINATION",
    level: "MAY",
    source: `${PUB}: RFC 9865 pagination object`,
    text: "ServiceProviderConfig describes its pagination methods (index, cursor), each member of its RFC 9865 type",
  },
  {
    id: "SCIM-RT-USERS-GROUPS",
    level: "MUST",
    source: `${C} Endpoints (GET /ResourceTypes MUST include Users and Groups); RFC 7643 §6`,
    text: "GET /ResourceTypes includes the User and the Group resource types (name, endpoint and core schema), every resource type a ResourceType of RFC 7643 §6",
  },
  {
    id: "SCIM-SCHEMAS-AVAILABLE",
    level: "SHOULD",
    source: `${C} (implements RFC 7644); RFC 7644 §4; RFC 7643 §7, §4.1-4.2 (attribute characteristics)`,
    text: "GET /Schemas answers the User and Group schemas (also by URI), every attribute defined with its RFC 7643 §7 characteristics, those the profile uses as RFC 7643 §4 gives them (userName caseExact false)",
  },
  {
    id: "SCIM-MEDIA-TYPE",
    level: "SHOULD",
    source: `${PUB}: media type application/scim+json`,
    text: "SCIM responses carry Content-Type application/scim+json",
  },

  // Authentication (area C Authentication 1-6)
  {
    id: "SCIM-AUTH-NO-TOKEN",
    level: "MUST",
    source: `${C} Endpoints ("all SCIM operations are authenticated and authorized with OAuth 2.0"); RFC 6750 §3`,
    text: "every endpoint family refuses a request without an access token (401 with a Bearer WWW-Authenticate challenge, RFC 6750 §3)",
  },
  {
    id: "SCIM-AUTH-BAD-TOKEN",
    level: "MUST",
    source: `${C} Authentication 2; RFC 6750 §3`,
    text: "every endpoint family refuses a malformed or unknown bearer token (401 with a Bearer WWW-Authenticate challenge, RFC 6750 §3)",
  },
  {
    id: "SCIM-AUTH-SCOPE",
    level: "MUST",
    source: `${C} Authentication 4; RFC 6750 §3 (WWW-Authenticate when the token does not enable access)`,
    text: "a token without the scim scope is refused (401 or 403, with a Bearer WWW-Authenticate challenge, RFC 6750 §3)",
  },
  {
    id: "SCIM-AUTH-JWT-CLIENT",
    level: "MUST",
    source: `${C} Authentication 1-2 (RFC 7523); RFC 6749 §5.1 (Cache-Control: no-store)`,
    text: "a signed JWT client assertion is exchanged for an access token that works on SCIM requests, in a response that may not be cached",
  },
  {
    id: "SCIM-AUTH-SCOPE-ONLY",
    level: "MUST",
    source: `${C} Authentication 4`,
    text: "the access token carries the scim scope and nothing broader, even when more is asked",
  },
  {
    id: "SCIM-AUTH-TOKEN-EXPIRES",
    level: "MUST",
    source: `${C} Authentication 6 ("access tokens SHALL expire"); RFC 6749 §5.1 (expires_in RECOMMENDED: when absent the lifetime cannot be observed, and the requirement is skipped)`,
    text: "the token response's expires_in is a positive number of seconds (a finite lifetime)",
  },
  {
    id: "SCIM-AUTH-ASSERTION-AUD",
    level: "MUST",
    source: `${C} Authentication 1, 3 (RFC 7523 §3: aud identifies the token endpoint)`,
    text: "an assertion whose aud is missing or not the token endpoint is refused",
  },
  {
    id: "SCIM-AUTH-ASSERTION-SIG",
    level: "MUST",
    source: `${C} Authentication 1 (RFC 7523 §3: signature verified)`,
    text: "an assertion with a bad signature is refused",
  },
  {
    id: "SCIM-AUTH-ASSERTION-EXP",
    level: "MUST",
    source: `${C} Authentication 1 (RFC 7523 §3: exp, nbf)`,
    text: "an expired assertion, one without exp, or one not valid yet (nbf in the future) is refused",
  },
  {
    id: "SCIM-AUTH-ASSERTION-REPLAY",
    level: "MUST",
    source: `${C} Authentication 6 ("nonces SHALL be validated"; RFC 7523 §3 jti)`,
    text: "an assertion replayed with the same jti, or one without a jti, is refused",
  },
  {
    id: "SCIM-AUTH-ASSERTION-ISS",
    level: "MUST",
    source: `${C} Authentication 1 (RFC 7523 §3: iss and sub identify the client; RFC 7521 §4.2 client_id)`,
    text: "an assertion whose iss or sub is missing or not the client, or sent with the client_id of another client, is refused",
  },
  {
    id: "SCIM-AUTH-ASSERTION-REQUIRED",
    level: "MUST",
    source: `${C} Authentication 1 (MUST use JWT client authentication, RFC 7523 §2.2)`,
    text: "a token request without an RFC 7523 jwt-bearer client assertion is refused",
  },
  {
    id: "SCIM-AUTH-AS-METADATA",
    level: "SHOULD",
    source: `${C} Authentication 5 (RFC 8414)`,
    text: "the authorization server publishes RFC 8414 metadata naming its token endpoint, with client_credentials, private_key_jwt, the client key's alg and the scim scope among what it lists",
  },

  // Users
  {
    id: "SCIM-USER-CREATE",
    level: "MUST",
    source: `${C} Endpoints (POST /Users); RFC 7644 §3.3`,
    text: "POST /Users answers 201 with id, meta and a Location header equal to meta.location, also for a user with only the attributes the profile requires",
  },
  {
    id: "SCIM-USER-REQUIRED-ATTRS",
    level: "MUST",
    source: `${PUB}: enterprise identifier and primary email`,
    text: "a created user keeps its externalId and its primary email",
  },
  {
    id: "SCIM-USER-GET",
    level: "MUST",
    source: `${C} Endpoints (GET /Users/{id}, POST /Users "user attributes per SCIM"); RFC 7644 §3.3, §3.4.1`,
    text: "GET /Users/{id} answers the user with every attribute it was created with (the enterprise extension too, when offered), schemas naming the User schema",
  },
  {
    id: "SCIM-USER-FILTER-USERNAME",
    level: "MUST",
    source: `${PUB}: userName eq, case-insensitive`,
    text: "filter userName eq finds the user, whatever the case of the value, and not a user whose userName only starts with it",
  },
  {
    id: "SCIM-USER-FILTER-EXTERNALID",
    level: "MUST",
    source: `${PUB}: externalId eq`,
    text: "filter externalId eq finds the user",
  },
  {
    id: "SCIM-USER-FILTER-EMAIL",
    level: "MUST",
    source: `${PUB}: emails[value eq ...]; RFC 7643 §4.1.2, §8.7.1 (emails.value caseExact false); RFC 7644 §3.4.2.2 (a resource without the attribute does not match)`,
    text: "filter emails[value eq ...] finds the user, whatever the case of the address, also while users without emails exist",
  },
  {
    id: "SCIM-USER-UNIQUENESS",
    level: "MUST",
    source: `${PUB}: scimType uniqueness (409); RFC 7643 §4.1.1 (userName is case-insensitive)`,
    text: "creating a user with a taken userName, or renaming one to it, in any case, answers 409 with scimType uniqueness",
  },
  {
    id: "SCIM-USER-PATCH",
    level: "MUST",
    source: `${C} Endpoints (PATCH /Users/{id}); ${PUB}: PatchOp; RFC 7644 §3.5.2`,
    text: "PATCH /Users/{id} with a PatchOp replace changes the attribute it names (displayName, externalId, userName, name and a name part, the work email's value, a primary email, enterprise attributes when offered), and every other attribute reads back as it was",
  },
  {
    id: "SCIM-USER-DEACTIVATE",
    level: "MUST",
    source: `${C} States (SCIM users); ${PUB}: replace active false; RFC 7644 §3.5.2`,
    text: "PATCH active false deactivates the user, and every other attribute reads back as it was",
  },
  {
    id: "SCIM-USER-REACTIVATE",
    level: "MUST",
    source: `${C} States (SCIM users: the Application MUST allow reactivation); RFC 7644 §3.5.2`,
    text: "PATCH active true reactivates a deactivated user, and every other attribute reads back as it was",
  },
  {
    id: "SCIM-USER-DEACTIVATE-REVOKES",
    level: "MUST",
    source: `${C} States (SCIM users: all access MUST also be deactivated)`,
    text: "deactivating a user revokes its access, which stays revoked through later PATCHes that leave it inactive, and a user created inactive has none (seen through the profile's probe)",
  },
  {
    id: "SCIM-USER-DELETE",
    level: "MUST",
    source: `${C} Endpoints (DELETE /Users/{id})`,
    text: "DELETE /Users/{id} removes the user: 204, then GET answers 404",
  },
  {
    id: "SCIM-USER-DELETE-REUSE",
    level: "MUST",
    source: `${C} States (SCIM users: a new user with the same username MUST then be allowed); RFC 7643 §3.1 (id never reassigned)`,
    text: "after DELETE, a new user with the same userName can be created, and it is new: another id and none of the deleted user's attributes",
  },
  {
    id: "SCIM-USER-LIFECYCLE",
    level: "MUST",
    source: `${C} States (SCIM users)`,
    text: "any sequence of create, patch, deactivate, reactivate, delete and re-create follows the state table",
  },

  // Listing and pagination
  {
    id: "SCIM-LIST-RESPONSE",
    level: "MUST",
    source: `${PUB}: ListResponse; RFC 7644 §3.4.2 (startIndex, itemsPerPage REQUIRED on partial results)`,
    text: "GET /Users answers a ListResponse with totalResults and Resources; every index page of part of the results also states its startIndex and itemsPerPage",
  },
  {
    id: "SCIM-LIST-PAGINATION",
    level: "MUST",
    source: `${C} Endpoints (GET /Users MUST support pagination)`,
    text: "walking /Users pages by startIndex and count yields each user from startIndex on once (nobody from one past the last), never more than count per page",
  },
  {
    id: "SCIM-LIST-CURSOR",
    level: "MUST",
    source: `${PUB}: RFC 9865 cursor pagination`,
    text: "when cursor pagination is offered, walking nextCursor of /Users or /Groups yields each resource once, and a list that selects nothing walks to one empty page",
  },
  {
    id: "SCIM-RATE-LIMIT",
    level: "MUST",
    source: `${C} Errors and Limits (429 with Retry-After)`,
    text: "a burst over the rate limit meets 429 with Retry-After",
  },
  {
    id: "SCIM-RATE-LIMIT-RECOVERS",
    level: "SHOULD",
    source: `${C} Limits; RFC 9110 §10.2.3 Retry-After`,
    text: "after waiting Retry-After, requests succeed again",
  },

  // Groups
  {
    id: "SCIM-GROUP-CREATE",
    level: "MUST",
    source: `${C} Endpoints (POST /Group: "create group"; GET /ResourceTypes MUST include Groups); RFC 7644 §3.3; RFC 7643 §3.1, §4.2, §6 (endpoint)`,
    text: "a POST to the Group endpoint /ResourceTypes gives (RFC 7644's /Groups) creates a group, also one without members: 201 with id and a Location equal to meta.location, and the group reads back as a Group resource (schemas, meta.resourceType, any meta.version an entity-tag, members' $ref and type those of the user) with the displayName and members it was created with",
  },
  {
    id: "SCIM-GROUP-GET-EXCLUDE",
    level: "MUST",
    source: `${C} Endpoints (GET /Group/{id}?excludedAttributes=members: "get group by id"); RFC 7644 §3.4.2.5, §3.10; RFC 7643 §2.1, §7`,
    text: "GET {Group endpoint}/{id}?excludedAttributes=members answers the group without members and with every other attribute, whatever the case of the name or a schema URN before it; naming id and schemas too leaves them in",
  },
  {
    id: "SCIM-GROUP-LIST",
    level: "MUST",
    source: `${C} Endpoints (GET /Groups MUST support pagination); RFC 7644 §3.4.2, §3.4.2.4`,
    text: "GET /Groups pages by startIndex and count: each page a ListResponse (startIndex and itemsPerPage on every page of part of the list), never more than count, each group once; without startIndex and count the list starts at 1 and holds groups",
  },
  {
    id: "SCIM-GROUP-FILTER",
    level: "SHOULD",
    source: `${PUB}: displayName eq is the common group filter`,
    text: "GET /Groups?filter=displayName eq ...&excludedAttributes=members finds the group and no other, without members, also for a name with a double quote (escaped in the filter as in a JSON string, RFC 7644 §3.4.2.2)",
  },
  {
    id: "SCIM-GROUP-MEMBER-ADD",
    level: "MUST",
    source: `${PUB}: PATCH add members; RFC 7644 §3.5.2.1`,
    text: "PATCH add members puts the user in the group beside the members already there",
  },
  {
    id: "SCIM-GROUP-MEMBER-REMOVE",
    level: "MUST",
    source: `${PUB}: PATCH remove members[value eq "id"]; RFC 7644 §3.5.2.2`,
    text: "PATCH remove members[value eq id] takes that user out of the group and keeps the other members",
  },

  // Errors
  {
    id: "SCIM-ERROR-SCHEMA",
    level: "MUST",
    source: `${C} Errors (SCIM error format); ${PUB}: status as a string`,
    text: "error bodies use the SCIM Error schema with status as a string equal to the HTTP status",
  },
  {
    id: "SCIM-ERROR-FILTER",
    level: "MUST",
    source: `${PUB}: scimType invalidFilter; RFC 7644 §3.4.2.2 (filter grammar), §3.12 (scimType OPTIONAL; Table 9: invalidFilter, 400)`,
    text: "every unparsable filter (unterminated string, missing or unquoted value, missing or unknown operator, unclosed bracket, trailing text, a bad or quoted attribute name) answers 400; a scimType, when the error gives one, is invalidFilter",
  },
  {
    id: "SCIM-ERROR-SYNTAX",
    level: "MUST",
    source: `${PUB}: scimType invalidSyntax; RFC 7644 §3.12 (scimType OPTIONAL; Table 9: invalidSyntax, 400)`,
    text: "a body that is not JSON, or JSON that is not an object, answers 400; a scimType, when the error gives one, is invalidSyntax (or invalidValue, for JSON that is not an object)",
  },
  {
    id: "SCIM-ERROR-NOT-FOUND",
    level: "MUST",
    source: `${C} Errors (SCIM error format); RFC 7644 §3.12`,
    text: "an unknown resource id (a user, a group, a resource type, a schema) answers 404 with a SCIM error",
  },
  {
    id: "SCIM-ERROR-NO-LEAK",
    level: "MUST",
    source: `${C} Errors ("MUST NOT leak internal details")`,
    text: "no error body holds a stack trace, a runtime error message, SQL, a file path or a framework banner",
  },
  {
    id: "SCIM-ERROR-SCIMTYPE",
    level: "SHOULD",
    source: `RFC 7644 §3.12 (scimType OPTIONAL; Table 9 names the keyword of each 400); ${PUB}: scimType values`,
    text: "the 400 for an unparsable filter names scimType invalidFilter, and the 400 for a request body that is not JSON names invalidSyntax (or invalidValue, for JSON that is not an object)",
  },
  {
    id: "SCIM-ERROR-NO-BANNER",
    level: "SHOULD",
    source: `${C} Errors ("MUST NOT leak internal details"); RFC 9110 §10.2.4 (SHOULD NOT send needlessly fine-grained detail about the server software)`,
    text: "no error response of the service provider names its software in a header: no X-Powered-By, X-AspNet-Version or X-AspNetMvc-Version, no Server with a version",
  },
  {
    id: "SCIM-ERROR-UNKNOWN-ENDPOINT",
    level: "SHOULD",
    source: `${C} Errors (SCIM errors generally: SCIM error format); RFC 7644 §3.12 (404: "Specified resource (e.g., User) or endpoint does not exist")`,
    text: "a path under the SCIM base URL that is no endpoint answers 404 in the SCIM error format",
  },
  {
    id: "SCIM-AUTH-TOKEN-REQUEST",
    level: "MUST",
    source: `${C} Authentication 1-2; RFC 6749 §4.4.2 (grant_type REQUIRED), §4.4.3 (an invalid request gets a §5.2 error), §5.2 (unsupported_grant_type; invalid_request: missing or repeated parameter), §3.2`,
    text: "the token endpoint refuses an invalid token request, even with a valid client assertion: no or an unsupported grant_type, a repeated parameter (400 or 401 with an RFC 6749 §5.2 error, no access_token)",
  },
  {
    id: "SCIM-USER-PATCH-INVALID",
    level: "MUST",
    source: `${C} Endpoints (PATCH /Users/{id}; implements RFC 7644); RFC 7644 §3.5.2 (Operations: one or more operations, op add, remove or replace; "SHALL be treated as atomic ... the original SCIM resource MUST be restored, and a failure status SHALL be returned"), §3.5.2.1 (add MUST contain a value), §3.5.2.2 (remove without path: 400 noTarget), §3.10 (PATH), §3.12; RFC 7643 §4.1.1 (non-empty userName)`,
    text: "a user PATCH that cannot be applied as written (no Operations or an empty list, an operation that is not one, an unknown op, a path outside the grammar, add without a value, remove without a path, a value of the wrong type, an empty userName), alone or after a valid operation, answers 400 (remove without a path: scimType noTarget; otherwise a scimType, when the error gives one, of Table 9 naming the mistake) and the user reads back as it was",
  },
  {
    id: "SCIM-USER-NULL-UNASSIGNED",
    level: "MUST",
    source: `${C} Endpoints (POST /Users: "user attributes per SCIM"); RFC 7643 §2.5 ("the null value ... SHALL be considered to be equivalent in state" to an unassigned attribute)`,
    text: "POST /Users with null attribute and sub-attribute values creates the user with those attributes unassigned",
  },
  {
    id: "SCIM-USER-INVALID-VALUE",
    level: "MUST",
    source: `${C} Endpoints (POST /Users: "user attributes per SCIM"); RFC 7643 §4.1.1 ("Each User MUST include a non-empty userName value"), §2.3.1, §2.3.2, §2.3.8, §2.4 ("primary" true "MUST appear no more than once"); RFC 7644 §3.12 (400 invalidValue)`,
    text: "POST /Users without a userName, with an empty one, or with a value of another type than RFC 7643 gives it (an object for displayName, a non-boolean active, a string or an array for name) answers 400, a scimType, when the error gives one, naming the mistake (invalidValue; for a wrong type also invalidSyntax); one with two primary emails answers 400 or keeps one primary",
  },
  {
    id: "SCIM-GROUP-DELETE",
    level: "MUST",
    source: `${C} Endpoints (the Application implements the service provider functionality of RFC 7644); RFC 7644 §3.6 (204; 404 for every later operation on the resource)`,
    text: "DELETE /Groups/{id}, where the provider offers it, answers 204, and then the group reads 404 and a second DELETE answers 404",
  },
  {
    id: "SCIM-GROUP-EXCLUDED-ATTRIBUTES",
    level: "SHOULD",
    source: `${C} Endpoints (excludedAttributes); RFC 7644 §3.9 (the default set of attributes less those excludedAttributes lists is returned), §3.4.2.5`,
    text: "GET /Groups/{id}?excludedAttributes=displayName answers the group without displayName and with its other attributes, members included",
  },
  {
    id: "SCIM-GROUP-PROFILE-PATHS",
    level: "SHOULD",
    source: `${C} Endpoints ("POST /Group | create group | path written this way in the profile for creation"; "GET /Group/{id}?excludedAttributes=members | get group by id | path written this way in the profile"). RFC 7644 §3.2 and every provider tried serve /Groups; the document's literal paths are judged apart, so a provider without them fails nothing else`,
    text: "the paths as the document writes them work too: POST /Group creates a group, and GET /Group/{id}?excludedAttributes=members answers that group",
  },
]);
