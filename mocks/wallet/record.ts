import type { IncomingMessage } from "node:http";
import type { Context } from "hono";
import type { MockControl, MockLogEntry } from "../../src/http/mock-control.js";

/** An invocation URI is a link or a QR code; the Wallet keeps no more of one than this. */
export const MAX_RECORDED_URL = 16 * 1024;

/**
 * The request target exactly as the sender wrote it (node's raw `url`), so a check sees an
 * unencoded offer as unencoded; WHATWG URL parsing would have escaped some of it.
 */
export function rawTarget(c: Context): string {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming?.url) return incoming.url;
  const u = new URL(c.req.url);
  return `${u.pathname}${u.search}`;
}

/**
 * Records a GET whose meaning is all in its URL (an offer invocation, an authorization
 * response) in the shared MockControl log, with the path and query, bounded, as the entry's
 * `body`: the log keeps only the pathname, and a GET has no body of its own, so this is how
 * a check reading the log through `MockClient.wait` gets the query.
 */
export function recordUrl(control: MockControl, c: Context): Promise<MockLogEntry> {
  const target = rawTarget(c).slice(0, MAX_RECORDED_URL);
  const headers = new Headers(c.req.raw.headers);
  headers.delete("content-length");
  headers.delete("transfer-encoding");
  const raw = new Request(c.req.url, { method: "POST", headers, body: target });
  const view = { req: { raw, method: c.req.method, url: c.req.url } };
  return control.record(view as unknown as Context);
}

/**
 * The path and query of a request `recordUrl` logged (`/offer/slot?credential_offer=...`);
 * resolve it against the wallet's URL for an absolute invocation URL.
 */
export function recordedUrl(entry: MockLogEntry): string {
  return entry.body;
}
