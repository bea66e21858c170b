import { defineObserver, type ObservedExchange } from "../../src/engine/observer.js";
import { quote } from "../../src/engine/quote.js";
import type { FederationProfile } from "./profile.js";

/** What a request was sent to, so the every-response rules know which apply (`tags`). */
export const TAG = {
  fetch: "fed-fetch",
  list: "fed-list",
  extendedList: "fed-extended-list",
  collection: "fed-collection",
  /** A collection request whose parameters are all valid values (FED-COLL-UNSUPPORTED-PARAM). */
  collectionValid: "fed-collection-valid",
  events: "fed-events",
  resolve: "fed-resolve",
} as const;

/** The statuses of the base error codes (public-spec-facts §2 Errors). */
const STATUS_OF: Record<string, number> = {
  invalid_request: 400,
  invalid_client: 401,
  invalid_issuer: 404,
  invalid_subject: 404,
  invalid_trust_anchor: 404,
  invalid_trust_chain: 400,
  invalid_metadata: 400,
  not_found: 404,
  temporarily_unavailable: 503,
  unsupported_parameter: 400,
  page_not_found: 404,
};

const BASE_FORMAT = [TAG.fetch, TAG.list, TAG.extendedList, TAG.events, TAG.resolve];
const applies = (ex: ObservedExchange, tags: readonly string[]): boolean =>
  ex.status >= 400 && ex.status < 600 && ex.tags.some((t) => tags.includes(t));
const errorBody = (ex: ObservedExchange): { error?: unknown; error_description?: unknown } =>
  ex.json !== null && typeof ex.json === "object" && !Array.isArray(ex.json) ? (ex.json as object) : {};

/** Every-response rules of the base federation endpoints (design honesty rule 7). */
export const federationObservers = [
  defineObserver<FederationProfile>({
    id: "federation.observe-error-format",
    title:
      "every error answer of the fetch, list, extended list, events and resolve endpoints is JSON with error and error_description",
    requirement: "FED-ERROR-FORMAT",
    applies: (ex) => applies(ex, BASE_FORMAT),
    judge: (ex) => {
      const b = errorBody(ex);
      if (ex.jsonError !== undefined)
        return {
          message: `the ${ex.status} answer of ${ex.label ?? ex.url.pathname} is not JSON`,
          expected: "a JSON object with error and error_description",
          actual: `${ex.header("content-type") ?? "(no Content-Type)"}: ${quote(ex.text.slice(0, 120))}`,
          kind: "malformed",
        };
      const missing = ["error", "error_description"].filter(
        (m) => typeof b[m as keyof typeof b] !== "string",
      );
      return missing.length === 0
        ? undefined
        : {
            message: `the ${ex.status} answer of ${ex.label ?? ex.url.pathname} has no ${missing.join(" and ")} string`,
            expected: "a JSON object with error and error_description strings",
            actual: quote(ex.json, 200),
            kind: "missing",
          };
    },
  }),
  defineObserver<FederationProfile>({
    id: "federation.observe-error-status",
    title:
      "every error answer of the fetch, list, events and resolve endpoints has the status its error code takes",
    requirement: "FED-ERROR-STATUS",
    applies: (ex) =>
      applies(ex, [TAG.fetch, TAG.list, TAG.events, TAG.resolve]) && typeof errorBody(ex).error === "string",
    judge: (ex) => {
      const code = String(errorBody(ex).error);
      const want = STATUS_OF[code];
      if (code === "server_error")
        return ex.status >= 500
          ? undefined
          : {
              message: `server_error with ${ex.status}`,
              expected: "a 5xx",
              actual: String(ex.status),
              kind: "wrong-status",
            };
      return want === undefined || want === ex.status
        ? undefined
        : {
            message: `error ${code} answered with ${ex.status} (${ex.label ?? ex.url.pathname})`,
            expected: `${want} for ${code}`,
            actual: String(ex.status),
            kind: "wrong-status",
          };
    },
  }),
  ...collectionObservers(),
];

/** The statuses of the collection's error codes (specs/001 Errors). */
const COLL_STATUS_OF: Record<string, number> = {
  unsupported_parameter: 400,
  invalid_request: 400,
  page_not_found: 404,
  unsupported_claim: 400,
  invalid_trust_anchor: 404,
};

/** Every-response rules of the entity collection endpoint (specs/001 Errors; Endpoints: Entity collection). */
function collectionObservers(): ReturnType<typeof defineObserver<FederationProfile>>[] {
  return [
    defineObserver<FederationProfile>({
      id: "federation.observe-collection-error-format",
      title:
        "every error answer of the collection endpoint is application/json, an object with error and error_description strings",
      requirement: "FED-COLL-ERROR-FORMAT",
      applies: (ex) => applies(ex, [TAG.collection]),
      judge: (ex) => {
        const where = `the ${ex.status} answer of ${ex.label ?? ex.url.pathname}`;
        const ctype = ex.header("content-type") ?? "";
        if (!/^application\/json\s*(;|$)/i.test(ctype) || ex.jsonError !== undefined)
          return {
            message: `${where} is not served as application/json`,
            expected: "Content-Type application/json, a JSON object with error and error_description",
            actual: `${ctype || "(no Content-Type)"}: ${quote(ex.text.slice(0, 120))}`,
            kind: "malformed",
          };
        const b = errorBody(ex);
        const missing = ["error", "error_description"].filter(
          (m) => typeof b[m as keyof typeof b] !== "string",
        );
        return missing.length === 0
          ? undefined
          : {
              message: `${where} has no ${missing.join(" and ")} string`,
              expected: "a JSON object with error and error_description strings",
              actual: quote(ex.json, 200),
              kind: "missing",
            };
      },
    }),
    defineObserver<FederationProfile>({
      id: "federation.observe-collection-error-status",
      title:
        "every error answer of the collection endpoint has the status the document's table gives its code",
      requirement: "FED-COLL-ERROR-STATUS",
      applies: (ex) => applies(ex, [TAG.collection]) && typeof errorBody(ex).error === "string",
      judge: (ex) => {
        const code = String(errorBody(ex).error);
        const want = COLL_STATUS_OF[code];
        return want === undefined || want === ex.status
          ? undefined
          : {
              message: `error ${code} answered with ${ex.status} (${ex.label ?? ex.url.pathname})`,
              expected: `${want} for ${code}`,
              actual: String(ex.status),
              kind: "wrong-status",
            };
      },
    }),
    defineObserver<FederationProfile>({
      id: "federation.observe-collection-entity-id",
      title:
        "every Entity Info object of every 200 answer of the collection endpoint (any filter, entity_claims, info_claims, locale) has entity_id, a non-empty string",
      requirement: "FED-COLL-ENTITY-ID",
      // A page whose form is wrong (no entities array) is FED-COLL-OK's, judged by the walk; an
      // empty page holds no Entity Info to judge (it would pass the rule vacuously).
      applies: (ex) => {
        const entities = (ex.json as { entities?: unknown } | undefined)?.entities;
        return (
          ex.tags.includes(TAG.collection) &&
          ex.status === 200 &&
          Array.isArray(entities) &&
          entities.length > 0
        );
      },
      judge: (ex) => {
        const entities = (ex.json as { entities: unknown[] }).entities;
        const bad = entities.find(
          (e) =>
            e !== null &&
            typeof e === "object" &&
            (typeof (e as { entity_id?: unknown }).entity_id !== "string" ||
              (e as { entity_id: string }).entity_id === ""),
        );
        return bad === undefined
          ? undefined
          : {
              message: `${ex.label ?? ex.url.pathname}: an Entity Info without entity_id`,
              expected: "entity_id, an Entity Identifier string, on every Entity Info",
              actual: quote(bad, 160),
              kind: "missing",
            };
      },
    }),
    defineObserver<FederationProfile>({
      id: "federation.observe-collection-valid-parameters",
      title:
        "every collection request with valid from, limit, entity_type, trust_mark_type, query, entity_claims, info_claims or locale values is answered 200 or refused with unsupported_parameter",
      requirement: "FED-COLL-UNSUPPORTED-PARAM",
      // A 401 asks for client authentication: it says nothing of the parameters.
      applies: (ex) => ex.tags.includes(TAG.collectionValid) && ex.status !== 401,
      judge: (ex) => {
        if (ex.status === 200) return undefined;
        const error = errorBody(ex).error;
        // unsupported_parameter refuses a parameter; invalid_trust_anchor is about trust_anchor,
        // which the FED-COLL-TA-* checks judge.
        if (
          ex.status >= 400 &&
          ex.status < 500 &&
          (error === "unsupported_parameter" || error === "invalid_trust_anchor")
        )
          return undefined;
        // A claim the responder does not support may be refused with unsupported_claim
        // (specs/001 entity_claims, info_claims), which FED-COLL-ENTITY/INFO-CLAIMS-* take as
        // such; a POST's parameters are in its body, which is not seen here.
        const claims = ["entity_claims", "info_claims"].some((p) => ex.url.searchParams.has(p));
        if (
          ex.status >= 400 &&
          ex.status < 500 &&
          error === "unsupported_claim" &&
          (claims || ex.method === "POST")
        )
          return undefined;
        return {
          message: `${ex.label ?? ex.url.pathname}: valid parameters answered ${ex.status}${
            typeof error === "string" ? ` ${error}` : ""
          }`,
          expected: "200, or an error unsupported_parameter",
          actual: `${ex.status} ${quote(ex.json ?? ex.text.slice(0, 120), 200)}`,
          kind: ex.status >= 500 || ex.status < 400 ? "wrong-status" : "wrong-code",
        };
      },
    }),
  ];
}
