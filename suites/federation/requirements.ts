import { defineCatalog } from "../../src/engine/requirement.js";

const D = "specs/001";
const pub = (section: string): string => `public: OpenID Federation 1.0 ${section} (public-spec-facts §2)`;

/**
 * Federation listing, collection and events endpoints (specs/001) and the base OpenID
 * Federation 1.0 facts they stand on (public-spec-facts §2): Entity Configuration, Subordinate
 * Statements, fetch and list. idconform plays a federation client (and, through its mock
 * entities, members and a second Trust Anchor); the target is a Trust Anchor, an Intermediate or
 * a collector, named by its Entity Identifier. Every signed answer is judged with the keys of the
 * target's own Entity Configuration.
 */
export const catalog = defineCatalog("federation", [
  // Entity Configuration (base; public §2 Entity statements, Entity Configuration)
  {
    id: "FED-EC-WELL-KNOWN",
    level: "MUST",
    source: pub(
      "Entity Configuration (at the Entity Identifier, trailing / removed, + /.well-known/openid-federation; 200 application/entity-statement+jwt)",
    ),
    text: "GET of the Entity Identifier (trailing / removed) + /.well-known/openid-federation answers 200 with Content-Type application/entity-statement+jwt and a JWT body",
  },
  {
    id: "FED-EC-TYP",
    level: "MUST",
    source: pub("Entity statements (header typ entity-statement+jwt; others are rejected)"),
    text: "the Entity Configuration's JOSE header has typ entity-statement+jwt",
  },
  {
    id: "FED-EC-KID",
    level: "MUST",
    source: pub("Entity statements (kid REQUIRED)"),
    text: "the Entity Configuration's JOSE header has a kid, and it names a key of the Entity Configuration's own jwks",
  },
  {
    id: "FED-EC-ALG",
    level: "MUST",
    source: pub("Entity statements (alg not none)"),
    text: "the Entity Configuration's JOSE header has an alg, and it is not none",
  },
  {
    id: "FED-EC-JWKS",
    level: "MUST",
    source: pub("Entity statements (jwks REQUIRED, a unique kid per key)"),
    text: "the Entity Configuration has jwks, a JWK Set of at least one public key, every key with a kid no other key of the set shares",
  },
  {
    id: "FED-EC-SELF-SIGNED",
    level: "MUST",
    source: pub(
      "Entity Configuration (self-signed: a statement whose iss and sub are the entity, signed with its jwks)",
    ),
    text: "the Entity Configuration's signature verifies with the key of its own jwks that its kid names (a key the token carries in its header does not count)",
  },
  {
    id: "FED-EC-ISS-SUB",
    level: "MUST",
    source: pub(
      "Entity statements (iss, sub REQUIRED); Entity Configuration (iss = sub = the Entity Identifier)",
    ),
    text: "the Entity Configuration's iss and sub both equal the target's Entity Identifier, character for character",
  },
  {
    id: "FED-EC-IAT-EXP",
    level: "MUST",
    source: `${pub("Entity statements (iat, exp REQUIRED)")}; RFC 7519 §4.1.4, §4.1.6`,
    text: "the Entity Configuration has numeric iat and exp, iat not in the future and exp not past (60 s leeway), exp after iat",
  },
  {
    id: "FED-EC-FEDERATION-ENTITY",
    level: "MUST",
    source: pub(
      "Entity Configuration (Trust Anchors and Intermediates publish federation_entity metadata with federation_fetch_endpoint and federation_list_endpoint)",
    ),
    text: "a target the profile declares a Trust Anchor or Intermediate has metadata.federation_entity with federation_fetch_endpoint and federation_list_endpoint as URL strings",
  },
  {
    id: "FED-EC-ANCHOR-NO-HINTS",
    level: "MUST",
    source: pub("Entity Configuration (authority_hints forbidden for Trust Anchors)"),
    text: "the Entity Configuration of a target the profile declares a Trust Anchor has no authority_hints",
  },
  {
    id: "FED-EC-INTERMEDIATE-HINTS",
    level: "MUST",
    source: pub("Entity Configuration (authority_hints required for non-anchors)"),
    text: "the Entity Configuration of a target the profile declares an Intermediate has authority_hints, a non-empty array of Entity Identifier strings",
  },
  {
    id: "FED-EC-TRUST-MARKS",
    level: "MUST",
    source: pub("Entity Configuration (trust_marks: array of {trust_mark_type, trust_mark})"),
    text: "trust_marks, in the target's Entity Configuration and in those of its listed subordinates, is an array of objects each with a trust_mark_type string and a trust_mark JWT string",
  },
  {
    id: "FED-EC-XLIST-URL",
    level: "MUST",
    source: `${D} What the service does, Rules 1 (each endpoint URL MUST use https, MUST NOT contain a fragment); Metadata parameters (federation_extended_list_endpoint: string URL in federation_entity)`,
    text: "federation_extended_list_endpoint, when published, is a string holding an absolute https URL without a fragment",
  },
  {
    id: "FED-EC-COLL-URL",
    level: "MUST",
    source: `${D} What the service does, Rules 1 (each endpoint URL MUST use https, MUST NOT contain a fragment); Metadata parameters (federation_collection_endpoint: string URL in federation_entity)`,
    text: "federation_collection_endpoint, when published, is a string holding an absolute https URL without a fragment",
  },
  {
    id: "FED-EC-EVENTS-URL",
    level: "MUST",
    source: `${D} What the service does, Rules 1 (each endpoint URL MUST use https, MUST NOT contain a fragment); Metadata parameters (federation_subordinate_events_endpoint: string URL in federation_entity)`,
    text: "federation_subordinate_events_endpoint, when published, is a string holding an absolute https URL without a fragment",
  },

  // Fetch endpoint (base; public §2 Fetch, Entity statements)
  {
    id: "FED-FETCH-OK",
    level: "MUST",
    source: pub("Fetch (sub REQUIRED; 200 application/entity-statement+jwt)"),
    text: "fetch with sub = each entity the base list names answers 200 with Content-Type application/entity-statement+jwt and a JWT body",
  },
  {
    id: "FED-FETCH-TYP",
    level: "MUST",
    source: pub("Entity statements (header typ entity-statement+jwt)"),
    text: "every Subordinate Statement the fetch endpoint returns has typ entity-statement+jwt in its JOSE header",
  },
  {
    id: "FED-FETCH-SIGNATURE",
    level: "MUST",
    source: pub(
      "Entity statements (kid REQUIRED, alg not none); Fetch (the statement is issued by the responder)",
    ),
    text: "every Subordinate Statement the fetch endpoint returns has a kid naming a key of the target's Entity Configuration jwks, an alg other than none, and a signature that verifies with that key (a key the token carries in its header does not count)",
  },
  {
    id: "FED-FETCH-ISS-SUB",
    level: "MUST",
    source: pub("Entity statements (iss, sub REQUIRED); Fetch (sub: the subject asked for)"),
    text: "every Subordinate Statement the fetch endpoint returns has iss equal to the target's Entity Identifier and sub equal to the sub asked for",
  },
  {
    id: "FED-FETCH-CLAIMS",
    level: "MUST",
    source: pub("Entity statements (iat, exp, jwks REQUIRED, a unique kid per key)"),
    text: "every Subordinate Statement the fetch endpoint returns has numeric iat (not in the future) and exp (not past, 60 s leeway) and a jwks whose keys each have a kid no other key of the set shares",
  },
  {
    id: "FED-FETCH-NO-AUTHORITY-HINTS",
    level: "MUST",
    // public-spec-facts §2 states authority_hints for Entity Configurations only; the published
    // text makes it a claim of Entity Configurations that Subordinate Statements do not carry,
    // and issue 13 item 5 asks for the check.
    source:
      "public: OpenID Federation 1.0 Entity Statement claims (authority_hints is specific to Entity Configurations, MUST NOT appear in Subordinate Statements; public-spec-facts §2 names it for Entity Configurations)",
    text: "no Subordinate Statement the fetch endpoint returns carries authority_hints",
  },
  {
    id: "FED-FETCH-NOT-FOUND",
    level: "MUST",
    source: pub("Fetch (unknown sub gives not_found)"),
    text: "fetch with a sub the target does not know answers an error whose error is not_found, and with its own Entity Identifier (no Immediate Subordinate of itself) an error not_found or invalid_request, never a statement (the status is judged by FED-ERROR-STATUS)",
  },
  {
    id: "FED-FETCH-NO-SUB",
    level: "MUST",
    source: `${pub("Fetch (sub REQUIRED); Errors (invalid_request)")}; public: OpenID Federation 1.0 Error Responses (invalid_request: the request is incomplete)`,
    text: "fetch without sub answers an error whose error is invalid_request (its 400 status is judged by FED-ERROR-STATUS)",
  },

  // List endpoint (base; public §2 List)
  {
    id: "FED-LIST-OK",
    level: "MUST",
    source: pub("List (response 200 JSON array of entity identifiers)"),
    text: "GET of the base list endpoint answers 200 with a JSON array of Entity Identifier strings",
  },
  {
    id: "FED-LIST-FILTER-REFUSED",
    level: "MUST",
    source: pub(
      "List (entity_type, trust_marked, trust_mark_type, intermediate; an unsupported filter gives 400 unsupported_parameter)",
    ),
    text: "a base list request whose filter parameter (entity_type, trust_marked, trust_mark_type, intermediate) the target refuses is refused with 400 and error unsupported_parameter",
  },
  {
    id: "FED-LIST-TRUST-MARKED",
    level: "MUST",
    // public-spec-facts §2 names the filter; the published text gives its meaning.
    source: `${pub("List (trust_marked)")}; public: OpenID Federation 1.0 Subordinate Listing Request (trust_marked=true: only the Immediate Subordinates for which a Trust Mark has been issued and is still valid)`,
    text: "with trust_marked=true the base list names every Immediate Subordinate whose Entity Configuration has a Trust Mark that verifies with its issuer's key and is unexpired, and no other (a target that refuses trust_marked with 400 unsupported_parameter is not judged)",
  },
  {
    id: "FED-LIST-INTERMEDIATE",
    level: "MUST",
    // An Intermediate serves its subordinates' statements: public-spec-facts §2 has Trust Anchors
    // and Intermediates publish federation_fetch_endpoint and federation_list_endpoint.
    source: `${pub("List (intermediate); Entity Configuration (Intermediates publish federation_fetch_endpoint and federation_list_endpoint)")}; public: OpenID Federation 1.0 Subordinate Listing Request (intermediate=true: only the Immediate Subordinates that are Intermediate Entities)`,
    text: "with intermediate=true the base list names every Immediate Subordinate whose Entity Configuration publishes federation_fetch_endpoint and federation_list_endpoint (an Intermediate), and none that publishes neither (a target that refuses intermediate with 400 unsupported_parameter is not judged)",
  },

  // Every base endpoint (public §2 Endpoints, Errors)
  {
    id: "FED-PARAM-UNKNOWN",
    level: "MUST",
    source: pub("Endpoints (unknown parameters ignored)"),
    text: "a parameter no specification defines, added to a request of the fetch, list, extended list, collection or events endpoint, is ignored: the answer is the one given without it",
  },
  {
    id: "FED-ERROR-FORMAT",
    level: "MUST",
    source: `${pub("Errors (JSON error and error_description, both REQUIRED)")}; ${D} Endpoints: Extended subordinate listing (method and parameter passing follow the base list endpoint), Subordinate events (the negative response uses the errors of the base federation specification)`,
    text: "every error answer of the fetch, list, extended list, events and resolve endpoints is a JSON object with an error string and an error_description string",
  },
  {
    id: "FED-ERROR-STATUS",
    level: "SHOULD",
    // The published text gives each status as "SHOULD be"; public-spec-facts §2 lists the pairs.
    source: pub(
      "Errors (invalid_request 400, invalid_client 401, invalid_issuer 404, invalid_subject 404, invalid_trust_anchor 404, invalid_trust_chain 400, invalid_metadata 400, not_found 404, server_error 5xx, temporarily_unavailable 503, unsupported_parameter 400)",
    ),
    text: "every error answer of the fetch, list, events and resolve endpoints has the HTTP status the base table gives its error code (not_found 404, invalid_request 400, invalid_client 401, unsupported_parameter 400, ...)",
  },

  // Resolve endpoint (base; OpenID Federation 1.0 Resolve Entity, read in the published text:
  // public-spec-facts §2 gives only its parameters and media type). specs/001 What the service
  // does, Rules 2 and 3: a collection publisher SHOULD publish it, and trust is validated by the
  // base rules before an entity is relied on.
  {
    id: "FED-RESOLVE-RESPONSE",
    level: "MUST",
    source: `${pub("Resolve (200 application/resolve-response+jwt)")}; public: OpenID Federation 1.0 Resolve Response (typ resolve-response+jwt, others MUST be rejected; signed with a Federation Entity Key; kid MUST; iss, sub, iat, exp REQUIRED)`,
    text: "a resolve request for an entity of the federation under its Trust Anchor answers 200 application/resolve-response+jwt: typ resolve-response+jwt, alg not none, a kid naming a key of the target's Entity Configuration that verifies it, iss the target, sub the subject asked, numeric iat (not in the future) and exp",
  },
  {
    id: "FED-RESOLVE-TRUST-CHAIN",
    level: "MUST",
    source:
      "public: OpenID Federation 1.0 Resolve Response (trust_chain REQUIRED: starting with the subject, ending with the selected Trust Anchor); Resolve Entity (the resolver assembles a Trust Chain that starts with the subject's Entity Configuration and ends with the specified Trust Anchor's Entity Configuration, and verifies it); Validating a Trust Chain; Constraints (Max Path Length Constraint)",
    text: "trust_chain is a valid Trust Chain: entity-statement+jwt statements with iss, sub, jwks, iat past and exp future; the subject's Entity Configuration first, signed with its own jwks; each statement issued by the subject of the next and signed with a key of its jwks; the last the Entity Configuration of the Trust Anchor asked, signed with that anchor's key; no more Intermediates below a statement's issuer than its constraints.max_path_length allows",
  },
  {
    id: "FED-RESOLVE-METADATA",
    level: "MUST",
    source:
      "public: OpenID Federation 1.0 Resolve Entity (applies all the policies present in the Trust Chain to the subject's metadata); Resolve Response (metadata REQUIRED); metadata claim (a Subordinate Statement's metadata overrides, applied before metadata_policy); Metadata Policy: Operators, Enforcement (Resolution from the most Superior down, merge; Application in the operators' order; a policy error makes the chain invalid)",
    text: "metadata is the subject's Resolved Metadata for the chain: its Entity Configuration's metadata overridden by its Immediate Superior's Subordinate Statement metadata, then the chain's metadata_policy claims merged from the Trust Anchor down and applied (value, add, default, one_of, subset_of, superset_of, essential); a chain whose policies do not resolve gets no 200",
  },
  {
    id: "FED-RESOLVE-ENTITY-TYPE",
    level: "MUST",
    source:
      "public: OpenID Federation 1.0 Resolve Request (entity_type OPTIONAL, repeatable: data for each Entity Type asked is returned; without it all Entity Types); Resolve Response (metadata according to the requested type)",
    text: "with entity_type asked once or repeated, the metadata of a resolve response holds exactly the Entity Types asked (of those the subject has)",
  },
  {
    id: "FED-RESOLVE-TRUST-MARKS",
    level: "MUST",
    source:
      "public: OpenID Federation 1.0 Resolve Entity (the response set MUST include only verified Trust Marks); Resolve Response (trust_marks: only valid Trust Marks issued by issuers the Trust Anchor trusts); Validating a Trust Mark; trust_mark_issuers",
    text: "every Trust Mark of a resolve response is a {trust_mark_type, trust_mark} whose JWT has typ trust-mark+jwt, is about the subject and of that type, comes from an issuer the anchor's trust_mark_issuers allows, verifies with its issuer's key and is not expired",
  },
  {
    id: "FED-RESOLVE-EXP",
    level: "MUST",
    source:
      "public: OpenID Federation 1.0 Resolve Response (exp MUST be the minimum of the exp of the Trust Chain the response was derived from and of any Trust Mark included)",
    text: "the exp of a resolve response is the earliest exp among the statements of its trust_chain and the Trust Marks it includes",
  },
  {
    id: "FED-RESOLVE-ERRORS",
    level: "MUST",
    source: `${pub("Resolve (sub and trust_anchor REQUIRED)")}; public: OpenID Federation 1.0 Error Responses (invalid_request: the request is incomplete; invalid_subject: the endpoint cannot serve the subject; not_found: the Entity Identifier cannot be found; invalid_trust_anchor: the Trust Anchor cannot be found or used; invalid_trust_chain: the Trust Chain cannot be validated)`,
    text: "resolve without sub or without trust_anchor answers an error invalid_request; with an unknown subject an error invalid_subject or not_found; under an unknown Trust Anchor an error invalid_trust_anchor; under a Trust Anchor the subject is not below (trustAnchors.other) an error invalid_trust_anchor or invalid_trust_chain (statuses and format judged by FED-ERROR-STATUS and FED-ERROR-FORMAT)",
  },

  // Extended subordinate listing: response (Resources: Extended listing response; Endpoints)
  {
    id: "FED-XL-OK",
    level: "MUST",
    source: `${D} Endpoints: Extended subordinate listing (Success: HTTP 200, application/json); Extended listing response (immediate_subordinate_entities REQUIRED array of objects)`,
    text: "GET of the extended list endpoint answers 200 with Content-Type application/json and a JSON object whose immediate_subordinate_entities is an array of objects",
  },
  {
    id: "FED-XL-ENTRY-ID",
    level: "MUST",
    source: `${D} Extended listing response, entry object (id REQUIRED, Entity Identifier)`,
    text: "every entry of immediate_subordinate_entities, on every page, has id, an Entity Identifier string",
  },
  {
    id: "FED-XL-TIMESTAMP-TYPES",
    level: "MUST",
    source: `${D} Extended listing response, entry object (registered: number, NumericDate; updated: number, time format of iat)`,
    text: "registered and updated, on every entry that carries them, are numbers of seconds since the epoch",
  },
  {
    id: "FED-XL-NEXT-STRING",
    level: "MUST",
    source: `${D} Extended listing response (next: string, opaque)`,
    text: "next, on every page that carries it, is a non-empty string",
  },
  {
    id: "FED-XL-NEXT-REQUIRED",
    level: "MUST",
    source: `${D} Extended listing response (next mandatory when more results exist beyond this response)`,
    text: "every page after which more entries exist carries next: for any limit, the walk does not end (a page without next) before the last Immediate Subordinate; a next on the last page that leads to an empty page is noted, not failed",
  },
  {
    id: "FED-XL-WALK-ONCE",
    level: "MUST",
    source: `${D} Endpoints: Extended subordinate listing (from: result starts at that entry inclusive); Extended listing response (next: pointer to the next element)`,
    text: "walking next→from, for any limit, lists every Immediate Subordinate exactly once: no entry is repeated across pages and none is left out",
  },
  {
    id: "FED-XL-ORDER",
    level: "MUST",
    source: `${D} Endpoints: Extended subordinate listing (the issuing entity MUST keep one consistent ordering across all responses); Limits 3`,
    text: "the walk lists the Immediate Subordinates in one order, the same for every limit and for every repeated walk while nothing changes",
  },
  {
    id: "FED-XL-FROM-INCLUSIVE",
    level: "MUST",
    source: `${D} Endpoints: Extended subordinate listing (from: value copied from a previous next; result starts at that entry inclusive)`,
    text: "the page fetched with from = a next value starts with the entry that follows the previous page's last entry in the list's order: nothing at a page border is skipped or repeated",
  },
  {
    id: "FED-XL-FROM-UNKNOWN",
    level: "MUST",
    source: `${D} Endpoints: Extended subordinate listing (from: unknown value gives 404 page_not_found); Errors (extended listing: unknown from gives 404 page_not_found, application/json)`,
    text: "a from value the target never issued (random, or a real next with characters changed) answers 404 application/json with error page_not_found, never a 5xx or a page; a next whose entry was removed since answers either the page from the next remaining entry or 404 page_not_found",
  },
  {
    id: "FED-XL-PAGING-UNDERSTOOD",
    level: "MUST",
    source: `${D} Endpoints: Extended subordinate listing (from and limit: implementations MUST understand it)`,
    text: "a request with a positive integer limit, and one with from copied from a next, are answered 200, never refused as unsupported",
  },
  {
    id: "FED-XL-LIMIT",
    level: "SHOULD",
    source: `${D} Endpoints: Extended subordinate listing (limit: the returned count SHOULD NOT exceed it); Limits 1`,
    text: "no page of a request with limit holds more than limit entries",
  },
  {
    id: "FED-XL-UPPER-LIMIT",
    level: "MUST",
    source: `${D} Endpoints: Extended subordinate listing (from: size MUST NOT exceed the server's upper limit); Limits 1 (the upper limit is deployment-defined)`,
    text: "no page, with or without limit, holds more entries than the server upper limit the profile declares for the target (not judged without one)",
  },
  {
    id: "FED-XL-PRACTICAL-LIMIT",
    level: "SHOULD",
    source: `${D} Limits 1 (the responder SHOULD define a practical upper limit such that a request without limit, or with an impractical one, can still be answered completely with all requested additional parameters)`,
    text: "a request without limit, and one with a limit far above the list's size, each with claims=subordinate_statement and audit_timestamps=true (audit_timestamps left out where the target refuses it as unsupported_parameter), are answered 200 with pages that walk to the end, list every Immediate Subordinate, and give every entry subordinate_statement, registered and updated",
  },

  // Extended subordinate listing: consistency under change (What the service does, Rules 4)
  {
    id: "FED-XL-CHANGE-FETCHED",
    level: "MUST",
    // Rules 4 states the design without a keyword; it is the property pagination exists for,
    // so it is held as a MUST, like the document's other unqualified "gives" rules.
    source: `${D} What the service does, Rules 4 (changes to pages already fetched do not change the result)`,
    text: "with subordinates added, updated or removed through the profile's change hook between page fetches, no entity present for the whole walk is lost or repeated, and a change among entries already fetched does not shift the rest of the walk",
  },
  {
    id: "FED-XL-CHANGE-AHEAD",
    level: "MUST",
    source: `${D} What the service does, Rules 4 (changes to pages not yet fetched are reflected)`,
    text: "an entity added through the profile's change hook after the walk's position appears later in the same walk, and one removed there does not appear",
  },

  // Extended subordinate listing: claims (entry object; Endpoints: claims)
  {
    id: "FED-XL-CLAIMS-STATEMENT",
    level: "MUST",
    source: `${D} Extended listing response, entry object (subordinate_statement MUST be returned when the claims parameter contains subordinate_statement); Endpoints: Extended subordinate listing (claims, comma-separated)`,
    text: "with claims containing subordinate_statement (sent comma-separated, or repeated where the profile says the target takes that form), every entry on every page carries subordinate_statement, a JWT string",
  },
  {
    id: "FED-XL-CLAIMS-NO-STATEMENT",
    level: "MUST",
    source: `${D} Extended listing response, entry object (subordinate_statement MUST NOT be returned when claims is present without it)`,
    text: "with claims present but not containing subordinate_statement, no entry on any page carries subordinate_statement",
  },
  {
    id: "FED-XL-STATEMENT-VALID",
    level: "MUST",
    source: `${D} Extended listing response, entry object (subordinate_statement: signed statement); ${pub("Entity statements (typ entity-statement+jwt, kid, alg not none, iss, sub)")}`,
    text: "every subordinate_statement has typ entity-statement+jwt, a kid naming a key of the target's Entity Configuration, an alg other than none, a signature that verifies with that key, iss equal to the target and sub equal to the entry's id",
  },
  {
    id: "FED-XL-STATEMENT-FETCH",
    level: "MUST",
    // subordinate_statement is the Subordinate Statement about the entry's id, which the fetch
    // endpoint serves; a statement minted per request may differ in its times only.
    source: `${D} Extended listing response, entry object (subordinate_statement: the Subordinate Statement about id); ${pub("Fetch")}`,
    text: "every subordinate_statement carries the same claims as the statement the fetch endpoint returns for that sub, iat and exp aside",
  },
  {
    id: "FED-XL-CLAIMS-INCLUDED",
    level: "MUST",
    source: `${D} Endpoints: Extended subordinate listing (claims: when non-empty each entry MUST include the requested claims if available); Extended listing response, entry object (other selected claims, for example trust_marks, metadata)`,
    text: "with claims naming metadata or trust_marks, every entry carries each named claim its entity has, as the entity has it (metadata equal to its Subordinate Statement's, trust_marks a non-empty array of Trust Marks its Entity Configuration publishes)",
  },
  {
    id: "FED-XL-CLAIMS-ALL",
    level: "SHOULD",
    source: `${D} Endpoints: Extended subordinate listing (claims: supported options SHOULD be all top-level entity-statement claims); Extended listing response (any top-level entity-statement claim may be requestable)`,
    text: "with claims naming any other top-level claim of a Subordinate Statement (jwks, metadata_policy, constraints, crit, ...), every entry whose statement holds it carries it, with the statement's value (iat, exp and jti, minted per statement, only present)",
  },

  // Extended subordinate listing: timestamps (Endpoints: audit_timestamps, updated_after, updated_before; Errors)
  {
    id: "FED-XL-AUDIT-TIMESTAMPS",
    level: "MUST",
    source: `${D} Endpoints: Extended subordinate listing (audit_timestamps: when true the response MUST include registered and updated for every entry; unsupported gives 400 unsupported_parameter); Errors`,
    text: "with audit_timestamps=true every entry on every page carries registered and updated, or the request is refused with 400 application/json and error unsupported_parameter",
  },
  {
    id: "FED-XL-UPDATED-AFTER",
    level: "MUST",
    source: `${D} Endpoints: Extended subordinate listing (updated_after: only Immediate Subordinates whose Subordinate Statements were updated at or after this time; unsupported gives 400 unsupported_parameter); Errors`,
    text: "for generated times t, updated_after=t lists exactly the Immediate Subordinates whose updated (as audit_timestamps gives it) is at or after t, or the request is refused with 400 application/json and error unsupported_parameter",
  },
  {
    id: "FED-XL-UPDATED-BEFORE",
    level: "MUST",
    source: `${D} Endpoints: Extended subordinate listing (updated_before: same, at or before this time; same unsupported rule); Errors`,
    text: "for generated times t, updated_before=t lists exactly the Immediate Subordinates whose updated is at or before t, and with updated_after too exactly those in the closed range, or the request is refused with 400 application/json and error unsupported_parameter",
  },
  {
    id: "FED-XL-UPDATED-TIMESTAMPS",
    level: "SHOULD",
    source: `${D} Endpoints: Extended subordinate listing (updated_after: when used, response SHOULD include registered and updated)`,
    text: "every entry of an answer to updated_after or updated_before carries registered and updated, also without audit_timestamps",
  },

  // Extended subordinate listing: filters (Endpoints: base parameters entity_type, trust_mark_type)
  {
    id: "FED-XL-ENTITY-TYPE",
    level: "MUST",
    source: `${D} Endpoints: Extended subordinate listing (accepts all parameters of the base list endpoint; entity_type in use); ${pub("List (entity_type, repeatable; unsupported: 400 unsupported_parameter)")}`,
    text: "with entity_type (repeated for several), the extended list holds exactly the Immediate Subordinates whose own Entity Configuration declares at least one of the given types, and names the same entities as the base list asked the same way, or both refuse with 400 unsupported_parameter",
  },
  {
    id: "FED-XL-TRUST-MARK-TYPE",
    level: "MUST",
    source: `${D} Endpoints: Extended subordinate listing (trust_mark_type, repeatable: the result includes every Immediate Subordinate for which at least one listed Trust Mark type has been issued and is still valid); ${pub("List (trust_mark_type: a filter)")}`,
    text: "with trust_mark_type (one value, or repeated for several), the extended list holds every Immediate Subordinate whose Entity Configuration has a Trust Mark of at least one listed type that verifies with its issuer's key and is unexpired, and no other (a target that refuses trust_mark_type with 400 unsupported_parameter is not judged)",
  },
  {
    id: "FED-XL-SAME-AS-LIST",
    level: "MUST",
    source: `${D} What the service does (paginated list of Immediate Subordinate Entities); Endpoints: Extended subordinate listing (follows the base list endpoint); ${pub("List")}`,
    text: "the extended list, walked to the end without filters, names exactly the entities the base list names",
  },

  // Entity collection: response (Resources: Entity collection response, Entity Info object; Endpoints)
  {
    id: "FED-COLL-OK",
    level: "MUST",
    source: `${D} Endpoints: Entity collection (Success: HTTP 200, application/json); Entity collection response (entities REQUIRED array; next string; last_updated number)`,
    text: "the collection endpoint answers 200 with Content-Type application/json and a JSON object whose entities is an array of objects, next (when present) a non-empty string and last_updated (when present) a number",
  },
  {
    id: "FED-COLL-METHODS",
    level: "MUST",
    source: `${D} Endpoints: Entity collection (GET with parameters in the query, or POST with them form-encoded in the body)`,
    text: "a GET and a form POST with the same parameters, where both are answered 200, give the same entities (a method refused with 405 is noted, not failed, unless client authentication requires POST)",
  },
  {
    id: "FED-COLL-ENTITY-ID",
    level: "MUST",
    source: `${D} Entity Info object (entity_id REQUIRED, Entity Identifier)`,
    text: "every Entity Info object on every page has entity_id, an Entity Identifier string",
  },
  {
    id: "FED-COLL-ENTITY-TYPES",
    level: "MUST",
    source: `${D} Entity Info object (entity_types: if present, MUST contain all entity types the responder knows for the subject)`,
    text: "entity_types, whenever present, is an array holding every Entity Type the entity's own Entity Configuration declares in its metadata",
  },
  {
    id: "FED-COLL-ENTITY-TYPES-PRESENT",
    level: "SHOULD",
    source: `${D} Entity Info object (entity_types RECOMMENDED)`,
    text: "every Entity Info object carries entity_types when entity_claims does not leave it out",
  },
  {
    id: "FED-COLL-INFOS-SHAPE",
    level: "MUST",
    source: `${D} Entity Info object (entity_infos: member name an Entity Type Identifier, value an Entity Type Info object)`,
    text: "entity_infos, whenever present, is an object whose members are Entity Type Identifiers the entity has, each with an object value",
  },
  {
    id: "FED-COLL-TRUST-MARKS",
    level: "MUST",
    source: `${D} Entity Info object (trust_marks: array of Trust Mark objects); ${pub("Entity Configuration (trust_marks: array of {trust_mark_type, trust_mark})")}`,
    text: "trust_marks, whenever present in an Entity Info object, is an array of objects each with a trust_mark_type string and a trust_mark string",
  },
  {
    id: "FED-COLL-BELOW-ANCHOR",
    level: "MUST",
    source: `${D} What the service does (Entities directly or indirectly below a chosen Trust Anchor); Entity collection response (entities: only entities consistent with the request)`,
    text: "every entity listed for a Trust Anchor lies directly or indirectly below it: reachable through the list endpoints of the anchor and its Intermediates",
  },

  // Entity collection: filters and trust anchors (Endpoints: Entity collection parameters)
  {
    id: "FED-COLL-ENTITY-TYPE",
    level: "MUST",
    source: `${D} Endpoints: Entity collection (entity_type, repeatable: keep only entities having any of the given types)`,
    text: "with entity_type (repeated for several), every listed entity has at least one of the given types in its Entity Configuration",
  },
  {
    id: "FED-COLL-INFOS-TYPES",
    level: "MUST",
    source: `${D} Entity Info object (entity_infos: when the request has entity_type, only requested types may appear, except federation_entity, which MAY also appear)`,
    text: "with entity_type, entity_infos holds no member other than the requested types and federation_entity",
  },
  {
    id: "FED-COLL-TRUST-MARK-TYPE",
    level: "MUST",
    source: `${D} Endpoints: Entity collection (trust_mark_type, repeatable: keep only entities publishing a verified Trust Mark of every given type)`,
    text: "with trust_mark_type (repeated for several), every listed entity's Entity Configuration publishes an unexpired Trust Mark of every given type",
  },
  {
    id: "FED-COLL-TRUST-MARK-VERIFIED",
    level: "SHOULD",
    source: `${D} Endpoints: Entity collection (trust_mark_type: the responder SHOULD verify using the collecting Trust Anchor)`,
    text: "with trust_mark_type, an entity whose Trust Mark of a requested type does not verify for the collecting Trust Anchor (issued by it or by an issuer its trust_mark_issuers names, signed with a key of the issuer's Entity Configuration, sub the entity, unexpired: a forged or expired mark) is not listed",
  },
  {
    id: "FED-COLL-TA-OMITTED",
    level: "MUST",
    source: `${D} Endpoints: Entity collection (trust_anchor: if omitted the responder uses its own identifier)`,
    text: "at a target that is a Trust Anchor, a request without trust_anchor lists the same entities as one with trust_anchor = the target's Entity Identifier",
  },
  {
    id: "FED-COLL-TA-NOT-ANCHOR",
    level: "MUST",
    source: `${D} What the service does, Rules 2 (responder not a Trust Anchor and no trust_anchor: an empty result); Endpoints: Entity collection (trust_anchor omitted when the responder is not a Trust Anchor gives an empty response)`,
    text: "at a target that is not a Trust Anchor, a request without trust_anchor answers 200 with an empty entities array",
  },
  {
    id: "FED-COLL-TA-OTHER",
    level: "MUST",
    source: `${D} Endpoints: Entity collection (trust_anchor: the Trust Anchor to collect under; unsupported anchor gives invalid_trust_anchor)`,
    text: "with trust_anchor naming another Trust Anchor (the harness's second anchor), the answer is either 200 listing only entities below that anchor, none of the target's own federation that are not also below it, or an error invalid_trust_anchor",
  },
  {
    id: "FED-COLL-TA-UNKNOWN",
    level: "MUST",
    source: `${D} Endpoints: Entity collection (unsupported anchor gives invalid_trust_anchor); Errors (invalid_trust_anchor: the Trust Anchor cannot be found or used)`,
    text: "with trust_anchor naming an Entity Identifier that is no Trust Anchor anywhere, the answer is an error invalid_trust_anchor (its 404 status is judged by FED-COLL-ERROR-STATUS)",
  },
  {
    id: "FED-COLL-UNSUPPORTED-PARAM",
    level: "MUST",
    source: `${D} Endpoints: Entity collection (from, limit, entity_type, trust_mark_type, query, entity_claims, info_claims, locale: unsupported gives unsupported_parameter); Errors`,
    text: "a request with a valid value of from (copied from a next), limit, entity_type, trust_mark_type, query, entity_claims, info_claims or locale is answered 200 or, when the target refuses the parameter, with error unsupported_parameter",
  },

  // Entity collection: pagination (Endpoints: from, limit; Limits 2)
  {
    id: "FED-COLL-LIMIT",
    level: "MUST",
    source: `${D} Endpoints: Entity collection (limit: result size MUST NOT exceed the smaller of the responder's upper limit and this value); Limits 2`,
    text: "no page of a request with limit holds more than limit entities, and no page holds more than the upper limit the profile declares for the target",
  },
  {
    id: "FED-COLL-NEXT-REQUIRED",
    level: "MUST",
    source: `${D} Entity collection response (next REQUIRED when more results exist)`,
    text: "every page after which more entities exist carries next: for any limit, walking next→from reaches every entity the same request lists without limit, while last_updated stays the same",
  },
  {
    id: "FED-COLL-WALK-ONCE",
    level: "MUST",
    source: `${D} Endpoints: Entity collection (from: copied from next; result starts from that pointer)`,
    text: "walking next→from, for any limit, lists no entity twice while last_updated stays the same",
  },
  {
    id: "FED-COLL-FROM-UNKNOWN",
    level: "MUST",
    source: `${D} Endpoints: Entity collection (from: unknown or no longer known gives page_not_found); Errors`,
    text: "a from value the target never issued (random, or a real next with characters changed) is answered with error page_not_found, never a 5xx or a page (its 404 status is judged by FED-COLL-ERROR-STATUS)",
  },
  {
    id: "FED-COLL-LAST-UPDATED",
    level: "SHOULD",
    source: `${D} Entity collection response (last_updated RECOMMENDED: last traversal or refresh of the collection)`,
    text: "every collection answer carries last_updated",
  },

  // Entity collection: claims selection (Endpoints: entity_claims, info_claims)
  {
    id: "FED-COLL-ENTITY-CLAIMS-INCLUDE",
    level: "MUST",
    source: `${D} Endpoints: Entity collection (entity_claims: when present each Entity Info MUST carry them if available)`,
    text: "with entity_claims naming entity_types, entity_infos or trust_marks, every Entity Info carries each named claim its entity has; entity_claims naming entity_id (REQUIRED in every Entity Info) or a claim the answer without entity_claims carries is not refused as unsupported_claim",
  },
  {
    id: "FED-COLL-ENTITY-CLAIMS-EXCLUDE",
    level: "MUST",
    source: `${D} Endpoints: Entity collection (entity_claims: MUST NOT carry other optional claims)`,
    text: "with entity_claims, no Entity Info carries a claim other than entity_id and the named ones",
  },
  {
    id: "FED-COLL-INFO-CLAIMS-INCLUDE",
    level: "MUST",
    source: `${D} Endpoints: Entity collection (info_claims: same inclusion rules as entity_claims)`,
    text: "with info_claims naming UI claims (display_name, description, logo_uri, ...), every Entity Type Info carries each named claim the entity's metadata for that type has; info_claims naming a claim the answer without info_claims carries is not refused as unsupported_claim",
  },
  {
    id: "FED-COLL-INFO-CLAIMS-EXCLUDE",
    level: "MUST",
    source: `${D} Endpoints: Entity collection (info_claims: same exclusion rule as entity_claims)`,
    text: "with info_claims, no Entity Type Info carries a claim other than the named ones and their language-tagged variants",
  },
  {
    id: "FED-COLL-UNSUPPORTED-CLAIM",
    level: "MUST",
    source: `${D} Endpoints: Entity collection (entity_claims, info_claims: unsupported claim gives unsupported_claim); Errors`,
    text: "entity_claims or info_claims naming a claim no specification defines is answered with error unsupported_claim (its 400 status is judged by FED-COLL-ERROR-STATUS)",
  },

  // Entity collection: languages (Language variants; Endpoints: locale)
  {
    id: "FED-COLL-LOCALE-MATCH",
    level: "MUST",
    source: `${D} Endpoints: Entity collection (locale: UI claims are filtered to matching language-tagged values by RFC 4647 basic filtering); Language variants (claim#tag); RFC 4647 §3.3.1`,
    text: "for generated lists of locale values, every language-tagged UI claim (name#tag) returned has a tag matched by one of them under RFC 4647 basic filtering (case-insensitive; a range matches the tag itself and tags that continue it after a -)",
  },
  {
    id: "FED-COLL-LOCALE-SUBTAGS",
    level: "MUST",
    source: `${D} Endpoints: Entity collection (locale: a parent tag matches more specific subtags); RFC 4647 §3.3.1`,
    text: "for generated lists of locale values, every language-tagged variant the entity publishes whose tag a requested range matches is returned (locale=de returns display_name#de and display_name#de-CH)",
  },
  {
    id: "FED-COLL-LOCALE-UNTAGGED",
    level: "MUST",
    source: `${D} Endpoints: Entity collection (locale: the untagged value is always included); Language variants (the untagged name is the default value)`,
    text: "with any locale, every UI claim returned keeps its untagged value where the entity publishes one",
  },
  {
    id: "FED-COLL-LOCALE-ALL",
    level: "MUST",
    source: `${D} Endpoints: Entity collection (locale: without the parameter all languages are included)`,
    text: "without locale, every language-tagged variant the entity publishes of each UI claim returned is included",
  },

  // Entity collection: metadata mapping (Mapping of published metadata to Entity Type Info)
  {
    id: "FED-COLL-DISPLAY-NAME",
    level: "SHOULD",
    source: `${D} Mapping of published metadata to Entity Type Info (SHOULD be considered: display_name from display_name, falling back to client_name or resource_name)`,
    text: "display_name of an Entity Type Info is the entity's display_name for that type or, when unset, its client_name (openid_relying_party, oauth_client) or resource_name (oauth_resource)",
  },
  {
    id: "FED-COLL-INFO-COPIED",
    level: "SHOULD",
    source: `${D} Mapping of published metadata to Entity Type Info (description, keywords, logo_uri, policy_uri, information_uri copied from the same-named metadata claim)`,
    text: "description, keywords, logo_uri, policy_uri and information_uri of an Entity Type Info equal the same-named claims of the entity's metadata for that type",
  },

  // Entity collection: errors and publication (Errors; What the service does, Rules 2)
  {
    id: "FED-COLL-ERROR-FORMAT",
    level: "MUST",
    source: `${D} Errors (collection error response: JSON, application/json, error REQUIRED, error_description REQUIRED)`,
    text: "every error answer of the collection endpoint is served as application/json, a JSON object with an error string and a human-readable error_description string",
  },
  {
    id: "FED-COLL-ERROR-STATUS",
    level: "SHOULD",
    source: `${D} Errors (unsupported_parameter, invalid_request, unsupported_claim SHOULD be 400; page_not_found, invalid_trust_anchor SHOULD be 404)`,
    text: "every collection error answer has the status the table gives its code: unsupported_parameter, invalid_request and unsupported_claim 400, page_not_found and invalid_trust_anchor 404",
  },
  {
    id: "FED-COLL-RESOLVE-PUBLISHED",
    level: "SHOULD",
    source: `${D} What the service does, Rules 2 (the entity collection endpoint publisher SHOULD also publish a federation_resolve_endpoint)`,
    text: "an Entity Configuration that publishes federation_collection_endpoint also publishes federation_resolve_endpoint",
  },

  // Subordinate events (Endpoints: Subordinate events; Subordinate events statement; Events)
  {
    id: "FED-EVT-OK",
    level: "MUST",
    source: `${D} Endpoints: Subordinate events (GET with sub; Success: HTTP 200, application/entity-events-statement+jwt)`,
    text: "GET of the events endpoint with sub = each entity the base list names answers 200 with Content-Type application/entity-events-statement+jwt and a JWT body",
  },
  {
    id: "FED-EVT-TYP",
    level: "MUST",
    source: `${D} Subordinate events statement (JOSE header typ = entity-events-statement+jwt); Authentication 2`,
    text: "every events statement has typ entity-events-statement+jwt in its JOSE header",
  },
  {
    id: "FED-EVT-SIGNATURE",
    level: "MUST",
    source: `${D} Subordinate events statement (signed with a Federation Entity Key); Authentication 2 (signed with a Federation Entity Key of the responder)`,
    text: "every events statement has a kid naming a key of the target's Entity Configuration jwks, an alg other than none, and a signature that verifies with that key (a key the token carries in its header does not count)",
  },
  {
    id: "FED-EVT-ISS-SUB",
    level: "MUST",
    source: `${D} Subordinate events statement (iss REQUIRED: the issuer; sub REQUIRED: the subject)`,
    text: "every events statement has iss equal to the target's Entity Identifier and sub equal to the sub asked for",
  },
  {
    id: "FED-EVT-IAT",
    level: "MUST",
    source: `${D} Subordinate events statement (iat REQUIRED number; exp OPTIONAL number, end of validity)`,
    text: "every events statement has a numeric iat not in the future, and exp, when present, a number not already past (60 s leeway)",
  },
  {
    id: "FED-EVT-EVENTS",
    level: "MUST",
    source: `${D} Subordinate events statement (federation_registration_events REQUIRED array of event objects)`,
    text: "every events statement has federation_registration_events, an array of objects",
  },
  {
    id: "FED-EVT-EVENT-MEMBERS",
    level: "MUST",
    source: `${D} Event object (iat REQUIRED number; event REQUIRED string; event_description string; information_uri URL string)`,
    text: "every event has a numeric iat and an event string, and event_description (when present) is a string and information_uri (when present) an absolute URL",
  },
  {
    id: "FED-EVT-EVENT-KNOWN",
    level: "SHOULD",
    // Operators MAY define more event types (and SHOULD document them), so an unknown one is a
    // warning, never a failure; the public draft's example spelling jwks_updates is named as such.
    source: `${D} Events (registration, metadata_update, metadata_policy_update, jwks_update, revocation, suspension; further types MAY be defined and SHOULD be documented); public-spec-facts §2 (the example's jwks_updates is jwks_update)`,
    text: "every event is one of registration, metadata_update, metadata_policy_update, jwks_update, revocation and suspension, or a type the profile lists as the operator's documented one",
  },
  {
    id: "FED-EVT-REGISTRATION-ALONE",
    level: "MUST",
    // "At the same time" read as the same event time: a history may hold a registration and
    // later updates (the public draft's own example holds two registrations).
    source: `${D} Events (registration: when present, metadata_update, metadata_policy_update and jwks_update MUST NOT be provided at the same time)`,
    text: "no metadata_update, metadata_policy_update or jwks_update event has the iat of a registration event in the same statement",
  },
  {
    id: "FED-EVT-INFO-URI-HTTPS",
    level: "SHOULD",
    source: `${D} Event object (information_uri: https RECOMMENDED)`,
    text: "every information_uri of an event is an https URL",
  },
  {
    id: "FED-EVT-ERROR-JSON",
    level: "MUST",
    source: `${D} Endpoints: Subordinate events (a negative response is a JSON object with content type application/json)`,
    text: "every non-200 answer of the events endpoint is served as application/json with a JSON object body",
  },
  {
    id: "FED-EVT-UNKNOWN-SUB",
    level: "MUST",
    source: `${D} Endpoints: Subordinate events (sub: Entity Identifier of the subject; negative response as JSON); Errors (the errors of the base federation specification)`,
    text: "an events request for a sub that is not an Immediate Subordinate of the target answers a 4xx error, never a 200 statement or a 5xx",
  },
  {
    id: "FED-EVT-NO-SUB",
    level: "MUST",
    source: `${D} Endpoints: Subordinate events (sub REQUIRED; the negative response uses the errors of the base federation specification); public: OpenID Federation 1.0 Error Responses (invalid_request: the request is incomplete)`,
    text: "an events request without sub answers a JSON error whose error is invalid_request, never a 200 statement",
  },
  {
    id: "FED-EVT-UPDATED-AGREES",
    level: "MUST",
    // Both claims date the same thing: updated is when the Subordinate Statement changed, and the
    // three update events say the statement's metadata, metadata policy or keys changed then.
    source: `${D} Extended listing response, entry object (updated: time of update; may signal a change to keys, metadata policies or constraints); Events (metadata_update, metadata_policy_update: updated in the Subordinate Statement; jwks_update)`,
    text: "no metadata_update, metadata_policy_update or jwks_update event of a subordinate's history is later than the updated time the extended list gives that subordinate",
  },

  // Authentication (Authentication 1; public §2 Endpoints, Errors)
  {
    id: "FED-AUTH-PRIVATE-KEY-JWT",
    level: "MUST",
    source: `${D} Authentication 1 (the extended list and collection follow the client authentication rules of the base list endpoint); ${pub("Endpoints (with client authentication POST, default private_key_jwt whose aud is the responder's entity identifier)")}`,
    text: "an endpoint the profile says requires client authentication answers 200 to a form POST with a private_key_jwt client assertion of the client the profile names (iss = sub = its clientId, aud = the target's Entity Identifier, signed with its clientKey)",
  },
  {
    id: "FED-AUTH-ASSERTION-CHECKED",
    level: "MUST",
    source: `${D} Authentication 1; ${pub("Endpoints (private_key_jwt, aud = the responder's entity identifier); Errors (invalid_client)")}`,
    text: "an endpoint that requires client authentication refuses, with error invalid_client and none of its data, a request without a client assertion or with one of the token attack family (another aud, alg none, a bad signature, a key the token carries, a stranger key, expired, another iss, replayed)",
  },
  {
    id: "FED-AUTH-XL-POST",
    level: "MUST",
    source: `${D} Authentication 1 (the extended list follows the client authentication rules of the base list endpoint); ${pub("Endpoints (with client authentication POST)")}`,
    text: "an extended list that requires client authentication reads its parameters from the authenticated POST body: limit, from and claims there shape the answer as they would in a query",
  },
  {
    id: "FED-AUTH-COLL-POST",
    level: "MUST",
    source: `${D} Endpoints: Entity collection (when client authentication is used the request MUST be POST with parameters in the body); Authentication 1`,
    text: "a collection endpoint that requires client authentication reads its parameters from the form POST body: filters, limit and from in the body change the answer as they would in a query",
  },
  {
    id: "FED-AUTH-EVT-POST",
    level: "MUST",
    source: `${D} Endpoints: Subordinate events (when client authentication is used, POST with the parameters in the body); Authentication 1`,
    text: "an events endpoint that requires client authentication answers an authenticated form POST with sub in the body with the events statement about that sub",
  },
]);
