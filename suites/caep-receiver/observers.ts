import { defineObserver, type ObservedExchange } from "../../src/engine/observer.js";
import { quote } from "../../src/engine/quote.js";
import { DELIVERY_ERROR_CODES } from "../../src/protocols/caep.js";
import { leakIn } from "../scim/observers.js";
import { ATTACK, isRefusal, REFUSAL_STATUS, TRANSPORT } from "./delivery.js";
import type { CaepReceiverProfile } from "./profile.js";

/** A SET pushed to the Receiver (delivery.ts tags every push `set`). */
const pushed = (ex: ObservedExchange): boolean => ex.method === "POST" && ex.tags.includes("set");

/**
 * A pushed request whose refusal is about the request around the SET (media type, size,
 * authorization): HTTP answers those with its own statuses and bodies (RFC 8935 §2.3 "the
 * applicable HTTP Status Code"), often from a framework before the Receiver's code runs.
 */
const transport = (ex: ObservedExchange): boolean => ex.tags.includes(TRANSPORT);

/** What the shared leak patterns miss: source locations and file URLs of any path. */
const SOURCE_LOCATION = /file:\/\/\/[^\s"']+|[\w./-]+\.(?:[cm]?[jt]s|py|java|rb|go|php|cs|kt):\d+(?::\d+)?\b/;

/**
 * The first leak in an error body: in the text as sent, and in each string of its JSON (a
 * stack trace in a JSON description has its line breaks escaped, which hides it from patterns
 * that read the raw text). Bounded: at most 200 strings, 6 levels deep.
 */
export function leakOf(ex: ObservedExchange): string | undefined {
  const texts = [ex.text];
  const walk = (v: unknown, depth: number): void => {
    if (texts.length > 200 || depth > 6) return;
    if (typeof v === "string") texts.push(v);
    else if (Array.isArray(v)) for (const x of v.slice(0, 50)) walk(x, depth + 1);
    else if (v !== null && typeof v === "object")
      for (const x of Object.values(v as Record<string, unknown>).slice(0, 50)) walk(x, depth + 1);
  };
  if (ex.jsonError === undefined) walk(ex.json, 0);
  for (const t of texts) {
    const leak = leakIn(t);
    if (leak !== undefined) return leak;
    const loc = SOURCE_LOCATION.exec(t);
    if (loc) return `a source location: ${loc[0].slice(0, 160)}`;
  }
  return undefined;
}

/** In a poll run no SET is pushed: the push answer rules do not apply (RFC 8936 has no answer to a SET). */
const pollOnly = (p: CaepReceiverProfile): string | undefined =>
  p.delivery === "poll" ? "the Receiver polls (RFC 8936): it answers no pushed SET" : undefined;

const what = (ex: ObservedExchange): string => `the ${ex.status} answer to ${ex.label ?? "a pushed SET"}`;

/** The registered Security Event Token error codes: RFC 8935 §2.4's, and SSF's invalid_state. */
const CODES: readonly string[] = [...DELIVERY_ERROR_CODES, "invalid_state"];

/**
 * RFC 8935 §2.2 to §2.4 (public-spec-facts §4 push delivery): rules about every answer of the
 * Receiver's push endpoint, judged on every SET any check pushes (valid ones, every refusal,
 * every robustness probe), not on one probe each.
 */
export const caepReceiverObservers = [
  defineObserver<CaepReceiverProfile>({
    id: "caep-receiver.observe-push-202",
    title: "every successful push answer is 202 Accepted with an empty body (RFC 8935 §2.2)",
    requirement: "CAEPR-PUSH-SUCCESS-202",
    notApplicable: pollOnly,
    applies: (ex) => pushed(ex) && ex.status >= 200 && ex.status < 300,
    judge: (ex) => {
      if (ex.status !== 202)
        return {
          message: `${what(ex)} is a success other than 202 Accepted`,
          expected: "202 with an empty body",
          actual: `${ex.status}${ex.text === "" ? "" : ` body ${quote(ex.text, 120)}`}`,
          kind: "wrong-status",
        };
      if (ex.text !== "")
        return {
          message: `${what(ex)} carries a body`,
          expected: "202 with an empty body",
          actual: `202 body ${quote(ex.text, 120)}`,
          kind: "wrong-value",
        };
      return undefined;
    },
  }),
  defineObserver<CaepReceiverProfile>({
    id: "caep-receiver.observe-push-error-format",
    title:
      "every 400 answer to a pushed SET is an application/json object with a registered err code and a description (RFC 8935 §2.3, §2.4)",
    requirement: "CAEPR-PUSH-ERROR-FORMAT",
    notApplicable: pollOnly,
    // The transport probes are left out: a framework's own 400 to a text/plain or oversize body
    // is HTTP's answer, not a SET error the RFC shapes.
    applies: (ex) => pushed(ex) && ex.status === 400 && !transport(ex),
    judge: (ex) => {
      const type = ex.header("content-type");
      if (!/^application\/json\s*(;|$)/i.test(type ?? ""))
        return {
          message: `${what(ex)} is not labelled JSON`,
          expected: "Content-Type: application/json",
          actual: type ?? "(no Content-Type)",
          kind: type === undefined ? "missing" : "wrong-value",
        };
      const j = ex.json;
      if (ex.jsonError !== undefined || j === null || typeof j !== "object" || Array.isArray(j))
        return {
          message: `${what(ex)} is not a JSON object`,
          expected: '{"err": <code>, "description": <text>}',
          actual: ex.jsonError !== undefined ? `${ex.jsonError}: ${quote(ex.text, 120)}` : quote(j, 120),
          kind: "malformed",
        };
      const b = j as Record<string, unknown>;
      if (typeof b.err !== "string" || !CODES.includes(b.err))
        return {
          message: `${what(ex)} has no registered err code`,
          expected: `err one of ${CODES.join(", ")}`,
          actual: `err ${quote(b.err, 60)}`,
          kind: b.err === undefined ? "missing" : "wrong-code",
        };
      if (typeof b.description !== "string")
        return {
          message: `${what(ex)} has no description`,
          expected: "description: a human-readable string",
          actual: `description ${quote(b.description, 60)}`,
          kind: b.description === undefined ? "missing" : "malformed",
        };
      return undefined;
    },
  }),
  defineObserver<CaepReceiverProfile>({
    id: "caep-receiver.observe-push-refusal-400",
    title:
      "every pushed SET the Receiver refuses (a forgery, a defective envelope or event, garbage) is answered 400, not another 4xx (RFC 8935 §2.3)",
    requirement: "CAEPR-PUSH-REFUSAL-400",
    notApplicable: pollOnly,
    // The SETs the checks push to be refused, and refused (isRefusal: the same judgement the
    // refusal checks made); the transport probes may get 401, 403, 413 or 415.
    applies: (ex) => pushed(ex) && ex.tags.includes(ATTACK) && !transport(ex) && isRefusal(ex.status),
    judge: (ex) =>
      ex.status === REFUSAL_STATUS
        ? undefined
        : {
            message: `${what(ex)} refuses the SET with another status than 400`,
            expected: `${REFUSAL_STATUS}: a SET that fails to parse, validate or authenticate is answered 400 (RFC 8935 §2.3)`,
            actual: `${ex.status}${ex.text === "" ? "" : ` ${quote(ex.text, 120)}`}`,
            kind: "wrong-status",
          },
  }),
  defineObserver<CaepReceiverProfile>({
    id: "caep-receiver.observe-no-5xx",
    title: "no pushed SET, valid or not, is answered with a server error (5xx)",
    requirement: "CAEPR-NO-5XX",
    notApplicable: pollOnly,
    applies: (ex) => pushed(ex),
    judge: (ex) =>
      ex.status < 500
        ? undefined
        : {
            message: `${what(ex)} is a server error`,
            expected: ex.tags.includes("attack") ? "a refusal (400)" : "202 (or a refusal, 400)",
            actual: `${ex.status}${ex.text === "" ? "" : ` ${quote(ex.text, 120)}`}`,
            kind: "wrong-status",
          },
  }),
  defineObserver<CaepReceiverProfile>({
    id: "caep-receiver.observe-no-leak",
    title: "no error answer of the push endpoint holds a stack trace, SQL, a file path or a framework banner",
    requirement: "CAEPR-ERROR-NO-LEAK",
    notApplicable: pollOnly,
    applies: (ex) => pushed(ex) && ex.status >= 400,
    judge: (ex) => {
      const leak = leakOf(ex);
      return leak === undefined
        ? undefined
        : {
            message: `${what(ex)} leaks internal details`,
            expected: "no stack trace, SQL, file path or framework banner",
            actual: leak,
            kind: "wrong-value",
          };
    },
  }),
];
