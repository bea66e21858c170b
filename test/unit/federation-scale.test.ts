import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { targetCommand } from "../../src/cli/serve-cmd.js";
import { defineCheck } from "../../src/engine/check.js";
import { ROOT } from "../../src/engine/discovery.js";
import { openSuite } from "../../src/engine/in-process.js";
import { Fed } from "../../suites/federation/client.js";
import type { FederationProfile } from "../../suites/federation/profile.js";
import { walkExtendedList, type Walk } from "../../suites/federation/walk.js";

/** One walk of the reference Intermediate's extended list (where generated members go), default page size. */
async function walkIntermediate(faults: string[]) {
  const s = await openSuite({
    suite: "federation",
    faults,
    targetOptions: { members: 1000 },
    profileFile: join(ROOT, "profiles", "demo", "federation-intermediate.yaml"),
  });
  let walk: Walk | undefined;
  try {
    const result = await s.run(
      defineCheck<FederationProfile>({
        id: "test.xl-walk",
        title: "walk",
        requirements: [],
        async run(c) {
          const url = await new Fed(c).endpoint("federation_extended_list_endpoint");
          walk = await walkExtendedList(c, url, { label: "extended list" });
        },
      }),
    );
    return { result, walk: walk! };
  } finally {
    await s.close();
  }
}

describe("specs/001 federations of many members: flat walks, bounded evidence", () => {
  it("a walk of 1,000 members keeps the first and the last page as evidence, says how many pages it walked, and keeps no body after the first page", async () => {
    const { result, walk } = await walkIntermediate([]);
    expect(walk.stopped).toBeUndefined();
    // 1,000 generated members and the fixed leaves of the open Intermediate, 100 a page.
    expect(walk.ids.length).toBeGreaterThan(1000);
    const pages = walk.pages.length;
    expect(pages).toBe(Math.ceil(walk.ids.length / 100));
    const labels = result.exchanges.map((e) => e.label);
    expect(labels).toEqual(["Entity Configuration", "extended list, page 1", `extended list, page ${pages}`]);
    expect(result.notes.join("\n")).toContain(`${pages} pages walked, ${walk.ids.length} entries`);
    expect(walk.pages[0]?.res.json).toBeTypeOf("object");
    expect(() => walk.pages[3]?.res.text).toThrow(/not kept/);
  });

  it("a page with something wrong on its own (it starts with an entry already listed) stays in the evidence", async () => {
    const { result, walk } = await walkIntermediate(["xl-border-repeats"]);
    // Every page after the first starts with the previous page's last entry.
    expect(result.exchanges.length).toBe(1 + walk.pages.length);
  });
});

describe("idconform target --members (scale runs)", () => {
  it("is refused by a target that generates no members, and outside 1 to 1,000,000", async () => {
    await expect(targetCommand(["fixture", "--members", "10"])).rejects.toThrow(
      /--members: the fixture target generates no members/,
    );
    await expect(targetCommand(["federation", "--members", "0"])).rejects.toThrow(
      /--members: expected a whole number from 1 to 1000000/,
    );
    await expect(targetCommand(["federation", "--members", "1000001"])).rejects.toThrow(/from 1 to 1000000/);
    await expect(targetCommand(["federation", "--members", "1e3"])).rejects.toThrow(/got "1e3"/);
  });
});
