import { isSecurityKind, kindRank } from "../engine/finding-kind.js";
import type { Finding } from "../engine/check.js";
import { onlySetup, type RequirementResult, type Results } from "./results.js";

type Found = Finding & { readonly check?: string };

/**
 * The finding that says why a requirement has its verdict: for a fail or warn a violation
 * (the worst kind first), for an error what could not be decided, for a skip why. Never a
 * skip note of another check when something was violated.
 */
export function shownFinding<F extends Found>(
  q: Pick<RequirementResult, "verdict"> & { readonly findings: readonly F[] },
): F | undefined {
  const want =
    q.verdict === "fail" || q.verdict === "warn" || q.verdict === "pass"
      ? "violated"
      : q.verdict === "error"
        ? "errored"
        : "skipped";
  const of = q.findings.filter((f) => f.outcome === want);
  if (of.length === 0) return q.verdict === "pass" ? undefined : q.findings[0];
  return [...of].sort((a, b) => kindRank(a.kind) - kindRank(b.kind))[0];
}

const VERDICT_RANK: Record<string, number> = { fail: 0, error: 1, warn: 2, pass: 3, skip: 4 };

/**
 * What a reader looks at first, in order: failures whose finding is an acceptance of what must
 * be refused, then the other failures, then errors, then warnings (stale known failures with
 * them), each group in catalog order. Requirements only a setup problem left undecided are
 * left out: the run lists those under "setup".
 */
export function notableRequirements(r: Pick<Results, "requirements">): RequirementResult[] {
  const notable = r.requirements.filter(
    (q) =>
      (q.verdict === "fail" || q.verdict === "error" || q.verdict === "warn" || q.known?.stale === true) &&
      !onlySetup(q),
  );
  const rank = (q: RequirementResult): number =>
    (isSecurityKind(shownFinding(q)?.kind) && (q.verdict === "fail" || q.verdict === "warn") ? 0 : 10) +
    (VERDICT_RANK[q.verdict] ?? 5);
  return notable
    .map((q, i) => ({ q, i }))
    .sort((a, b) => rank(a.q) - rank(b.q) || a.i - b.i)
    .map((x) => x.q);
}
