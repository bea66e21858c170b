import type { Exchange } from "../http/exchange.js";
import type { CheckResult } from "../engine/check.js";
import type { RequirementResult, Results } from "./results.js";
import { esc } from "./html-escape.js";
import { REPORT_CSS, REPORT_JS } from "./html-assets.js";
import type { ResultsDiff } from "./diff.js";
import { compareSection } from "./diff-html.js";
import { FINDINGS_CSS, firstSection, kindBadge, setupSection } from "./html-findings.js";
import { shownFinding } from "./findings.js";
import { onlySetup } from "./results.js";
import { FINDING_KINDS } from "../engine/finding-kind.js";
import { COVERAGE_CSS, mustCoverageSummary, notExercisedSection } from "./html-coverage.js";
import {
  beginEvidence,
  checkNotes,
  EVIDENCE_CSS,
  exchangeEvidence,
  placeholderSection,
} from "./html-evidence.js";

/** Bytes of a body shown in report.html; results.json keeps more. */
const HTML_BODY_CAP = 8 * 1024;
/** Exchanges shown per finding; the rest are counted. */
const HTML_EXCHANGES_PER_FINDING = 6;

/**
 * Renders the self-contained report: one file, inline CSS and JS, no network. Rows are
 * rendered here (fast, readable without JS); the script only filters and expands. Only
 * non-passing requirements carry their HTTP exchanges, which bounds the file's size.
 * `compare` (`run --compare`): the diff against an earlier run, shown first.
 */
export function renderHtml(
  r: Results,
  opts: { compare?: ResultsDiff; redact?: (s: string) => string } = {},
): string {
  // Decoded JWTs pass the run's redactor (`redact`): base64url hid their text from it.
  beginEvidence(opts.redact);
  const checks = new Map(r.checks.map((c) => [`${c.suite}/${c.check}`, c]));
  const verdictCounts = (["fail", "warn", "error", "skip", "pass"] as const)
    .map(
      (v) =>
        `<button class="card v-${v}" data-filter-verdict="${v}"><b>${r.summary[v]}</b><span>${v}</span></button>`,
    )
    .join("");
  const status = r.outcome.exitCode === 0 ? "passed" : r.outcome.exitCode === 1 ? "failed" : "incomplete";
  const rows = r.requirements.map((q) => row(q, checks)).join("");
  const suites = r.run.suites.map((s) => `<option value="${esc(s.name)}">${esc(s.name)}</option>`).join("");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>idconform · ${esc(r.run.profile.name)} · ${esc(status)}</title><style>${REPORT_CSS}${EVIDENCE_CSS}${COVERAGE_CSS}${FINDINGS_CSS}</style></head>
<body>
<header class="top s-${status}">
  <h1>idconform report <small>${esc(r.run.profile.name)}</small></h1>
  <p class="verdict">Run ${esc(status)}: ${esc(r.outcome.reason)} <span class="exit">exit ${r.outcome.exitCode}</span></p>
  ${
    r.run.certifiable
      ? `<p class="cert ok">Certifiable run</p>`
      : `<p class="cert no" id="not-certifiable">Not certifiable: ${r.run.notCertifiable.map(esc).join("; ")}</p>`
  }
</header>
<main>
${setupSection(r)}
${opts.compare ? compareSection(opts.compare) : ""}
<section class="meta"><h2>Run</h2><dl>
  ${dt("Harness", `${r.run.harness.name} ${r.run.harness.version}`)}
  ${dt("Run id", r.run.id)}
  ${dt("Profile", `${r.run.profile.name} (${r.run.profile.file})`)}
  ${dt("Profile SHA-256", r.run.profile.sha256)}
  ${r.run.suites.map((s) => dt(`Target (${s.name})`, `${s.target} — ${s.title}, ${s.document}${s.wording ? `, identifiers ${s.wording.set}` : ""}`)).join("")}
  ${dt("Seed", `${r.run.seed} (replay: --seed ${r.run.seed})`)}
  ${dt("Strict", r.run.strict ? "yes: SHOULD failures fail" : "no: SHOULD failures warn")}
  ${r.run.grep.length > 0 ? dt("Selected", `--grep ${r.run.grep.join(" ")}`) : ""}
  ${r.run.shard ? dt("Shard", r.run.shard) : ""}
  ${dt("Started", r.run.startedAt)}
  ${dt("Duration", `${(r.run.durationMs / 1000).toFixed(1)} s`)}
</dl></section>
<section><h2>Summary</h2><div class="cards">${verdictCounts}</div>
${mustCoverageSummary(r)}
<table class="per-suite"><thead><tr><th>suite</th><th>fail</th><th>warn</th><th>error</th><th>skip</th><th>pass</th></tr></thead><tbody>
${r.suites.map((s) => `<tr><td>${esc(s.name)}</td>${(["fail", "warn", "error", "skip", "pass"] as const).map((v) => `<td class="n v-${v}">${s.summary[v]}</td>`).join("")}</tr>`).join("")}
</tbody></table>
${knownFailures(r)}
</section>
${firstSection(r)}
<section><h2>Requirements <small id="shown"></small></h2>
<div class="filters" role="search">
  <label>verdict <select id="f-verdict"><option value="">all</option><option value="nonpass">not passed</option><option>fail</option><option>warn</option><option>error</option><option>skip</option><option>pass</option></select></label>
  <label>suite <select id="f-suite"><option value="">all</option>${suites}</select></label>
  <label>kind <select id="f-kind"><option value="">all</option>${FINDING_KINDS.map((k) => `<option>${k}</option>`).join("")}</select></label>
  <label>level <select id="f-level"><option value="">all</option><option>MUST</option><option>SHOULD</option><option>MAY</option></select></label>
  <label>search <input id="f-text" type="search" placeholder="id, text or source"></label>
</div>
<table class="reqs"><thead><tr><th>verdict</th><th>requirement</th><th>level</th><th>suite</th><th>rule</th><th>source</th></tr></thead>
${rows}
</table>
</section>
${cleanupSection(r)}
${placeholderSection()}
${coverage(r)}
<footer>Generated by idconform ${esc(r.run.harness.version)} from results.json (schema ${esc(r.schemaVersion)}). Secrets read <code>\${NAME}</code>: export them to replay a curl command.</footer>
</main>
<script>${REPORT_JS}</script>
</body></html>
`;
}

function dt(k: string, v: string): string {
  return `<div><dt>${esc(k)}</dt><dd>${esc(v)}</dd></div>`;
}

function row(q: RequirementResult, checks: Map<string, CheckResult>): string {
  const label = q.known
    ? q.known.stale
      ? `${q.verdict} · stale known failure`
      : `${q.verdict} · known`
    : onlySetup(q)
      ? `${q.verdict} · setup`
      : q.verdict;
  const hay = `${q.id} ${q.text} ${q.source}`.toLowerCase();
  const kind = q.verdict === "fail" || q.verdict === "warn" ? shownFinding(q)?.kind : undefined;
  const head = `<tr class="main" tabindex="0" id="req-${esc(q.id)}"><td><span class="badge v-${q.verdict}">${esc(label)}</span>${kindBadge(kind)}</td><td class="id">${esc(q.id)}</td><td>${q.level}</td><td>${esc(q.suite)}</td><td>${esc(q.text)}</td><td class="src">${esc(q.source)}</td></tr>`;
  return `<tbody class="req" data-verdict="${q.verdict}" data-suite="${esc(q.suite)}" data-level="${q.level}" data-kind="${kind ?? ""}" data-text="${esc(hay)}">${head}<tr class="detail" hidden><td colspan="6">${detail(q, checks)}</td></tr></tbody>`;
}

function detail(q: RequirementResult, checks: Map<string, CheckResult>): string {
  const by = q.checks
    .map(
      (c) =>
        `<li><code>${esc(c.check)}</code>: ${esc(checks.get(`${q.suite}/${c.check}`)?.title ?? "")} — <b>${esc(c.outcome)}</b>${checkNotes(checks.get(`${q.suite}/${c.check}`))}</li>`,
    )
    .join("");
  const known = q.known
    ? `<p class="known">Known failure in the profile: ${esc(q.known.reason)}${q.known.stale ? " — it now passes: remove it from knownFailures." : ""}</p>`
    : "";
  if (q.findings.length === 0) return `${known}<p>Decided by:</p><ul>${by}</ul>`;
  const findings = q.findings
    .map((f) => {
      const c = checks.get(`${q.suite}/${f.check}`);
      const ids = f.exchanges.length > 0 ? f.exchanges : (c?.exchanges.map((e) => e.id) ?? []);
      const ex = (c?.exchanges ?? []).filter((e) => ids.includes(e.id));
      const shown = ex.slice(-HTML_EXCHANGES_PER_FINDING);
      return `<div class="finding o-${f.outcome}">
<p class="msg"><b>${esc(f.outcome === "violated" ? "Not met" : f.outcome === "skipped" ? `Skipped${f.skipKind ? ` (${f.skipKind})` : ""}` : f.setup ? "Setup" : "Could not decide")}</b>${f.outcome === "violated" ? kindBadge(f.kind) : ""}${f.message === "not met" ? "" : `: ${esc(f.message)}`}${f.code ? ` <code>${esc(f.code)}</code>` : ""}</p>
${f.expected !== undefined || f.actual !== undefined ? `<table class="ea"><tr><th>expected</th><td><pre>${esc(f.expected ?? "")}</pre></td></tr><tr><th>actual</th><td><pre>${esc(f.actual ?? "")}</pre></td></tr></table>` : ""}
${ex.length > shown.length ? `<p class="more">${ex.length - shown.length} earlier exchange(s) in results.json</p>` : ""}
${shown.map(exchange).join("")}
<p class="by">check <code>${esc(f.check)}</code></p></div>`;
    })
    .join("");
  return `${known}${findings}<p>Decided by:</p><ul>${by}</ul>`;
}

function exchange(e: Exchange): string {
  const req = e.request;
  const head = (h: Record<string, string>): string =>
    Object.entries(h)
      .map(([k, v]) => `${k}: ${v}`)
      .join("\n");
  const body = (b: string | undefined): string =>
    b === undefined
      ? ""
      : b.length > HTML_BODY_CAP
        ? `${b.slice(0, HTML_BODY_CAP)}\n… [cut; see results.json]`
        : b;
  const res = e.response
    ? `<pre class="res">HTTP ${e.response.status}\n${esc(head(e.response.headers))}${e.response.body ? `\n\n${esc(body(e.response.body))}` : ""}</pre>`
    : "";
  return `<details class="exchange" open><summary>${esc(req.method)} ${esc(req.url)} → ${e.response ? e.response.status : esc(e.error?.code ?? "no response")} <small>${e.durationMs} ms${e.label ? ` · ${esc(e.label)}` : ""}</small></summary>
<pre class="req">${esc(req.method)} ${esc(req.url)}\n${esc(head(req.headers))}${req.body ? `\n\n${esc(body(req.body))}` : ""}</pre>
${res}${exchangeEvidence(e)}${e.error ? `<p class="xerr">${esc(e.error.code)}: ${esc(e.error.message)}</p>` : ""}${e.truncated ? `<p class="xerr">body cut at the size cap</p>` : ""}
<div class="curl"><button type="button" class="copy">copy curl</button><pre>${esc(e.curl)}</pre></div></details>`;
}

function knownFailures(r: Results): string {
  if (r.knownFailures.length === 0) return "";
  return `<h3>Known failures (profile baseline)</h3><ul class="kf">${r.knownFailures
    .map(
      (k) => `<li class="kf-${k.status}"><code>${esc(k.id)}</code> — ${esc(k.status)}: ${esc(k.reason)}</li>`,
    )
    .join("")}</ul>`;
}

function cleanupSection(r: Results): string {
  const left = r.cleanup.flatMap((c) => c.leftovers.map((l) => `<li><b>${esc(c.suite)}</b>: ${esc(l)}</li>`));
  if (left.length === 0) return "";
  return `<section id="cleanup"><h2>Left on the target</h2><p>The run could not delete this test data; remove it by hand:</p><ul>${left.join("")}</ul></section>`;
}

function coverage(r: Results): string {
  const list = (xs: Results["coverage"]["uncovered"]) =>
    xs.length === 0
      ? "<p>None.</p>"
      : `<ul>${xs.map((x) => `<li><code>${esc(x.id)}</code> ${x.level} — ${esc(x.text)} <small>(${esc(x.source)})</small></li>`).join("")}</ul>`;
  return `<section id="coverage"><h2>Coverage</h2>
${notExercisedSection(r)}
<h3>Requirements no check decides (${r.coverage.uncovered.length})</h3>${list(r.coverage.uncovered)}
<h3>Requirements not run in this run (${r.coverage.notRun.length})</h3>${list(r.coverage.notRun)}</section>`;
}
