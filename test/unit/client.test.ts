import { createServer, type Server } from "node:http";
import { gzipSync, createGzip, constants as zc } from "node:zlib";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HarnessError } from "../../src/engine/errors.js";
import { closeAgents, DEFAULT_CLIENT_OPTIONS, RecordingClient } from "../../src/http/client.js";
import { Redactor } from "../../src/http/redactor.js";

let server: Server;
let base: string;
const hanging = new Set<() => void>();

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === "/json")
      return void res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
    if (req.url === "/garbage")
      return void res.writeHead(200, { "content-type": "application/json" }).end("{not json");
    if (req.url === "/loop") return void res.writeHead(302, { location: "/loop" }).end();
    if (req.url === "/hop") return void res.writeHead(302, { location: "/json" }).end();
    if (req.url === "/flood") {
      res.writeHead(200);
      const chunk = Buffer.alloc(64 * 1024, 97);
      const pump = (): void => {
        while (res.write(chunk)) if (res.destroyed) return;
        res.once("drain", pump);
      };
      return pump();
    }
    if (req.url === "/hang") return void hanging.add(() => res.end());
    if (req.url === "/near-cap")
      return void res
        .writeHead(200, { "content-type": "application/json" })
        .end(`{"pad":"${"p".repeat(3 * 1024 * 1024)}"}`);
    if (req.url === "/deep")
      return void res
        .writeHead(200, { "content-type": "application/json" })
        .end(`${"[".repeat(100_000)}${"]".repeat(100_000)}`);
    if (req.url === "/echo-token")
      return void res.writeHead(200, { "content-type": "text/plain" }).end("you sent tok-later-123 before");
    if (req.url === "/big-jwks") {
      const keys = Array.from({ length: 900 }, (_, i) => ({
        kty: "EC",
        crv: "P-256",
        x: `x${i}`.padEnd(43, "x"),
        y: `y${i}`.padEnd(43, "y"),
        d: "PRIVATE-SCALAR",
      }));
      return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys }));
    }
    if (req.url === "/cross")
      return void res
        .writeHead(302, { location: `http://localhost:${(server.address() as AddressInfo).port}/who` })
        .end();
    if (req.url === "/who")
      return void res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ authorization: req.headers.authorization ?? null }));
    if (req.url === "/gz")
      return void res.writeHead(200, { "content-encoding": "gzip" }).end(gzipSync("hello gzip"));
    if (req.url === "/bad-gz")
      return void res.writeHead(200, { "content-encoding": "gzip" }).end("not gzip at all");
    if (req.url === "/bomb")
      return void res
        .writeHead(200, { "content-encoding": "gzip" })
        .end(gzipSync(Buffer.alloc(8 * 1024 * 1024, 97)));
    if (req.url === "/events") {
      // An endless event stream, gzip-flushed event by event; the client must drop it.
      res.writeHead(200, { "content-type": "text/event-stream", "content-encoding": "gzip" });
      const gz = createGzip({ flush: zc.Z_SYNC_FLUSH });
      gz.pipe(res);
      let n = 0;
      const t = setInterval(() => {
        if (res.destroyed) return clearInterval(t);
        gz.write(`id: ${++n}\ndata: {}\n\n`);
      }, 2);
      res.on("close", () => clearInterval(t));
      return;
    }
    if (req.url === "/head-big") return void res.writeHead(200, { "content-length": "999999999" }).end();
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const h of hanging) h();
  await closeAgents();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const client = (over: Partial<typeof DEFAULT_CLIENT_OPTIONS> = {}): RecordingClient =>
  new RecordingClient({ ...DEFAULT_CLIENT_OPTIONS, allowInsecureHttp: true, ...over });

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "none";
  } catch (e) {
    return e instanceof HarnessError ? e.code : `other: ${String(e)}`;
  }
}

describe("recording client (core issue §4)", () => {
  it("records the exchange and parses JSON, reporting garbage as jsonError, not an exception", async () => {
    const c = client();
    const ok = await c.get(`${base}/json`);
    expect(ok.json).toEqual({ ok: true });
    const bad = await c.get(`${base}/garbage`);
    expect(bad.json).toBeUndefined();
    expect(bad.jsonError).toMatch(/not JSON/);
    const ev = c.evidence(new Redactor());
    expect(ev).toHaveLength(2);
    expect(ev[0]).toMatchObject({ request: { method: "GET" }, response: { status: 200 } });
    expect(ev[0]?.curl).toContain(`"${base}/json"`);
  });

  it("refuses plain http unless the profile allows it", async () => {
    expect(await code(client({ allowInsecureHttp: false }).get(`${base}/json`))).toBe("IDC_HTTP_INSECURE");
  });

  it("never follows a redirect unless asked, and stops a redirect loop", async () => {
    const c = client();
    expect((await c.get(`${base}/hop`)).status).toBe(302);
    expect((await c.get(`${base}/hop`, { follow: 2 })).status).toBe(200);
    expect(await code(c.get(`${base}/loop`, { follow: 5 }))).toBe("IDC_HTTP_REDIRECT_LOOP");
  });

  it("stops reading at the size cap and keeps the evidence", async () => {
    const c = client({ maxResponseBytes: 256 * 1024 });
    expect(await code(c.get(`${base}/flood`))).toBe("IDC_HTTP_TOO_LARGE");
    const [ex] = c.evidence(new Redactor());
    expect(ex?.truncated).toBe(true);
    expect(ex?.error?.code).toBe("IDC_HTTP_TOO_LARGE");
  });

  it("gives up on a target that never answers at the request timeout", async () => {
    const c = client({ requestTimeoutMs: 300 });
    expect(await code(c.get(`${base}/hang`))).toBe("IDC_HTTP_TIMEOUT");
  });

  it("reports a closed port as unreachable", async () => {
    const s = createServer();
    await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
    const port = (s.address() as AddressInfo).port;
    await new Promise((r) => s.close(r));
    expect(await code(client().get(`http://127.0.0.1:${port}/`))).toBe("IDC_HTTP_UNREACHABLE");
  });
});

describe("recording client edge cases (review of the core)", () => {
  it("redacts a secret met in a later exchange from an earlier one, and a private JWK in a body over the evidence cap", async () => {
    const c = client();
    await c.get(`${base}/echo-token`);
    await c.get(`${base}/json`, { headers: { authorization: "Bearer tok-later-123" } });
    await c.get(`${base}/big-jwks`);
    const text = JSON.stringify(c.evidence(new Redactor()));
    expect(text).not.toContain("tok-later-123");
    expect(text).not.toContain("PRIVATE-SCALAR");
  });

  it("drops credentials when a followed redirect leaves the origin", async () => {
    const c = client();
    const res = await c.get(`${base}/cross`, { follow: 1, headers: { authorization: "Bearer x-cross-1" } });
    expect(res.json).toEqual({ authorization: null });
  });

  it("reads no body for HEAD, whatever Content-Length declares", async () => {
    const res = await client({ maxResponseBytes: 1024 }).send({ method: "HEAD", url: `${base}/head-big` });
    expect(res.status).toBe(200);
  });
});

describe("recording client streams (decode, drop mid-stream)", () => {
  it("decodes gzip when asked; garbage gives decodeError, not an exception", async () => {
    const c = client();
    expect((await c.get(`${base}/gz`, { decode: true })).text).toBe("hello gzip");
    const bad = await c.get(`${base}/bad-gz`, { decode: true });
    expect(bad.decodeError).toContain("does not decode as gzip");
  });

  it("stops a compression bomb at the size cap", async () => {
    expect(await code(client({ maxResponseBytes: 1024 * 1024 }).get(`${base}/bomb`, { decode: true }))).toBe(
      "IDC_HTTP_TOO_LARGE",
    );
  });

  it("drops an endless gzip event stream once stopWhen is met, keeping what arrived", async () => {
    const res = await client().get(`${base}/events`, {
      decode: true,
      stopWhen: (t) => t.includes("id: 3\n"),
    });
    expect(res.stopped).toBe(true);
    expect(res.text).toContain("id: 1\n");
    expect(res.text).toContain("id: 3\n");
  });
});

describe("bounded evidence (hostile targets item 2)", () => {
  it("keeps a bounded start of each body: 200 answers of 3 MB keep about 1.4 MB in all, the check still reads each whole", async () => {
    const c = client();
    for (let i = 0; i < 200; i++) {
      const res = await c.get(`${base}/near-cap`);
      expect(res.text.length).toBe(3 * 1024 * 1024 + 10);
    }
    const ev = c.evidence(new Redactor(), new Set([0]));
    const kept = ev.reduce((n, e) => n + (e.response?.body?.length ?? 0), 0);
    expect(kept).toBeLessThan(2 * 1024 * 1024);
    // A cited exchange shows its start at the evidence cap, an uncited one 16 KiB, and once the
    // check's 1 MiB budget is spent, 2 KiB; each cut is marked.
    expect(ev[0]?.response?.body).toMatch(/\n… \[cut at 65536 characters\]$/);
    expect(ev[1]?.response?.body).toMatch(/\n… \[cut at 16384 characters\]$/);
    expect(ev[199]?.response?.body).toMatch(/\n… \[cut at 2048 characters\]$/);
  });

  it("discardBody reads a 3 MB answer to its end but keeps only its first 2 KiB", async () => {
    const c = client();
    const res = await c.get(`${base}/near-cap`, { discardBody: true });
    expect(res.status).toBe(200);
    expect(res.bytes).toBe(3 * 1024 * 1024 + 10);
    expect(res.text).toBe(`{"pad":"${"p".repeat(2048 - 8)}`);
    expect(c.evidence(new Redactor())[0]?.response?.body).toMatch(/\n… \[cut at 2048 characters\]$/);
  });

  it("a body nested 100,000 deep is not read as JSON: a jsonError, not a stack overflow", async () => {
    const res = await client().get(`${base}/deep`);
    expect(res.json).toBeUndefined();
    expect(res.jsonError).toContain("nested deeper than 128 levels");
  });
});
