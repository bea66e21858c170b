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
  // Stryker disable next-line all: a body over the target's own 1 MiB bound is then refused 400 invalidSyntax instead of 413: no requirement states a size limit or which refusal answers it (the `true` variant, refusing every body, is silenced with them)
  if (text === "too-large") {
    throw new ScimError(413, undefined, `the request body is larger than ${LIMITS.maxBodyBytes} bytes`);
  }
  // Stryker disable next-line all: the condition's mutants are equivalent (the sentinel word is not JSON either, refused the same 400 invalidSyntax); the literals' change only the scimType of a body that is not UTF-8 text, which no check sends
  if (text === "not-text") throw badRequest("invalidSyntax", "the request body is not UTF-8 text");
  let value: unknown;
  // Stryker disable BlockStatement: the catch block emptied is equivalent (value stays undefined and is refused below, the same 400 invalidSyntax); the try block emptied, which this also silences, refuses every body
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    if (faults.has("invalid-json-500"))
      throw new ScimError(500, undefined, "the request could not be processed");
    throw badRequest("invalidSyntax", "the request body is not valid JSON");
  }
  // Stryker restore BlockStatement
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw badRequest("invalidSyntax", "the request body must be a JSON object");
  }
  return value as Record<string, unknown>;
}
