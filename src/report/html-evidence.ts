import type { CheckResult } from "../engine/check.js";
import type { Exchange } from "../http/exchange.js";
import { parseJsonBounded } from "../http/json-bounds.js";
import { Redactor } from "../http/redactor.js";
import { esc } from "./html-escape.js";
import { capText, decodeCompact, findCompact, type DecodedToken } from "./jwt-decode.js";
import { placeholderMeaning } from "./placeholders.js";

/**
 * Evidence a person can read and replay (report.html): every JWT of a shown exchange decoded
 * beside its raw value, every `${NAME}` of a shown curl command explained, every check's
 * notes. Decoding happens here, on the server side, and every decoded text is escaped; the
 * browser never decodes anything. All of it is bounded: per exchange, per token, per report.
 */

/** JWTs decoded per exchange; the rest are counted. */
export const TOKENS_PER_EXCHANGE = 8;
/** JWTs decoded per report: past it, tokens are named, not decoded (the report stays fast). */
export const TOKENS_PER_REPORT = 2000;
/** Redacted values listed per exchange. */
const REDACTED_PER_EXCHANGE = 12;
/** Raw characters of a token shown beside its decoding (the exchange above shows it whole). */
const RAW_CHARS = 2000;
/** JSON strings of one body searched for tokens. */
const STRINGS_PER_BODY = 2000;
/** Placeholder names listed in the report. */
const PLACEHOLDERS_LISTED = 500;
/** Characters of a header member (alg, typ, enc) in a token's summary line. */
const FACT_CHARS = 100;
/** Notes shown per check, and characters per note. */
const NOTES_PER_CHECK = 20;
const NOTE_CHARS = 1000;

interface State {
  decoded: number;
  /** Placeholder name -> how many shown curl commands use it. */
  readonly inCurl: Map<string, number>;
  /** Placeholder names met anywhere in the shown exchanges (responses too, decoded signatures and claims). */
  readonly elsewhere: Set<string>;
  readonly structural: Redactor;
  readonly redact: (s: string) => string;
}

let state: State = fresh();

function fresh(redact: (s: string) => string = (s) => s): State {
  return { decoded: 0, inCurl: new Map(), elsewhere: new Set(), structural: new Redactor(), redact };
}

/**
 * Starts one report's evidence (renderHtml is synchronous: the state lives for one render).
 * `redact`: the run's redactor, for decoded text (a secret may hide in base64url).
 */
export function beginEvidence(redact?: (s: string) => string): void {
  state = fresh(redact);
}

const PLACEHOLDER_G = /(?<!\\)\$\{([A-Z0-9_]+)\}/g;

/** Where a token or placeholder was met, as a reader names it. */
interface Found {
  readonly where: string;
  readonly value: string;
  /** Searched for tokens only (its placeholders are listed from a more precise place). */
  readonly tokensOnly?: boolean;
}

/**
 * The decoded JWTs and the redacted values of one exchange shown in the report, and the
 * placeholders of its curl command noted for the report's list. Empty when there is neither.
 */
export function exchangeEvidence(e: Exchange): string {
  for (const m of e.curl.matchAll(PLACEHOLDER_G)) {
    const n = m[1] ?? "";
    state.inCurl.set(n, (state.inCurl.get(n) ?? 0) + 1);
  }
  const places: Found[] = [];
  const req = e.request;
  params(places, "request URL parameter", req.url);
  headers(places, "request header", req.headers);
  body(places, "request body", req.body, req.headers);
  if (e.response) {
    headers(places, "response header", e.response.headers);
    body(places, "response body", e.response.body, e.response.headers);
  }
  const tokens = new Map<string, string[]>();
  let more = 0;
  const redacted: string[] = [];
  for (const p of places) {
    const { found, more: m } = findCompact(p.value, TOKENS_PER_EXCHANGE);
    more += m;
    for (const t of found) {
      const at = tokens.get(t);
      if (at) at.push(p.where);
      else if (tokens.size < TOKENS_PER_EXCHANGE) tokens.set(t, [p.where]);
      else more++;
    }
    if (p.tokensOnly) continue;
    for (const m of p.value.matchAll(PLACEHOLDER_G)) {
      // A signature placeholder is told beside its token.
      if (found.some((t) => t.endsWith(`.${m[0]}`))) continue;
      if (redacted.length >= REDACTED_PER_EXCHANGE) break;
      state.elsewhere.add(m[1] ?? "");
      redacted.push(
        `<li>${esc(p.where)}: <code>${esc(m[0])}</code> — redacted (a token there cannot be decoded)</li>`,
      );
    }
  }
  if (tokens.size === 0 && redacted.length === 0) return "";
  const shown = [...tokens].map(([raw, where]) => tokenHtml(raw, where)).join("");
  return `<div class="evidence">${shown}${more > 0 ? `<p class="more">${more} more JWT(s) in this exchange not decoded here</p>` : ""}${
    redacted.length > 0 ? `<ul class="redacted">${redacted.join("")}</ul>` : ""
  }</div>`;
}

function tokenHtml(raw: string, where: string[]): string {
  const at = `${where[0] ?? ""}${where.length > 1 ? ` (and ${where.length - 1} more place(s))` : ""}`;
  const rawHtml = `<pre class="jwt-raw">${esc(capText(raw, RAW_CHARS))}</pre>`;
  if (state.decoded >= TOKENS_PER_REPORT)
    return `<div class="jwt"><p class="jwt-at">JWT in ${esc(at)}: not decoded, the report already decodes ${TOKENS_PER_REPORT} (see results.json)</p>${rawHtml}</div>`;
  state.decoded++;
  const d = decodeCompact(raw);
  if (d.signatureRedacted) state.elsewhere.add(d.signatureRedacted);
  const fact = (k: string): string => {
    const v = d.header?.[k];
    if (typeof v !== "string") return "";
    const t = state.redact(v);
    return `${k} ${t.length > FACT_CHARS ? `${t.slice(0, FACT_CHARS)}…` : t}`;
  };
  const facts = [fact("alg"), fact("typ"), fact("enc"), signature(d)].filter((x) => x !== "");
  const parts = [
    d.header ? part("header", d.header) : "",
    d.claims ? part("claims", d.claims) + times(d.claims) : "",
    d.payloadText !== undefined ? `<p>payload</p><pre>${esc(state.redact(d.payloadText))}</pre>` : "",
    d.kind === "JWE" && d.header
      ? `<p class="note">encrypted: only its protected header can be read</p>`
      : "",
    d.problem ? `<p class="xerr">not decoded: ${esc(d.problem)}</p>` : "",
  ].join("");
  return `<div class="jwt"><p class="jwt-at"><b>${d.kind}</b> in ${esc(at)}${facts.length > 0 ? ` · ${esc(facts.join(" · "))}` : ""}</p><div class="jwt-cols">${rawHtml}<div class="jwt-dec">${parts}</div></div></div>`;
}

function signature(d: DecodedToken): string {
  if (d.kind === "JWE" || d.problem) return "";
  if (d.signatureRedacted)
    return `signature redacted as \${${d.signatureRedacted}} (it would let the token be replayed)`;
  return d.signatureBytes === 0
    ? "no signature (unsecured)"
    : `signature ${d.signatureBytes} bytes, not verified here`;
}

/** A decoded part as pretty JSON, with secret members replaced and the run's secrets too. */
function part(title: string, v: Record<string, unknown>): string {
  let text: string;
  try {
    text = state.redact(JSON.stringify(state.structural.value(v), null, 2));
    for (const m of text.matchAll(PLACEHOLDER_G)) state.elsewhere.add(m[1] ?? "");
  } catch {
    text = "[could not be shown]";
  }
  return `<p>${title}</p><pre>${esc(capText(text))}</pre>`;
}

/** The NumericDate claims read as dates. */
function times(claims: Record<string, unknown>): string {
  const out: string[] = [];
  for (const k of ["iat", "nbf", "exp"]) {
    const v = claims[k];
    if (typeof v === "number" && Number.isFinite(v) && Math.abs(v) < 1e11)
      out.push(`${k} ${new Date(v * 1000).toISOString()}`);
  }
  return out.length > 0 ? `<p class="times">${esc(out.join(" · "))}</p>` : "";
}

function headers(out: Found[], prefix: string, h: Record<string, string>): void {
  for (const [k, v] of Object.entries(h)) {
    if (k.toLowerCase() === "location") params(out, `${prefix} ${k} parameter`, v);
    else out.push({ where: `${prefix} ${k}`, value: v });
  }
}

/** Query and fragment parameters of a URL, each on its own (a request object, a response JWT). */
function params(out: Found[], prefix: string, url: string): void {
  const q = url.indexOf("?");
  const h = url.indexOf("#");
  const query = q >= 0 ? url.slice(q + 1, h > q ? h : undefined) : "";
  const frag = h >= 0 ? url.slice(h + 1) : "";
  const before = out.length;
  for (const s of [query, frag]) form(out, prefix, s);
  // A URL with no token in its parameters may still carry one in its path.
  const noParams = out.length === before;
  if (!out.slice(before).some((f) => f.value.includes("eyJ")))
    out.push({ where: prefix.replace(/ parameter$/, ""), value: url, tokensOnly: !noParams });
}

function form(out: Found[], prefix: string, s: string): void {
  if (s.length === 0) return;
  for (const pair of s.split("&").slice(0, STRINGS_PER_BODY)) {
    const eq = pair.indexOf("=");
    if (eq < 0) continue;
    out.push({ where: `${prefix} ${decode(pair.slice(0, eq))}`, value: decode(pair.slice(eq + 1)) });
  }
}

function body(out: Found[], prefix: string, b: string | undefined, h: Record<string, string>): void {
  if (b === undefined || b.length === 0) return;
  const ct = (Object.entries(h).find(([k]) => k.toLowerCase() === "content-type")?.[1] ?? "").toLowerCase();
  if (ct.includes("application/x-www-form-urlencoded")) return form(out, `${prefix} field`, b);
  if (/^\s*[[{]/.test(b)) {
    const parsed = parseJsonBounded(b);
    if (parsed.ok) {
      const strings: Found[] = [];
      walk(parsed.value, "$", strings, 0);
      for (const s of strings) out.push({ where: `${prefix} ${s.where}`, value: s.value });
      return;
    }
  }
  out.push({ where: prefix, value: b });
}

/** The strings of a JSON value with their paths (the parse bounded the depth; the count is bounded here). */
function walk(v: unknown, path: string, out: Found[], depth: number): void {
  if (out.length >= STRINGS_PER_BODY || depth > 64) return;
  if (typeof v === "string") {
    if (v.includes("eyJ") || v.includes("${")) out.push({ where: path, value: v });
  } else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`, out, depth + 1));
  else if (v !== null && typeof v === "object")
    for (const [k, x] of Object.entries(v))
      walk(
        x,
        /^[A-Za-z_][A-Za-z0-9_]*$/.test(k) ? `${path}.${k}` : `${path}[${JSON.stringify(k)}]`,
        out,
        depth + 1,
      );
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch {
    return s;
  }
}

/** A check's notes (clean-up notes and others), bounded; empty when it has none. */
export function checkNotes(c: CheckResult | undefined): string {
  if (!c || c.notes.length === 0) return "";
  const shown = c.notes.slice(0, NOTES_PER_CHECK).map((n) => `<li>${esc(capText(n, NOTE_CHARS))}</li>`);
  const more = c.notes.length - shown.length;
  return `<ul class="notes">${shown.join("")}${more > 0 ? `<li>${more} more note(s) in results.json</li>` : ""}</ul>`;
}

/** Every placeholder of the report's curl commands (and of the exchanges shown), explained. */
export function placeholderSection(): string {
  const all = [...new Set([...state.inCurl.keys(), ...state.elsewhere])].sort();
  if (all.length === 0) return "";
  // Names outside curl commands may be a target's own `${...}` text: the list is bounded.
  const names = all.slice(0, PLACEHOLDERS_LISTED);
  const rows = names
    .map((n) => {
      const m = placeholderMeaning(n);
      const uses = state.inCurl.get(n);
      return `<tr><td><code>\${${esc(n)}}</code></td><td>${esc(m.means)}</td><td>${esc(m.fresh)}</td><td class="n">${uses ?? "not in a curl command"}</td></tr>`;
    })
    .join("");
  return `<section id="placeholders"><h2>Placeholders</h2><p>A secret never reaches the report: it reads <code>\${NAME}</code>, which each curl command keeps as a shell variable. To replay a request, export every name it uses (<code>export NAME='…'</code>) and run the command.</p>
<table class="ph"><thead><tr><th>placeholder</th><th>stands for</th><th>how to get a fresh one</th><th>curl commands</th></tr></thead><tbody>${rows}</tbody></table>${all.length > names.length ? `<p class="more">${all.length - names.length} more name(s) not listed</p>` : ""}</section>`;
}

/** Style of the evidence parts (appended to the report's CSS). */
export const EVIDENCE_CSS = `
.evidence{margin:4px 0}.jwt{border:1px dashed var(--line);border-radius:4px;padding:4px 8px;margin:4px 0}.jwt-at{margin:2px 0;font-size:12px}
.jwt-cols{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:8px;align-items:start}.jwt-dec p{margin:2px 0;color:var(--muted);font-size:12px}
ul.redacted,ul.notes{margin:4px 0;font-size:12px;color:var(--muted)}table.ph td:first-child{white-space:nowrap}
`;
