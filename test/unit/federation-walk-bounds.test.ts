import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { defineCheck, type CheckResult } from "../../src/engine/check.js";
import { runCheck } from "../../src/engine/check-runner.js";
import { closeAgents, DEFAULT_CLIENT_OPTIONS } from "../../src/http/client.js";
import { federationProfile, type FederationProfile } from "../../suites/federation/profile.js";
import { walkExtendedList, type Walk } from "../../suites/federation/walk.js";

/**
 * A hostile extended list: `cycle` hands back a cursor already followed, `runaway` a fresh next
 * on every page forever, `growing` pages ten times longer each time.
 */
function hostile(mode: "cycle" | "runaway" | "growing"): Server {
  return createServer((req, res) => {
    const from = new URL(req.url ?? "/", "http://x").searchParams.get("from");
    const n = from === null ? 0 : Number(from.slice(1));
    const size = mode === "growing" ? 10 ** Math.min(n, 4) : 1;
    const body = {
      immediate_subordinate_entities: Array.from({ length: size }, (_, i) => ({ id: `https://e/${n}/${i}` })),
      next: mode === "cycle" ? `c${(n % 2) + 1}` : `c${n + 1}`,
    };
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
}

const servers: Server[] = [];
afterAll(async () => {
  await closeAgents();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

async function walk(mode: "cycle" | "runaway" | "growing"): Promise<{ w: Walk; r: CheckResult }> {
  const server = hostile(mode);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/xl`;
  const profile = federationProfile.parse({
    baseUrl: "http://127.0.0.1:1/anchor",
    walk: { maxPages: 40, maxEntries: 2000 },
  });
  let w: Walk | undefined;
  const r = await runCheck(
    defineCheck<FederationProfile>({
      id: "test.walk",
      title: "walk",
      requirements: [],
      async run(c) {
        w = await walkExtendedList(c, url, { label: "extended list" });
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
  return { w: w!, r };
}

describe("specs/001 Extended listing: a hostile next or hostile pages stop the walk at the profile's bounds", () => {
  it("a next pointing back to a cursor already followed stops the walk, citing that page", async () => {
    const { w, r } = await walk("cycle");
    expect(w.stopped).toMatch(/page 3: next "c1" points back to a cursor already followed/);
    expect(w.pages).toHaveLength(3);
    expect(r.exchanges.map((e) => e.label)).toContain("extended list, page 3");
  });

  it("a next that never ends stops at walk.maxPages, the evidence holding the first and the last page", async () => {
    const { w, r } = await walk("runaway");
    expect(w.stopped).toBe("stopped after 40 pages (suites.federation.walk.maxPages)");
    expect(r.exchanges.map((e) => e.label)).toEqual(["extended list, page 1", "extended list, page 40"]);
    expect(r.notes).toEqual([
      "extended list: 40 pages walked, 40 entries; the evidence shows the first and the last page and the pages a finding cites",
    ]);
  });

  it("pages that grow stop at walk.maxEntries", async () => {
    const { w } = await walk("growing");
    // 1 + 10 + 100 + 1,000 entries, then 10,000 on the fifth page: past the 2,000 allowed.
    expect(w.stopped).toBe("stopped after 11111 entries (suites.federation.walk.maxEntries)");
    expect(w.pages).toHaveLength(5);
  });
});
