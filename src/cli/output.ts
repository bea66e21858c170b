import type { Results } from "../report/results.js";
import type { Written } from "../report/write.js";
import { mustCoverageLine, mustOf, whyText } from "../report/must-coverage.js";
import { notableRequirements, shownFinding } from "../report/findings.js";
import { onlySetup } from "../report/results.js";

const colour = process.stderr.isTTY && !process.env.NO_COLOR;
const paint = (code: string, s: string): string => (colour ? `\u001b[${code}m${s}\u001b[0m` : s);
export const red = (s: string): string => paint("31", s);
export const yellow = (s: string): string => paint("33", s);
export const green = (s: string): string => paint("32", s);
export const bold = (s: string): string => paint("1", s);

/** Target-sent text may hold terminal escape sequences: C0/C1 controls (but newline and tab) are shown as "?". */
const CONTROLS = /[\u0000-\u0008\u000B-\u001A\u001C-\u001F\u007F-\u009F]|\u001B(?!\[[0-9;]*m)/g;
export const err = (line: string): void => void process.stderr.write(`${line.replace(CONTROLS, "?")}\n`);

/** The one summary a run ends with: counts, what failed and why, where the report is. */
export function printSummary(r: Results, w: Written | undefined): void {
  err("");
  for (const s of r.suites) {
    const c = s.summary;
    err(
      `${bold(s.name)}: ${c.pass} pass · ${c.fail} fail · ${c.warn} warn · ${c.skip} skip · ${c.error} error`,
    );
  }
  // The profile's setup first: its problems are not the target's, and each stops many checks.
  for (const p of r.setup ?? []) {
    err(red(`  ${"SETUP".padEnd(11)} ${p.path}: ${p.problem}`));
    err(
      `  ${"".padEnd(11)} found by ${p.check}; ${p.requirements.length} requirement(s) of ${p.suite} not decided until it is fixed`,
    );
  }
  // Then what the target did, what it accepted although it must refuse it first.
  const notable = notableRequirements(r);
  for (const q of notable.slice(0, 30)) {
    const f = shownFinding(q);
    const tag = q.known ? (q.known.stale ? "STALE KNOWN" : "KNOWN FAIL") : q.verdict.toUpperCase();
    const paintTag = q.verdict === "warn" ? yellow : red;
    const what = f && f.message !== "not met" ? f.message : q.text;
    const kind = f?.kind !== undefined ? `[${f.kind}] ` : "";
    const detail = f
      ? ` — ${kind}${what}${f.expected !== undefined ? `; expected ${f.expected}` : ""}${f.actual !== undefined ? `, got ${f.actual}` : ""}`
      : "";
    err(
      `  ${paintTag(tag.padEnd(11))} ${q.id} (${q.level})${detail.length > 220 ? `${detail.slice(0, 220)}…` : detail}`,
    );
  }
  if (notable.length > 30) err(`  … and ${notable.length - 30} more in the report`);
  for (const c of r.cleanup)
    for (const l of c.leftovers) err(yellow(`left on the target (${c.suite}): ${l}`));
  // Skipped MUSTs are not passes: how many that apply were decided, and each one that was not.
  const must = mustOf(r);
  const paintMust = must.notExercised.length > 0 ? yellow : green;
  err(paintMust(mustCoverageLine(must)));
  // Those a setup problem stopped are said once, with the problem above, not one by one.
  const bySetup = new Set(r.requirements.filter(onlySetup).map((q) => q.id));
  const listed = must.notExercised.filter((x) => !bySetup.has(x.id));
  for (const x of listed.slice(0, 30))
    err(
      `  ${yellow("NOT EXERCISED")} ${x.id} (${whyText(x.why)}) — ${x.reason.length > 160 ? `${x.reason.slice(0, 160)}…` : x.reason}`,
    );
  if (listed.length > 30) err(`  … and ${listed.length - 30} more in the report`);
  const stopped = must.notExercised.length - listed.length;
  if (stopped > 0) err(`  ${yellow("NOT EXERCISED")} ${stopped} more stopped by the setup problem(s) above`);
  if (!r.run.certifiable) err(yellow(`not certifiable: ${r.run.notCertifiable.join("; ")}`));
  if (w) err(`report: ${w.html}\nresults: ${w.json}`);
  const line = `exit ${r.outcome.exitCode}: ${r.outcome.reason}`;
  err(r.outcome.exitCode === 0 ? green(line) : red(line));
}
