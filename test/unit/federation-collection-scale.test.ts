import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { CheckResult } from "../../src/engine/check.js";
import { ROOT } from "../../src/engine/discovery.js";
import { openSuite, type SuiteSession } from "../../src/engine/in-process.js";

/**
 * The open Intermediate with 3,000 generated members, its collection walked under a profile whose
 * walk.maxPages (40) is far below what limit 1 would take: the collection walk's limits start at
 * ceil(n / 39) (walk.ts smallestLimit), and nothing fails or errs.
 */
describe("the collection of a federation of 3,000 members under walk.maxPages 40", () => {
  const dir = mkdtempSync(join(tmpdir(), "idc-fed-coll-scale-"));
  let session: SuiteSession | undefined;
  afterAll(async () => {
    await session?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const open = async (): Promise<SuiteSession> => {
    if (session) return session;
    const base = readFileSync(join(ROOT, "profiles", "demo", "federation-intermediate.yaml"), "utf8");
    const file = join(dir, "profile.yaml");
    writeFileSync(
      file,
      base.replace(
        "    claimsForm: both\n",
        "    claimsForm: both\n    walk:\n      maxPages: 40\n      fetchMax: 5\n      runs: 5\n",
      ),
    );
    session = await openSuite({ suite: "federation", profileFile: file, targetOptions: { members: 3000 } });
    return session;
  };
  const notMet = (r: CheckResult): string[] =>
    Object.entries(r.requirements)
      .filter(([, o]) => o !== "met")
      .map(([id, o]) => `${id} ${o}`);
  const limits = (r: CheckResult): number[] =>
    r.exchanges.flatMap((e) =>
      [...(e.label ?? "").matchAll(/collection, limit (\d+)/g)].map((m) => Number(m[1])),
    );

  it(
    "collection-walk: every limit walked at least ceil(n / 39), every requirement met",
    { timeout: 60_000 },
    async () => {
      const s = await open();
      const r = await s.run("federation.collection-walk");
      expect(notMet(r)).toEqual([]);
      const note = r.notes.find((n) => /limits start at/.test(n));
      expect(note).toBeDefined();
      const [, n, lo] = /^(\d+) entities: limits start at (\d+)/.exec(note!)!;
      expect(Number(n)).toBeGreaterThan(3000);
      expect(Number(lo)).toBe(Math.ceil(Number(n) / 39));
      // The walks with limit (the one-page GET/POST comparison asks limit 2 on purpose).
      const walked = limits({ ...r, exchanges: r.exchanges.filter((e) => /page \d+$/.test(e.label ?? "")) });
      expect(walked.length).toBeGreaterThan(0);
      for (const l of walked) expect(l).toBeGreaterThanOrEqual(Number(lo));
      // Walks stay within walk.maxPages: no walk was stopped by it.
      expect(r.notes.join("\n")).not.toMatch(/walk\.maxPages pages/);
    },
  );

  it(
    "collection-entity-claims and collection-filters: judged page by page, pass or partly (fetchMax 5), never fail",
    { timeout: 120_000 },
    async () => {
      const s = await open();
      for (const id of ["federation.collection-entity-claims", "federation.collection-filters"]) {
        const r = await s.run(id);
        expect(r.findings.filter((f) => f.outcome === "violated")).toEqual([]);
        expect(Object.values(r.requirements)).not.toContain("error");
      }
    },
  );
});
