import {
  FINDING_KIND_TEXT,
  FINDING_KINDS,
  isSecurityKind,
  type FindingKind,
} from "../engine/finding-kind.js";
import { esc } from "./html-escape.js";
import { notableRequirements, shownFinding } from "./findings.js";
import type { Results } from "./results.js";

/** Styles of the setup section, the overview of findings and the kind badges (report.html). */
export const FINDINGS_CSS =
  "#setup{border:1px solid var(--error);border-radius:8px;padding:4px 16px;margin-top:16px;background:#f9f5ff}" +
  "#setup li{margin:6px 0}#setup .path{font-family:ui-monospace,monospace;font-weight:600}" +
  ".kind{display:inline-block;border-radius:4px;padding:0 6px;font-size:11px;font-weight:600;background:#f2f4f7;color:var(--muted);margin-left:4px;white-space:nowrap}" +
  ".kind.k-accepted{background:#fef3f2;color:var(--fail);border:1px solid var(--fail)}" +
  "#first ol{padding-left:20px}#first li{margin:2px 0}#first .more{color:var(--muted)}";

/** A finding kind as a badge, its meaning in the tooltip. */
export function kindBadge(kind: FindingKind | undefined): string {
  if (kind === undefined) return "";
  return `<span class="kind k-${kind}" title="${esc(FINDING_KIND_TEXT[kind])}">${esc(kind)}</span>`;
}

/**
 * The profile's setup problems, before anything the target did: each once, with the profile
 * path to fix and what it left undecided. Empty when there are none.
 */
export function setupSection(r: Results): string {
  const problems = r.setup ?? [];
  if (problems.length === 0) return "";
  const items = problems.map((p) => {
    const reqs = p.requirements
      .slice(0, 20)
      .map((id) => `<code>${esc(id)}</code>`)
      .join(", ");
    const more = p.requirements.length > 20 ? `, and ${p.requirements.length - 20} more` : "";
    return `<li><span class="path">${esc(p.path)}</span>: ${esc(p.problem)}<br><small>${esc(p.suite)} · found by check <code>${esc(p.check)}</code>${
      p.checks.length > 1 ? `; it stopped ${p.checks.length - 1} other check(s) at once` : ""
    } · not decided until it is fixed: ${reqs}${more}</small></li>`;
  });
  return `<section id="setup"><h2>Setup: fix the profile</h2><p>Not the target's failures: what the profile sets up (a hook, a probe, a member it names) did not give what the checks need. The run exits 3 until it is fixed.</p><ul>${items.join("")}</ul></section>`;
}

/**
 * What to fix first: the failing requirements in reading order (what the target accepted
 * although it must refuse it first), each with the kind of its finding.
 */
export function firstSection(r: Results): string {
  const notable = notableRequirements(r).filter((q) => q.verdict !== "error");
  if (notable.length === 0) return "";
  const shown = notable.slice(0, 40).map((q) => {
    const f = shownFinding(q);
    const what = f && f.message !== "not met" ? f.message : q.text;
    return `<li><span class="badge v-${q.verdict}">${esc(q.known ? `${q.verdict} · known` : q.verdict)}</span>${kindBadge(f?.kind)} <a href="#req-${esc(q.id)}"><code>${esc(q.id)}</code></a> (${q.level}) — ${esc(what.length > 200 ? `${what.slice(0, 200)}…` : what)}</li>`;
  });
  const accepted = notable.filter((q) => isSecurityKind(shownFinding(q)?.kind)).length;
  const legend = FINDING_KINDS.map((k) => `${kindBadge(k)} ${esc(FINDING_KIND_TEXT[k])}`).join("<br>");
  return `<section id="first"><h2>What to fix first</h2><p>${
    accepted > 0
      ? `<b class="v-fail">${accepted} requirement(s) where the target accepted what it must refuse</b>, listed first.`
      : "The target accepted nothing it must refuse."
  }</p><ol>${shown.join("")}</ol>${
    notable.length > 40 ? `<p class="more">and ${notable.length - 40} more in the table below</p>` : ""
  }<details><summary>Finding kinds</summary><p>${legend}</p></details></section>`;
}
