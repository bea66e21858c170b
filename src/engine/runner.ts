import { randomBytes, randomInt } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { Writable } from "node:stream";
import { createVitest } from "vitest/node";
import { HarnessError } from "./errors.js";
import { ROOT, locateSuites, suiteTestFiles } from "./discovery.js";
import { HARNESS } from "./version.js";
import { suggest, type LoadedProfile } from "./profile.js";
import type { SuiteManifest, SuiteSetup } from "./suite.js";
import type { RunProvided } from "./run-context.js";
import { matchesGrep, renderWording, type Level } from "./requirement.js";
import { CollectingReporter } from "../report/vitest-reporter.js";
import { buildResults, type CatalogEntry, type Results } from "../report/results.js";
import { Redactor } from "../http/redactor.js";
import { observerResults } from "./observer.js";
import { verdictFor, worst } from "./verdict.js";

export interface RunRequest {
  readonly profile: LoadedProfile;
  /** Suite manifests of every suite the profile may name. */
  readonly suites: readonly SuiteManifest[];
  /** Restrict to these suites (`--suite`); default: every suite the profile has a section for. */
  readonly only?: readonly string[];
  readonly grep?: readonly string[];
  readonly strict?: boolean;
  readonly seed?: number;
  readonly shard?: string;
  /** Extra reasons this run cannot certify (a demo against local targets, say). */
  readonly notCertifiable?: readonly string[];
  /** `--certify`: a run that is not certifiable (an applicable MUST not exercised, say) exits 1. */
  readonly certify?: boolean;
  readonly print?: (line: string) => void;
  /** Aborting this ends the run early; what finished is still reported. */
  readonly signal?: AbortSignal;
  /**
   * Aborting this (a second Ctrl-C) stops waiting at once, for the checks and the clean-up
   * alike: the results hold what finished, and say what the clean-up could not do.
   */
  readonly halt?: AbortSignal;
}

/** V8 limits of a test worker: a small young generation and a bounded old one. */
const WORKER_HEAP_FLAGS = ["--max-semi-space-size=2", "--max-old-space-size=192"];
/** After a stop, how long the checks in flight get to wind down before the run goes on without them. */
const WIND_DOWN_MS = 5_000;
/** Past `runMs`, how long anything still running is awaited before the run is reported as it stands. */
const HARD_GRACE_MS = 10_000;

/** The clean-up's share of the run: `cleanupMs`, or a tenth of `runMs` between 1 s and 60 s. */
export function cleanupShare(t: { runMs: number; cleanupMs?: number | undefined }): number {
  return t.cleanupMs ?? Math.min(60_000, Math.max(1_000, Math.floor(t.runMs / 10)), Math.floor(t.runMs / 2));
}

/** Resolves when `signal` aborts (never, without one). */
function aborted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) resolve();
    else signal?.addEventListener("abort", () => resolve(), { once: true });
  });
}

/** Waits for `p`, or at most `ms`; true when `p` settled in time. */
async function within(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([
      p.then(
        () => true,
        () => true,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export interface RunOutcome {
  readonly results: Results;
  readonly redactor: Redactor;
}

/** Makes a run id that sorts by time and names the suites: `20261122-031500-scim-a1b2`. */
export function makeRunId(suites: readonly string[], now = new Date()): string {
  const ts = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `${ts}-${suites.join("+")}-${randomBytes(2).toString("hex")}`;
}

/**
 * Runs the selected suites of a profile on vitest and returns the results. The checks run
 * in vitest workers; mocks a suite needs run here, in the harness process, for the whole run.
 */
export async function runSuites(req: RunRequest): Promise<RunOutcome> {
  const print = req.print ?? ((l: string) => process.stderr.write(`${l}\n`));
  const { profile } = req;
  const wanted = req.only && req.only.length > 0 ? req.only : Object.keys(profile.suites);
  const chosen: SuiteManifest[] = [];
  for (const name of wanted) {
    const m = req.suites.find((s) => s.name === name);
    if (!m)
      throw new HarnessError(
        "IDC_SUITE_UNKNOWN",
        `unknown suite "${name}"; known: ${req.suites.map((s) => s.name).join(", ")}`,
      );
    if (!profile.suites[name]) {
      throw new HarnessError(
        "IDC_USAGE",
        `--suite ${name}: the profile ${profile.name} has no suites.${name} section`,
      );
    }
    chosen.push(m);
  }
  const strict = req.strict ?? profile.options.strict;
  const seed = req.seed ?? profile.options.seed ?? randomInt(0, 2 ** 31 - 1);
  const grep = req.grep ?? [];
  const runId = makeRunId(chosen.map((s) => s.name));
  const started = new Date();
  const redactor = new Redactor(profile.secrets);
  const notCertifiable = [...(req.notCertifiable ?? [])];
  if (profile.options.allowInsecureHttp)
    notCertifiable.push("plain http was allowed (options.allowInsecureHttp: true)");
  if (grep.length > 0) notCertifiable.push(`only part of the checks ran (--grep ${grep.join(" ")})`);
  if (req.shard)
    notCertifiable.push(`shard ${req.shard}: merge every shard (idconform report --merge) for the full run`);
  if (profile.knownFailures.length > 0)
    notCertifiable.push(`${profile.knownFailures.length} known failure(s) are excused by the profile`);

  const setups: { suite: string; setup: SuiteSetup }[] = [];
  const levels = new Map<string, Level>();
  const catalog: CatalogEntry[] = [];
  const covered = new Set<string>();
  for (const s of chosen) {
    for (const r of s.catalog.requirements) {
      levels.set(r.id, r.level);
      catalog.push({ id: r.id, suite: s.name, level: r.level, text: r.text, source: r.source });
    }
    for (const c of s.checks) for (const id of c.requirements) covered.add(id);
    for (const o of s.observers ?? []) covered.add(o.requirement);
  }
  const allIds = chosen.flatMap((s) => s.catalog.requirements.map((r) => r.id));
  if (
    grep.length > 0 &&
    !chosen.some((s) => s.checks.some((c) => c.requirements.some((id) => matchesGrep(id, grep))))
  ) {
    throw new HarnessError(
      "IDC_USAGE",
      `--grep ${grep.join(" ")} selects no check${suggest(grep[0] ?? "", allIds)}`,
    );
  }
  const selected = chosen
    .flatMap((s) => s.checks)
    .filter((c) => c.requirements.some((id) => matchesGrep(id, grep))).length;
  // The progress lines name things as the report will: in each suite's wording.
  const wordings = new Map(
    chosen.flatMap((s) => (s.wording ? [[s.name, s.wording(profile.suites[s.name]!)] as const] : [])),
  );
  const reporter = new CollectingReporter(
    levels,
    strict,
    (l) => print(redactor.text(l)),
    req.shard ? undefined : selected,
    (suite, title) => renderWording(title, wordings.get(suite)),
  );
  let interrupted = false;
  let vitest: Awaited<ReturnType<typeof createVitest>> | undefined;
  const stopped = new AbortController();
  const stop = (why: string): void => {
    if (interrupted) return;
    interrupted = true;
    print(`stopping: ${why}; the report keeps what finished`);
    stopped.abort();
    // Cancelling aborts the test context signal, which every check passes to its HTTP calls.
    void vitest?.cancelCurrentRun("keyboard-input").catch(() => undefined);
  };
  // runMs bounds the whole run: the checks get it less the clean-up's share, the clean-up the rest.
  const { runMs } = profile.options.timeouts;
  const share = cleanupShare(profile.options.timeouts);
  const deadline = started.getTime() + runMs;
  const runTimer = setTimeout(
    () =>
      stop(
        `the checks used their share of options.timeouts.runMs (${runMs - share} of ${runMs} ms; ${share} ms are kept for the clean-up)`,
      ),
    runMs - share,
  );
  const onAbort = (): void => stop("interrupted");
  req.signal?.addEventListener("abort", onAbort, { once: true });
  // The outer bound: whatever still runs this long after runMs (or after a second Ctrl-C) is
  // left behind, and the run is reported as it stands.
  const halt = new AbortController();
  const onHalt = (): void => halt.abort();
  req.halt?.addEventListener("abort", onHalt, { once: true });
  const haltTimer = setTimeout(onHalt, runMs + HARD_GRACE_MS);
  const client = {
    requestTimeoutMs: profile.options.timeouts.requestMs,
    maxResponseBytes: profile.options.maxResponseBytes,
    allowInsecureHttp: profile.options.allowInsecureHttp,
    caFile: profile.options.tls.caFile,
    maxRedirects: profile.options.maxRedirects,
  };
  // Where the checks (in several workers) leave the setup problems they find, so that one
  // found stops the checks after it at once (`CheckContext.setup`).
  const setupDir = mkdtempSync(join(tmpdir(), "idconform-setup-"));
  const body = async (): Promise<void> => {
    try {
      const provided: RunProvided["suites"] = {};
      for (const s of chosen) {
        const section = profile.suites[s.name]!;
        const setup = s.setup ? await s.setup(section, { runId, seed, client }) : {};
        setups.push({ suite: s.name, setup });
        provided[s.name] = {
          profile: section,
          features: section.features,
          probes: section.probes,
          provided: setup.provide ?? {},
        };
      }
      const files = locateSuites()
        .filter((l) => chosen.some((s) => s.name === l.name))
        .flatMap((l) => suiteTestFiles(l))
        .map((f) => relative(ROOT, f));
      const provide: RunProvided = {
        runId,
        seed,
        grep,
        client,
        checkTimeoutMs: profile.options.timeouts.checkMs,
        secrets: profile.secrets,
        suites: provided,
        setupDir,
      };
      print(
        `idconform ${HARNESS.version} · run ${runId} · profile ${profile.name} · seed ${seed}${strict ? " · strict" : ""}`,
      );
      // One vitest run per phase (see `phases`): the checks in parallel, then each check that
      // must run alone. Each run is closed before the next starts, so their memory never adds up.
      const all = phases(files);
      for (const [i, include] of all.entries()) {
        if (interrupted) break;
        const before = {
          SIGINT: new Set(process.listeners("SIGINT")),
          SIGTERM: new Set(process.listeners("SIGTERM")),
        };
        vitest = await createVitest(
          "test",
          {
            config: false,
            root: ROOT,
            dir: ROOT,
            include,
            watch: false,
            reporters: [reporter],
            provide: { idconform: provide },
            passWithNoTests: true,
            // Workers collect garbage early rather than grow: a target answering at the size cap
            // makes large short-lived strings, and the run's memory stays bounded (npm run bench).
            // A worker that still runs out is reported: its unfinished checks are `error`.
            execArgv: WORKER_HEAP_FLAGS,
            hookTimeout: profile.options.timeouts.checkMs,
            testTimeout: profile.options.timeouts.checkMs,
            ...(req.shard ? { shard: req.shard } : {}),
          },
          { logLevel: "silent" },
          { stdout: devNull(), stderr: devNull() },
        );
        // vitest's logger exits the process on SIGINT; the harness owns that signal, so that an
        // interrupted run still writes its report.
        for (const sig of ["SIGINT", "SIGTERM"] as const) {
          for (const l of process.listeners(sig)) if (!before[sig].has(l)) process.off(sig, l);
        }
        // A stop requested while vitest was starting takes effect now. After a stop, checks that
        // ignore their abort (a worker busy in a loop) are not waited for past the wind-down.
        if (!interrupted)
          await Promise.race([
            vitest.start(),
            aborted(stopped.signal).then(() => within(new Promise(() => undefined), WIND_DOWN_MS)),
          ]);
        if (i < all.length - 1) {
          const done = vitest;
          vitest = undefined;
          if (!(await within(done.close(), WIND_DOWN_MS)))
            print("the test workers did not stop in time; the run goes on without them");
        }
      }
      // An interrupt that comes later stops only the clean-up: every check's exchanges were seen.
      checksFinished = !interrupted;
    } finally {
      clearTimeout(runTimer);
      req.signal?.removeEventListener("abort", onAbort);
      // A check that ignores its abort (a worker busy in a loop) is not waited for past the wind-down.
      if (vitest && !(await within(vitest.close(), WIND_DOWN_MS)))
        print("the test workers did not stop in time; the run goes on without them");
      await sweep();
      rmSync(setupDir, { recursive: true, force: true });
    }
  };

  /** Each suite's clean-up, within what is left of runMs (at least its share). */
  const sweep = async (): Promise<void> => {
    const until = Math.max(deadline, Date.now() + share);
    for (const { suite, setup } of setups) {
      if (!setup.teardown) continue;
      const left = until - Date.now();
      const budget = new AbortController();
      const timer = setTimeout(() => budget.abort(), Math.max(0, left));
      const task = Promise.resolve()
        .then(() => setup.teardown!(AbortSignal.any([budget.signal, halt.signal])))
        .then(
          (done) => {
            if (done && done.leftovers.length > 0)
              cleanup.push({ suite, leftovers: done.leftovers.map((l) => redactor.text(l)) });
          },
          (e: unknown) => {
            cleanup.push({
              suite,
              leftovers: [redactor.text(`teardown failed: ${e instanceof Error ? e.message : String(e)}`)],
            });
          },
        );
      // The teardown was told to stop at `until`; it gets a moment to say what it left undone.
      const finished = await within(task, Math.max(0, left) + 2_000);
      clearTimeout(timer);
      if (!finished)
        cleanup.push({
          suite,
          leftovers: [
            `the clean-up did not finish within its share of options.timeouts.runMs (${runMs} ms); what this run created may remain`,
          ],
        });
    }
  };

  const cleanup: { suite: string; leftovers: string[] }[] = [];
  let halted = false;
  let checksFinished = false;
  const work = body();
  const outcome = await Promise.race([
    work.then(() => "done" as const),
    aborted(halt.signal).then(() => "halted" as const),
  ]);
  clearTimeout(haltTimer);
  req.halt?.removeEventListener("abort", onHalt);
  if (outcome === "halted") {
    halted = true;
    interrupted = true;
    work.catch(() => undefined);
    stopped.abort();
    print("stopped waiting: the report holds what finished");
    cleanup.push({
      suite: chosen.map((s) => s.name).join("+"),
      leftovers: [
        "the run was halted (a second interrupt, or runMs passed with work still running) before the clean-up finished; what this run created may remain",
      ],
    });
  }
  for (const e of reporter.harnessErrors) print(redactor.text(`harness error: ${e}`));
  if (!interrupted && !req.shard && reporter.results.length > 0) {
    const titles = new Map(chosen.flatMap((s) => s.checks.map((c) => [c.id, c.title] as const)));
    reporter.addLost(
      chosen.flatMap((s) =>
        s.checks
          .filter((c) => c.requirements.some((id) => matchesGrep(id, grep)))
          .map((c) => ({ check: c.id, suite: s.name, section: s.title, requirements: c.requirements })),
      ),
      (id) => titles.get(id) ?? id,
    );
  }
  if (reporter.harnessErrors.length > 0 && reporter.results.length === 0) {
    throw new HarnessError(
      "IDC_INTERNAL",
      `no check ran:\n${reporter.harnessErrors.map((e) => redactor.text(e)).join("\n")}`,
    );
  }
  // Observers decide their rules over every check's exchanges; a met rule needs the whole run.
  const complete = checksFinished && grep.length === 0 && reporter.harnessErrors.length === 0;
  const observed = chosen.flatMap((s) =>
    observerResults(
      s.name,
      (s.observers ?? []).filter((o) => matchesGrep(o.requirement, grep)),
      reporter.results,
      { complete, profile: profile.suites[s.name] },
    ),
  );
  const checks = [...reporter.results.map(({ observations: _o, ...r }) => r), ...observed];
  const symbol: Record<string, string> = { pass: "✓", fail: "✗", warn: "!", skip: "-", error: "E" };
  for (const o of observed) {
    const v =
      worst(
        Object.entries(o.requirements).map(([id, x]) => verdictFor(levels.get(id) ?? "MUST", x, strict)),
      ) ?? "error";
    print(`[observer] ${symbol[v]} ${v.padEnd(5)} ${o.suite} ${o.check}: ${o.title} (${o.notes[0] ?? ""})`);
  }
  const results = buildResults({
    meta: {
      id: runId,
      harness: HARNESS,
      profile: {
        name: profile.name,
        file: relative(process.cwd(), profile.path) || profile.path,
        sha256: profile.sha256,
      },
      suites: chosen.map((s) => ({
        name: s.name,
        title: s.title,
        document: s.document,
        target: profile.suites[s.name]!.baseUrl,
        ...(wordings.has(s.name) ? { wording: wordings.get(s.name)! } : {}),
      })),
      seed,
      strict,
      grep,
      ...(req.shard ? { shard: req.shard } : {}),
      startedAt: started.toISOString(),
      durationMs: Date.now() - started.getTime(),
      notCertifiable,
      interrupted: interrupted || halted || reporter.harnessErrors.length > 0,
      ...(req.certify ? { certify: true } : {}),
    },
    catalog,
    covered,
    checks,
    knownFailures: profile.knownFailures,
    cleanup,
  });
  return { results, redactor };
}

/** vitest's own console output is replaced by our progress lines. */
function devNull(): Writable {
  return new Writable({ write: (_c, _e, cb) => cb() });
}

/**
 * Section files named `*.last.test.ts` hold checks that disturb the target for everything
 * beside them (the SCIM rate-limit burst throttles the client): each runs after every other
 * section file of the run, alone. The phases of a run, in order: the other files (in
 * parallel, as before), then each such file by itself.
 */
export function phases(files: readonly string[]): string[][] {
  const last = files.filter((f) => f.endsWith(".last.test.ts"));
  const first = files.filter((f) => !last.includes(f));
  return [...(first.length > 0 || last.length === 0 ? [first] : []), ...last.map((f) => [f])];
}
