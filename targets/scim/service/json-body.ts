import { readBoundedText } from "../body.js";
import type { FaultSet } from "../faults.js";
import { LIMITS } from "../limits.js";
import { badRequest, ScimError } from "./scim-error.js";

/**
 * Reads a SCIM request body as a JSON object. Over 1 MiB answers 413; text that is not a
 * JSON object answers 400 invalidSyntax (RFC 7644 §3.12: "the request body message
 * structure was invalid"); under `invalid-json-500`, text that does not parse answers 500.
 */
export async function readJsonObject(req: Request, faults: FaultSet): Promise<Record<string, unknown>> {
  const text = await readBoundedText(req);
  if (text === "too-large") {
    throw new ScimError(413, undefined, `the request body is larger than ${LIMITS.maxBodyBytes} bytes`);
  }
  if (text === "not-text") throw badRequest("invalidSyntax", "the request body is not UTF-8 text");
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    if (faults.has("invalid-json-500"))
      throw new ScimError(500, undefined, "the request could not be processed");
    throw badRequest("invalidSyntax", "the request body is not valid JSON");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw badRequest("invalidSyntax", "the request body must be a JSON object");
  }
  return value as Record<string, unknown>;
}
