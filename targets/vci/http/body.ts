import { readBoundedBody } from "../../../src/http/bounded-body.js";
import { badRequest, VciError } from "./errors.js";

/**
 * Reads a request body as UTF-8 text within the bound (src/http/bounded-body.ts): too large
 * answers 413, bytes that are not UTF-8 answer 400 with `code`.
 */
export async function readBoundedText(req: Request, max: number, code: string): Promise<string> {
  const text = await readBoundedBody(req, max);
  // Stryker disable next-line ConditionalExpression,StringLiteral: a defensive bound: specs/000 Limits says request size limits are not shown, so no check may require a 413 (or any answer) at some size (the always-true variant, refusing every body, goes with the line)
  if (text === "too-large") throw new VciError(413, code, `the request body exceeds ${max} bytes`);
  // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent: the literal "not-text" then fails the JSON parse (or names no form parameter) and is refused with the same status and code; only the description differs (the always-true variant, refusing every body, goes with the line)
  if (text === "not-text") throw badRequest(code, "the request body is not UTF-8 text");
  return text;
}

// Stryker disable next-line StringLiteral: equivalent: without a Content-Type any placeholder matches no media type, as "" does not
const NO_TYPE = "";

const isType = (req: Request, type: string): boolean => {
  const escaped = type.replace(/[+/.]/g, "\\$&");
  const given = req.headers.get("content-type") ?? NO_TYPE;
  return new RegExp(
    // Stryker disable next-line StringLiteral: left open: no document obliges an endpoint to refuse a body labelled with another Content-Type (RFC 9110 §8.3 lets a recipient examine the data); a body that is not JSON (or form) is refused by the parsing that follows
    `^${escaped}\\s*(;|$)`,
    "i",
  ).test(given);
};

/**
 * Reads an application/x-www-form-urlencoded body. A repeated parameter is refused
 * (RFC 6749 §3.1: parameters MUST NOT be included more than once).
 */
export async function readForm(
  req: Request,
  max: number,
  code = "invalid_request",
): Promise<URLSearchParams> {
  // Stryker disable next-line ConditionalExpression,BlockStatement: left open: no document obliges the token or authorization endpoint to refuse a form labelled with another Content-Type (RFC 9110 §8.3); a body that is no form names no parameter and is refused below
  if (!isType(req, "application/x-www-form-urlencoded")) {
    throw badRequest(code, "the body must be application/x-www-form-urlencoded");
  }
  const form = new URLSearchParams(await readBoundedText(req, max, code));
  const names = [...form.keys()];
  const repeated = names.find((n, i) => names.indexOf(n) !== i);
  if (repeated !== undefined) throw badRequest(code, `parameter ${repeated.slice(0, 64)} is repeated`);
  return form;
}

/** Reads an application/json body that must be one JSON object. */
export async function readJsonObject(
  req: Request,
  max: number,
  code: string,
): Promise<Record<string, unknown>> {
  // Stryker disable next-line ConditionalExpression: left open: no document obliges an endpoint to refuse JSON labelled with another Content-Type (RFC 9110 §8.3 lets a recipient examine the data); a body that is not JSON is refused by the parse below
  if (!isType(req, "application/json")) throw badRequest(code, "the body must be application/json");
  const text = await readBoundedText(req, max, code);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } /* Stryker disable next-line BlockStatement: equivalent: a body that is not JSON then leaves value undefined, refused below with the same status and code */ catch {
    throw badRequest(code, "the body is not JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw badRequest(code, "the body must be a JSON object");
  }
  return value as Record<string, unknown>;
}
