import { createServer, type Server } from "node:http";
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
