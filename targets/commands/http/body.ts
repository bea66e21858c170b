import { readBoundedBody } from "../../../src/http/bounded-body.js";
import { LIMITS } from "../limits.js";
import { CommandError, invalidRequest, MalformedRequest } from "./reply.js";

/**
 * Reads a request body as UTF-8 text within the bound (src/http/bounded-body.ts): too large
 * answers 413, bytes that are not UTF-8 answer 400.
 */
export async function readBoundedText(req: Request, max: number = LIMITS.maxBodyBytes): Promise<string> {
  const text = await readBoundedBody(req, max);
  if (text === "too-large")
    throw new CommandError(413, "invalid_request", `the request body exceeds ${max} bytes`);
  if (text === "not-text") throw invalidRequest("the request body is not UTF-8 text");
  return text;
}

/**
 * Reads the Command Request form (specs/002 area A Endpoints: POST, body
 * application/x-www-form-urlencoded with `command_token`) and answers the token.
 * Parameters the RP does not understand are ignored ("MUST be ignored"), unless
 * `rejectUnknown` (the `unknown-param-rejected` fault).
 */
export async function readCommandToken(req: Request, rejectUnknown: boolean): Promise<string> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type)) {
    throw invalidRequest("the body must be application/x-www-form-urlencoded");
  }
  const form = new URLSearchParams(await readBoundedText(req));
  const tokens = form.getAll("command_token");
  if (tokens.length === 0) throw new MalformedRequest("command_token is required");
  if (tokens.length > 1) throw invalidRequest("command_token is repeated");
  if (rejectUnknown) {
    const other = [...form.keys()].find((k) => k !== "command_token");
    if (other !== undefined) throw invalidRequest(`unknown parameter ${JSON.stringify(other.slice(0, 64))}`);
  }
  return tokens[0] ?? "";
}
