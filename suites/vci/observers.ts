import { defineObserver, type ObservedExchange } from "../../src/engine/observer.js";
import { firstKind, type FindingKind, type KindedProblem } from "../../src/engine/finding-kind.js";
import { quote } from "../../src/engine/quote.js";
import { prefix } from "../../src/http/client.js";
import { challengeProblem, unsafeShown } from "../../src/http/challenge.js";
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
type Problem = KindedProblem;
/** The kind a reader must see first among the problems (there is at least one). */
const worstOf = (problems: readonly Problem[]): FindingKind =>
  firstKind(problems.map((p) => p.kind)) ?? "wrong-value";
/** A header that lacks a required value: absent, or present with other values. */
const headerKind = (ex: ObservedExchange, name: string): FindingKind =>
  ex.header(name) === undefined ? "missing" : "wrong-value";
const ALLOWED_DESCRIPTION = /^[\x20-\x21\x23-\x5B\x5D-\x7E]*$/;
const ERROR_CODE = /^[\x20-\x21\x23-\x5B\x5D-\x7E]+$/;

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
            kind: headerKind(ex, "cache-control"),
          },
  }),
  defineObserver<VciProfile>({
    id: "vci.observe-token-errors",
    title:
      "every token error is 400 application/json with an error string, an error_description (if any) of the allowed characters and Cache-Control: no-store",
    requirement: "VCI-TOKEN-ERROR-FORMAT",
    applies: (ex) => ex.tags.includes(TAG.token) && ex.status >= 400 && ex.status < 500,
    judge: (ex) => {
      const problems: Problem[] = [
        ...(ex.status !== 400 ? [{ kind: "wrong-status" as const, text: `status ${ex.status}` }] : []),
        ...(typeIs(ex, "application/json")
          ? []
          : [
              {
                kind: headerKind(ex, "content-type"),
                text: `Content-Type ${ex.header("content-type") ?? "(none)"}`,
              },
            ]),
        // RFC 6749 §5.2: error = 1*NQSCHAR, a code of one character or more.
        ...(typeof errorOf(ex) === "string" && errorOf(ex) !== ""
          ? []
          : [
              {
                kind: errorOf(ex) === undefined ? ("missing" as const) : ("malformed" as const),
                text: `error ${quote(errorOf(ex) ?? null)}`,
              },
            ]),
        ...(noStore(ex)
          ? []
          : [
              {
                kind: headerKind(ex, "cache-control"),
                text: `Cache-Control ${ex.header("cache-control") ?? "(none)"}`,
              },
            ]),
        // RFC 6749 §5.2: error_description MUST NOT include characters outside %x20-21 / %x23-5B / %x5D-7E.
        ...(descriptionOk(ex)
          ? []
          : [
              {
                kind: "malformed" as const,
                text: "error_description is no string of %x20-21 / %x23-5B / %x5D-7E",
              },
            ]),
      ];
      return problems.length === 0
        ? undefined
        : {
            message: `the token error answering ${ex.label ?? "a token request"} is not in the token error format`,
            expected:
              "400 application/json with error, error_description of allowed characters, Cache-Control: no-store",
            actual: problems.map((p) => p.text).join("; "),
            kind: worstOf(problems),
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
            kind: headerKind(ex, "cache-control"),
          },
  }),
  defineObserver<VciProfile>({
    id: "vci.observe-credential-errors",
    title:
      "every credential error is unencrypted and its error and error_description use the allowed characters; a 400 is application/json with an error string",
    requirement: "VCI-CRED-ERROR-FORMAT",
    // A 401 or 403 carries its error in WWW-Authenticate and leaves the body open (RFC 6750 §3):
    // VCI-CRED-CHALLENGE-SYNTAX judges those. Every other error, 5xx included, is judged here.
    applies: (ex) =>
      ex.tags.includes(TAG.credential) && ex.status >= 400 && ex.status !== 401 && ex.status !== 403,
    judge: (ex) => {
      const problems = credentialErrorProblems(ex);
      return problems.length === 0
        ? undefined
        : {
            kind: worstOf(problems),
            message: `the ${ex.status} credential error answering ${ex.label ?? "a credential request"} is malformed`,
            expected:
              ex.status === 400
                ? 'a 400 application/json body {"error": string, "error_description"?: printable ASCII without " and \\}'
                : 'an unencrypted body whose error and error_description, where present, are printable ASCII without " and \\',
            actual: problems.map((p) => p.text).join("; "),
          };
    },
  }),
  defineObserver<VciProfile>({
    id: "vci.observe-credential-challenges",
    title:
      "every WWW-Authenticate the credential endpoint sends is well formed (RFC 9110 §11.6.1; a Bearer challenge of name=value attributes, none twice, RFC 6750 §3)",
    requirement: "VCI-CRED-CHALLENGE-SYNTAX",
    applies: (ex) => ex.tags.includes(TAG.credential) && ex.header("www-authenticate") !== undefined,
    judge: (ex) => {
      const value = ex.header("www-authenticate") ?? "";
      const problem = challengeProblem(value);
      return problem === undefined
        ? undefined
        : {
            message: `the WWW-Authenticate of the ${ex.status} answering ${ex.label ?? "a credential request"} is malformed: ${problem}`,
            expected:
              'Bearer, or Bearer followed by name="value" attributes, each at most once (RFC 6750 §3), for example Bearer error="invalid_token", error_description="the access token expired"',
            actual: `WWW-Authenticate: ${prefix(value, 200)}`,
          };
    },
  }),
];

/** What is wrong with a credential error's body (public §8.3.1; RFC 6749 §5.2 character sets), each with its kind. */
export function credentialErrorProblems(ex: ObservedExchange): Problem[] {
  const problems: Problem[] = [];
  const add = (kind: FindingKind, text: string): void => void problems.push({ kind, text });
  if (typeIs(ex, "application/jwt"))
    return [{ kind: "wrong-value", text: "the error is application/jwt (errors are never encrypted)" }];
  const body =
    ex.json !== null && typeof ex.json === "object" && !Array.isArray(ex.json)
      ? (ex.json as Record<string, unknown>)
      : undefined;
  if (ex.status === 400) {
    if (!typeIs(ex, "application/json"))
      add(
        headerKind(ex, "content-type"),
        `Content-Type is ${ex.header("content-type") ?? "absent"}, not application/json`,
      );
    if (typeof body?.error !== "string" || body.error === "")
      add(
        body?.error === undefined ? "missing" : "malformed",
        `error is ${quote(body?.error ?? null)}, not a non-empty string`,
      );
  } else if (body === undefined) {
    // Beyond 400 the document names no body: one that is no JSON object (a proxy's page) says nothing of the OAuth members.
    return [];
  }
  // RFC 6749 §5.2: neither error nor error_description has characters outside %x20-21 / %x23-5B / %x5D-7E.
  const e = body?.error;
  if (typeof e === "string" && e !== "" && !ERROR_CODE.test(e))
    add("malformed", `error ${quote(prefix(e, 80))} has characters outside %x20-21 / %x23-5B / %x5D-7E`);
  if (e !== undefined && typeof e !== "string" && ex.status !== 400)
    add("malformed", "error is not a string");
  const d = body?.error_description;
  if (d !== undefined && (typeof d !== "string" || !ALLOWED_DESCRIPTION.test(d)))
    add(
      "malformed",
      typeof d === "string"
        ? `error_description has characters outside %x20-21 / %x23-5B / %x5D-7E (${unsafeShown(d)})`
        : "error_description is not a string",
    );
  return problems;
}
