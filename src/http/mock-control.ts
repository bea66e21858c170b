import { randomBytes } from "node:crypto";
import type { Context, Hono } from "hono";
import { request } from "undici";

/** What a mock saw the target send. Bodies are capped: the target is hostile. */
export interface MockLogEntry {
  readonly seq: number;
  readonly at: string;
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

const MAX_ENTRIES = 1000;
const MAX_BODY = 64 * 1024;
const MAX_WAIT_MS = 120_000;

/**
 * Reads at most `max` bytes of a request body (the rest is dropped unread), so a target that
 * sends gigabytes costs the mock nothing.
 */
async function readBounded(req: Request, max: number): Promise<string> {
  if (req.body === null) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < max) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, max).toString("utf8");
}

/**
 * The control side every mock shares: a bounded log of what the target sent, one-shot
 * hooks that make the next matching call misbehave, and control routes under `/__idc/`
 * guarded by a random token, so checks in vitest workers can read the log and arm hooks.
 */
export class MockControl {
  readonly token = randomBytes(18).toString("base64url");
  private readonly log: MockLogEntry[] = [];
  private seq = 0;
  private readonly hooks = new Map<string, unknown[]>();
  private waiters = new Set<() => void>();

  async record(c: Context): Promise<MockLogEntry> {
    const body = await readBounded(c.req.raw, MAX_BODY);
    const headers: Record<string, string> = {};
    c.req.raw.headers.forEach((v, k) => (headers[k] = v));
    const entry = {
      seq: ++this.seq,
      at: new Date().toISOString(),
      method: c.req.method,
      path: new URL(c.req.url).pathname,
      headers,
      body,
    };
    this.log.push(entry);
    if (this.log.length > MAX_ENTRIES) this.log.shift();
    for (const w of this.waiters) w();
    return entry;
  }

  /** Arms a one-shot hook; `take` hands it out once. */
  arm(name: string, value: unknown): void {
    (this.hooks.get(name) ?? this.hooks.set(name, []).get(name)!).push(value);
  }

  take(name: string): unknown {
    return this.hooks.get(name)?.shift();
  }

  entries(pathPrefix = "", since = 0): MockLogEntry[] {
    return this.log.filter((e) => e.seq > since && e.path.startsWith(pathPrefix));
  }

  /** Resolves when `count` entries under `pathPrefix` exist, or at the timeout with what there is. */
  wait(pathPrefix: string, count: number, timeoutMs: number): Promise<MockLogEntry[]> {
    return new Promise((resolve) => {
      const check = (): boolean => {
        const got = this.entries(pathPrefix);
        if (got.length < count) return false;
        done(got);
        return true;
      };
      const done = (got: MockLogEntry[]): void => {
        clearTimeout(timer);
        this.waiters.delete(waiter);
        resolve(got);
      };
      const waiter = (): void => void check();
      const timer = setTimeout(() => done(this.entries(pathPrefix)), Math.min(timeoutMs, MAX_WAIT_MS));
      this.waiters.add(waiter);
      check();
    });
  }

  /** Mounts the control routes on a mock's app. */
  mount(app: Hono): void {
    const guard = (c: Context): boolean => c.req.header("x-idc-control") === this.token;
    app.get("/__idc/log", (c) =>
      guard(c)
        ? c.json(this.entries(c.req.query("path") ?? "", Number(c.req.query("since") ?? 0)))
        : c.body(null, 403),
    );
    app.get("/__idc/wait", async (c) => {
      if (!guard(c)) return c.body(null, 403);
      const got = await this.wait(
        c.req.query("path") ?? "",
        Number(c.req.query("count") ?? 1),
        Number(c.req.query("timeoutMs") ?? 5000),
      );
      return c.json(got);
    });
    app.post("/__idc/hooks", async (c) => {
      if (!guard(c)) return c.body(null, 403);
      const { name, value } = (await c.req.json()) as { name: string; value: unknown };
      this.arm(name, value);
      return c.body(null, 204);
    });
  }
}

/**
 * One call to a mock's control routes (harness-internal traffic, not evidence), with its token:
 * the status and the JSON body. A status in `allowed` is returned without a body; another of 300
 * or above throws, naming the mock, the route and the mock's `error` text when it gave one.
 */
export async function controlCall<T>(
  mock: { readonly name: string; readonly url: string; readonly token: string },
  method: "GET" | "POST" | "DELETE",
  path: string,
  body: unknown,
  timeoutMs: number,
  allowed: readonly number[] = [],
): Promise<{ status: number; body?: T }> {
  const res = await request(`${mock.url}${path}`, {
    method,
    headers: {
      "x-idc-control": mock.token,
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
    },
    body: body === undefined ? null : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.body.text();
  if (allowed.includes(res.statusCode)) return { status: res.statusCode };
  if (res.statusCode >= 300) {
    let why = "";
    try {
      const e = (JSON.parse(text) as { error?: unknown }).error;
      if (typeof e === "string") why = `: ${e.slice(0, 200)}`;
    } catch {
      // no JSON error: the status says it
    }
    throw new Error(`${mock.name} control ${path.split("?")[0]} answered ${res.statusCode}${why}`);
  }
  return { status: res.statusCode, ...(text ? { body: JSON.parse(text) as T } : {}) };
}

/** The checks' side of a mock's control routes (harness-internal traffic, not evidence). */
export class MockClient {
  constructor(
    readonly url: string,
    private readonly token: string,
  ) {}

  async wait(pathPrefix: string, count: number, timeoutMs: number): Promise<MockLogEntry[]> {
    const q = new URLSearchParams({ path: pathPrefix, count: String(count), timeoutMs: String(timeoutMs) });
    return this.call<MockLogEntry[]>("GET", `/__idc/wait?${q}`, undefined, timeoutMs + 5000);
  }

  async arm(name: string, value: unknown): Promise<void> {
    await this.call("POST", "/__idc/hooks", { name, value }, 5000);
  }

  private async call<T>(method: "GET" | "POST", path: string, body: unknown, timeoutMs: number): Promise<T> {
    const mock = { name: "mock", url: this.url, token: this.token };
    return (await controlCall<T>(mock, method, path, body, timeoutMs)).body as T;
  }
}
