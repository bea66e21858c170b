import { request, type Dispatcher } from "undici";
import { SET_MEDIA_TYPE } from "../../src/protocols/caep.js";
import type { PushResult } from "./types.js";

const MAX_ANSWER = 2048;

/**
 * Pushes one SET to a Receiver (RFC 8935 §2): POST, `Content-Type: application/secevent+jwt`,
 * the stream's Authorization when it has one. The answer is bounded (status and at most 2 KB
 * of body); redirects are not followed; a transport failure is reported, never thrown, and
 * never names the authorization.
 */
export async function pushSet(
  endpoint: string,
  token: string,
  o: { authorization?: string; timeoutMs?: number; signal?: AbortSignal; dispatcher?: Dispatcher } = {},
): Promise<PushResult> {
  const signals = [AbortSignal.timeout(o.timeoutMs ?? 5000), ...(o.signal ? [o.signal] : [])];
  try {
    const res = await request(endpoint, {
      method: "POST",
      headers: {
        "content-type": SET_MEDIA_TYPE,
        accept: "application/json",
        ...(o.authorization !== undefined ? { authorization: o.authorization } : {}),
      },
      body: token,
      signal: AbortSignal.any(signals),
      ...(o.dispatcher ? { dispatcher: o.dispatcher } : {}),
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      if (size < MAX_ANSWER) chunks.push(chunk);
      size += chunk.length;
      if (size >= MAX_ANSWER) break;
    }
    res.body.destroy();
    const body = Buffer.concat(chunks).subarray(0, MAX_ANSWER).toString("utf8");
    return { status: res.statusCode, body };
  } catch (e) {
    const name = e instanceof Error ? e.name : "Error";
    const code = (e as { code?: unknown }).code;
    return { error: `push to the Receiver failed: ${name}${typeof code === "string" ? ` ${code}` : ""}` };
  }
}
