import type { Exchange } from "../http/exchange.js";
import type { HttpResponse, RecordingClient } from "../http/client.js";
import type { Outcome, SkipKind } from "./verdict.js";
import type { Observation } from "./observer.js";
import type { FindingKind } from "./finding-kind.js";

/** What a non-passing outcome carries: expected versus actual, the rules, the evidence. */
export interface Finding {
  readonly requirements: readonly string[];
  readonly outcome: Exclude<Outcome, "met">;
  readonly message: string;
  readonly expected?: string;
  readonly actual?: string;
  /** Exchange ids (within the check) that show it. */
  readonly exchanges: readonly number[];
  readonly skipKind?: SkipKind;
  /** A violation: how bad, in the kinds a reader scans for (`accepted` first). */
  readonly kind?: FindingKind;
  readonly code?: string;
  /**
   * An `errored` finding of the profile's setup (code IDC_SETUP): the profile path to fix, what
   * is wrong, and the check that found it (this one, or an earlier one that stopped this one).
   */
  readonly setup?: { readonly path: string; readonly problem: string; readonly foundBy: string };
}

/** The serialisable result of one check, as it travels from a worker to the reporter. */
export interface CheckResult {
  readonly check: string;
  readonly suite: string;
  readonly title: string;
  readonly section: string;
  readonly requirements: Record<string, Outcome>;
  readonly findings: readonly Finding[];
  readonly exchanges: readonly Exchange[];
  readonly notes: readonly string[];
  readonly durationMs: number;
  /** What the suite's observers saw in this check's exchanges (decided over the run, not here). */
  readonly observations?: readonly Observation[];
}

export interface Details {
  readonly expected?: string;
  readonly actual?: string;
  readonly message?: string;
  /** The response that shows it; defaults to the latest exchange of the check. */
  readonly res?: HttpResponse;
  /** How bad a violation is; read from `expected` and `actual` when not given (`inferKind`). */
  readonly kind?: FindingKind;
}

/**
 * The API a check body sees. `check` records an observation and goes on; `require`
 * records it and stops the check when it fails (requirements not yet decided then read
 * "not observed"). Throwing anything else is a harness fault and gives `error`.
 */
export interface CheckContext<P = unknown> {
  readonly http: RecordingClient;
  /** The suite's section of the profile, validated. */
  readonly profile: P;
  readonly seed: number;
  readonly runId: string;
  /** Values the suite's setup provided (mock URLs, control tokens). */
  readonly provided: Record<string, unknown>;
  readonly signal: AbortSignal;
  check(requirement: string, ok: boolean, details?: Details): boolean;
  require(requirement: string, ok: boolean, details?: Details): void;
  /** Parses a JSON response body; a body that is not JSON violates `requirement` and stops the check. */
  json<T = unknown>(requirement: string, res: HttpResponse): T;
  /** Stops the check: every requirement it has not decided is skipped with this reason. */
  skip(reason: string, kind?: SkipKind): never;
  /**
   * Skips one requirement with this reason and goes on (a part of the check the target does
   * not offer); a later observation of it still decides it.
   */
  skipOnly(requirement: string, reason: string, kind?: SkipKind): void;
  /**
   * Says that part of what `requirement` speaks of could not be judged here (a plain http URL in
   * a run that allows it, among https ones): the requirement can then still fail, but not pass;
   * without a violation it ends a skip with this reason. Kind `not-exercised` unless given.
   */
  partly(requirement: string, reason: string, kind?: SkipKind): void;
  /**
   * Judges `requirement` on every item: `judge` returns `undefined` when the item meets it, or
   * what is wrong. An empty collection skips the requirement ("no <what> to judge") rather than
   * passing it; a violation is one finding for the first item, counting the others. True when
   * every item met it.
   */
  each<T>(
    requirement: string,
    items: readonly T[],
    what: string,
    judge: (item: T, index: number) => Details | undefined | Promise<Details | undefined>,
  ): Promise<boolean>;
  /**
   * Marks a requirement as completely decided. When a check skips (`skip`), every requirement
   * it met only so far becomes a skip saying what was seen; those marked complete keep their pass.
   */
  complete(requirement: string): void;
  note(text: string): void;
  /**
   * Runs a step of the profile's setup (a hook, a probe) known under `key`. A `SetupError` the
   * step throws is remembered for the run: every later step under the same key, in any check,
   * stops with the same setup error at once, without asking the target again.
   */
  setup<T>(key: string, step: () => Promise<T>): Promise<T>;
  /** Registers a secret the check obtained, so no output shows it. */
  secret(value: string, name: string): void;
}

export interface CheckDefinition<P = unknown> {
  /** Stable id of the check (`FIX-HELLO-SHAPE`). */
  readonly id: string;
  /** The rule it checks, stated as a sentence; becomes the test title. */
  readonly title: string;
  readonly requirements: readonly string[];
  /** Skip unless the profile declares this feature (`suites.<s>.features.<name>: true`). */
  readonly feature?: string;
  /** Skip with "needs probe" unless the profile gives this probe (`suites.<s>.probes.<name>`). */
  readonly probe?: string;
  readonly timeoutMs?: number;
  run(ctx: CheckContext<P>): Promise<void>;
}

/** Declares a check; the engine registers it with vitest. */
export function defineCheck<P>(def: CheckDefinition<P>): CheckDefinition<P> {
  return def;
}
