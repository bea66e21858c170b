import { selectFaults, type FaultDef, type FaultSet as EngineFaultSet } from "../../src/engine/target.js";

// What the walk-based checks read `updated` from: without it they cannot judge the time filters.
const NEEDS_UPDATED = [
  "FED-XL-UPDATED-AFTER",
  "FED-XL-UPDATED-BEFORE",
  "FED-XL-UPDATED-TIMESTAMPS",
  "FED-EVT-UPDATED-AGREES",
];
// What the checks read from each entity's Entity Configuration trust_marks by trust_mark_type.
const NEEDS_MARK_TYPES = [
  "FED-XL-TRUST-MARK-TYPE",
  "FED-LIST-TRUST-MARKED",
  "FED-COLL-TRUST-MARK-TYPE",
  "FED-COLL-TRUST-MARK-VERIFIED",
];
// What a walk with a generated `limit` decides.
const NEEDS_LIMIT = [
  "FED-XL-LIMIT",
  "FED-XL-NEXT-REQUIRED",
  "FED-XL-WALK-ONCE",
  "FED-XL-ORDER",
  "FED-XL-FROM-INCLUSIVE",
  "FED-XL-CHANGE-FETCHED",
  "FED-XL-CHANGE-AHEAD",
];

// Everything judged from the extended list's JSON body (skipped when it is not served as JSON).
const READS_XL_BODY = [
  "FED-XL-ENTRY-ID",
  "FED-XL-TIMESTAMP-TYPES",
  "FED-XL-NEXT-STRING",
  "FED-XL-NEXT-REQUIRED",
  "FED-XL-WALK-ONCE",
  "FED-XL-ORDER",
  "FED-XL-FROM-INCLUSIVE",
  "FED-XL-PAGING-UNDERSTOOD",
  "FED-XL-LIMIT",
  "FED-XL-UPPER-LIMIT",
  "FED-XL-PRACTICAL-LIMIT",
  "FED-XL-CHANGE-FETCHED",
  "FED-XL-CHANGE-AHEAD",
  "FED-XL-CLAIMS-STATEMENT",
  "FED-XL-CLAIMS-NO-STATEMENT",
  "FED-XL-STATEMENT-VALID",
  "FED-XL-STATEMENT-FETCH",
  "FED-XL-CLAIMS-INCLUDED",
  "FED-XL-CLAIMS-ALL",
  "FED-XL-AUDIT-TIMESTAMPS",
  "FED-XL-UPDATED-AFTER",
  "FED-XL-UPDATED-BEFORE",
  "FED-XL-UPDATED-TIMESTAMPS",
  "FED-XL-ENTITY-TYPE",
  "FED-XL-TRUST-MARK-TYPE",
  "FED-XL-SAME-AS-LIST",
  "FED-EVT-UPDATED-AGREES",
];

/**
 * Faults of the federation reference target (specs/001 and the base facts of public-spec-facts
 * §2). Each is one implementation mistake and names the requirements (suites/federation/
 * requirements.ts) a run must then fail (or warn on, for a SHOULD). Unless a description says
 * otherwise the fault shows at the Trust Anchor (the demo's target); "(intermediate)" ones show
 * only to a profile aimed at an Intermediate, "(client auth)" ones only to a profile aimed at
 * the Intermediate whose endpoints require client authentication.
 */
export const faults = [
  // Entity Configuration
  {
    id: "ec-content-type-jwt",
    description: "the anchor's Entity Configuration is served as application/jwt",
    breaks: ["FED-EC-WELL-KNOWN"],
    skips: "rest",
  },
  {
    id: "ec-unsigned-dev-mode",
    description:
      "the anchor's Entity Configuration is an unsecured JWT (alg none, no signature): a development switch left on",
    breaks: ["FED-EC-ALG", "FED-EC-SELF-SIGNED"],
    skips: "rest",
  },
  {
    id: "ec-typ-jwt",
    description:
      "the anchor's Entity Configuration is signed with typ JWT (the JWT library's default header)",
    // The anchor's Entity Configuration ends every Trust Chain its resolve endpoint returns.
    breaks: ["FED-EC-TYP", "FED-RESOLVE-TRUST-CHAIN"],
  },
  {
    id: "ec-no-kid",
    description:
      "the anchor's Entity Configuration carries no kid in its JOSE header (the entity has one key, so nobody set it)",
    breaks: ["FED-EC-KID", "FED-EC-SELF-SIGNED"],
    skips: "rest",
  },
  {
    id: "ec-signed-with-stale-key",
    description:
      "the anchor's Entity Configuration names its current key's kid but is signed with the key it rotated out (two configuration paths for the key)",
    breaks: ["FED-EC-SELF-SIGNED"],
    skips: "rest",
  },
  {
    id: "ec-next-key-without-kid",
    description:
      "the anchor's jwks pre-publishes its next key for a rotation without a kid (the signing key keeps its kid)",
    breaks: ["FED-EC-JWKS"],
  },
  {
    id: "ec-sub-trailing-slash",
    description:
      "the anchor's Entity Configuration has iss and sub with a trailing slash (the identifier normalised as a URL)",
    // The chain a resolve response returns then ends with an Entity Configuration not about the
    // anchor its Subordinate Statements name as issuer.
    breaks: ["FED-EC-ISS-SUB", "FED-RESOLVE-TRUST-CHAIN"],
    // The anchor issues the Trust Marks: an Entity Configuration not about it vouches for no key of its.
    skips: ["FED-XL-TRUST-MARK-TYPE", "FED-LIST-TRUST-MARKED"],
  },
  {
    id: "ec-exp-equals-iat",
    description:
      "the anchor's Entity Configuration has exp equal to iat (a lifetime setting of 0 read as seconds instead of 'default')",
    breaks: ["FED-EC-IAT-EXP"],
  },
  {
    id: "ec-anchor-empty-authority-hints",
    description:
      'the anchor\'s Entity Configuration carries "authority_hints": [] (the serializer emits empty lists)',
    breaks: ["FED-EC-ANCHOR-NO-HINTS"],
  },
  {
    id: "ec-intermediate-hints-string",
    description:
      "(intermediate) an Intermediate with a single superior publishes authority_hints as a string, not an array",
    breaks: ["FED-EC-INTERMEDIATE-HINTS"],
    // At an Intermediate the collection is asked under the anchor its authority_hints lead to;
    // with none reached, what needs that anchor is not observed (an unknown trust_anchor, the
    // empty answer without one and the publication of the resolve endpoint still are).
    skips: [
      "FED-COLL-OK",
      "FED-COLL-METHODS",
      "FED-COLL-ENTITY-ID",
      "FED-COLL-LIMIT",
      "FED-COLL-NEXT-REQUIRED",
      "FED-COLL-WALK-ONCE",
      "FED-COLL-FROM-UNKNOWN",
      "FED-COLL-LAST-UPDATED",
      "FED-COLL-TA-OTHER",
      "FED-COLL-BELOW-ANCHOR",
      "FED-COLL-ENTITY-TYPES",
      "FED-COLL-ENTITY-TYPES-PRESENT",
      "FED-COLL-INFOS-SHAPE",
      "FED-COLL-TRUST-MARKS",
      "FED-COLL-ENTITY-TYPE",
      "FED-COLL-INFOS-TYPES",
      "FED-COLL-TRUST-MARK-TYPE",
      "FED-COLL-TRUST-MARK-VERIFIED",
      "FED-COLL-ENTITY-CLAIMS-INCLUDE",
      "FED-COLL-ENTITY-CLAIMS-EXCLUDE",
      "FED-COLL-INFO-CLAIMS-INCLUDE",
      "FED-COLL-INFO-CLAIMS-EXCLUDE",
      "FED-COLL-UNSUPPORTED-CLAIM",
      "FED-COLL-LOCALE-MATCH",
      "FED-COLL-LOCALE-SUBTAGS",
      "FED-COLL-LOCALE-UNTAGGED",
      "FED-COLL-LOCALE-ALL",
      "FED-COLL-DISPLAY-NAME",
      "FED-COLL-INFO-COPIED",
      // The resolve endpoint is asked under that anchor too: without one it is not asked.
      "FED-RESOLVE-RESPONSE",
      "FED-RESOLVE-TRUST-CHAIN",
      "FED-RESOLVE-METADATA",
      "FED-RESOLVE-ENTITY-TYPE",
      "FED-RESOLVE-TRUST-MARKS",
      "FED-RESOLVE-EXP",
      "FED-RESOLVE-ERRORS",
    ],
  },
  {
    id: "ec-trust-marks-legacy-id",
    description:
      "Entity Configurations list trust_marks as {id, trust_mark} (an older draft's member name) instead of {trust_mark_type, trust_mark}",
    breaks: ["FED-EC-TRUST-MARKS"],
    skips: NEEDS_MARK_TYPES,
  },
  {
    id: "ec-endpoints-top-level",
    description:
      "the anchor's Entity Configuration publishes its endpoint URLs as top-level claims beside metadata (a flattened settings object) instead of inside metadata.federation_entity",
    breaks: ["FED-EC-FEDERATION-ENTITY"],
    // A client finds no endpoint where the specification puts them: nothing else can be asked.
    skips: "rest",
  },
  {
    id: "ec-no-resolve-endpoint",
    description:
      "the anchor's Entity Configuration does not publish federation_resolve_endpoint (the endpoint is served)",
    breaks: ["FED-COLL-RESOLVE-PUBLISHED"],
    // A client reads endpoints from the Entity Configuration only: the resolve check is not offered.
    skips: [
      "FED-RESOLVE-RESPONSE",
      "FED-RESOLVE-TRUST-CHAIN",
      "FED-RESOLVE-METADATA",
      "FED-RESOLVE-ENTITY-TYPE",
      "FED-RESOLVE-TRUST-MARKS",
      "FED-RESOLVE-EXP",
      "FED-RESOLVE-ERRORS",
    ],
  },
  {
    id: "ec-xl-url-fragment",
    description:
      "federation_extended_list_endpoint is published with a revision label as fragment (…/extended-list#rev03)",
    breaks: ["FED-EC-XLIST-URL"],
  },
  {
    id: "ec-collection-url-fragment",
    description: "federation_collection_endpoint is published with a fragment (…/collection#entities)",
    breaks: ["FED-EC-COLL-URL"],
  },
  {
    id: "ec-events-url-fragment",
    description:
      "federation_subordinate_events_endpoint ends in an empty fragment (…/events#) left by a URL template",
    breaks: ["FED-EC-EVENTS-URL"],
  },

  // Fetch, list, every base endpoint
  {
    id: "fetch-content-type-jwt",
    description: "fetch answers Subordinate Statements as application/jwt",
    breaks: ["FED-FETCH-OK"],
  },
  {
    id: "statement-typ-jwt",
    description: "Subordinate Statements (fetch and the extended list's subordinate_statement) have typ JWT",
    // The same statements make up the Trust Chains of resolve responses.
    breaks: ["FED-FETCH-TYP", "FED-XL-STATEMENT-VALID", "FED-RESOLVE-TRUST-CHAIN"],
  },
  {
    id: "statement-signed-by-subject",
    description:
      "Subordinate Statements are signed with the subordinate's own key (and its kid) instead of the issuer's",
    breaks: ["FED-FETCH-SIGNATURE", "FED-XL-STATEMENT-VALID", "FED-RESOLVE-TRUST-CHAIN"],
  },
  {
    id: "statement-iss-trailing-slash",
    description: "Subordinate Statements have iss = the issuer's identifier with a trailing slash",
    breaks: ["FED-FETCH-ISS-SUB", "FED-XL-STATEMENT-VALID", "FED-RESOLVE-TRUST-CHAIN"],
  },
  {
    id: "statement-iat-milliseconds",
    description: "Subordinate Statements have iat and exp in milliseconds (Date.now())",
    // In a resolve response's Trust Chain the statement's iat lies far in the future.
    breaks: ["FED-FETCH-CLAIMS", "FED-RESOLVE-TRUST-CHAIN"],
  },
  {
    id: "statement-authority-hints",
    description:
      "Subordinate Statements copy the subordinate's authority_hints from its Entity Configuration",
    breaks: ["FED-FETCH-NO-AUTHORITY-HINTS"],
  },
  {
    id: "fetch-unknown-sub-500",
    description: "fetch of an unknown sub answers 500 server_error (the lookup's null is dereferenced)",
    breaks: ["FED-FETCH-NOT-FOUND"],
  },
  {
    id: "fetch-error-no-description",
    description: "fetch errors carry error but no error_description",
    breaks: ["FED-ERROR-FORMAT"],
  },
  {
    id: "fetch-not-found-400",
    description: "fetch answers not_found with status 400",
    breaks: ["FED-ERROR-STATUS"],
  },
  // Resolve endpoint (OpenID Federation 1.0 Resolve Entity). The subjects the check resolves
  // at the anchor include an Intermediate's Subordinate (int2's clinic-a gets int2Policy's
  // default) and a leaf whose Entity Configuration holds an expired Trust Mark (rp-beta).
  {
    id: "resolve-typ-entity-statement",
    description:
      "resolve responses are signed with typ entity-statement+jwt (the signer shared with the fetch endpoint)",
    breaks: ["FED-RESOLVE-RESPONSE"],
  },
  {
    id: "resolve-signed-by-subject",
    description:
      "the resolve response is signed with the subject's key instead of the resolver's own (the wrong entity handed to the signer)",
    breaks: ["FED-RESOLVE-RESPONSE"],
  },
  {
    id: "resolve-sub-anchor",
    description:
      "the resolve response's sub is the Trust Anchor asked, not the subject (two parameters swapped)",
    breaks: ["FED-RESOLVE-RESPONSE"],
  },
  {
    id: "resolve-chain-reversed",
    description:
      "trust_chain is sent from the Trust Anchor down to the subject (the order the resolver walked it top-down)",
    breaks: ["FED-RESOLVE-TRUST-CHAIN"],
  },
  {
    id: "resolve-chain-no-subject-ec",
    description:
      "trust_chain leaves out the subject's Entity Configuration and starts with the Subordinate Statement about it",
    breaks: ["FED-RESOLVE-TRUST-CHAIN"],
  },
  {
    id: "resolve-chain-no-anchor-ec",
    description:
      "trust_chain ends with the Trust Anchor's Subordinate Statement, without the anchor's Entity Configuration (the client is assumed to hold it)",
    breaks: ["FED-RESOLVE-TRUST-CHAIN"],
  },
  {
    id: "resolve-policy-ignored",
    description:
      "the resolver applies the superior's metadata but not the chain's metadata_policy (policy support left unfinished)",
    breaks: ["FED-RESOLVE-METADATA"],
  },
  {
    id: "resolve-statement-metadata-ignored",
    description:
      "the resolver applies the chain's metadata_policy but not the metadata the Immediate Superior's Subordinate Statement sets",
    breaks: ["FED-RESOLVE-METADATA"],
  },
  {
    id: "resolve-subset-as-one-of",
    description:
      "the resolver checks subset_of as one_of (the parameter must be one of its values): an array parameter is refused with invalid_metadata",
    breaks: ["FED-RESOLVE-RESPONSE", "FED-RESOLVE-METADATA"],
  },
  {
    id: "resolve-subset-of-kept",
    description:
      "the resolver reads subset_of as a check that the parameter has one of its values, and keeps the values outside it",
    breaks: ["FED-RESOLVE-METADATA"],
  },
  {
    id: "resolve-default-overrides",
    description: "the resolver sets a default whether or not the parameter already has a value",
    breaks: ["FED-RESOLVE-METADATA"],
  },
  {
    id: "resolve-add-replaces",
    description: "the resolver's add replaces the parameter's values instead of adding to them",
    breaks: ["FED-RESOLVE-METADATA"],
  },
  {
    id: "resolve-value-null-kept",
    description:
      "the resolver skips a value operator of null (a `value != null` test), so the parameter the policy removes is kept",
    breaks: ["FED-RESOLVE-METADATA"],
  },
  {
    id: "resolve-entity-type-ignored",
    description: "the resolver returns every Entity Type whatever entity_type asks",
    breaks: ["FED-RESOLVE-ENTITY-TYPE"],
  },
  {
    id: "resolve-entity-type-first-only",
    description: "the resolver reads only the first entity_type of a repeated parameter",
    breaks: ["FED-RESOLVE-ENTITY-TYPE"],
  },
  {
    id: "resolve-expired-trust-marks",
    description:
      "the resolver passes on the subject's Trust Marks after checking their signature but not their expiry",
    // Its exp stays the earliest of the chain and the marks it includes (an expired one among them).
    breaks: ["FED-RESOLVE-TRUST-MARKS"],
  },
  {
    id: "resolve-trust-marks-unverified",
    description:
      "the resolver passes on every Trust Mark the subject's Entity Configuration lists without verifying its signature (a forged one among them)",
    breaks: ["FED-RESOLVE-TRUST-MARKS"],
  },
  {
    id: "resolve-exp-fixed-lifetime",
    description:
      "the resolve response's exp is the resolver's own cache lifetime (a week), not the earliest exp of its Trust Chain",
    breaks: ["FED-RESOLVE-EXP"],
  },
  {
    id: "resolve-unknown-sub-500",
    description: "resolve of an unknown subject answers 500 server_error (an unchecked registry lookup)",
    breaks: ["FED-RESOLVE-ERRORS"],
  },
  {
    id: "resolve-any-trust-anchor",
    description:
      "a trust_anchor the resolver does not know is answered with a chain to one it knows instead of invalid_trust_anchor",
    breaks: ["FED-RESOLVE-ERRORS"],
  },
  {
    id: "list-entities-object",
    description:
      'the base list answers an object {"entities": [...]} (the framework\'s collection envelope) instead of a bare JSON array',
    breaks: ["FED-LIST-OK"],
    // What is judged against the base list's Immediate Subordinates (the subordinates fetched and
    // asked for events, the extended list compared, "below the anchor" reached through it). The
    // probes that need no list (an unknown sub at fetch and events) keep their verdicts.
    skips: [
      "FED-LIST-TRUST-MARKED",
      "FED-LIST-INTERMEDIATE",
      "FED-FETCH-OK",
      "FED-FETCH-TYP",
      "FED-FETCH-SIGNATURE",
      "FED-FETCH-ISS-SUB",
      "FED-FETCH-CLAIMS",
      "FED-FETCH-NO-AUTHORITY-HINTS",
      "FED-EC-TRUST-MARKS",
      "FED-EVT-OK",
      "FED-EVT-TYP",
      "FED-EVT-SIGNATURE",
      "FED-EVT-ISS-SUB",
      "FED-EVT-IAT",
      "FED-EVT-EVENTS",
      "FED-EVT-EVENT-MEMBERS",
      "FED-EVT-EVENT-KNOWN",
      "FED-EVT-REGISTRATION-ALONE",
      "FED-EVT-INFO-URI-HTTPS",
      "FED-XL-SAME-AS-LIST",
      "FED-XL-ENTITY-TYPE",
      "FED-COLL-BELOW-ANCHOR",
      "FED-COLL-TA-OTHER",
      // The resolve subjects come from the base list (its error probes need none).
      "FED-RESOLVE-RESPONSE",
      "FED-RESOLVE-TRUST-CHAIN",
      "FED-RESOLVE-METADATA",
      "FED-RESOLVE-ENTITY-TYPE",
      "FED-RESOLVE-TRUST-MARKS",
      "FED-RESOLVE-EXP",
    ],
  },
  {
    id: "fetch-no-sub-not-found",
    description:
      "fetch reads a missing sub as the empty identifier and looks it up: 404 not_found instead of invalid_request",
    breaks: ["FED-FETCH-NO-SUB"],
  },
  {
    id: "evt-no-sub-not-found",
    description:
      "the events endpoint reads a missing sub as the empty identifier and looks it up: 404 not_found instead of invalid_request",
    breaks: ["FED-EVT-NO-SUB"],
  },
  {
    id: "list-intermediate-invalid-request",
    description:
      "the base list does not implement the intermediate filter and refuses it with 400 invalid_request instead of unsupported_parameter",
    breaks: ["FED-LIST-FILTER-REFUSED"],
    // Refused (wrongly): the filter's result is not judged.
    skips: ["FED-LIST-INTERMEDIATE"],
  },
  {
    id: "list-intermediate-ignored",
    description:
      "the base list parses intermediate (a bad value is refused) but never applies it: intermediate=true answers every subordinate",
    breaks: ["FED-LIST-INTERMEDIATE"],
  },
  {
    id: "list-trust-marked-presence",
    description:
      "trust_marked=true keeps the subordinates whose configuration lists any Trust Mark, expired or forged ones included, not those holding a valid one",
    breaks: ["FED-LIST-TRUST-MARKED"],
  },
  {
    id: "list-hides-suspended",
    description:
      "the base list leaves out suspended subordinates (the extended list, another code path, shows them)",
    breaks: ["FED-XL-SAME-AS-LIST", "FED-XL-ENTITY-TYPE", "FED-COLL-BELOW-ANCHOR"],
  },
  {
    id: "unknown-parameter-rejected",
    description:
      "the extended list validates its query strictly and answers a parameter it does not know with 400 invalid_request",
    breaks: ["FED-PARAM-UNKNOWN"],
  },

  // Extended list: shape and pagination
  {
    id: "xl-served-as-html",
    description:
      "the extended list's JSON is sent as text/html (the body is a string written with the framework's send)",
    breaks: ["FED-XL-OK"],
    skips: READS_XL_BODY,
  },
  {
    id: "xl-entry-entity-id",
    description:
      "entries of immediate_subordinate_entities carry the subordinate's identifier as entity_id (the collection's name) instead of id",
    breaks: ["FED-XL-ENTRY-ID"],
    // A listing whose entries name no subordinate cannot be walked, compared or filtered: as
    // for a listing not served as JSON, everything read from its body is not judged.
    skips: READS_XL_BODY.filter((id) => id !== "FED-XL-ENTRY-ID"),
  },
  {
    id: "xl-timestamps-iso",
    description: "registered and updated are ISO 8601 strings instead of NumericDates",
    breaks: ["FED-XL-TIMESTAMP-TYPES"],
    skips: NEEDS_UPDATED,
  },
  {
    id: "xl-next-empty-string",
    description: 'the last page carries "next": "" instead of leaving next out',
    breaks: ["FED-XL-NEXT-STRING"],
  },
  {
    id: "xl-next-missing-one-left",
    description:
      "next is left out when exactly one entry remains after the page (more-results test off by one), so the walk loses it",
    breaks: ["FED-XL-NEXT-REQUIRED", "FED-XL-WALK-ONCE"],
  },
  {
    id: "xl-border-repeats",
    description:
      "next names the last entry of the page, and from is inclusive, so each page repeats the previous page's last entry (with limit 1 the cursor never moves)",
    breaks: ["FED-XL-WALK-ONCE", "FED-XL-FROM-INCLUSIVE", "FED-XL-CHANGE-FETCHED"],
  },
  {
    id: "xl-order-varies-with-limit",
    description:
      "without limit the list is served newest identifier first (a default sort), with limit in ascending identifier order",
    breaks: ["FED-XL-ORDER"],
  },
  {
    id: "xl-from-unknown-400",
    description: "an unknown or tampered from answers 400 invalid_request instead of 404 page_not_found",
    breaks: ["FED-XL-FROM-UNKNOWN"],
  },
  {
    id: "xl-from-unknown-html",
    description: "an unknown or tampered from answers the web framework's 404 HTML page",
    breaks: ["FED-XL-FROM-UNKNOWN", "FED-ERROR-FORMAT"],
  },
  {
    id: "xl-removed-from-ends-walk",
    description:
      "a from whose entry was removed since answers 200 with an empty page and no next (the exact entry is looked up), so the rest of the walk is lost",
    breaks: ["FED-XL-FROM-UNKNOWN", "FED-XL-CHANGE-FETCHED"],
  },
  {
    id: "xl-limit-refused",
    description:
      "the extended list does not page: a request with limit answers 400 unsupported_parameter (without it every entry comes in one response)",
    breaks: ["FED-XL-PAGING-UNDERSTOOD", "FED-XL-PRACTICAL-LIMIT"],
    skips: NEEDS_LIMIT,
  },
  {
    id: "xl-no-limit-unbounded",
    description:
      "(members) the page size is applied only when limit is given: a request without limit gets every entry in one page, past the stated upper limit (shows once an Intermediate has more Immediate Subordinates than the upper limit)",
    breaks: ["FED-XL-UPPER-LIMIT"],
  },
  {
    id: "xl-limit-ignored",
    description: "limit is ignored: every page holds the default page size",
    breaks: ["FED-XL-LIMIT"],
  },
  {
    id: "xl-offset-cursor",
    description:
      "next encodes the offset of the next page (signed, so it is not forgeable): entries added or removed before it shift the walk",
    breaks: ["FED-XL-CHANGE-FETCHED"],
  },
  {
    id: "xl-snapshot-cursor",
    description:
      "a walk is served from a snapshot taken at its first page: subordinates added later never appear in it, removed ones still do (a next naming a removed entry starts with it)",
    breaks: ["FED-XL-CHANGE-AHEAD", "FED-XL-FROM-UNKNOWN"],
  },

  // Extended list: claims and timestamps
  {
    id: "xl-statement-unasked",
    description: "subordinate_statement is sent whenever claims is present, asked for or not",
    breaks: ["FED-XL-CLAIMS-NO-STATEMENT"],
  },
  {
    id: "xl-claims-last-only",
    description:
      "of a repeated claims parameter only the last value is read (the query made into an object); the comma form works",
    breaks: ["FED-XL-CLAIMS-STATEMENT", "FED-XL-CLAIMS-INCLUDED", "FED-XL-CLAIMS-ALL"],
  },
  {
    id: "xl-statement-partial",
    description:
      "the listing's subordinate_statement is made by a second serializer that leaves out metadata_policy, constraints and source_endpoint",
    breaks: ["FED-XL-STATEMENT-FETCH"],
  },
  {
    id: "xl-trust-marks-from-statement",
    description:
      "claims=trust_marks is read from the Subordinate Statement (which has none) instead of the entity's Entity Configuration",
    breaks: ["FED-XL-CLAIMS-INCLUDED"],
  },
  {
    id: "xl-claims-whitelist",
    description:
      "claims honours subordinate_statement, metadata and trust_marks only; other statement claims are never returned",
    breaks: ["FED-XL-CLAIMS-ALL"],
  },
  {
    id: "xl-audit-timestamps-ignored",
    description: "audit_timestamps=true is accepted and ignored: entries carry no registered or updated",
    breaks: ["FED-XL-AUDIT-TIMESTAMPS", "FED-XL-PRACTICAL-LIMIT"],
    // No entry carries a timestamp whose type could be judged.
    skips: [...NEEDS_UPDATED, "FED-XL-TIMESTAMP-TYPES"],
  },
  {
    id: "xl-updated-after-exclusive",
    description: "updated_after keeps entries updated strictly after the time, not at or after it",
    breaks: ["FED-XL-UPDATED-AFTER"],
  },
  {
    id: "xl-updated-before-dropped-with-after",
    description:
      "with updated_after and updated_before both given, only updated_after is applied (an else-if)",
    breaks: ["FED-XL-UPDATED-BEFORE"],
  },
  {
    id: "xl-updated-filter-no-timestamps",
    description:
      "entries of an updated_after or updated_before answer carry registered and updated only with audit_timestamps",
    breaks: ["FED-XL-UPDATED-TIMESTAMPS"],
  },
  {
    id: "xl-updated-is-registration",
    description:
      "the listing's updated is the registration time, never moved by later metadata, policy or key updates",
    breaks: ["FED-EVT-UPDATED-AGREES"],
  },
  {
    id: "xl-entity-type-from-statement",
    description:
      "the extended list's entity_type filter reads the types of the Subordinate Statement's metadata, not of the entity's Entity Configuration",
    breaks: ["FED-XL-ENTITY-TYPE"],
  },
  {
    id: "xl-trust-mark-type-every",
    description:
      "the extended list's repeated trust_mark_type keeps entities holding every listed type, not any",
    breaks: ["FED-XL-TRUST-MARK-TYPE"],
  },
  {
    id: "trust-mark-expiry-ignored",
    description:
      "the shared trust mark check verifies signature, issuer, subject and type but not exp: expired marks count in every filter",
    breaks: [
      "FED-XL-TRUST-MARK-TYPE",
      "FED-LIST-TRUST-MARKED",
      "FED-COLL-TRUST-MARK-TYPE",
      "FED-COLL-TRUST-MARK-VERIFIED",
    ],
  },

  // Entity collection
  {
    id: "coll-entities-null-when-empty",
    description: 'an empty collection answers "entities": null (a nil list serialized)',
    breaks: ["FED-COLL-OK"],
    // A filter that keeps nothing (a type no entity has, two Trust Mark types nobody holds
    // together) is answered with no list: what it keeps cannot be read, so the filter rules
    // stay partly observed.
    skips: [
      "FED-COLL-ENTITY-TYPE",
      "FED-COLL-INFOS-TYPES",
      "FED-COLL-TRUST-MARK-TYPE",
      "FED-COLL-TRUST-MARK-VERIFIED",
    ],
  },
  {
    id: "coll-entity-claims-drops-entity-id",
    description:
      "entity_claims is applied as a projection of every claim, entity_id included: an Entity Info answered with entity_claims that does not name entity_id has none",
    breaks: ["FED-COLL-ENTITY-ID"],
  },
  {
    id: "coll-post-body-ignored",
    description:
      "the collection reads its parameters from the query string only, so a form POST is unfiltered",
    breaks: ["FED-COLL-METHODS"],
  },
  {
    id: "coll-entity-types-from-infos",
    description:
      "entity_types is built from the keys of entity_infos, so with entity_type it lists only the requested types",
    breaks: ["FED-COLL-ENTITY-TYPES"],
  },
  {
    id: "coll-entity-types-omitted",
    description: "entity_types is sent only when entity_claims names it",
    breaks: ["FED-COLL-ENTITY-TYPES-PRESENT"],
  },
  {
    id: "coll-infos-null-for-bare-type",
    description: "entity_infos gives null (not an object) for an entity type without informational claims",
    breaks: ["FED-COLL-INFOS-SHAPE"],
  },
  {
    id: "coll-trust-marks-strings",
    description: "the collection's trust_marks is an array of Trust Mark JWT strings, not of objects",
    breaks: ["FED-COLL-TRUST-MARKS"],
  },
  {
    id: "coll-lists-anchor-itself",
    description: "the anchor's collection of its own federation lists the anchor itself among the entities",
    breaks: ["FED-COLL-BELOW-ANCHOR"],
  },
  {
    id: "coll-entity-type-ignored",
    description:
      "the collection does not implement entity_type and ignores it (every entity, every type in entity_infos)",
    breaks: ["FED-COLL-ENTITY-TYPE", "FED-COLL-INFOS-TYPES"],
  },
  {
    id: "coll-infos-unrequested-types",
    description: "with entity_type the collection filters entities but entity_infos still holds every type",
    breaks: ["FED-COLL-INFOS-TYPES"],
  },
  {
    id: "coll-trust-mark-type-any",
    description:
      "the collection's repeated trust_mark_type keeps entities holding any listed type, not every one",
    breaks: ["FED-COLL-TRUST-MARK-TYPE"],
  },
  {
    id: "coll-trust-marks-unverified",
    description:
      "the collection's trust_mark_type filter looks at the mark's type and exp without verifying its signature: a forged mark counts",
    breaks: ["FED-COLL-TRUST-MARK-VERIFIED"],
  },
  {
    id: "coll-omitted-anchor-immediate-only",
    description:
      "without trust_anchor the anchor lists only its Immediate Subordinates (the base list's data), not the entities below its Intermediates",
    breaks: ["FED-COLL-TA-OMITTED"],
  },
  {
    id: "coll-intermediate-acts-as-anchor",
    description:
      "(intermediate) without trust_anchor an Intermediate lists its own subtree instead of an empty result",
    breaks: ["FED-COLL-TA-NOT-ANCHOR"],
  },
  {
    id: "coll-trust-anchor-ignored",
    description:
      "trust_anchor is ignored: every request lists the responder's own federation, for another or an unknown anchor too",
    breaks: ["FED-COLL-TA-OTHER", "FED-COLL-TA-UNKNOWN"],
  },
  {
    id: "coll-query-regex-500",
    description:
      "query is compiled into a regular expression: a query with ( [ * or similar answers 500 server_error",
    breaks: ["FED-COLL-UNSUPPORTED-PARAM"],
  },
  {
    id: "coll-limit-ignored",
    description: "the collection ignores limit: every page holds up to the upper limit",
    breaks: ["FED-COLL-LIMIT"],
  },
  {
    id: "coll-next-skips-one",
    description:
      "the collection's next names the second entity of the next page (off by one), so one entity per page border is never listed",
    breaks: ["FED-COLL-NEXT-REQUIRED"],
  },
  {
    id: "coll-next-last-entry",
    description:
      "the collection's next names the last entity of the page, so it repeats at every page border (with limit 1 the cursor never moves)",
    breaks: ["FED-COLL-WALK-ONCE"],
  },
  {
    id: "coll-from-unknown-first-page",
    description:
      "an unknown or tampered collection from answers the first page (a cursor that fails to decode means 'start')",
    breaks: ["FED-COLL-FROM-UNKNOWN"],
  },
  {
    id: "coll-entity-claims-no-trust-marks",
    description:
      "entity_claims=trust_marks is accepted but never honoured (trust_marks only in the default answer)",
    breaks: ["FED-COLL-ENTITY-CLAIMS-INCLUDE"],
  },
  {
    id: "coll-entity-claims-table-incomplete",
    description:
      "the table of claims entity_claims accepts lacks trust_marks: entity_claims=trust_marks is refused as unsupported_claim although every answer without entity_claims carries trust_marks",
    breaks: ["FED-COLL-ENTITY-CLAIMS-INCLUDE"],
  },
  {
    id: "coll-entity-claims-additive",
    description: "entity_claims adds claims to the default set instead of replacing it",
    breaks: ["FED-COLL-ENTITY-CLAIMS-EXCLUDE"],
  },
  {
    id: "coll-info-claims-short-table",
    description:
      "info_claims selects from display_name and description only: keywords, logo_uri, policy_uri and information_uri asked for are never returned",
    breaks: ["FED-COLL-INFO-CLAIMS-INCLUDE"],
  },
  {
    id: "coll-info-claims-table-incomplete",
    description:
      "the table of claims info_claims accepts lacks logo_uri: info_claims=logo_uri is refused as unsupported_claim although the answer without info_claims carries logo_uri",
    breaks: ["FED-COLL-INFO-CLAIMS-INCLUDE"],
  },
  {
    id: "coll-info-claims-additive",
    description: "info_claims adds claims to the default set instead of replacing it",
    breaks: ["FED-COLL-INFO-CLAIMS-EXCLUDE"],
  },
  {
    id: "coll-unknown-claim-ignored",
    description: "an entity_claims or info_claims value the target does not know is silently ignored (200)",
    breaks: ["FED-COLL-UNSUPPORTED-CLAIM"],
  },
  {
    id: "coll-locale-exact",
    description: "locale matches language tags exactly: locale=de leaves out display_name#de-CH",
    breaks: ["FED-COLL-LOCALE-SUBTAGS"],
  },
  {
    id: "coll-locale-drops-untagged",
    description: "with locale, only the tagged values are kept: the untagged display_name is dropped",
    breaks: ["FED-COLL-LOCALE-UNTAGGED"],
  },
  {
    id: "coll-locale-prefix",
    description:
      "locale matches by string prefix without the subtag boundary: locale=fi also returns display_name#fil",
    breaks: ["FED-COLL-LOCALE-MATCH"],
  },
  {
    id: "coll-no-locale-untagged-only",
    description: "without locale only the untagged values are returned (language variants only on request)",
    breaks: ["FED-COLL-LOCALE-ALL"],
  },
  {
    id: "coll-display-name-no-fallback",
    description: "display_name is copied only when set: no fallback to client_name or resource_name",
    breaks: ["FED-COLL-DISPLAY-NAME"],
  },
  {
    id: "coll-keywords-joined",
    description: "keywords are copied into entity_infos as one comma-joined string, not the published array",
    breaks: ["FED-COLL-INFO-COPIED"],
  },
  {
    id: "coll-no-last-updated",
    description: "collection answers carry no last_updated",
    breaks: ["FED-COLL-LAST-UPDATED"],
  },
  {
    id: "coll-page-not-found-400",
    description: "the collection answers page_not_found with status 400",
    breaks: ["FED-COLL-ERROR-STATUS"],
  },
  {
    id: "coll-error-no-description",
    description: "collection errors carry error but no error_description",
    breaks: ["FED-COLL-ERROR-FORMAT"],
  },

  // Subordinate events
  {
    id: "evt-content-type-jwt",
    description: "events statements are served as application/jwt",
    breaks: ["FED-EVT-OK"],
  },
  {
    id: "evt-typ-jwt",
    description: "events statements have typ JWT",
    breaks: ["FED-EVT-TYP"],
  },
  {
    id: "evt-unpublished-key",
    description:
      "events statements are signed with a separate events key that the Entity Configuration does not publish",
    breaks: ["FED-EVT-SIGNATURE"],
  },
  {
    id: "evt-no-sub",
    description: "events statements leave out sub (the subject is in the request)",
    breaks: ["FED-EVT-ISS-SUB"],
  },
  {
    id: "evt-exp-from-history",
    description:
      "an events statement's exp is a day after its latest event rather than after its iat, so it is already expired",
    breaks: ["FED-EVT-IAT"],
  },
  {
    id: "evt-events-claim-name",
    description:
      "the events are in a claim named events (as in a SET) instead of federation_registration_events",
    breaks: ["FED-EVT-EVENTS"],
    skips: [
      "FED-EVT-EVENT-MEMBERS",
      "FED-EVT-EVENT-KNOWN",
      "FED-EVT-REGISTRATION-ALONE",
      "FED-EVT-INFO-URI-HTTPS",
      "FED-EVT-UPDATED-AGREES",
    ],
  },
  {
    id: "evt-information-uri-relative",
    description:
      "events carry information_uri as a path relative to the responder (/docs/federation-events#…)",
    breaks: ["FED-EVT-EVENT-MEMBERS", "FED-EVT-INFO-URI-HTTPS"],
  },
  {
    id: "evt-jwks-updates-spelling",
    description: "key updates are named jwks_updates (the spelling of the public draft's example)",
    breaks: ["FED-EVT-EVENT-KNOWN"],
  },
  {
    id: "evt-registration-with-jwks-update",
    description:
      "a registration is recorded together with a jwks_update at the same iat (the initial keys as an update)",
    breaks: ["FED-EVT-REGISTRATION-ALONE"],
  },
  {
    id: "evt-errors-plain-text",
    description: "events errors (unknown or missing sub) are plain-text bodies",
    // A missing sub's answer then names no error code (invalid_request).
    breaks: ["FED-EVT-ERROR-JSON", "FED-ERROR-FORMAT", "FED-EVT-NO-SUB"],
  },
  {
    id: "evt-unknown-sub-empty",
    description: "an events request for an unknown sub answers 200 with a statement holding no events",
    // The error answer to a missing sub is still there: its format is judged.
    breaks: ["FED-EVT-UNKNOWN-SUB"],
  },

  // Client authentication (the protected Intermediate)
  {
    id: "auth-jti-replay",
    description: "(client auth) client assertions are not remembered: a replayed assertion is accepted",
    breaks: ["FED-AUTH-ASSERTION-CHECKED"],
  },
  {
    id: "auth-aud-unchecked",
    description:
      "(client auth) the assertion's aud is not compared: an assertion made for another entity (another Intermediate, the Trust Anchor) is accepted",
    breaks: ["FED-AUTH-ASSERTION-CHECKED"],
  },
  {
    id: "auth-signature-only",
    description:
      "(client auth) the assertion's signature, iss and sub are checked by hand after verifying; aud, exp and iat are never read: an expired assertion, or one for another audience, is accepted",
    breaks: ["FED-AUTH-ASSERTION-CHECKED"],
  },
  {
    id: "auth-embedded-jwk",
    description:
      "(client auth) an assertion carrying a jwk in its header is verified with that key (the library's embedded-key helper) and trusted for its iss",
    breaks: ["FED-AUTH-ASSERTION-CHECKED"],
  },
  {
    id: "auth-aud-endpoint-url",
    description:
      "(client auth) the assertion's aud must be the URL of the endpoint it is sent to (a token endpoint's rule, RFC 7523) instead of the responder's Entity Identifier: every assertion made as the specification says is refused with 401 invalid_client",
    breaks: ["FED-AUTH-PRIVATE-KEY-JWT"],
    skips: "rest",
  },
  {
    id: "auth-xl-params-from-query",
    description:
      "(client auth) the extended list authenticates the POST but lays the query string over its body: a limit, from or claims in the query wins over the body's",
    breaks: ["FED-AUTH-XL-POST"],
  },
  {
    id: "auth-coll-params-from-query",
    description:
      "(client auth) the collection authenticates the POST but lays the query string over its body: filters, limit or from in the query win over the body's",
    breaks: ["FED-AUTH-COLL-POST"],
  },
  {
    id: "auth-events-sub-from-query",
    description:
      "(client auth) the events endpoint authenticates the POST but lays the query string over its body: a sub in the query wins over the body's",
    breaks: ["FED-AUTH-EVT-POST"],
  },
] as const satisfies readonly FaultDef[];

/** The id of a fault of this target. */
export type FaultId = (typeof faults)[number]["id"];

/** The faults a running target was started with. */
export type FaultSet = EngineFaultSet<FaultId>;

/** Validates the requested fault ids (an unknown one throws). */
export const faultSet = (ids: readonly string[]): FaultSet => selectFaults("federation", faults, ids);
