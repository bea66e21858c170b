import { defineObserver, type ObservedExchange } from "../../src/engine/observer.js";
import { quote } from "../../src/engine/quote.js";
import type { CommandsProfile } from "./profile.js";
import { taggedCommand, TENANT_COMMANDS } from "./client.js";

/** A response of the RP's Command Endpoint that is not a stream (streams have rules of their own). */
function commandResponse(ex: ObservedExchange, p: CommandsProfile): boolean {
  if (ex.method !== "POST") return false;
  const endpoint = new URL(p.baseUrl);
  if (ex.url.origin !== endpoint.origin || ex.url.pathname !== endpoint.pathname) return false;
  const type = ex.header("content-type") ?? "";
  return !/^text\/event-stream/i.test(type) && !/text\/event-stream/i.test(ex.requestHeaders.accept ?? "");
}

const noStore = (v: string | undefined): boolean =>
  (v ?? "").split(",").some((d) => /^\s*no-store\s*$/i.test(d));

const nonEmpty = (v: unknown): boolean => typeof v === "string" && v.length > 0;

/** The JSON object a response carries, or undefined. */
function object(ex: ObservedExchange): Record<string, unknown> | undefined {
  const j = ex.json;
  return j !== null && typeof j === "object" && !Array.isArray(j)
    ? (j as Record<string, unknown>)
    : undefined;
}

/** Any POST to the RP's Command Endpoint, streams included. */
function commandExchange(ex: ObservedExchange, p: CommandsProfile): boolean {
  if (ex.method !== "POST") return false;
  const endpoint = new URL(p.baseUrl);
  return ex.url.origin === endpoint.origin && ex.url.pathname === endpoint.pathname;
}

/**
 * Whether `text` carries a compact JWS (a Command Token, or any other): two base64url
 * segments, the first a JSON object header with alg. The header and payload are enough: the
 * signature may already be redacted from what the harness keeps.
 */
export function carriesJws(text: string): boolean {
  for (const m of text.slice(0, 20_000).matchAll(/eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}/g)) {
    try {
      const h = JSON.parse(Buffer.from(m[0].split(".")[0] ?? "", "base64url").toString("utf8")) as unknown;
      if (h !== null && typeof h === "object" && typeof (h as { alg?: unknown }).alg === "string")
        return true;
    } catch {
      // not a JWS header: look on
    }
  }
  return false;
}

/** The Location header without its query and fragment, where a token would be: safe for a finding. */
function where(location: string): string {
  return `${location.split(/[?#]/)[0]?.slice(0, 200) ?? ""} (query and fragment not shown)`;
}

/**
 * specs/002 area A Endpoints: rules about every response of the Command Endpoint, judged on
 * every command any check sends (every command, every state, every error), not on one probe.
 */
export const commandObservers = [
  defineObserver<CommandsProfile>({
    id: "commands.observe-no-store",
    title: "every successful command response (200 or 204) carries Cache-Control: no-store",
    requirement: "CMD-RESPONSE-NO-STORE",
    applies: (ex, p) => commandResponse(ex, p) && (ex.status === 200 || ex.status === 204),
    judge: (ex) =>
      noStore(ex.header("cache-control"))
        ? undefined
        : {
            message: `the ${ex.status} answer to ${ex.label ?? "a command"} is cacheable`,
            expected: "Cache-Control: no-store",
            actual: ex.header("cache-control") ?? "(no Cache-Control)",
            kind: ex.header("cache-control") === undefined ? "missing" : "wrong-value",
          },
  }),
  defineObserver<CommandsProfile>({
    id: "commands.observe-json",
    title: "every command response with a body (success or error) is application/json and parses as JSON",
    requirement: "CMD-RESPONSE-JSON",
    // A 5xx may come from a proxy with any body (the document gives it none).
    applies: (ex, p) => commandResponse(ex, p) && ex.status < 500 && ex.text.trim().length > 0,
    judge: (ex) => {
      const type = ex.header("content-type");
      if (!/^application\/json\s*(;|$)/i.test(type ?? ""))
        return {
          message: `the ${ex.status} answer to ${ex.label ?? "a command"} is not labelled JSON`,
          expected: "Content-Type: application/json",
          actual: type ?? "(no Content-Type)",
          kind: type === undefined ? "missing" : "wrong-value",
        };
      if (ex.jsonError !== undefined)
        return {
          message: `the ${ex.status} answer to ${ex.label ?? "a command"} is labelled JSON but does not parse`,
          expected: "a JSON body",
          actual: `${ex.jsonError}: ${quote(ex.text, 120)}`,
          kind: "malformed",
        };
      return undefined;
    },
  }),
  defineObserver<CommandsProfile>({
    id: "commands.observe-success-body",
    title: "every 200 answer to an account command carries sub and account_state",
    requirement: "CMD-SUCCESS-RESPONSE",
    // Every non-stream 200 with a JSON object to an Account Command (Audit and Migrate
    // included; the command's name is the exchange's tag): its success response has both
    // members. A command the RP had to refuse (tag `attack`) is judged by its own check.
    applies: (ex, p) => {
      const command = taggedCommand(ex.tags);
      return (
        commandResponse(ex, p) &&
        ex.status === 200 &&
        !ex.tags.includes("attack") &&
        command !== undefined &&
        !TENANT_COMMANDS.includes(command) &&
        object(ex) !== undefined
      );
    },
    judge: (ex) => {
      const b = object(ex) ?? {};
      return nonEmpty(b.sub) && nonEmpty(b.account_state)
        ? undefined
        : {
            message: `the 200 answer to ${ex.label ?? "an account command"} lacks sub or account_state`,
            expected: "sub and account_state (strings)",
            actual: quote(b, 200),
          };
    },
  }),
  defineObserver<CommandsProfile>({
    id: "commands.observe-no-token-in-location",
    title: "no answer of the Command Endpoint carries a Command Token in its Location header",
    requirement: "CMD-TOKEN-NO-LEAK",
    // Every answer: a redirect of any command (a login started by a form parameter, say)
    // hands the token to the browser, the redirect's target, and their logs.
    applies: (ex, p) => commandExchange(ex, p),
    judge: (ex) => {
      const location = ex.header("location");
      if (location === undefined || !carriesJws(decodeURIComponentSafe(location))) return undefined;
      return {
        message: `the ${ex.status} answer to ${ex.label ?? "a command"} puts a signed token (the Command Token) into its Location header: a leak to wherever it redirects`,
        expected: "no Command Token in Location (a command is answered 200/204, 202 or a JSON error)",
        actual: `${ex.status} Location: ${where(location)}`,
        // A leak of what the RP was sent, not a status to correct (nor an acceptance).
        kind: "wrong-value",
      };
    },
  }),
  defineObserver<CommandsProfile>({
    id: "commands.observe-incompatible-state",
    title: "every 409 incompatible_state carries account_state and sub",
    requirement: "CMD-INCOMPATIBLE-STATE",
    applies: (ex, p) =>
      commandResponse(ex, p) && ex.status === 409 && object(ex)?.error === "incompatible_state",
    judge: (ex) => {
      const b = object(ex) ?? {};
      return nonEmpty(b.sub) && nonEmpty(b.account_state)
        ? undefined
        : {
            message: `the 409 incompatible_state answer to ${ex.label ?? "a command"} lacks account_state or sub`,
            expected: "account_state and sub (strings)",
            actual: quote(b, 200),
          };
    },
  }),
];

/** Percent-decoded text, or the text itself when it does not decode. */
function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
