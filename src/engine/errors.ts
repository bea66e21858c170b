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

/**
 * The profile's setup did not give what a check needs: a hook that answered 404, a member the
 * profile names that the hook's answer lacks, a probe that never answers 2xx for a fresh
 * subject. Not the target's failure and not a fault of idconform: the run reports it under
 * "setup", naming the profile path to fix, and exits 3.
 */
export class SetupError extends HarnessError {
  constructor(
    /** The profile path to fix (`suites.vci.offers.trigger.offerMember`). */
    readonly path: string,
    /** What is wrong, without the path (`the hook answered members uri, userPin; none is "offer"`). */
    readonly problem: string,
    /** When an earlier check found it: that check's id (this one was stopped without asking again). */
    readonly foundBy?: string,
  ) {
    super("IDC_SETUP", `${path}: ${problem}`);
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
