import { LIMITS } from "./limits.js";

/** Why a body could not be read: too large for the bound, or not UTF-8 text. */
export type BodyProblem = "too-large" | "not-text";

/**
 * Reads a request body as UTF-8 text, stopping at `max` bytes: a client cannot make the
 * target buffer more than that (a declared Content-Length over the bound is refused
 * before reading anything).
 */
export async function readBoundedText(
  req: Request,
  max: number = LIMITS.maxBodyBytes,
): Promise<string | BodyProblem> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (Number.isFinite(declared) && declared > max) return "too-large";
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
      return "too-large";
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
    return "not-text";
  }
}
