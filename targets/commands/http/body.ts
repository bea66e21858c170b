import { readBoundedBody } from "../../../src/http/bounded-body.js";
import { LIMITS } from "../limits.js";
import { CommandError, invalidRequest, MalformedRequest } from "./reply.js";

/**
 * Reads a request body as UTF-8 text within the bound (src/http/bounded-body.ts): too large
 * answers 413, bytes that are not UTF-8 answer 400.
 */
export async function readBoundedText(req: Request, max: number = LIMITS.maxBodyBytes): Promise<string> {
  const text = await readBoundedBody(req, max);
  // Stryker disable next-line ConditionalExpression: a body bound of this RP (the document states none); without it the oversized body is still refused, as a form without command_token
  if (text === "too-large")
    // Stryker disable next-line StringLiteral: a body bound of this RP (the document states none): its error code is its own
    throw new CommandError(413, "invalid_request", `the request body exceeds ${max} bytes`);
  // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent: "not-text" read as a form has no command_token, which is refused with the same 400 invalid_request
  if (text === "not-text") throw invalidRequest("the request body is not UTF-8 text");
  return text;
}

/**
 * Reads the Command Request form (specs/002 area A Endpoints: POST, body
 * application/x-www-form-urlencoded with `command_token`) and answers the token.
 * Parameters the RP does not understand are ignored ("MUST be ignored"), unless
 * `rejectUnknown` (the `unknown-param-rejected` fault). The whole form comes along for the
 * `login-hint-redirect` fault.
 */
export async function readCommandForm(
  req: Request,
  rejectUnknown: boolean,
): Promise<{ token: string; form: URLSearchParams }> {
  // Stryker disable next-line StringLiteral: the document says which Content-Type the OP sends (Endpoints), not that an RP must refuse another; a body without a command_token is refused either way
  const type = req.headers.get("content-type") ?? "";
  // Stryker disable next-line BlockStatement,ConditionalExpression,Regex: see above
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type)) {
    throw invalidRequest("the body must be application/x-www-form-urlencoded");
  }
  const form = new URLSearchParams(await readBoundedText(req));
  const tokens = form.getAll("command_token");
  // Stryker disable next-line ConditionalExpression: equivalent: an absent command_token reads as "", which decodeCompactJws refuses with the same 400 invalid_request
  if (tokens.length === 0) throw new MalformedRequest("command_token is required");
  // Stryker disable next-line ConditionalExpression: the document does not say how a repeated command_token is answered; the token used must still be valid
  if (tokens.length > 1) throw invalidRequest("command_token is repeated");
  // Stryker disable all: fault machinery: runs only under the unknown-param-rejected fault
  if (rejectUnknown) {
    const other = [...form.keys()].find((k) => k !== "command_token");
    if (other !== undefined) throw invalidRequest(`unknown parameter ${JSON.stringify(other.slice(0, 64))}`);
  }
  // Stryker restore all
  // Stryker disable next-line StringLiteral: unreachable: tokens has exactly one entry here
  return { token: tokens[0] ?? "", form };
}
