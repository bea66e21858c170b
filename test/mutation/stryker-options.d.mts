/** Types of stryker-options.mjs (plain JavaScript, read by scripts/mutation.mjs under plain node). */
export const ROOT: string;
export const NOT_PROTOCOL: readonly string[];
export function isFaultModule(name: string): boolean;
export function isDataModule(name: string): boolean;
export function mutableSuites(): string[];
export function protocolFiles(suite: string): string[];
export interface MutationOptions {
  readonly mutate: readonly string[];
  readonly testRunner: string;
  readonly vitest: { readonly configFile: string; readonly related: boolean };
  readonly plugins: readonly string[];
  readonly ignorers: readonly string[];
  readonly coverageAnalysis: string;
  readonly concurrency: number;
  readonly incremental: boolean;
  readonly incrementalFile: string;
  readonly htmlReporter: { readonly fileName: string };
  readonly jsonReporter: { readonly fileName: string };
  readonly [other: string]: unknown;
}
export function strykerOptions(
  suite: string,
  o?: {
    files?: string[];
    concurrency?: number;
    incremental?: boolean;
    force?: boolean;
    reportDir?: string;
  },
): MutationOptions;
