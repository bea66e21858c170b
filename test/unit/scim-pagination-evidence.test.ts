import { describe, expect, it } from "vitest";
import { openSuite } from "../../src/engine/in-process.js";
import type { HttpResponse } from "../../src/http/client.js";
import { divergingPage, type Walk } from "../../suites/scim/list-walk.js";

/** A stand-in page answer: divergingPage only hands it back. */
const page = (label: string): HttpResponse => ({ label }) as unknown as HttpResponse;

describe("RFC 7644 §3.4.2.4 pagination findings cite the page that shows the fault", () => {
  it("divergingPage: the page holding the first wrong id, or the last page when the walk ended early", () => {
    const pages = [
      { res: page("p1"), from: 0 },
      { res: page("p2"), from: 2 },
      { res: page("p3"), from: 4 },
    ];
    const w: Walk = { ids: ["a", "b", "c", "x", "e"], pages };
    expect(divergingPage(w, ["a", "b", "c", "d", "e"])).toBe(pages[1]?.res);
    expect(divergingPage({ ids: ["a", "b", "c", "d"], pages }, ["a", "b", "c", "d", "e"])).toBe(
      pages[2]?.res,
    );
    expect(divergingPage({ ids: [], pages: [] }, ["a"])).toBeUndefined();
  });

  it("a failing page walk keeps the reason and the evidence of its shrunk counterexample, not of the last walk tried", async () => {
    // page-overrun-empty fails only for count 2 and more; shrinking then tries count 1, which
    // passes, so the latest request of the check is not the one that shows the fault.
    const s = await openSuite({ suite: "scim", faults: ["page-overrun-empty"] });
    try {
      const r = await s.run("scim.list-pagination");
      expect(r.requirements["SCIM-LIST-PAGINATION"]).toBe("violated");
      const f = r.findings.find(
        (x) =>
          x.requirements.includes("SCIM-LIST-PAGINATION") &&
          /^count=\d+, startIndex=\d+:/.test(x.actual ?? ""),
      );
      expect(f?.actual).toMatch(/listed .* instead of /);
      const [, count] = /^count=(\d+)/.exec(f?.actual ?? "") ?? [];
      const cited = r.exchanges.find((e) => e.id === f?.exchanges[0]);
      // The empty page past the border, of the counterexample's own walk.
      expect(cited?.label).toMatch(new RegExp(`\\(startIndex=\\d+, count ${count}\\)$`));
      expect(cited?.response?.body).toMatch(/"Resources":\[\]/);
    } finally {
      await s.close();
    }
  });
});
