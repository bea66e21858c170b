import { defineObserver, type ObservedExchange } from "../../src/engine/observer.js";
import { quote } from "../../src/engine/quote.js";
import type { FederationProfile } from "./profile.js";

/** What a request was sent to, so the every-response rules know which apply (`tags`). */
export const TAG = {
  fetch: "fed-fetch",
  list: "fed-list",
  extendedList: "fed-extended-list",
  collection: "fed-collection",
  events: "fed-events",
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

const BASE_FORMAT = [TAG.fetch, TAG.list, TAG.extendedList, TAG.events];
const applies = (ex: ObservedExchange, tags: readonly string[]): boolean =>
  ex.status >= 400 && ex.status < 600 && ex.tags.some((t) => tags.includes(t));
const errorBody = (ex: ObservedExchange): { error?: unknown; error_description?: unknown } =>
  ex.json !== null && typeof ex.json === "object" && !Array.isArray(ex.json) ? (ex.json as object) : {};

/** Every-response rules of the base federation endpoints (design honesty rule 7). */
export const federationObservers = [
  defineObserver<FederationProfile>({
    id: "federation.observe-error-format",
    title:
      "every error answer of the fetch, list, extended list and events endpoints is JSON with error and error_description",
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
    title: "every error answer of the fetch, list and events endpoints has the status its error code takes",
    requirement: "FED-ERROR-STATUS",
    applies: (ex) =>
      applies(ex, [TAG.fetch, TAG.list, TAG.events]) && typeof errorBody(ex).error === "string",
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
];
