import { describe, expect, it, vi } from "vitest";
import { pathToFileURL } from "node:url";
import { loadSuites, locateSuites, suiteTestFiles } from "../../src/engine/discovery.js";

// What each suite's section files (`suites/<s>/*.test.ts`) register: the command-line run
// executes those files, the in-process run (fault matrices, mutation testing) the manifest's
// check list, so a check missing from the sections is silently never run by the CLI.
const registered = vi.hoisted(() => new Map<string, string[]>());
vi.mock("../../src/engine/register.js", () => ({
  registerSection: (suite: string, _section: string, checks: readonly { id: string }[]) => {
    registered.set(suite, [...(registered.get(suite) ?? []), ...checks.map((c) => c.id)]);
  },
}));

const suites = await loadSuites();
const located = locateSuites();

describe("section files and manifests", () => {
  for (const s of suites) {
    it(`suite ${s.name}: every check of the manifest is registered by exactly one section file, and no other`, async () => {
      const l = located.find((x) => x.name === s.name)!;
      for (const file of suiteTestFiles(l)) await import(pathToFileURL(file).href);
      const sections = [...(registered.get(s.name) ?? [])].sort();
      expect(sections).toEqual(s.checks.map((c) => c.id).sort());
    });
  }
});
