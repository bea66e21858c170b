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
  if (text === "too-large") return problem(413, "invalid_request", `the body is larger than ${max} bytes`);
  if (text === "not-text") return problem(400, "invalid_request", "the body is not UTF-8 text");
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return problem(400, "invalid_request", "the body is not JSON");
  }
  return isObject(value) ? value : problem(400, "invalid_request", "the body is not a JSON object");
}
