import { existsSync, readdirSync, readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { HarnessError } from "./errors.js";
import type { SuiteManifest } from "./suite.js";
import type { TargetModule } from "./target.js";
import type { MockModule } from "./mock.js";
import type { ObserverDefinition } from "./observer.js";

/** The repository root (where package.json lives); suites, targets and mocks are found below it. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** The engine's own fixture, found like any suite, so `demo` works before real suites land. */
const FIXTURE_DIR = join(ROOT, "test", "fixture");

export interface Located {
  readonly name: string;
  readonly dir: string;
  readonly file: string;
}

function scan(top: string, file: string): Located[] {
  const dir = join(ROOT, top);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, file)))
    .map((d) => ({ name: d.name, dir: join(dir, d.name), file: join(dir, d.name, file) }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export function locateSuites(): Located[] {
  return [
    ...scan("suites", "suite.ts"),
    { name: "fixture", dir: FIXTURE_DIR, file: join(FIXTURE_DIR, "suite.ts") },
  ];
}

export function locateTargets(): Located[] {
  return [
    ...scan("targets", "index.ts"),
    { name: "fixture", dir: FIXTURE_DIR, file: join(FIXTURE_DIR, "target.ts") },
  ];
}

export function locateMocks(): Located[] {
  return [
    ...scan("mocks", "index.ts"),
    { name: "fixture-callback", dir: FIXTURE_DIR, file: join(FIXTURE_DIR, "mock.ts") },
  ];
}

/** Test files of a suite: every `*.test.ts` directly in its folder. */
export function suiteTestFiles(s: Located): string[] {
  return readdirSync(s.dir)
    .filter((f) => f.endsWith(".test.ts"))
    .sort()
    .map((f) => join(s.dir, f));
}

async function load<T>(l: Located): Promise<T> {
  const mod = (await import(pathToFileURL(l.file).href)) as { default?: T };
  if (!mod.default) throw new HarnessError("IDC_INTERNAL", `${l.file} has no default export`);
  return mod.default;
}

const observersOf = new Map<string, Promise<readonly ObserverDefinition[]>>();

/** A suite's observers (its manifest's `observers`), loaded once per process. */
export function suiteObservers(name: string): Promise<readonly ObserverDefinition[]> {
  let p = observersOf.get(name);
  if (!p) {
    p = loadSuites([name]).then(([m]) => (m?.observers ?? []) as readonly ObserverDefinition[]);
    observersOf.set(name, p);
  }
  return p;
}

export async function loadSuites(names?: readonly string[]): Promise<SuiteManifest[]> {
  const all = locateSuites();
  const pick = names && names.length > 0 ? names : all.map((s) => s.name);
  const out: SuiteManifest[] = [];
  for (const n of pick) {
    const l = all.find((s) => s.name === n);
    if (!l) {
      throw new HarnessError(
        "IDC_SUITE_UNKNOWN",
        `unknown suite "${n}"; known suites: ${all.map((s) => s.name).join(", ")}`,
      );
    }
    out.push(await load<SuiteManifest>(l));
  }
  return out;
}

/**
 * The suites a profile needs: only those its `suites` section names, so a run does not pay
 * for importing every suite's checks. When the profile cannot be read or names a suite that
 * does not exist, every suite is loaded, so that validation reports it with the known names.
 */
export async function loadSuitesForProfile(path: string): Promise<SuiteManifest[]> {
  let names: string[] = [];
  try {
    const doc = parseYaml(readFileSync(path, "utf8")) as { suites?: unknown } | null;
    if (doc?.suites !== null && typeof doc?.suites === "object") names = Object.keys(doc.suites);
  } catch {
    names = [];
  }
  const known = new Set(locateSuites().map((s) => s.name));
  const usable = names.length > 0 && names.every((n) => known.has(n));
  return loadSuites(usable ? names : undefined);
}

export async function loadTarget(name: string): Promise<TargetModule> {
  const all = locateTargets();
  const l = all.find((t) => t.name === name);
  if (!l) {
    throw new HarnessError(
      "IDC_TARGET_UNKNOWN",
      `no reference target "${name}"; known: ${all.map((t) => t.name).join(", ")}`,
    );
  }
  return load<TargetModule>(l);
}

export async function loadMock(role: string): Promise<MockModule> {
  const all = locateMocks();
  const l = all.find((t) => t.name === role);
  if (!l)
    throw new HarnessError(
      "IDC_MOCK_UNKNOWN",
      `no mock "${role}"; known roles: ${all.map((t) => t.name).join(", ")}`,
    );
  return load<MockModule>(l);
}
