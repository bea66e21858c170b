import { describe, expect, it } from "vitest";
import type { CheckResult } from "../../src/engine/check.js";
import { HarnessError } from "../../src/engine/errors.js";
import { buildResults, type CatalogEntry, type Results } from "../../src/report/results.js";
import { joinSuiteRuns } from "../../src/report/join.js";
import { ensureChromium, type ChromiumEnv } from "../../src/cli/chromium-setup.js";

/** A made-up run of one suite: each requirement met or violated, `uncovered` ones never checked. */
function suiteRun(
  suite: string,
  reqs: Record<string, "met" | "violated" | "errored" | "uncovered">,
  opts: { strict?: boolean; startedAt?: string; known?: string[]; notCertifiable?: string[] } = {},
): Results {
  const catalog: CatalogEntry[] = [];
  const checks: CheckResult[] = [];
  for (const [id, outcome] of Object.entries(reqs)) {
    catalog.push({ id, suite, level: "MUST", text: `rule ${id}`, source: `${suite} §1` });
    if (outcome === "uncovered") continue;
    checks.push({
      check: `${suite}.${id}`,
      suite,
      title: id,
      section: "§1",
      requirements: { [id]: outcome },
      findings:
        outcome === "met" ? [] : [{ requirements: [id], outcome, message: `why ${id}`, exchanges: [] }],
      exchanges: [],
      notes: [],
      durationMs: 1,
    });
  }
  return buildResults({
    meta: {
      id: `20260101-000000-${suite}-abcd`,
      harness: { name: "idconform", version: "0.0.0" },
      profile: { name: `demo-${suite}`, file: `profiles/demo/${suite}.yaml`, sha256: suite[0]!.repeat(64) },
      suites: [{ name: suite, title: suite, document: "doc", target: `http://127.0.0.1/${suite}` }],
      seed: 1,
      strict: opts.strict ?? false,
      grep: [],
      startedAt: opts.startedAt ?? "2026-01-01T00:00:00.000Z",
      durationMs: 1000,
      notCertifiable: opts.notCertifiable ?? ["demo run against idconform's own reference target"],
      interrupted: false,
    },
    catalog,
    covered: new Set(Object.entries(reqs).flatMap(([id, o]) => (o === "uncovered" ? [] : [id]))),
    checks,
    knownFailures: (opts.known ?? []).map((id) => ({ id, reason: "tracked" })),
  });
}

describe("joinSuiteRuns: the demo's suites in one report", () => {
  it("keeps every suite's requirements, summaries, coverage and known failures side by side", () => {
    const a = suiteRun("alpha", { "A-1": "met", "A-2": "uncovered" });
    const b = suiteRun(
      "beta",
      { "B-1": "met", "B-2": "violated" },
      { startedAt: "2026-01-01T00:00:05.000Z", known: ["B-2"], notCertifiable: ["plain http was allowed"] },
    );
    const j = joinSuiteRuns([a, b], { id: "20260101-000010-demo-0001", name: "demo" });
    expect(j.run.id).toBe("20260101-000010-demo-0001");
    expect(j.run.profile.name).toBe("demo");
    expect(j.run.profile.file).toBe("profiles/demo/alpha.yaml, profiles/demo/beta.yaml");
    expect(j.run.profile.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(j.run.suites.map((s) => s.name)).toEqual(["alpha", "beta"]);
    expect(j.suites.map((s) => [s.name, s.summary.pass, s.summary.fail])).toEqual([
      ["alpha", 1, 0],
      ["beta", 1, 1],
    ]);
    expect(j.requirements.map((r) => r.id)).toEqual(["A-1", "B-1", "B-2"]);
    expect(j.coverage.uncovered.map((r) => r.id)).toEqual(["A-2"]);
    // B-2 fails but is a known failure: the joined run passes, as the part did.
    expect(j.knownFailures).toEqual([{ id: "B-2", reason: "tracked", status: "held" }]);
    expect(j.outcome.exitCode).toBe(b.outcome.exitCode);
    expect(j.outcome.exitCode).toBe(0);
    expect(j.run.startedAt).toBe("2026-01-01T00:00:00.000Z");
    expect(j.run.durationMs).toBe(6000);
    // Each part's given reasons once; reasons derived from results are derived again, once.
    expect(j.run.notCertifiable.slice(0, 2)).toEqual([
      "demo run against idconform's own reference target",
      "plain http was allowed",
    ]);
    expect(new Set(j.run.notCertifiable).size).toBe(j.run.notCertifiable.length);
    expect(j.run.certifiable).toBe(false);
  });

  it("fails the joined run when one suite fails", () => {
    const j = joinSuiteRuns([suiteRun("alpha", { "A-1": "met" }), suiteRun("beta", { "B-1": "violated" })], {
      id: "x",
      name: "demo",
    });
    expect(j.outcome.exitCode).toBe(1);
    expect(j.outcome.reason).toBe("1 requirement(s) failed");
  });

  it("derives the reasons from results over the whole run, not once per part", () => {
    const a = suiteRun("alpha", { "A-1": "errored" });
    const b = suiteRun("beta", { "B-1": "errored", "B-2": "met" });
    expect(a.run.notCertifiable).toContain("1 requirement(s) could not be decided (error)");
    const j = joinSuiteRuns([a, b], { id: "x", name: "demo" });
    expect(j.run.notCertifiable).toEqual([
      "demo run against idconform's own reference target",
      "2 requirement(s) could not be decided (error)",
    ]);
    expect(j.outcome.exitCode).toBe(3);
  });

  it("returns a single run as it is", () => {
    const a = suiteRun("alpha", { "A-1": "met" });
    expect(joinSuiteRuns([a], { id: "x", name: "demo" })).toBe(a);
  });

  it("refuses nothing, the same suite twice, and strict mixed with non-strict", () => {
    const code = (f: () => unknown): string | undefined => {
      try {
        f();
      } catch (e) {
        return e instanceof HarnessError ? `${e.code}: ${e.message}` : String(e);
      }
      return undefined;
    };
    expect(code(() => joinSuiteRuns([], { id: "x", name: "demo" }))).toMatch(/^IDC_USAGE/);
    const a = suiteRun("alpha", { "A-1": "met" });
    expect(code(() => joinSuiteRuns([a, a], { id: "x", name: "demo" }))).toMatch(/two runs of suite "alpha"/);
    const s = suiteRun("beta", { "B-1": "met" }, { strict: true });
    expect(code(() => joinSuiteRuns([a, s], { id: "x", name: "demo" }))).toMatch(/strict and non-strict/);
  });
});

/** A machine for ensureChromium: which files exist, whether root, what the install does. */
function machine(opts: { files?: string[]; root?: boolean; installs?: boolean; configured?: string }) {
  const files = new Set(opts.files ?? []);
  const said: string[] = [];
  const ran: string[] = [];
  const env: ChromiumEnv = {
    configured: opts.configured,
    exists: (p) => files.has(p),
    isRoot: opts.root ?? false,
    sh: (c) => {
      ran.push(c);
      if (opts.installs) files.add("/usr/bin/chromium");
      return opts.installs ?? false;
    },
    say: (l) => said.push(l),
  };
  return { env, said, ran };
}

const message = (f: () => void): string => {
  try {
    f();
  } catch (e) {
    if (e instanceof HarnessError) return `${e.code}: ${e.message}`;
    throw e;
  }
  return "";
};

describe("ensureChromium: the demo makes sure of the browser before it starts", () => {
  it("does nothing for suites without a browser step, or when Chromium is there", () => {
    const m = machine({});
    ensureChromium(["scim", "commands", "fixture"], m.env);
    ensureChromium(["vci"], machine({ files: ["/usr/bin/chromium"] }).env);
    expect(m.ran).toEqual([]);
  });

  it("installs Debian's chromium with apt-get as root, saying so in one line", () => {
    const m = machine({ root: true, installs: true, files: ["/usr/bin/apt-get"] });
    ensureChromium(["scim", "vci"], m.env);
    expect(m.ran).toEqual(["apt-get update && apt-get install -y --no-install-recommends chromium"]);
    expect(m.said).toHaveLength(1);
    expect(m.said[0]).toContain("installing Debian's chromium");
  });

  it("names the one command to run when it cannot install (not root, no apt-get, a failed install)", () => {
    const notRoot = machine({ files: ["/usr/bin/apt-get"] });
    expect(message(() => ensureChromium(["vci"], notRoot.env))).toBe(
      "IDC_SETUP: Chromium is missing at /usr/bin/chromium (the vci suite's browser step needs it); install it with: sudo apt-get update && sudo apt-get install -y --no-install-recommends chromium",
    );
    expect(notRoot.ran).toEqual([]);
    const noApt = machine({ root: true });
    expect(message(() => ensureChromium(["vci"], noApt.env))).toMatch(/install it with: sudo apt-get/);
    const failing = machine({ root: true, installs: false, files: ["/usr/bin/apt-get"] });
    expect(message(() => ensureChromium(["vci"], failing.env))).toMatch(
      /^IDC_SETUP: installing Chromium failed; run it by hand: apt-get update/,
    );
  });

  it("never installs over a CHROMIUM_PATH that names nothing", () => {
    const m = machine({
      root: true,
      installs: true,
      files: ["/usr/bin/apt-get"],
      configured: "/opt/none/chrome",
    });
    expect(message(() => ensureChromium(["vci"], m.env))).toMatch(
      /missing at \/opt\/none\/chrome .*CHROMIUM_PATH names no file/,
    );
    expect(m.ran).toEqual([]);
  });
});
