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
  if (v.length > LIMITS.maxStringLength) {
    throw badRequest("invalidValue", `${attr} is longer than ${LIMITS.maxStringLength} characters`);
  }
  return v;
}

/** A non-empty string (after trimming): for required identifiers such as userName. */
export function asNonEmpty(v: unknown, attr: string): string {
  const s = asString(v, attr);
  if (s.trim().length === 0) throw badRequest("invalidValue", `${attr} must not be empty`);
  return s;
}

/**
 * A boolean. The strings "true" and "false" (any case) are accepted too: widely used SCIM
 * clients send `"False"` in PATCH values, and refusing them would block deactivation.
 */
export function asBoolean(v: unknown, attr: string): boolean {
  if (typeof v === "boolean") return v;
  if (typeof v === "string" && /^(true|false)$/i.test(v)) return v.toLowerCase() === "true";
  throw badRequest("invalidValue", `${attr} must be true or false`);
}

export function asObject(v: unknown, attr: string): Record<string, unknown> {
  if (!isObject(v)) throw badRequest("invalidValue", `${attr} must be an object`);
  return v;
}

/** A multi-valued attribute's values: an array, or one value given alone. */
export function asList(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [v];
}
