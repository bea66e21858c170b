import { Pool } from "undici";
import { SET_MEDIA_TYPE } from "../../src/protocols/caep.js";

export interface PushManyOptions {
  /** The Receiver's push endpoint (RFC 8935). */
  readonly endpoint: string;
  readonly authorization?: string;
  /** How many SETs: `tokens.length`, or `count` made by `make`. */
  readonly tokens?: readonly string[];
  readonly count?: number;
  /** Makes SET number i (signed on the way, so the rate includes signing). */
  readonly make?: (i: number) => Promise<string> | string;
  /** Requests in flight at once, over as many keep-alive connections (default 16). */
  readonly concurrency?: number;
  /** Per request (default 5000 ms). */
  readonly timeoutMs?: number;
}

export interface PushManyResult {
  readonly count: number;
  /** How many answers had each status; transport failures count under 0. */
  readonly statuses: Record<number, number>;
  readonly elapsedMs: number;
  /** SETs per second. */
  readonly rate: number;
}

/**
 * Pushes many SETs to one endpoint as fast as the Receiver takes them (RFC 8935 §2 requests:
 * POST, `application/secevent+jwt`), with bounded concurrency on one undici Pool of keep-alive
 * connections. Answers are counted by status and their bodies discarded. For the bench (the
 * issue's speed goal: 2,000 signed SETs per second to a loopback Receiver answering 202 at once).
 */
export async function pushMany(o: PushManyOptions): Promise<PushManyResult> {
  const total = o.tokens?.length ?? o.count ?? 0;
  if (!o.tokens && !o.make) throw new Error("pushMany needs tokens or make");
  const url = new URL(o.endpoint);
  const concurrency = Math.max(1, Math.min(o.concurrency ?? 16, 256));
  const pool = new Pool(url.origin, { connections: concurrency, pipelining: 1 });
  const path = `${url.pathname}${url.search}`;
  const headers = {
    "content-type": SET_MEDIA_TYPE,
    ...(o.authorization !== undefined ? { authorization: o.authorization } : {}),
  };
  const statuses: Record<number, number> = {};
  let next = 0;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    for (;;) {
      const i = next++;
      if (i >= total) return;
      const body = o.tokens ? o.tokens[i]! : await o.make!(i);
      let status = 0;
      try {
        const res = await pool.request({
          method: "POST",
          path,
          headers,
          body,
          signal: AbortSignal.timeout(o.timeoutMs ?? 5000),
        });
        status = res.statusCode;
        await res.body.dump();
      } catch {
        status = 0;
      }
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(total, 1)) }, worker));
  } finally {
    await pool.close();
  }
  const elapsedMs = performance.now() - started;
  return { count: total, statuses, elapsedMs, rate: elapsedMs > 0 ? (total * 1000) / elapsedMs : 0 };
}
