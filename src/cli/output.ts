import type { Results } from "../report/results.js";
import type { Written } from "../report/write.js";
import { mustCoverageLine, mustOf, whyText } from "../report/must-coverage.js";

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
  const notable = r.requirements.filter(
    (q) => q.verdict === "fail" || q.verdict === "error" || q.verdict === "warn" || q.known?.stale,
  );
  for (const q of notable.slice(0, 30)) {
    const f = q.findings[0];
    const tag = q.known ? (q.known.stale ? "STALE KNOWN" : "KNOWN FAIL") : q.verdict.toUpperCase();
    const paintTag = q.verdict === "warn" ? yellow : red;
    const what = f && f.message !== "not met" ? f.message : q.text;
    const detail = f
      ? ` — ${what}${f.expected !== undefined ? `; expected ${f.expected}` : ""}${f.actual !== undefined ? `, got ${f.actual}` : ""}`
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
  for (const x of must.notExercised.slice(0, 30))
    err(
      `  ${yellow("NOT EXERCISED")} ${x.id} (${whyText(x.why)}) — ${x.reason.length > 160 ? `${x.reason.slice(0, 160)}…` : x.reason}`,
    );
  if (must.notExercised.length > 30) err(`  … and ${must.notExercised.length - 30} more in the report`);
  if (!r.run.certifiable) err(yellow(`not certifiable: ${r.run.notCertifiable.join("; ")}`));
  if (w) err(`report: ${w.html}\nresults: ${w.json}`);
  const line = `exit ${r.outcome.exitCode}: ${r.outcome.reason}`;
  err(r.outcome.exitCode === 0 ? green(line) : red(line));
}
