import { createHash } from "node:crypto";
import { HarnessError } from "../engine/errors.js";
import { buildResults, catalogOf, type CatalogEntry, type Results } from "./results.js";

/**
 * Joins the results of runs of different suites, each against its own profile (the demo runs
 * one suite per reference target), into one: one report.html with the suites side by side.
 * Verdicts are derived again from the checks, so the joined run applies the same rules as each
 * part. Unlike `mergeResults` (shards of one profile), a suite may appear in one part only.
 */
export function joinSuiteRuns(parts: readonly Results[], opts: { id: string; name: string }): Results {
  const first = parts[0];
  if (!first) throw new HarnessError("IDC_USAGE", "nothing to join: no results");
  if (parts.length === 1) return first;
  const seen = new Set<string>();
  for (const p of parts)
    for (const s of p.run.suites) {
      if (seen.has(s.name))
        throw new HarnessError(
          "IDC_USAGE",
          `cannot join two runs of suite "${s.name}" (use report --merge for shards)`,
        );
      seen.add(s.name);
    }
  if (parts.some((p) => p.run.strict !== first.run.strict))
    throw new HarnessError("IDC_USAGE", "cannot join strict and non-strict runs");
  const catalog: CatalogEntry[] = parts.flatMap((p) => catalogOf(p));
  const uncovered = new Set(parts.flatMap((p) => p.coverage.uncovered.map((u) => u.id)));
  const starts = parts.map((p) => Date.parse(p.run.startedAt));
  const ends = parts.map((p) => Date.parse(p.run.startedAt) + p.run.durationMs);
  const start = Math.min(...starts);
  const { certifiable: _certifiable, shard: _shard, ...run } = first.run;
  return buildResults({
    meta: {
      ...run,
      id: opts.id,
      profile: {
        name: opts.name,
        file: parts.map((p) => p.run.profile.file).join(", "),
        // One digest standing for the profiles joined, in their order.
        sha256: createHash("sha256")
          .update(parts.map((p) => p.run.profile.sha256).join("\n"))
          .digest("hex"),
      },
      suites: parts.flatMap((p) => p.run.suites),
      grep: [...new Set(parts.flatMap((p) => p.run.grep))],
      startedAt: new Date(start).toISOString(),
      durationMs: Math.max(...ends) - start,
      notCertifiable: [...new Set(parts.flatMap(givenReasons))],
      interrupted: parts.some((p) => p.run.interrupted),
    },
    catalog,
    covered: new Set(catalog.map((c) => c.id).filter((id) => !uncovered.has(id))),
    checks: parts.flatMap((p) => p.checks),
    knownFailures: parts.flatMap((p) => p.knownFailures.map(({ id, reason }) => ({ id, reason }))),
    cleanup: parts.flatMap((p) => p.cleanup),
  });
}

/**
 * The reasons a part was not certifiable that its run was given (a demo target, plain http),
 * without those derived from its results (errors, an interrupt), which the joined run derives
 * again over all parts: rebuilding the part with no given reason tells which are which.
 */
function givenReasons(part: Results): string[] {
  const { certifiable: _certifiable, ...meta } = part.run;
  const uncovered = new Set(part.coverage.uncovered.map((u) => u.id));
  const catalog = catalogOf(part);
  const derived = new Set(
    buildResults({
      meta: { ...meta, notCertifiable: [] },
      catalog,
      covered: new Set(catalog.map((c) => c.id).filter((id) => !uncovered.has(id))),
      checks: part.checks,
      knownFailures: part.knownFailures.map(({ id, reason }) => ({ id, reason })),
    }).run.notCertifiable,
  );
  return part.run.notCertifiable.filter((r) => !derived.has(r));
}
