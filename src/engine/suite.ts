import { z } from "zod";
import type { Catalog } from "./requirement.js";
import type { CheckDefinition } from "./check.js";

/** What a suite's setup may start in the harness process before its checks run. */
export interface SuiteSetup {
  /** Serialisable values handed to every check (`ctx.provided`): mock URLs, control tokens. */
  readonly provide?: Record<string, unknown>;
  readonly teardown?: () => Promise<void>;
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
  /** Test files, relative to the suite folder; default: every `*.test.ts` in it. */
  readonly setup?: (profile: P, run: { runId: string; seed: number }) => Promise<SuiteSetup>;
}

export interface SuiteProfileBase {
  readonly baseUrl: string;
  readonly features: Record<string, boolean>;
  readonly probes: Record<string, unknown>;
}

/** The members every suite section of a profile has; suites extend it with their own. */
export function suiteSection<S extends z.ZodRawShape>(shape: S) {
  return z.strictObject({
    baseUrl: z.url({ protocol: /^https?$/, error: "expected an http(s) URL" }),
    features: z.record(z.string(), z.boolean()).default({}),
    probes: z.record(z.string(), z.unknown()).default({}),
    ...shape,
  });
}

export function defineSuite<P extends SuiteProfileBase>(m: SuiteManifest<P>): SuiteManifest<P> {
  return m;
}
