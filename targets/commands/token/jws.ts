import { MalformedRequest } from "../http/reply.js";

/** The parts of a compact JWS, decoded but not verified. */
export interface DecodedJws {
  readonly header: Record<string, unknown>;
  readonly payload: Record<string, unknown>;
  /** The signature segment, empty for an unsigned token. */
  readonly signature: string;
}

// Stryker disable next-line Regex: equivalent: a segment with other characters never verifies with the OP's key, so a later step refuses it with the same 400 invalid_request
const SEGMENT = /^[A-Za-z0-9_-]*$/;

function jsonObject(segment: string, what: string): Record<string, unknown> {
  let value: unknown;
  // Stryker disable BlockStatement: equivalent for the catch block: without it value stays undefined, which the next test refuses with the same 400 invalid_request (an empty try block refuses every token, which every check sees)
  try {
    value = JSON.parse(Buffer.from(segment, "base64url").toString("utf8")) as unknown;
  } catch {
    throw new MalformedRequest(`the command_token ${what} is not base64url-encoded JSON`);
  }
  // Stryker restore BlockStatement
  const notObject = (): Error => new MalformedRequest(`the command_token ${what} is not a JSON object`);
  if (value === null) throw notObject();
  // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent: a string, number or array read as the header or payload has no typ or iss of its own, which later steps refuse with the same 400 invalid_request
  if (typeof value !== "object" || Array.isArray(value)) throw notObject();
  return value as Record<string, unknown>;
}

/**
 * Decodes a Command Token as a compact JWS (RFC 7515 §7.1): three base64url segments, a
 * JSON object header and a JSON object payload. Anything else is a malformed request
 * (specs/002 area A Errors: 400 invalid_request). Nothing is trusted yet.
 */
export function decodeCompactJws(token: string): DecodedJws {
  const parts = token.split(".");
  // Stryker disable next-line BlockStatement,ConditionalExpression,LogicalOperator,MethodExpression,StringLiteral: equivalent: a token that is not a compact JWS of two JSON objects never verifies with the OP's key, so a later step refuses it with the same 400 invalid_request (CMD-REQUEST-MALFORMED probes each shape)
  if (parts.length !== 3 || !parts.every((p) => SEGMENT.test(p)) || parts[0] === "" || parts[1] === "") {
    throw new MalformedRequest("command_token is not a compact JWS (a signed JWT)");
  }
  // Stryker disable next-line StringLiteral: unreachable: parts has exactly three entries here
  const [h = "", p = "", s = ""] = parts;
  // Stryker disable next-line StringLiteral: the name only appears in error_description
  return { header: jsonObject(h, "header"), payload: jsonObject(p, "payload"), signature: s };
}
