import { readBoundedBody } from "../../../src/http/bounded-body.js";
import { badRequest, VciError } from "./errors.js";

/**
 * Reads a request body as UTF-8 text within the bound (src/http/bounded-body.ts): too large
 * answers 413, bytes that are not UTF-8 answer 400 with `code`.
 */
export async function readBoundedText(req: Request, max: number, code: string): Promise<string> {
  const text = await readBoundedBody(req, max);
  if (text === "too-large") throw new VciError(413, code, `the request body exceeds ${max} bytes`);
  if (text === "not-text") throw badRequest(code, "the request body is not UTF-8 text");
  return text;
}

const isType = (req: Request, type: string): boolean =>
  new RegExp(`^${type.replace(/[+/.]/g, "\\$&")}\\s*(;|$)`, "i").test(req.headers.get("content-type") ?? "");

/**
 * Reads an application/x-www-form-urlencoded body. A repeated parameter is refused
 * (RFC 6749 §3.1: parameters MUST NOT be included more than once).
 */
export async function readForm(
  req: Request,
  max: number,
  code = "invalid_request",
): Promise<URLSearchParams> {
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
  if (!isType(req, "application/json")) throw badRequest(code, "the body must be application/json");
  const text = await readBoundedText(req, max, code);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest(code, "the body is not JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw badRequest(code, "the body must be a JSON object");
  }
  return value as Record<string, unknown>;
}
