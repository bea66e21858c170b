import { CHANGES, type ResultsDiff } from "./diff.js";
import { CHANGE_TITLES } from "./diff-format.js";
import { esc } from "./html-escape.js";

/** The class of a state's badge: its verdict, or skip for every undecided state. */
const badge = (state: string): string => {
  const v = state.split(" ")[0] ?? "";
  const cls = ["pass", "fail", "warn", "error"].includes(v) ? v : "skip";
  return `<span class="badge v-${cls}">${esc(state)}</span>`;
};

/** The `run --compare` section at the top of report.html: what changed since the old run. */
export function compareSection(d: ResultsDiff): string {
  const c = d.counts;
  const summary = `${c.regressed} regressed · ${c.fixed} fixed · ${c["verdict-changed"]} verdict changed · ${c["coverage-changed"]} coverage changed · ${c.appeared} appeared · ${c.disappeared} disappeared · ${c.unchanged} unchanged`;
  const groups = CHANGES.map((ch) => {
    const xs = d.entries.filter((e) => e.change === ch);
    if (xs.length === 0) return "";
    const rows = xs
      .map(
        (e) =>
          `<tr><td class="id">${esc(e.id)}</td><td>${e.level}</td><td>${esc(e.suite)}</td><td style="white-space:nowrap">${badge(e.before)} → ${badge(e.after)}${e.known ? " <small>known failure</small>" : ""}</td><td>${esc(e.message ?? "")}</td></tr>`,
      )
      .join("");
    return `<details class="cmp-${ch}"${ch === "regressed" || ch === "fixed" ? " open" : ""}><summary>${esc(CHANGE_TITLES[ch])}: ${xs.length}</summary>
<table><thead><tr><th>requirement</th><th>level</th><th>suite</th><th>before → after</th><th>why (new run)</th></tr></thead><tbody>${rows}</tbody></table></details>`;
  }).join("");
  return `<section id="compare"><h2>Compared with run ${esc(d.old.id)} <small>(${esc(d.old.startedAt)})</small></h2>
<p class="${d.exitCode === 1 ? "v-fail" : "v-pass"}"><b>${esc(d.reason)}</b></p><p>${esc(summary)}</p>
${d.notes.map((n) => `<p class="known">Note: ${esc(n)}</p>`).join("")}${groups}</section>`;
}
