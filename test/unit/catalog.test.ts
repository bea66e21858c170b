import { describe, expect, it } from "vitest";
import { loadSuites, locateTargets, loadTarget } from "../../src/engine/discovery.js";
import { defineCatalog, duplicateIds } from "../../src/engine/requirement.js";

const suites = await loadSuites();
const targets = new Set(locateTargets().map((t) => t.name));

describe("requirement catalogs (core issue §2, honesty rule 1)", () => {
  it("no two requirements share an id, across every catalog", () => {
    expect(duplicateIds(suites.map((s) => s.catalog))).toEqual([]);
  });

  it("defineCatalog refuses duplicate and malformed ids", () => {
    const r = { level: "MUST" as const, source: "x", text: "t" };
    expect(() =>
      defineCatalog("s", [
        { id: "A-B", ...r },
        { id: "A-B", ...r },
      ]),
    ).toThrow(/duplicate/);
    expect(() => defineCatalog("s", [{ id: "lower-case", ...r }])).toThrow(/not of the form/);
  });

  for (const s of suites) {
    describe(`suite ${s.name}`, () => {
      const ids = new Set(s.catalog.requirements.map((r) => r.id));

      it("every check names only requirements of its own catalog, and check ids are unique", () => {
        const unknown = s.checks.flatMap((c) =>
          c.requirements.filter((id) => !ids.has(id)).map((id) => `${c.id} -> ${id}`),
        );
        expect(unknown).toEqual([]);
        const observed = (s.observers ?? [])
          .filter((o) => !ids.has(o.requirement))
          .map((o) => `${o.id} -> ${o.requirement}`);
        expect(observed).toEqual([]);
        // Observers appear in the report as checks: their ids share one namespace.
        const checkIds = [...s.checks.map((c) => c.id), ...(s.observers ?? []).map((o) => o.id)];
        expect(new Set(checkIds).size).toBe(checkIds.length);
      });

      it("every requirement has a source and a one-line text", () => {
        for (const r of s.catalog.requirements) {
          expect(r.source.length, r.id).toBeGreaterThan(0);
          expect(r.text.length, r.id).toBeGreaterThan(0);
        }
      });

      it.runIf(targets.has(s.name))(
        "every checked MUST requirement is broken by a fault of the reference target, or says why it cannot be",
        async () => {
          const target = await loadTarget(s.name);
          const broken = new Set(target.faults.flatMap((f) => f.breaks));
          const checked = new Set([
            ...s.checks.flatMap((c) => c.requirements),
            ...(s.observers ?? []).map((o) => o.requirement),
          ]);
          const orphans = s.catalog.requirements
            .filter((r) => r.level === "MUST" && checked.has(r.id) && !broken.has(r.id) && !r.untestable)
            .map((r) => r.id);
          expect(orphans).toEqual([]);
          const unknown = target.faults
            .flatMap((f) => [
              ...f.breaks,
              ...(f.skips === "rest" ? [] : (f.skips ?? [])),
              ...(f.undecidable ?? []),
            ])
            .filter((id) => !ids.has(id));
          expect(unknown).toEqual([]);
        },
      );
    });
  }
});
