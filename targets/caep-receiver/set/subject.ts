import type { FaultSet } from "../faults.js";
import { LIMITS } from "../limits.js";
import { invalidRequest } from "./errors.js";

/**
 * Members of each subject identifier format this Receiver reads: RFC 9493 §3.2 (account,
 * email, iss_sub, opaque, phone_number, did, uri, aliases) and SSF 1.0 §3.4 (jwt_id,
 * saml_assertion_id). ip-addresses carries an array; complex is handled apart.
 */
const FORMATS: Readonly<Record<string, readonly string[]>> = {
  account: ["uri"],
  email: ["email"],
  iss_sub: ["iss", "sub"],
  opaque: ["id"],
  phone_number: ["phone_number"],
  did: ["url"],
  uri: ["uri"],
  jwt_id: ["iss", "jti"],
  saml_assertion_id: ["issuer", "assertion_id"],
};

/** SSF 1.0 §3.2: the members a complex subject may name, each a subject identifier. */
export const COMPLEX_MEMBERS = ["user", "device", "session", "application", "tenant", "org_unit", "group"];

const isObject = (v: unknown): v is Record<string, unknown> =>
  // Stryker disable next-line ConditionalExpression: equivalent: a string or number taken for an object has no format member, so it is refused as a subject without format (the same invalid_request)
  typeof v === "object" && v !== null && !Array.isArray(v);

const isIdentifier = (v: unknown): boolean =>
  typeof v === "string" &&
  v.length > 0 &&
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a length bound of this Receiver (the texts state none)
  v.length <= LIMITS.maxIdentifierLength;

function checkList(list: unknown, what: string): unknown[] {
  if (!Array.isArray(list) || list.length === 0) throw invalidRequest(`${what} is not a non-empty array`);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a bound of this Receiver on complex members, aliases identifiers and addresses (the texts state none)
  if (list.length > LIMITS.maxSubjectMembers) throw invalidRequest(`${what} has too many entries`);
  return list;
}

/**
 * Checks a subject identifier (RFC 9493 §3, SSF 1.0 §3): an object whose `format` is one this
 * Receiver knows and that carries that format's members as non-empty strings. A complex
 * subject names at least one of its members, each a simple identifier; an aliases subject
 * lists identifiers that are no aliases themselves (RFC 9493 §3.2.8). Members the format does
 * not define are ignored.
 */
// Stryker disable next-line StringLiteral: the path only appears in the description
export function checkSubject(subject: unknown, faults: FaultSet, where = "sub_id", nested = false): void {
  if (!isObject(subject)) throw invalidRequest(`${where} is not a JSON object`);
  if (faults.has("subject-format-unchecked")) return;
  const format = subject.format;
  if (typeof format !== "string") throw invalidRequest(`${where} has no format`);
  if (format === "complex") {
    if (nested) throw invalidRequest(`${where} nests a complex subject`);
    const named = COMPLEX_MEMBERS.filter((m) => subject[m] !== undefined);
    if (named.length === 0) throw invalidRequest(`${where} is complex but names no member`);
    // Stryker disable next-line StringLiteral: the path only appears in the description
    for (const m of named) checkSubject(subject[m], faults, `${where}.${m}`, true);
    return;
  }
  if (format === "aliases") {
    // Stryker disable next-line StringLiteral: the path only appears in the description
    for (const id of checkList(subject.identifiers, `${where}.identifiers`)) {
      if (isObject(id) && id.format === "aliases") throw invalidRequest(`${where} nests an aliases subject`);
      // Stryker disable next-line StringLiteral: the path only appears in the description
      checkSubject(id, faults, `${where}.identifiers`, true);
    }
    return;
  }
  if (format === "ip-addresses") {
    // Stryker disable next-line StringLiteral: the path only appears in the description
    const ips = checkList(subject["ip-addresses"], `${where}.ip-addresses`);
    if (!ips.every(isIdentifier)) throw invalidRequest(`${where}.ip-addresses holds a non-string`);
    return;
  }
  if (faults.has("ssf-subject-formats-unknown") && (format === "jwt_id" || format === "saml_assertion_id")) {
    throw invalidRequest(`${where} has a subject format this Receiver does not know`);
  }
  const members = FORMATS[format];
  if (!Object.hasOwn(FORMATS, format) || members === undefined) {
    throw invalidRequest(`${where} has a subject format this Receiver does not know`);
  }
  const missing = members.find((m) => !isIdentifier(subject[m]));
  if (missing !== undefined) throw invalidRequest(`${where} lacks its ${format} member ${missing}`);
}
