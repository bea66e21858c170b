import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineCheck } from "../../src/engine/check.js";
import { runCheck } from "../../src/engine/check-runner.js";
import { closeAgents, DEFAULT_CLIENT_OPTIONS } from "../../src/http/client.js";
import { federationProfile, type FederationProfile } from "../../suites/federation/profile.js";
import { getList, listJson, listMaxBytes } from "../../suites/federation/checks/fetch-list.js";

/**
 * A base list endpoint: `/big` a list of 150,000 identifiers (past the client's 4 MiB and its
 * 100,000 JSON values, within walk.maxEntries), `/endless` a chunked body that never ends.
 */
let server: Server;
let base = "";
const big = JSON.stringify(
  Array.from({ length: 150_000 }, (_, i) => `https://127.0.0.1/m${String(i).padStart(7, "0")}`),
);
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === "/big") {
      res.writeHead(200, { "content-type": "application/json" }).end(big);
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.write("[");
    const chunk = `${'"https://127.0.0.1/endless",'.repeat(4000)}`;
    const pump = (): void => {
      while (!res.destroyed && res.write(chunk));
      if (!res.destroyed) res.once("drain", pump);
    };
    res.on("close", () => res.destroy());
    pump();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await closeAgents();
  await new Promise((r) => server.close(r));
});

async function read(path: string, maxEntries: number) {
  const profile = federationProfile.parse({ baseUrl: `${base}/ta`, walk: { maxEntries } });
  let out: { over?: string; ids?: number; error?: string; cap?: number } = {};
  const r = await runCheck(
    defineCheck<FederationProfile>({
      id: "test.list",
      title: "list",
      requirements: [],
      async run(c) {
        const res = await getList(c, `${base}${path}`, { label: "base list" });
        if ("over" in res) out = { over: res.over, cap: listMaxBytes(c) };
        else {
          const j = listJson(c, res);
          out = { ids: Array.isArray(j.json) ? j.json.length : -1, ...(j.error ? { error: j.error } : {}) };
        }
      },
    }),
    {
      suite: "federation",
      section: "test",
      profile,
      features: {},
      probes: {},
      client: { ...DEFAULT_CLIENT_OPTIONS, allowInsecureHttp: true },
      secrets: [],
      seed: 1,
      runId: "test",
      provided: {},
    },
  );
  return { out, r };
}

describe("the base list of a large federation: a cap from walk.maxEntries, never the client's 4 MiB", () => {
  it("reads a list of 150,000 identifiers (5 MB, past 100,000 JSON values) within walk.maxEntries", async () => {
    const { out } = await read("/big", 500_000);
    expect(big.length).toBeGreaterThan(4 * 1024 * 1024);
    expect(out).toEqual({ ids: 150_000 });
  });

  it("a list longer than walk.maxEntries is not read as JSON: the reason names the bound", async () => {
    const { out } = await read("/big", 100_000);
    expect(out.ids).toBe(-1);
    expect(out.error).toMatch(/more than 100001 values .*walk\.maxEntries 100000/);
  });

  it("an endless body is cut at maxEntries x 128 bytes and given back as a reason, not thrown", async () => {
    const { out, r } = await read("/endless", 100_000);
    expect(out.cap).toBe(100_000 * 128);
    expect(out.over).toMatch(
      /passed the 12800000-byte cap.*100000 entries of suites\.federation\.walk\.maxEntries/,
    );
    expect(r.findings.filter((f) => f.outcome === "errored")).toEqual([]);
  });
});
