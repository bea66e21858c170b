import { esc } from "./html-escape.js";
import { mustCoverageLine, mustOf, mustPercent, WHY_TEXT } from "./must-coverage.js";
import type { Results } from "./results.js";

/** Styles of the MUST coverage line and list (report.html). */
export const COVERAGE_CSS =
  ".must-coverage{margin:8px 0}.must-coverage.full b{color:var(--pass)}.must-coverage.part b{color:var(--fail)}" +
  "#not-exercised-list li{margin:2px 0}#not-exercised-list .why{color:var(--muted)}";

/** The summary's MUST coverage line: decided out of applicable, linking the list of those not exercised. */
export function mustCoverageSummary(r: Results): string {
  const m = mustOf(r);
  const full = m.notExercised.length === 0;
  return `<p class="must-coverage ${full ? "full" : "part"}" id="must-coverage" data-percent="${mustPercent(m)}"><b>${esc(mustCoverageLine(m))}</b>${
    full ? "" : ` — <a href="#not-exercised">which, and why</a>: skipped MUSTs are not passes`
  }</p>`;
}

/** The coverage section's list of applicable MUSTs not exercised, each with why. */
export function notExercisedSection(r: Results): string {
  const m = mustOf(r);
  const items = m.notExercised.map(
    (x) =>
      `<li><code>${esc(x.id)}</code> (${esc(x.suite)}) <span class="why">${esc(
        x.why.map((k) => `${k}: ${WHY_TEXT[k]}`).join("; "),
      )}</span> — ${esc(x.reason)}</li>`,
  );
  return `<h3 id="not-exercised">Applicable MUST requirements not exercised (${m.notExercised.length})</h3>${
    items.length > 0 ? `<ul id="not-exercised-list">${items.join("")}</ul>` : "<p>None.</p>"
  }`;
}
