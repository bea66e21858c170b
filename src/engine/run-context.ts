import type { ClientOptions } from "../http/client.js";
import type { SecretEntry } from "../http/redactor.js";
import type { CheckResult } from "./check.js";

/** What the harness process hands to the vitest workers that run the checks. */
export interface RunProvided {
  readonly runId: string;
  readonly seed: number;
  readonly grep: readonly string[];
  readonly client: ClientOptions;
  readonly checkTimeoutMs: number;
  readonly secrets: readonly SecretEntry[];
  /** A directory the run owns where checks leave the setup problems they found (`setup-log.ts`). */
  readonly setupDir?: string;
  readonly suites: Record<
    string,
    {
      readonly profile: unknown;
      readonly features: Record<string, boolean>;
      readonly probes: Record<string, unknown>;
      readonly provided: Record<string, unknown>;
    }
  >;
}

/** Set on each vitest test when it is declared, so the reporter knows a check even if it never ran. */
export interface CheckDeclaration {
  readonly check: string;
  readonly suite: string;
  readonly section: string;
  readonly requirements: readonly string[];
  readonly selected: boolean;
}

declare module "vitest" {
  interface ProvidedContext {
    idconform: RunProvided;
  }
}

declare module "@vitest/runner" {
  interface TaskMeta {
    idconform?: CheckDeclaration;
    idconformResult?: CheckResult;
  }
}
