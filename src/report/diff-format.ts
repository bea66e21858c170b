import { CHANGES, type Change, type DiffEntry, type ResultsDiff } from "./diff.js";

export const CHANGE_TITLES: Readonly<Record<Change, string>> = {
  regressed: "Regressed (pass → fail, warn or error)",
  fixed: "Fixed (fail, warn or error → pass)",
  "verdict-changed": "Verdict changed (between fail, warn and error)",
  "coverage-changed": "Coverage changed (decided ↔ skip, not run or uncovered, or the skip reason changed)",
  appeared: "Appeared (only in the new run)",
  disappeared: "Disappeared (only in the old run)",
};

/** Text read from a results file may carry terminal escapes or line breaks: one plain line. */
const CONTROLS = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]+/g;
export const oneLine = (s: string): string => s.replace(CONTROLS, " ").trim();

const counts = (d: ResultsDiff): string =>
  `${d.counts.regressed} regressed · ${d.counts.fixed} fixed · ${d.counts["verdict-changed"]} verdict changed · ${d.counts["coverage-changed"]} coverage changed · ${d.counts.appeared} appeared · ${d.counts.disappeared} disappeared · ${d.counts.unchanged} unchanged`;

/** The diff for a terminal or a CI log: every entry, one line each. */
export function diffText(d: ResultsDiff): string {
  const lines = [
    `idconform diff: ${oneLine(d.old.id)} (${oneLine(d.old.startedAt)}) → ${oneLine(d.new.id)} (${oneLine(d.new.startedAt)})`,
    ...d.notes.map((n) => `note: ${n}`),
    counts(d),
  ];
  for (const c of CHANGES) {
    const xs = d.entries.filter((e) => e.change === c);
    if (xs.length === 0) continue;
    lines.push("", `${CHANGE_TITLES[c]}: ${xs.length}`);
    for (const e of xs)
      lines.push(
        `  ${e.id} (${e.level}, ${oneLine(e.suite)}): ${e.before} → ${e.after}${e.known ? " (known failure)" : ""}${e.message !== undefined ? ` — ${oneLine(e.message)}` : ""}`,
      );
  }
  lines.push("", `exit ${d.exitCode}: ${d.reason}`);
  return `${lines.join("\n")}\n`;
}

/** Entries listed per section in Markdown, and the whole comment's budget (GitHub takes 65,536). */
const MD_PER_SECTION = 50;
const MD_BUDGET = 60_000;
const MD_MESSAGE = 160;

/**
 * Hostile text as a Markdown code span: no link, mention, HTML or table cell can come out of
 * it. The fence is longer than any backtick run inside.
 */
export function codeSpan(s: string, max = MD_MESSAGE): string {
  let t = oneLine(s);
  if (t.length > max) t = `${t.slice(0, max)}…`;
  if (t === "") return "(empty)";
  const longest = Math.max(0, ...(t.match(/`+/g) ?? []).map((r) => r.length));
  const fence = "`".repeat(longest + 1);
  const pad = t.startsWith("`") || t.endsWith("`") ? " " : "";
  return `${fence}${pad}${t}${pad}${fence}`;
}

function mdEntry(e: DiffEntry): string {
  return `- \`${e.id}\` ${e.level} · ${codeSpan(e.suite, 40)}: ${e.before} → **${e.after}**${e.known ? " (known failure)" : ""}${e.message !== undefined ? ` — ${codeSpan(e.message)}` : ""}`;
}

/** A summary fit for a pull request comment: counts, regressions and fixes open, the rest folded. */
export function diffMarkdown(d: ResultsDiff): string {
  const head = [
    `### idconform: ${d.counts.regressed > 0 ? `${d.counts.regressed} requirement(s) regressed` : "no regression"}`,
    "",
    `Old run ${codeSpan(d.old.id, 80)} (${codeSpan(d.old.startedAt, 40)}) → new run ${codeSpan(d.new.id, 80)} (${codeSpan(d.new.startedAt, 40)}), profile ${codeSpan(d.new.profile, 80)}`,
    "",
    ...d.notes.map((n) => `> note: ${n.replace(/[\\`*_[\]<>|#~]/g, "\\$&")}`),
    ...(d.notes.length > 0 ? [""] : []),
    "| regressed | fixed | verdict changed | coverage changed | appeared | disappeared | unchanged |",
    "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    `| ${[...CHANGES, "unchanged" as const].map((c) => d.counts[c]).join(" | ")} |`,
  ];
  let size = head.join("\n").length;
  let cut = 0;
  const body: string[] = [];
  for (const c of CHANGES) {
    const xs = d.entries.filter((e) => e.change === c);
    if (xs.length === 0) continue;
    const folded = c !== "regressed" && c !== "fixed";
    const title = `${CHANGE_TITLES[c]}: ${xs.length}`;
    const section = folded ? ["", `<details><summary>${title}</summary>`, ""] : ["", `**${title}**`, ""];
    let listed = 0;
    for (const e of xs) {
      const line = mdEntry(e);
      if (listed >= MD_PER_SECTION || size + line.length > MD_BUDGET) break;
      section.push(line);
      size += line.length + 1;
      listed++;
    }
    if (listed < xs.length) {
      section.push(`- … and ${xs.length - listed} more (\`idconform diff\` lists them all)`);
      cut += xs.length - listed;
    }
    if (folded) section.push("", "</details>");
    body.push(...section);
  }
  const foot = ["", `Exit ${d.exitCode}: ${d.reason}.${cut > 0 ? ` ${cut} entries not listed here.` : ""}`];
  return `${[...head, ...body, ...foot].join("\n")}\n`;
}
