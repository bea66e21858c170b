import type { Level } from "./requirement.js";

/**
 * pass: observed and met. fail: a MUST observed broken (or a SHOULD under --strict).
 * warn: a SHOULD observed broken. skip: not observed, with the reason. error: the harness
 * could not decide (target unreachable, transport limit, harness fault); never a failure.
 */
export type Verdict = "pass" | "fail" | "warn" | "skip" | "error";
export const VERDICTS: readonly Verdict[] = ["fail", "warn", "error", "skip", "pass"];

/** What a check observed about one requirement, before severity is applied. */
export type Outcome = "met" | "violated" | "skipped" | "errored";

/**
 * Whose choice a skip was. The target's: `not-offered` (it does not offer the optional feature
 * the requirement speaks of; the requirement does not apply). The profile's: `not-declared`,
 * `needs-probe`, `needs-hook`, `not-exercised` (its setup does not let the check observe it),
 * `not-selected`. An earlier failure: `dependency`. `other`: none of these (a limit of the
 * harness, a state the target did not enter). Only `not-offered` leaves a MUST out of what
 * applies; every other kind leaves it "not exercised", and the run not certifiable.
 */
export type SkipKind =
  | "not-offered"
  | "not-declared"
  | "needs-probe"
  | "needs-hook"
  | "not-exercised"
  | "not-selected"
  | "dependency"
  | "other";

/**
 * Severity follows the requirement, never the check: a violated MUST fails, a violated
 * SHOULD warns (fails under strict), a violated MAY is informational (reported as pass
 * with the observation kept in its findings).
 */
export function verdictFor(level: Level, outcome: Outcome, strict: boolean): Verdict {
  switch (outcome) {
    case "met":
      return "pass";
    case "skipped":
      return "skip";
    case "errored":
      return "error";
    case "violated":
      if (level === "MUST") return "fail";
      if (level === "SHOULD") return strict ? "fail" : "warn";
      return "pass";
  }
}

const RANK: Record<Verdict, number> = { fail: 5, warn: 4, error: 3, pass: 2, skip: 1 };

/**
 * A requirement decided by several checks takes the worst verdict; a pass outranks a
 * skip (something was observed), an error outranks a pass (part of it could not be decided).
 */
export function worst(verdicts: readonly Verdict[]): Verdict | undefined {
  let best: Verdict | undefined;
  for (const v of verdicts) if (best === undefined || RANK[v] > RANK[best]) best = v;
  return best;
}

export type Summary = Record<Verdict, number>;

export function emptySummary(): Summary {
  return { pass: 0, fail: 0, warn: 0, skip: 0, error: 0 };
}
