import { LIMITS } from "../limits.js";
import { CommandError, invalidRequest, MalformedRequest } from "./reply.js";

/**
 * Reads a request body as UTF-8 text, stopping at `max` bytes: a client cannot make the
 * target buffer more than that (a declared Content-Length over the bound is refused before
 * reading anything). Too large answers 413, bytes that are not UTF-8 answer 400.
 */
export async function readBoundedText(req: Request, max: number = LIMITS.maxBodyBytes): Promise<string> {
  const tooLarge = new CommandError(413, "invalid_request", `the request body exceeds ${max} bytes`);
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (Number.isFinite(declared) && declared > max) throw tooLarge;
  if (req.body === null) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw tooLarge;
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(all);
  } catch {
    throw invalidRequest("the request body is not UTF-8 text");
  }
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
