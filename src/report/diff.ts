import { closeSync, fstatSync, openSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { HarnessError } from "../engine/errors.js";
import type { Level } from "../engine/requirement.js";
import type { Results } from "./results.js";
import { mustCoverage, mustPercent } from "./must-coverage.js";
import { resultsProblems } from "./validate.js";

/** The largest results.json `diff` and `--compare` read (a run keeps bodies bounded; this is far above). */
export const MAX_RESULTS_BYTES = 256 * 1024 * 1024;

/**
 * How a requirement moved between two runs. Decided means pass, fail, warn or error (error is
 * a verdict here: pass → error is a regression); undecided means skip, not run or uncovered.
 * - regressed: pass → fail, warn or error
 * - fixed: fail, warn or error → pass
 * - verdict-changed: between fail, warn and error (warn → fail under --strict, fail → error)
 * - coverage-changed: the states differ and one side is undecided: decided ↔ skip / not run /
 *   uncovered, or between undecided states (skip kinds changed, skip ↔ not run ↔ uncovered)
 * - appeared / disappeared: the id is in only one of the two files (requirements or coverage)
 */
export type Change =
  "regressed" | "fixed" | "verdict-changed" | "coverage-changed" | "appeared" | "disappeared";

export const CHANGES: readonly Change[] = [
  "regressed",
  "fixed",
  "verdict-changed",
  "coverage-changed",
  "appeared",
  "disappeared",
];

export interface DiffEntry {
  readonly id: string;
  readonly suite: string;
  readonly level: Level;
  readonly change: Change;
  /** `pass`, `fail`, `warn`, `error`, `skip (kind, …)`, `not run`, `uncovered`, or `absent`. */
  readonly before: string;
  readonly after: string;
  /** The new run's first finding that says why (for a requirement still present). */
  readonly message?: string;
  /** The new run excuses it as a known failure of the profile. */
  readonly known?: boolean;
}

export interface RunRef {
  readonly id: string;
  readonly profile: string;
  readonly startedAt: string;
}

export interface ResultsDiff {
  readonly old: RunRef;
  readonly new: RunRef;
  /** Why the two runs may differ for reasons other than the target (profile, strict, selection). */
  readonly notes: readonly string[];
  readonly counts: Readonly<Record<Change | "unchanged", number>>;
  /** Ordered by change (as in CHANGES), then suite, then id. */
  readonly entries: readonly DiffEntry[];
  /** 1 when a requirement regressed. */
  readonly exitCode: 0 | 1;
  readonly reason: string;
}

const MESSAGE_CAP = 300;

interface State {
  readonly label: string;
  readonly decided: boolean;
  readonly suite: string;
  readonly level: Level;
  readonly message?: string;
  readonly known?: boolean;
}

function states(r: Results): Map<string, State> {
  const out = new Map<string, State>();
  for (const q of r.requirements) {
    const skipped = q.findings.filter((f) => f.outcome === "skipped");
    const label =
      q.verdict === "skip"
        ? skipLabel([...new Set(skipped.map((f) => f.skipKind ?? "unspecified"))].sort())
        : q.verdict;
    const telling =
      q.verdict === "skip"
        ? skipped[0]
        : (q.findings.find((f) => f.outcome === "violated" || f.outcome === "errored") ?? q.findings[0]);
    const message = telling ? cap(why(telling) || q.text) : undefined;
    out.set(q.id, {
      label,
      decided: q.verdict !== "skip",
      suite: q.suite,
      level: q.level,
      ...(q.verdict !== "pass" && message !== undefined ? { message } : {}),
      ...(q.known ? { known: true } : {}),
    });
  }
  for (const [list, label] of [
    [r.coverage.notRun, "not run"],
    [r.coverage.uncovered, "uncovered"],
  ] as const)
    for (const q of list) out.set(q.id, { label, decided: false, suite: q.suite, level: q.level });
  return out;
}

/** A finding in one line: its message (unless the bare "not met"), expected, actual. */
const why = (f: Results["requirements"][number]["findings"][number]): string =>
  [
    f.message === "not met" ? "" : f.message,
    f.expected !== undefined ? `expected ${f.expected}` : "",
    f.actual !== undefined ? `got ${f.actual}` : "",
  ]
    .filter(Boolean)
    .join("; ");

const skipLabel = (kinds: readonly string[]): string =>
  kinds.length === 0 ? "skip" : `skip (${kinds.join(", ")})`;

const cap = (s: string): string => (s.length > MESSAGE_CAP ? `${s.slice(0, MESSAGE_CAP)}…` : s);

function classify(o: State | undefined, n: State | undefined): Change | undefined {
  if (!o) return "appeared";
  if (!n) return "disappeared";
  if (o.label === n.label) return undefined;
  if (!o.decided || !n.decided) return "coverage-changed";
  if (o.label === "pass") return "regressed";
  if (n.label === "pass") return "fixed";
  return "verdict-changed";
}

/** Compares two runs requirement by requirement (see Change for exactly what each kind counts). */
export function diffResults(older: Results, newer: Results): ResultsDiff {
  const before = states(older);
  const after = states(newer);
  const counts: Record<Change | "unchanged", number> = {
    regressed: 0,
    fixed: 0,
    "verdict-changed": 0,
    "coverage-changed": 0,
    appeared: 0,
    disappeared: 0,
    unchanged: 0,
  };
  const entries: DiffEntry[] = [];
  for (const id of new Set([...before.keys(), ...after.keys()])) {
    const o = before.get(id);
    const n = after.get(id);
    const change = classify(o, n);
    if (change === undefined) {
      counts.unchanged++;
      continue;
    }
    counts[change]++;
    const now = (n ?? o)!;
    entries.push({
      id,
      suite: now.suite,
      level: now.level,
      change,
      before: o?.label ?? "absent",
      after: n?.label ?? "absent",
      ...(n?.message !== undefined ? { message: n.message } : {}),
      ...(n?.known ? { known: true } : {}),
    });
  }
  const order = new Map(CHANGES.map((c, i) => [c, i]));
  entries.sort(
    (a, b) =>
      order.get(a.change)! - order.get(b.change)! ||
      (a.suite < b.suite ? -1 : a.suite > b.suite ? 1 : 0) ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  const exitCode = counts.regressed > 0 ? 1 : 0;
  return {
    old: ref(older),
    new: ref(newer),
    notes: notes(older, newer),
    counts,
    entries,
    exitCode,
    reason:
      exitCode === 1
        ? `${counts.regressed} requirement(s) regressed`
        : "no requirement regressed (pass → fail, warn or error)",
  };
}

const ref = (r: Results): RunRef => ({
  id: r.run.id,
  profile: r.run.profile.name,
  startedAt: r.run.startedAt,
});

function notes(o: Results, n: Results): string[] {
  const out: string[] = [];
  if (o.run.profile.sha256 !== n.run.profile.sha256)
    out.push("the runs used different profiles (SHA-256 differs)");
  if (o.run.strict !== n.run.strict)
    out.push(
      `only the ${n.run.strict ? "new" : "old"} run is --strict: a broken SHOULD is fail there, warn in the other`,
    );
  // A selection is ids and prefixes: anything else in the file is shown as "?".
  const selection = (r: Results): string =>
    [
      ...r.run.grep.map((g) => `--grep ${g.slice(0, 80).replace(/[^A-Za-z0-9*._-]/g, "?")}`),
      ...(r.run.shard ? [`--shard ${r.run.shard}`] : []),
    ].join(" ");
  if (selection(o) !== selection(n))
    out.push(
      `the runs selected different checks (old: ${selection(o) || "all"}; new: ${selection(n) || "all"})`,
    );
  // Skipped MUSTs are not passes: a change of MUST coverage is said even when no verdict regressed
  // (from the verdicts, as the entries are, not from what the files store).
  const mo = mustCoverage(o.requirements, o.coverage.uncovered);
  const mn = mustCoverage(n.requirements, n.coverage.uncovered);
  if (mo.notExercised.length !== mn.notExercised.length)
    out.push(
      `MUST coverage changed: old ${mo.decided}/${mo.applicable} (${mustPercent(mo)} %), new ${mn.decided}/${mn.applicable} (${mustPercent(mn)} %)`,
    );
  for (const [r, which] of [
    [o, "old"],
    [n, "new"],
  ] as const)
    if (r.run.interrupted) out.push(`the ${which} run was interrupted: what it did not finish is not run`);
  return out;
}

/**
 * Reads one results.json for a comparison: a directory means its results.json; the file must
 * be a regular file under MAX_RESULTS_BYTES, JSON, match results.schema.json, and name each
 * requirement once. Errors (IDC_RESULTS_INVALID) name the file and never quote its content.
 */
export function readResultsForDiff(path: string, maxBytes = MAX_RESULTS_BYTES): Results {
  const file = isDirectory(path) ? join(path, "results.json") : path;
  const text = readBounded(file, maxBytes);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    // The parser's message quotes the input (it may be a key file given by mistake): not shown.
    throw invalid(file, "not JSON");
  }
  if (
    typeof doc !== "object" ||
    doc === null ||
    Array.isArray(doc) ||
    !("schemaVersion" in doc) ||
    !("run" in doc) ||
    !("requirements" in doc)
  )
    throw invalid(file, "not an idconform results.json (no schemaVersion, run and requirements members)");
  const version = (doc as { schemaVersion: unknown }).schemaVersion;
  if (version !== "1.0")
    throw invalid(
      file,
      `results schema version ${typeof version === "string" ? JSON.stringify(version.slice(0, 16)) : typeof version} is not one this idconform reads (1.0)`,
    );
  const problems = resultsProblems(doc);
  if (problems.length > 0)
    throw invalid(file, `does not match results.schema.json:\n  - ${problems.join("\n  - ")}`);
  const r = doc as Results;
  const seen = new Set<string>();
  const where: [readonly { id: string }[], string][] = [
    [r.requirements, "requirements"],
    [r.coverage.notRun, "coverage.notRun"],
    [r.coverage.uncovered, "coverage.uncovered"],
  ];
  for (const [list, name] of where)
    list.forEach((q, i) => {
      if (seen.has(q.id))
        throw invalid(file, `${name}[${i}]: requirement ${q.id} is listed more than once in the file`);
      seen.add(q.id);
    });
  return r;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function readBounded(file: string, maxBytes: number): string {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw invalid(file, code === "ENOENT" ? "no such file" : `cannot open it (${code ?? "error"})`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw invalid(file, "not a regular file");
    if (st.size > maxBytes)
      throw invalid(file, `${st.size} bytes, more than the ${maxBytes} a results.json may have here`);
    // Read at most one byte past the cap: a file that grows while read is still bounded.
    const buf = Buffer.allocUnsafe(st.size + 1);
    let got = 0;
    for (;;) {
      const n = readSync(fd, buf, got, buf.length - got, null);
      if (n === 0) break;
      got += n;
      if (got === buf.length) throw invalid(file, "it changed while being read");
    }
    return buf.toString("utf8", 0, got);
  } finally {
    closeSync(fd);
  }
}

const invalid = (file: string, what: string): HarnessError =>
  new HarnessError("IDC_RESULTS_INVALID", `${file}: ${what}`);
