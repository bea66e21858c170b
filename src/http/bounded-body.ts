/** Why a request body could not be read: too large for the bound, or not UTF-8 text. */
export type BodyProblem = "too-large" | "not-text";

/**
 * Reads a request body as UTF-8 text for a mock or a reference target, stopping at `max`
 * bytes: a client cannot make the server buffer more than that (a declared Content-Length
 * over the bound is refused before reading anything). Each server maps the problem to its
 * own error format.
 */
export async function readBoundedBody(req: Request, max: number): Promise<string | BodyProblem> {
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
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    return "not-text";
  }
}
