import { isCheckControl } from "./check-runner.js";

/**
 * After `fc.check`: when the property ended because of a skip, an earlier failure or a
 * harness error (the run was interrupted, the target became unreachable), that is the
 * check's outcome; it is rethrown so it never becomes a counterexample, and a failure of the
 * target is never reported for a run that could not finish.
 */
export function rethrowControl(out: { readonly failed: boolean; readonly errorInstance?: unknown }): void {
  if (out.failed && isCheckControl(out.errorInstance)) throw out.errorInstance;
}
