import type { RequirementResult, Results } from "./results.js";
import { shownFinding } from "./findings.js";
import { mustCoverage, mustCoverageLine, mustOf, WHY_TEXT, type NotExercised } from "./must-coverage.js";

const xml = (s: string): string =>
  // Drop characters XML 1.0 cannot carry (a hostile target may send any byte), then escape.
  s
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "�")
    .replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * One test case per requirement, grouped by suite. JUnit knows no warning: a warned SHOULD
 * keeps a passing status (it does not fail the run) but says "[WARNING]" in its name, carries
 * the finding in system-out and an `idconform.verdict` property, so it never reads as a plain pass.
 */
export function renderJunit(r: Results): string {
  const notExercised = new Map(mustOf(r).notExercised.map((x) => [x.id, x]));
  const suites = r.run.suites.map((s) => {
    const reqs = r.requirements.filter((q) => q.suite === s.name);
    // Skipped MUSTs are not passes: each suite says how many of its applicable MUSTs were decided.
    const must = mustCoverage(
      reqs,
      r.coverage.uncovered.filter((u) => u.suite === s.name),
    );
    const count = (v: string): number => reqs.filter((q) => q.verdict === v).length;
    const failures = reqs.filter((q) => q.verdict === "fail" && !q.known).length;
    return `  <testsuite name="${xml(s.name)}" tests="${reqs.length}" failures="${failures}" errors="${count("error")}" skipped="${count("skip")}" timestamp="${xml(r.run.startedAt)}">
    <properties><property name="target" value="${xml(s.target)}"/><property name="document" value="${xml(s.document)}"/><property name="idconform.mustCoverage" value="${xml(mustCoverageLine(must))}"/><property name="idconform.mustNotExercised" value="${xml(must.notExercised.map((x) => x.id).join(" "))}"/><property name="idconform.certifiable" value="${r.run.certifiable}"/></properties>
${reqs.map((q) => testcase(q, notExercised.get(q.id))).join("\n")}
  </testsuite>`;
  });
  const total = r.requirements.length;
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="idconform ${xml(r.run.profile.name)}" tests="${total}" failures="${r.requirements.filter((q) => q.verdict === "fail" && !q.known).length}" errors="${r.summary.error}" skipped="${r.summary.skip}" time="${(r.run.durationMs / 1000).toFixed(3)}">
${suites.join("\n")}
</testsuites>
`;
}

function testcase(q: RequirementResult, notExercised: NotExercised | undefined): string {
  // The finding that says why the requirement has its verdict comes first (for a failure, a
  // violation, never a skip note of another check), then the others.
  const main = shownFinding(q);
  const ordered = main ? [main, ...q.findings.filter((f) => f !== main)] : q.findings;
  const text = ordered
    .map(
      (f) =>
        `${f.kind !== undefined && f.outcome === "violated" ? `[${f.kind}] ` : ""}${f.message}${f.expected !== undefined ? `\n  expected: ${f.expected}` : ""}${f.actual !== undefined ? `\n  actual: ${f.actual}` : ""}\n  check: ${f.check}`,
    )
    .join("\n");
  const name = `${q.id} (${q.level}) ${q.text}${q.verdict === "warn" ? " [WARNING]" : ""}${q.known ? " [KNOWN FAILURE]" : ""}`;
  const kind = main?.outcome === "violated" ? main.kind : undefined;
  const props = `<properties><property name="idconform.verdict" value="${q.verdict}"/>${kind !== undefined ? `<property name="idconform.kind" value="${kind}"/>` : ""}<property name="source" value="${xml(q.source)}"/></properties>`;
  let body = "";
  if ((q.verdict === "fail" && !q.known) || q.known?.stale) {
    const message = q.known?.stale
      ? "known failure now passes: remove it from knownFailures"
      : `${kind !== undefined ? `[${kind}] ` : ""}${main?.message ?? "not met"}`;
    body = `<failure message="${xml(message)}" type="${q.known?.stale ? "stale-known-failure" : q.level}">${xml(text)}</failure>`;
  } else if (q.verdict === "error")
    body = `<error message="${xml(main?.message ?? "could not decide")}" type="${main?.setup ? "setup" : (main?.code ?? "error")}">${xml(text)}</error>`;
  else if (q.verdict === "skip") {
    const kind = notExercised
      ? `NOT EXERCISED (${notExercised.why.map((k) => `${k}: ${WHY_TEXT[k]}`).join("; ")}): `
      : main?.skipKind
        ? `${main.skipKind}: `
        : "";
    body = `<skipped message="${xml(`${kind}${main?.message ?? "skipped"}`)}"/>`;
  } else if (q.verdict === "warn" || q.known)
    body = `<system-out>${xml(`${q.verdict === "warn" ? "WARNING (SHOULD not met)" : `KNOWN FAILURE: ${q.known?.reason ?? ""}`}\n${text}`)}</system-out>`;
  return `    <testcase classname="${xml(q.suite)}" name="${xml(name)}" time="0">${props}${body}</testcase>`;
}
