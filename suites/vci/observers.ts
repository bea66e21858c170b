import { defineObserver, type ObservedExchange } from "../../src/engine/observer.js";
import { quote } from "../../src/engine/quote.js";
import type { VciProfile } from "./profile.js";

/** Tags the Wallet puts on its requests, so that observers know which endpoint answered. */
export const TAG = {
  token: "token-endpoint",
  nonce: "nonce-endpoint",
  credential: "credential-endpoint",
} as const;

const noStore = (ex: ObservedExchange): boolean =>
  (ex.header("cache-control") ?? "").split(",").some((d) => /^\s*no-store\s*$/i.test(d));
const typeIs = (ex: ObservedExchange, t: string): boolean =>
  new RegExp(`^${t.replace("/", "\\/")}\\s*(;|$)`, "i").test(ex.header("content-type") ?? "");
const errorOf = (ex: ObservedExchange): unknown =>
  ex.json !== null && typeof ex.json === "object" ? (ex.json as { error?: unknown }).error : undefined;
const ALLOWED_DESCRIPTION = /^[\x20-\x21\x23-\x5B\x5D-\x7E]*$/;
/** An absent error_description, or a string of the characters RFC 6749 §5.2 allows. */
const descriptionOk = (ex: ObservedExchange): boolean => {
  const d =
    ex.json !== null && typeof ex.json === "object"
      ? (ex.json as { error_description?: unknown }).error_description
      : undefined;
  return d === undefined || (typeof d === "string" && ALLOWED_DESCRIPTION.test(d));
};

/**
 * specs/000 rules about every response of an endpoint (every token response is no-store,
 * every token and credential error has its format, every nonce response is no-store):
 * judged on every request any check sends there, not on one probe.
 */
export const vciObservers = [
  defineObserver<VciProfile>({
    id: "vci.observe-token-no-store",
    title: "every successful token response carries Cache-Control: no-store",
    requirement: "VCI-TOKEN-NO-STORE",
    applies: (ex) => ex.tags.includes(TAG.token) && ex.status >= 200 && ex.status < 300,
    judge: (ex) =>
      noStore(ex)
        ? undefined
        : {
            message: `the ${ex.status} token response to ${ex.label ?? "a token request"} is cacheable`,
            expected: "Cache-Control: no-store",
            actual: ex.header("cache-control") ?? "(no Cache-Control)",
          },
  }),
  defineObserver<VciProfile>({
    id: "vci.observe-token-errors",
    title:
      "every token error is 400 application/json with an error string, an error_description (if any) of the allowed characters and Cache-Control: no-store",
    requirement: "VCI-TOKEN-ERROR-FORMAT",
    applies: (ex) => ex.tags.includes(TAG.token) && ex.status >= 400 && ex.status < 500,
    judge: (ex) => {
      const problems = [
        ...(ex.status !== 400 ? [`status ${ex.status}`] : []),
        ...(typeIs(ex, "application/json") ? [] : [`Content-Type ${ex.header("content-type") ?? "(none)"}`]),
        // RFC 6749 §5.2: error = 1*NQSCHAR, a code of one character or more.
        ...(typeof errorOf(ex) === "string" && errorOf(ex) !== ""
          ? []
          : [`error ${quote(errorOf(ex) ?? null)}`]),
        ...(noStore(ex) ? [] : [`Cache-Control ${ex.header("cache-control") ?? "(none)"}`]),
        // RFC 6749 §5.2: error_description MUST NOT include characters outside %x20-21 / %x23-5B / %x5D-7E.
        ...(descriptionOk(ex) ? [] : ["error_description is no string of %x20-21 / %x23-5B / %x5D-7E"]),
      ];
      return problems.length === 0
        ? undefined
        : {
            message: `the token error answering ${ex.label ?? "a token request"} is not in the token error format`,
            expected:
              "400 application/json with error, error_description of allowed characters, Cache-Control: no-store",
            actual: problems.join("; "),
          };
    },
  }),
  defineObserver<VciProfile>({
    id: "vci.observe-nonce-no-store",
    title: "every nonce response carries Cache-Control: no-store",
    requirement: "VCI-NONCE-NO-STORE",
    applies: (ex) => ex.tags.includes(TAG.nonce) && ex.status >= 200 && ex.status < 300,
    judge: (ex) =>
      noStore(ex)
        ? undefined
        : {
            message: `the ${ex.status} nonce response to ${ex.label ?? "a nonce request"} is cacheable`,
            expected: "Cache-Control: no-store",
            actual: ex.header("cache-control") ?? "(no Cache-Control)",
          },
  }),
  defineObserver<VciProfile>({
    id: "vci.observe-credential-errors",
    title:
      "every credential error (400) is unencrypted application/json with an error string and an error_description of the allowed characters",
    requirement: "VCI-CRED-ERROR-FORMAT",
    applies: (ex) => ex.tags.includes(TAG.credential) && ex.status === 400,
    judge: (ex) => {
      const problems: string[] = [];
      if (typeIs(ex, "application/jwt"))
        problems.push("the error is application/jwt (errors are never encrypted)");
      else if (!typeIs(ex, "application/json"))
        problems.push(`Content-Type is ${ex.header("content-type") ?? "absent"}, not application/json`);
      // An error code of one character or more, as the OAuth error codes it follows (RFC 6749 §5.2: 1*NQSCHAR).
      if (typeof errorOf(ex) !== "string" || errorOf(ex) === "")
        problems.push(`error is ${quote(errorOf(ex) ?? null)}, not a non-empty string`);
      const d =
        ex.json !== null && typeof ex.json === "object"
          ? (ex.json as { error_description?: unknown }).error_description
          : undefined;
      if (d !== undefined && (typeof d !== "string" || !ALLOWED_DESCRIPTION.test(d)))
        problems.push(
          typeof d === "string"
            ? "error_description has characters outside %x20-21 / %x23-5B / %x5D-7E (such as a double quote, a backslash or a control character)"
            : "error_description is not a string",
        );
      return problems.length === 0
        ? undefined
        : {
            message: `the credential error answering ${ex.label ?? "a credential request"} is malformed`,
            expected:
              'a 400 application/json body {"error": string, "error_description"?: printable ASCII without " and \\}',
            actual: problems.join("; "),
          };
    },
  }),
];
