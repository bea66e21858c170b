// Hostile-target measurements for `npm run bench` (hostile targets issue, item 2): the peak
// memory of a whole run, idconform and its test workers together, against targets whose every
// answer is as large as the size cap allows.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "undici";

/** Resident memory of a process and all its descendants, in bytes (Linux /proc). */
function treeRss(root: number): number {
  const parent = new Map<number, number>();
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      // The command name may hold spaces: fields start after its closing parenthesis.
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parent.set(Number(d), ppid);
    } catch {
      // The process ended while we looked.
    }
  }
  let total = 0;
  for (const pid of parent.keys()) {
    let p: number | undefined = pid;
    while (p !== undefined && p !== root && p > 1) p = parent.get(p);
    if (p !== root) continue;
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      total += Number(m?.[1] ?? 0) * 1024;
    } catch {
      // ended
    }
  }
  return total;
}

/** Runs a command and samples its process tree's memory every 50 ms; the peak is the largest sum. */
export async function runWithPeak(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; peakBytes: number; ms: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: "ignore" });
  let peak = 0;
  const timer = setInterval(() => {
    if (child.pid !== undefined) peak = Math.max(peak, treeRss(child.pid));
  }, 50);
  const code = await new Promise<number | null>((r) => child.on("close", r));
  clearInterval(timer);
  return { code, peakBytes: peak, ms: performance.now() - started };
}

export type Padding = "string" | "keys";

/**
 * A reverse proxy in front of a reference target that pads every JSON object it answers to just
 * under `capBytes`: with one long string member, or with as many small members as fit (a JSON
 * body of hundreds of thousands of keys). The target's protocol behaviour is otherwise intact,
 * so every check runs its full course against answers at the size cap.
 */
export async function startPaddingProxy(
  upstream: string,
  capBytes: number,
  padding: Padding,
): Promise<{ url: string; close(): Promise<void> }> {
  const up = new URL(upstream);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        try {
          const headers = { ...req.headers, host: up.host };
          const r = await request(new URL(req.url ?? "/", up), {
            method: (req.method ?? "GET") as "GET",
            headers,
            body: chunks.length > 0 ? Buffer.concat(chunks) : null,
            signal: AbortSignal.timeout(30_000),
          });
          const text = await r.body.text();
          const out = pad(text, String(r.headers["content-type"] ?? ""), capBytes, padding);
          const h: Record<string, string> = {};
          for (const [k, v] of Object.entries(r.headers))
            if (v !== undefined && !["content-length", "transfer-encoding", "connection"].includes(k))
              h[k] = Array.isArray(v) ? v.join(", ") : v;
          res.writeHead(r.statusCode, { ...h, "content-length": String(Buffer.byteLength(out)) });
          res.end(out);
        } catch {
          res.writeHead(502).end();
        }
      })();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

function pad(text: string, contentType: string, capBytes: number, padding: Padding): string {
  if (!contentType.includes("json") || !text.trimStart().startsWith("{")) return text;
  const room = capBytes - Buffer.byteLength(text) - 1024;
  if (room <= 0) return text;
  const open = text.trimStart().slice(1).trimStart();
  const sep = open.startsWith("}") ? "" : ",";
  if (padding === "string") return `{"x-pad":"${"p".repeat(room)}"${sep}${open}`;
  // "k12345":0, is about 11 bytes a member.
  const members: string[] = [];
  for (let i = 0, used = 0; used + 12 < room; i++) {
    const m = `"k${i}":0`;
    members.push(m);
    used += m.length + 1;
  }
  return `{${members.join(",")}${sep}${open}`;
}
