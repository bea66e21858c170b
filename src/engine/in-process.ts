import { randomBytes } from "node:crypto";
import { join, relative } from "node:path";
import { runCheck } from "./check-runner.js";
import { memorySetupLog } from "./setup-log.js";
import { loadSuites, loadTarget, ROOT } from "./discovery.js";
import { HarnessError } from "./errors.js";
import { observerResults } from "./observer.js";
import { loadProfile, type LoadedProfile } from "./profile.js";
import { HARNESS } from "./version.js";
import { buildResults, type CatalogEntry, type Results } from "../report/results.js";
import type { CheckDefinition, CheckResult } from "./check.js";
import type { ClientOptions } from "../http/client.js";
import type { SuiteManifest, SuiteSetup } from "./suite.js";
import type { RunningTarget } from "./target.js";
import type { Outcome } from "./verdict.js";

/** What to run: a suite against its reference target, started here with the given faults. */
export interface InProcessOptions {
  readonly suite: string;
  readonly faults?: readonly string[];
  /** The profile to read; default `profiles/demo/<suite>.yaml`. */
  readonly profileFile?: string;
  /** Values for the profile's `${VAR}`s, over the environment and what the started target hands back. */
  readonly env?: Readonly<Record<string, string>>;
  /** More options for the target's `start` (the SCIM target's rate-limiter clock, say). */
  readonly targetOptions?: Readonly<Record<string, unknown>>;
  /** Aborting it stops the checks in flight (their undecided requirements become `error`). */
  readonly signal?: AbortSignal;
}

/** A requirement a check did not find met. */
export interface Unmet {
  readonly check: string;
  readonly requirement: string;
  readonly outcome: Exclude<Outcome, "met">;
}

/** The outcome of an in-process run: what `idconform run` would have reported. */
export interface InProcessResult {
  /** Check results, the observers' own results included (as the report lists them). */
  readonly checks: readonly CheckResult[];
  /** Per-requirement verdicts, built by the report's own builder. */
  readonly results: Results;
  /** Every (check, requirement) outcome that is not `met`, observers included. */
  readonly unmet: readonly Unmet[];
  /** What the suite's clean-up could not remove. */
  readonly leftovers: readonly string[];
}

/**
 * A suite opened against its reference target in this process: the checks can be run one by
 * one (a mutation test runs only those that cover a mutant), then `finish` and `close`.
 */
export interface SuiteSession {
  readonly manifest: SuiteManifest;
  readonly profile: LoadedProfile;
  readonly target: RunningTarget;
  readonly checks: readonly CheckDefinition[];
  /** Runs one check (by id or definition); bounded by its timeout and `signal`. */
  run(check: string | CheckDefinition, signal?: AbortSignal): Promise<CheckResult>;
  /** The observers' results over `checks` and the per-requirement verdicts. */
  finish(
    checks: readonly CheckResult[],
    o?: { readonly complete?: boolean },
  ): Omit<InProcessResult, "leftovers">;
  /** Runs the suite's clean-up and stops the target; returns what the clean-up left behind. */
  close(): Promise<string[]>;
}

/** After a check's timeout, how long it gets to wind down before it is given up as `error`. */
const WIND_DOWN_MS = 5_000;

function runIdFor(suite: string): string {
  const ts = new Date().toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `${ts}-${suite}-${randomBytes(2).toString("hex")}`;
}

function clientOf(p: LoadedProfile): ClientOptions {
  return {
    requestTimeoutMs: p.options.timeouts.requestMs,
    maxResponseBytes: p.options.maxResponseBytes,
    allowInsecureHttp: p.options.allowInsecureHttp,
    caFile: p.options.tls.caFile,
    maxRedirects: p.options.maxRedirects,
  };
}

/**
 * Starts a suite's reference target in this process, loads the profile with the target's
 * environment, and runs the suite's setup. The checks run through `runCheck`, the same path
 * a vitest worker takes (`register.ts`), so verdicts agree with `idconform demo`.
 */
export async function openSuite(o: InProcessOptions): Promise<SuiteSession> {
  const [manifest] = await loadSuites([o.suite]);
  if (!manifest) throw new HarnessError("IDC_SUITE_UNKNOWN", `unknown suite "${o.suite}"`);
  const module = await loadTarget(o.suite);
  const target = await module.start({ ...o.targetOptions, faults: o.faults ?? [] });
  let setup: SuiteSetup = {};
  let profile: LoadedProfile;
  const runId = runIdFor(o.suite);
  try {
    profile = loadProfile(o.profileFile ?? join(ROOT, "profiles", "demo", `${o.suite}.yaml`), [manifest], {
      ...process.env,
      ...target.env,
      ...o.env,
    });
    const section = profile.suites[o.suite];
    if (!section)
      throw new HarnessError("IDC_USAGE", `the profile ${profile.name} has no suites.${o.suite} section`);
    setup = manifest.setup
      ? await manifest.setup(section, {
          runId,
          seed: profile.options.seed ?? 1,
          client: clientOf(profile),
        })
      : {};
  } catch (e) {
    await target.close();
    throw e;
  }
  const section = profile.suites[o.suite]!;
  const seed = profile.options.seed ?? 1;
  const client = clientOf(profile);
  const checks = manifest.checks as readonly CheckDefinition[];
  const observers = manifest.observers ?? [];
  const env = {
    suite: o.suite,
    // The section is the heading a suite's test file registers a check under; it only labels the report.
    section: manifest.title,
    profile: section,
    features: section.features,
    probes: section.probes,
    client,
    secrets: profile.secrets,
    seed,
    runId,
    provided: setup.provide ?? {},
    observers,
    setupLog: memorySetupLog(),
  };
  const started = new Date();

  const run = async (which: string | CheckDefinition, signal?: AbortSignal): Promise<CheckResult> => {
    const def = typeof which === "string" ? checks.find((c) => c.id === which) : which;
    if (!def) throw new HarnessError("IDC_USAGE", `suite ${o.suite} has no check "${String(which)}"`);
    const limit = def.timeoutMs ?? profile.options.timeouts.checkMs;
    const stop = new AbortController();
    const timer = setTimeout(
      () => stop.abort(new Error(`check ${def.id} timed out after ${limit} ms`)),
      limit,
    );
    const signals = [stop.signal, ...(signal ? [signal] : []), ...(o.signal ? [o.signal] : [])];
    let giveUp: NodeJS.Timeout | undefined;
    try {
      // A check that ignores its abort is not waited for past the wind-down.
      const abandoned = new Promise<CheckResult>((resolve) => {
        const onStop = (): void => {
          giveUp = setTimeout(() => resolve(abandonedResult(def, o.suite, env.section)), WIND_DOWN_MS);
        };
        const any = AbortSignal.any(signals);
        if (any.aborted) onStop();
        else any.addEventListener("abort", onStop, { once: true });
      });
      return await Promise.race([runCheck(def, env, AbortSignal.any(signals)), abandoned]);
    } finally {
      clearTimeout(timer);
      clearTimeout(giveUp);
    }
  };

  const finish: SuiteSession["finish"] = (results, f = {}) => {
    const complete = f.complete ?? results.length === checks.length;
    const observed = observerResults(o.suite, observers, results, { complete, profile: section });
    const all = [...results.map(({ observations: _o, ...r }) => r), ...observed];
    const catalog: CatalogEntry[] = manifest.catalog.requirements.map((r) => ({
      id: r.id,
      suite: o.suite,
      level: r.level,
      text: r.text,
      source: r.source,
    }));
    const covered = new Set<string>([
      ...checks.flatMap((c) => c.requirements),
      ...observers.map((x) => x.requirement),
    ]);
    const built = buildResults({
      meta: {
        id: runId,
        harness: HARNESS,
        profile: {
          name: profile.name,
          file: relative(ROOT, profile.path) || profile.path,
          sha256: profile.sha256,
        },
        suites: [
          {
            name: o.suite,
            title: manifest.title,
            document: manifest.document,
            target: section.baseUrl,
            ...(manifest.wording ? { wording: manifest.wording(section) } : {}),
          },
        ],
        seed,
        strict: profile.options.strict,
        grep: [],
        startedAt: started.toISOString(),
        durationMs: Date.now() - started.getTime(),
        notCertifiable: [
          "in-process run against idconform's own reference target",
          ...(profile.options.allowInsecureHttp
            ? ["plain http was allowed (options.allowInsecureHttp: true)"]
            : []),
        ],
        interrupted: !complete,
      },
      catalog,
      covered,
      checks: all,
      knownFailures: profile.knownFailures,
    });
    return { checks: all, results: built, unmet: unmetOf(all) };
  };

  const close = async (): Promise<string[]> => {
    const leftovers: string[] = [];
    try {
      if (setup.teardown) {
        const t = profile.options.timeouts;
        const share = t.cleanupMs ?? Math.min(60_000, Math.max(1_000, Math.floor(t.runMs / 10)));
        const done = await setup.teardown(AbortSignal.timeout(share));
        if (done) leftovers.push(...done.leftovers);
      }
    } catch (e) {
      leftovers.push(`teardown failed: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      await target.close();
    }
    return leftovers;
  };

  return { manifest, profile, target, checks, run, finish, close };
}

/** Every requirement outcome of `checks` that is not `met`, in order. */
export function unmetOf(checks: readonly CheckResult[]): Unmet[] {
  return checks.flatMap((c) =>
    Object.entries(c.requirements)
      .filter((e): e is [string, Exclude<Outcome, "met">] => e[1] !== "met")
      .map(([requirement, outcome]) => ({ check: c.check, requirement, outcome })),
  );
}

/**
 * Runs a whole suite in this process against its reference target with `faults`: setup,
 * every check in the manifest's order, the observers, the clean-up. Much cheaper than a
 * vitest run (no workers, no test-file imports), and decided by the same code.
 */
export async function runSuiteInProcess(o: InProcessOptions): Promise<InProcessResult> {
  const s = await openSuite(o);
  const results: CheckResult[] = [];
  let leftovers: string[] = [];
  try {
    for (const def of s.checks) {
      if (o.signal?.aborted) break;
      results.push(await s.run(def));
    }
  } finally {
    leftovers = await s.close();
  }
  return { ...s.finish(results, { complete: results.length === s.checks.length }), leftovers };
}

function abandonedResult(def: CheckDefinition, suite: string, section: string): CheckResult {
  const message = `check ${def.id} did not stop within ${WIND_DOWN_MS} ms of its abort`;
  return {
    check: def.id,
    suite,
    title: def.title,
    section,
    requirements: Object.fromEntries(def.requirements.map((id) => [id, "errored" as const])),
    findings: [
      { requirements: def.requirements, outcome: "errored", message, exchanges: [], code: "IDC_TIMEOUT" },
    ],
    exchanges: [],
    notes: [],
    durationMs: 0,
  };
}
