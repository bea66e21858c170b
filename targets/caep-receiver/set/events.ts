import type { FaultSet } from "../faults.js";
import { LIMITS } from "../limits.js";
import { CAEP_BASE, VERIFICATION_EVENT } from "../ssf.js";
import { invalidRequest } from "./errors.js";
import { caepEventName, COMMON, EVENTS, type ClaimSpec } from "./event-rules.js";

/** One event of a SET this Receiver understands. */
export interface ReceivedEvent {
  /** The CAEP event name, or "verification". */
  readonly name: string;
  readonly claims: Readonly<Record<string, unknown>>;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

// BCP 47 (RFC 5646) in its general shape: a primary subtag and further subtags.
const LANGUAGE_TAG = /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/;

/** Whether a value has the claim's JSON type (CAEP 1.0 §2, §3). */
function hasKind(value: unknown, kind: ClaimSpec["kind"]): boolean {
  switch (kind) {
    case "string":
      return typeof value === "string";
    case "number":
      // Number.isFinite is false for every non-number (it does not coerce).
      return Number.isFinite(value);
    case "object":
      return isObject(value);
    case "strings":
      return Array.isArray(value) && value.every((v) => typeof v === "string");
    case "messages": {
      // "MUST contain one or more key/value pairs, with a BCP47 language tag as the key"
      if (!isObject(value)) return false;
      const pairs = Object.entries(value);
      return (
        pairs.length > 0 && pairs.every(([tag, text]) => LANGUAGE_TAG.test(tag) && typeof text === "string")
      );
    }
  }
}

/** Checks one CAEP event's claims against its definition; unknown members are ignored. */
function checkEvent(name: string, claims: Record<string, unknown>, faults: FaultSet): void {
  const table: Readonly<Record<string, ClaimSpec>> = { ...COMMON, ...EVENTS[name] };
  for (const [claim, spec] of Object.entries(table)) {
    const value = claims[claim];
    if (value === undefined) {
      if (spec.required && !faults.has("event-required-unchecked")) {
        throw invalidRequest(`the ${name} event lacks its REQUIRED claim ${claim}`);
      }
      continue;
    }
    const kind = faults.has("reason-as-string") && spec.kind === "messages" ? "string" : spec.kind;
    if (!hasKind(value, kind)) throw invalidRequest(`the ${name} event's ${claim} has the wrong type`);
    if (spec.oneOf && !spec.oneOf.includes(value as string) && !faults.has("value-sets-unchecked")) {
      throw invalidRequest(`the ${name} event's ${claim} is not one of ${spec.oneOf.join(", ")}`);
    }
  }
  if (
    faults.has("previous-level-required") &&
    Object.hasOwn(table, "previous_level") &&
    claims.previous_level === undefined
  ) {
    throw invalidRequest(`the ${name} event lacks previous_level`);
  }
  if (faults.has("unknown-member-refused")) {
    const unknown = Object.keys(claims).find((c) => !Object.hasOwn(table, c));
    if (unknown !== undefined) throw invalidRequest(`the ${name} event carries an unknown member`);
  }
}

/**
 * Reads the `events` claim (RFC 8417 §2.2; CAEP 1.0 §3; SSF 1.0 §8.1.4): each CAEP event this
 * Receiver handles must conform to its definition, the verification event may carry a string
 * `state`; event types it does not know are ignored, as extensions are.
 */
export function readEvents(events: unknown, faults: FaultSet): ReceivedEvent[] {
  if (!isObject(events)) throw invalidRequest("the SET's events claim is not a JSON object");
  const entries = Object.entries(events);
  if (entries.length === 0) throw invalidRequest("the SET's events claim holds no event");
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a bound of this Receiver (SSF: a SET SHOULD carry one event; no text sets a maximum)
  if (entries.length > LIMITS.maxEventsPerSet) throw invalidRequest("the SET carries too many events");
  const out: ReceivedEvent[] = [];
  for (const [uri, claims] of entries) {
    if (uri === VERIFICATION_EVENT) {
      if (faults.has("verification-not-requested-refused")) {
        throw invalidRequest("the SET carries no event type this Receiver requested");
      }
      if (!isObject(claims)) throw invalidRequest("the verification event is not a JSON object");
      if (claims.state !== undefined && typeof claims.state !== "string") {
        throw invalidRequest("the verification event's state is not a string");
      }
      if (claims.state === undefined && faults.has("verification-state-required")) {
        throw invalidRequest("the verification event lacks state");
      }
      out.push({ name: "verification", claims });
      continue;
    }
    const name = caepEventName(
      faults.has("event-type-by-last-segment") ? `${CAEP_BASE}${uri.slice(uri.lastIndexOf("/") + 1)}` : uri,
    );
    // Stryker disable next-line ConditionalExpression,BlockStatement: equivalent: an unknown URI beside a known one names the same event with the same claims (SSF, the events claim), which the common claim rules accept as well, and no effect acts on an unnamed event; the block's other branch is the unknown-event-refused fault
    if (name === undefined) {
      if (faults.has("unknown-event-refused")) throw invalidRequest("the SET carries an unknown event type");
      continue;
    }
    if (!isObject(claims)) throw invalidRequest(`the ${name} event is not a JSON object`);
    checkEvent(name, claims, faults);
    out.push({ name, claims });
  }
  return out;
}
