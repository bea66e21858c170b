import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { CheckResult } from "../../src/engine/check.js";
import { ROOT } from "../../src/engine/discovery.js";
import { openSuite, type SuiteSession } from "../../src/engine/in-process.js";
import { federationProfile } from "../../suites/federation/profile.js";
import { PROPERTY_PAGES, smallestLimit } from "../../suites/federation/walk.js";
import type { Ctx } from "../../suites/federation/client.js";

/** A context with only the profile `smallestLimit` reads. */
const ctxWith = (walk: Record<string, number>): Ctx =>
  ({ profile: federationProfile.parse({ baseUrl: "https://127.0.0.1:1/x", walk }) }) as unknown as Ctx;

describe("generated limits of a walk property stay within the page budget (walk.ts smallestLimit)", () => {
  it("starts at 1 for a small list, at n / (pages a walk may take) for a large one, never past walk.maxPages", () => {
    const c = ctxWith({});
    expect(smallestLimit(c, 100, 22)).toBe(1);
    expect(smallestLimit(c, 0, 22)).toBe(1);
    // 3,000 pages over 22 walks: 136 pages a walk.
    expect(smallestLimit(c, 100_000, 22)).toBe(Math.ceil(100_000 / Math.floor(PROPERTY_PAGES / 22)));
    expect(Math.ceil(100_000 / smallestLimit(c, 100_000, 22)) * 22).toBeLessThanOrEqual(PROPERTY_PAGES);
    // A small walk.maxPages bounds a walk's pages below the budget's share.
    const small = ctxWith({ maxPages: 40 });
    expect(smallestLimit(small, 3000, 7)).toBe(Math.ceil(3000 / 39));
    expect(smallestLimit(ctxWith({ maxPages: 1 }), 50, 3)).toBe(50);
  });
});

/**
 * The open Intermediate with 3,000 generated members, walked under a profile whose walk.maxPages
 * (40) is far below what limit 1 would take: the generated limits adapt and nothing fails.
 */
describe("a federation of 3,000 members under walk.maxPages 40: generated limits adapt, verdicts stay pass", () => {
  const dir = mkdtempSync(join(tmpdir(), "idc-fed-scale-"));
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
    r.exchanges.flatMap((e) => [...(e.label ?? "").matchAll(/\(limit (\d+)\)/g)].map((m) => Number(m[1])));

  it(
    "xl-walk: every generated limit at least ceil(n / 39), every requirement met",
    { timeout: 60_000 },
    async () => {
      const s = await open();
      const r = await s.run("federation.xl-walk");
      expect(notMet(r)).toEqual([]);
      const note = r.notes.find((n) => /generated limits start at/.test(n));
      expect(note).toBeDefined();
      const [, n, lo] = /^(\d+) entries: generated limits start at (\d+)/.exec(note!)!;
      expect(Number(lo)).toBe(Math.ceil(Number(n) / 39));
      expect(Number(n)).toBeGreaterThan(3000);
      const seen = limits(r);
      expect(seen.length).toBeGreaterThan(0);
      for (const l of seen) expect(l).toBeGreaterThanOrEqual(Number(lo));
    },
  );

  it(
    "xl-change: limits from the same bound, the changes judged (not skipped), nothing fails",
    { timeout: 120_000 },
    async () => {
      const s = await open();
      const r = await s.run("federation.xl-change");
      expect(r.findings.filter((f) => f.outcome === "violated")).toEqual([]);
      expect(r.requirements["FED-XL-CHANGE-FETCHED"]).toBe("met");
      // The walks of the property (with this limit, after the changes); the one-page probe of the
      // removed entry's from asks limit 1 on purpose.
      const walked = limits({ ...r, exchanges: r.exchanges.filter((e) => !/pair/.test(e.label ?? "")) });
      expect(walked.length).toBeGreaterThan(0);
      for (const l of walked) expect(l).toBeGreaterThanOrEqual(Math.ceil(3000 / 39));
    },
  );

  it(
    "xl-timestamps and xl-claims-statement: judged page by page, pass or partly (fetchMax 5), never fail",
    { timeout: 60_000 },
    async () => {
      const s = await open();
      const t = await s.run("federation.xl-timestamps");
      expect(notMet(t)).toEqual([]);
      const st = await s.run("federation.xl-claims-statement");
      expect(st.findings.filter((f) => f.outcome === "violated")).toEqual([]);
      expect(st.requirements["FED-XL-CLAIMS-STATEMENT"]).toBe("met");
      expect(st.requirements["FED-XL-CLAIMS-NO-STATEMENT"]).toBe("met");
      // Signatures verified on the first 5 statements only: partly observed, not a pass.
      expect(st.findings.map((f) => f.message).join("\n")).toMatch(
        /signatures verified on the first 5 of \d+/,
      );
    },
  );
});
