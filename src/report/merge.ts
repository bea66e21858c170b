import { HarnessError } from "../engine/errors.js";
import { buildResults, catalogOf, type CatalogEntry, type Results } from "./results.js";
import { OBSERVER_SECTION } from "../engine/observer.js";

/**
 * Joins the results of sharded runs (`--shard i/n`) of one profile into one. Verdicts are
 * derived again from the checks, so the merge applies the same rules as a single run.
 */
export function mergeResults(parts: readonly Results[]): Results {
  const first = parts[0];
  if (!first) throw new HarnessError("IDC_USAGE", "report --merge needs at least one results.json");
  for (const p of parts) {
    if (p.run.profile.sha256 !== first.run.profile.sha256) {
      throw new HarnessError(
        "IDC_USAGE",
        `cannot merge runs of different profiles (${first.run.profile.file} and ${p.run.profile.file})`,
      );
    }
    if (p.run.strict !== first.run.strict)
      throw new HarnessError("IDC_USAGE", "cannot merge strict and non-strict runs");
  }
  const catalog = new Map<string, CatalogEntry>();
  for (const p of parts) for (const c of catalogOf(p)) catalog.set(c.id, c);
  const uncovered = new Set(first.coverage.uncovered.map((u) => u.id));
  const checks = new Map<string, Results["checks"][number]>();
  for (const p of parts)
    for (const c of p.checks) {
      const key = `${c.suite}/${c.check}`;
      const had = checks.get(key);
      // Each shard's observers saw only that shard's exchanges: the one that saw the most
      // telling outcome stands (a violation anywhere is a violation of the run).
      if (!had || (c.section === OBSERVER_SECTION && rank(c) > rank(had))) checks.set(key, c);
    }
  const shards = parts.map((p) => p.run.shard).filter((s): s is string => s !== undefined);
  const reasons = new Set(parts.flatMap((p) => p.run.notCertifiable).filter((r) => !r.startsWith("shard ")));
  if (shards.length > 0) {
    const n = Number(shards[0]?.split("/")[1]);
    const have = new Set(shards.map((s) => Number(s.split("/")[0])));
    const missing = Array.from({ length: n }, (_, i) => i + 1).filter((i) => !have.has(i));
    if (missing.length > 0)
      reasons.add(`shard(s) ${missing.map((m) => `${m}/${n}`).join(", ")} missing from the merge`);
  }
  const starts = parts.map((p) => Date.parse(p.run.startedAt));
  const ends = parts.map((p) => Date.parse(p.run.startedAt) + p.run.durationMs);
  const start = Math.min(...starts);
  const order = [...catalog.values()].sort((a, b) => a.suite.localeCompare(b.suite));
  const { shard: _shard, certifiable: _certifiable, ...run } = first.run;
  return buildResults({
    meta: {
      ...run,
      id: `${first.run.id.replace(/-[0-9a-f]{4}$/, "")}-merged`,
      suites: dedupe(
        parts.flatMap((p) => p.run.suites),
        (s) => s.name,
      ),
      startedAt: new Date(start).toISOString(),
      durationMs: Math.max(...ends) - start,
      notCertifiable: [...reasons],
      interrupted: parts.some((p) => p.run.interrupted),
    },
    catalog: order,
    covered: new Set([...catalog.keys()].filter((id) => !uncovered.has(id))),
    checks: [...checks.values()],
    knownFailures: first.knownFailures.map(({ id, reason }) => ({ id, reason })),
    cleanup: parts.flatMap((p) => p.cleanup),
  });
}

function dedupe<T>(xs: readonly T[], key: (x: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const x of xs) if (!seen.has(key(x))) seen.set(key(x), x);
  return [...seen.values()];
}

/** How much an observer's result says: a violation, then a harness fault, then a pass, then a skip. */
function rank(c: Results["checks"][number]): number {
  const order = { skipped: 0, met: 1, errored: 2, violated: 3 } as const;
  return Math.max(...Object.values(c.requirements).map((o) => order[o]));
}
