/**
 * Harness errors carry a stable code, so scripts and tests can tell them apart without
 * parsing messages. A non-conformant target never raises one of these out of a check: it
 * produces findings. These are for the harness's own failures and for bad input.
 */
export type HarnessErrorCode =
  | "IDC_USAGE"
  | "IDC_PROFILE_NOT_FOUND"
  | "IDC_PROFILE_YAML"
  | "IDC_PROFILE_INVALID"
  | "IDC_PROFILE_ENV_MISSING"
  | "IDC_SUITE_UNKNOWN"
  | "IDC_TARGET_UNKNOWN"
  | "IDC_FAULT_UNKNOWN"
  | "IDC_MOCK_UNKNOWN"
  | "IDC_CATALOG_INVALID"
  | "IDC_RESULTS_INVALID"
  | "IDC_HTTP_INSECURE"
  | "IDC_HTTP_TIMEOUT"
  | "IDC_HTTP_TOO_LARGE"
  | "IDC_HTTP_REDIRECT_LOOP"
  | "IDC_HTTP_TLS"
  | "IDC_HTTP_UNREACHABLE"
  | "IDC_HTTP_FAILED"
  | "IDC_RUN_ABORTED"
  /** The profile's setup (a hook, a probe, a member it names) did not give what the check needs. */
  | "IDC_SETUP"
  /** What a verdict needs could not be produced here (a burst too slow to exceed the limit). */
  | "IDC_UNDECIDABLE"
  | "IDC_INTERNAL";

export class HarnessError extends Error {
  override readonly name = "HarnessError";
  constructor(
    readonly code: HarnessErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Errors of bad input (exit 2) as opposed to errors that stop the harness (exit 3). */
export function isUsageError(err: unknown): boolean {
  return (
    err instanceof HarnessError &&
    (err.code === "IDC_USAGE" ||
      err.code.startsWith("IDC_PROFILE") ||
      err.code === "IDC_SUITE_UNKNOWN" ||
      err.code === "IDC_TARGET_UNKNOWN" ||
      err.code === "IDC_FAULT_UNKNOWN" ||
      err.code === "IDC_MOCK_UNKNOWN")
  );
}
