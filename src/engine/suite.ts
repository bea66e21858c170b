import { z } from "zod";
import type { Catalog, Wording } from "./requirement.js";
import type { CheckDefinition } from "./check.js";
import type { ClientOptions } from "../http/client.js";
import type { ObserverDefinition } from "./observer.js";

/** What a suite's setup may start in the harness process before its checks run. */
export interface SuiteSetup {
  /** Serialisable values handed to every check (`ctx.provided`): mock URLs, control tokens. */
  readonly provide?: Record<string, unknown>;
  /**
   * Runs after the checks, also after a failure or an interrupt; returns what it could not
   * clean up. `signal` aborts when the clean-up's share of `options.timeouts.runMs` is spent:
   * stop then, and return what was left undone (the engine stops waiting soon after).
   */
  readonly teardown?: (signal: AbortSignal) => Promise<void | { readonly leftovers: readonly string[] }>;
}

/** What a suite's setup knows of the run. */
export interface SetupContext {
  readonly runId: string;
  readonly seed: number;
  readonly client: ClientOptions;
}

/**
 * A suite is data plus checks: its catalog, the schema of its profile section, its checks
 * (for static coverage and id validation) and an optional setup that starts its mocks.
 * The engine finds it on disk (`suites/<name>/suite.ts`); it adds no code path to the engine.
 */
export interface SuiteManifest<P extends SuiteProfileBase = SuiteProfileBase> {
  readonly name: string;
  readonly title: string;
  /** The document it certifies against (`specs/002 area C`). */
  readonly document: string;
  readonly catalog: Catalog;
  readonly profileSchema: z.ZodType<P>;
  readonly checks: readonly CheckDefinition<P>[];
  /**
   * Rules about every exchange of a kind, judged on every response of every check of the run
   * (`src/engine/observer.ts`); each appears in the report as a check of its own.
   */
  readonly observers?: readonly ObserverDefinition<NoInfer<P>>[];
  readonly setup?: (profile: P, run: SetupContext) => Promise<SuiteSetup>;
  /** The names the suite's texts are rendered with for this profile (`requirement.ts` Wording). */
  readonly wording?: (profile: P) => Wording;
}

export interface SuiteProfileBase {
  readonly baseUrl: string;
  readonly features: Record<string, boolean>;
  readonly probes: Record<string, unknown>;
}

/**
 * The members every suite section of a profile has; suites extend it with their own. `probes`
 * and `features` are closed: a suite whose checks name some declares them with `probes()` and
 * `features()` in its shape, so a misspelt one is an error with "did you mean", never a check
 * silently skipped.
 */
export function suiteSection<S extends z.ZodRawShape>(shape: S) {
  return z.strictObject({
    baseUrl: z.url({ protocol: /^https?$/, error: "expected an http(s) URL" }),
    features: features([]),
    probes: probes({}),
    ...shape,
  });
}

/**
 * `probes` of a suite section: each probe a check names (`CheckDefinition.probe`) with the shape
 * it takes. Every probe also takes `false`: the target has nothing such a probe could show (the
 * check then says "not offered").
 */
export function probes<Pr extends z.ZodRawShape>(declared: Pr) {
  const shape = Object.fromEntries(
    Object.entries(declared).map(([k, v]) => [k, z.union([z.literal(false), v]).optional()]),
  ) as { [K in keyof Pr]: z.ZodOptional<z.ZodUnion<[z.ZodLiteral<false>, Pr[K]]>> };
  return z.strictObject(shape).default({} as never);
}

/** `features` of a suite section: the features a check names (`CheckDefinition.feature`). */
export function features(names: readonly string[]) {
  const shape = Object.fromEntries(names.map((f) => [f, z.boolean().optional()]));
  // Typed as the record it is read as: an absent feature is one not declared.
  return z.strictObject(shape).default({}) as unknown as z.ZodDefault<z.ZodRecord<z.ZodString, z.ZodBoolean>>;
}

/**
 * The usual probe: a request that answers 2xx while the subject can still act and 401, 403 or
 * 404 once it cannot; `placeholder` (`{id}`) in the URL is replaced by the subject probed.
 */
export function accessProbe(placeholder: string) {
  return z.strictObject({
    url: z
      .url({ protocol: /^https?$/, error: `expected an http(s) URL with ${placeholder}` })
      .refine((u) => u.includes(placeholder), {
        message: `expected a URL with ${placeholder} (replaced by the subject probed); without it every probe asks the same thing`,
      }),
    method: z.enum(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]).optional(),
    headers: z.record(z.string(), z.string()).optional(),
  });
}

export function defineSuite<P extends SuiteProfileBase>(m: SuiteManifest<P>): SuiteManifest<P> {
  return m;
}
