import { defineObserver, type ObservedExchange } from "../../src/engine/observer.js";
import { quote } from "../../src/engine/quote.js";
import { challengeProblem } from "../../src/http/challenge.js";
import type { CaepTransmitterProfile } from "./profile.js";
import { pollObservers } from "./checks/poll.js";

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

const strings = (v: unknown): string[] | undefined =>
  Array.isArray(v) && v.every((x) => typeof x === "string") ? (v as string[]) : undefined;

/** The stream configurations a successful configuration_endpoint answer carries (one, or a list). */
function configurations(ex: ObservedExchange): Record<string, unknown>[] {
  if (!ex.tags.includes("stream-management") || ex.status < 200 || ex.status > 299) return [];
  const j = ex.json;
  const one = (v: unknown): v is Record<string, unknown> => isObject(v) && typeof v.stream_id === "string";
  if (one(j)) return "events_delivered" in j ? [j] : [];
  if (Array.isArray(j))
    return j
      .slice(0, 1000)
      .filter(one)
      .filter((s) => "events_delivered" in s);
  return [];
}

/** What is wrong with one configuration's events_delivered (SSF §8.1.1), or undefined. */
function deliveredProblem(s: Record<string, unknown>): string | undefined {
  const delivered = strings(s.events_delivered);
  if (delivered === undefined)
    return `events_delivered ${quote(s.events_delivered, 120)} is not an array of URIs`;
  const requested = strings(s.events_requested);
  const supported = strings(s.events_supported);
  const outside = delivered.filter(
    (e) =>
      (requested !== undefined && !requested.includes(e)) ||
      (supported !== undefined && !supported.includes(e)),
  );
  if (outside.length === 0) return undefined;
  const of = [
    supported !== undefined ? "events_supported" : "",
    requested !== undefined ? "events_requested" : "",
  ]
    .filter(Boolean)
    .join(" and ");
  return `events_delivered holds ${quote(outside, 200)}, which ${outside.length === 1 ? "is" : "are"} not in ${of}`;
}

/**
 * SSF 1.0 §8.1.1 ("events_delivered ... is a subset (not necessarily a proper subset) of the
 * intersection of events_supported and events_requested"): judged on every stream configuration
 * any check of the run read (create, read, list, update, replace), not on one probe.
 */
export const caepTransmitterObservers = [
  defineObserver<CaepTransmitterProfile>({
    id: "caep-transmitter.observe-events-delivered",
    title:
      "every stream configuration the Transmitter answers has events_delivered within events_supported and events_requested (SSF 1.0 §8.1.1)",
    requirement: "CAEPT-STREAM-EVENTS-DELIVERED",
    applies: (ex) => configurations(ex).length > 0,
    judge: (ex) => {
      for (const s of configurations(ex)) {
        const p = deliveredProblem(s);
        if (p !== undefined)
          return {
            message: `stream ${quote(s.stream_id, 80)}: ${p}`,
            expected:
              "events_delivered a subset of the intersection of events_supported and events_requested",
            actual: `events_delivered ${quote(s.events_delivered, 300)}, events_requested ${quote(s.events_requested, 300)}, events_supported ${quote(s.events_supported, 300)}`,
            kind: "wrong-value",
          };
      }
      return undefined;
    },
  }),
  defineObserver<CaepTransmitterProfile>({
    id: "caep-transmitter.observe-challenges",
    title:
      "every WWW-Authenticate the stream management and poll endpoints send is well formed (RFC 9110 §11.6.1; a Bearer challenge of name=value attributes, none twice, RFC 6750 §3)",
    requirement: "CAEPT-CHALLENGE-SYNTAX",
    applies: (ex) =>
      (ex.tags.includes("stream-management") || ex.tags.includes("poll")) &&
      ex.header("www-authenticate") !== undefined,
    judge: (ex) => {
      const value = ex.header("www-authenticate") ?? "";
      const problem = challengeProblem(value);
      return problem === undefined
        ? undefined
        : {
            message: `the WWW-Authenticate of the ${ex.status} answering ${ex.label ?? "a request"} is malformed: ${problem}`,
            expected:
              'challenges of RFC 9110 §11.6.1, for example Bearer realm="…", error="invalid_token", error_description="…" (RFC 6750 §3)',
            actual: `WWW-Authenticate: ${quote(value, 200)}`,
            kind: "malformed",
          };
    },
  }),
  ...pollObservers,
];
