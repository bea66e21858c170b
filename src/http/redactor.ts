import { parseJsonBounded } from "./json-bounds.js";
import { SecretMatcher } from "./secret-matcher.js";

/**
 * Secrets never leave the process in clear: every text bound for a report, a log or an
 * error passes through a Redactor. Two layers: structural (headers, JSON members, form and
 * query parameters, private JWK members known to hold secrets, whatever their length) and
 * by value (every secret the profile supplied or the run met is replaced wherever it occurs,
 * also URL- or JSON-encoded, even inside a body the target echoed back). A replaced secret
 * reads `${NAME}`, which the curl rendering keeps as a shell variable.
 */
const SECRET_HEADERS = new Map<string, string>([
  ["authorization", "AUTHORIZATION"],
  ["proxy-authorization", "PROXY_AUTHORIZATION"],
  ["cookie", "COOKIE"],
  ["set-cookie", "SET_COOKIE"],
  ["x-api-key", "API_KEY"],
]);

const SECRET_MEMBERS = new Set([
  "access_token",
  "accessToken",
  "refresh_token",
  "refreshToken",
  "id_token",
  "idToken",
  "client_assertion",
  "client_secret",
  "clientSecret",
  "password",
  "pre-authorized_code",
  "tx_code",
  "code_verifier",
  "assertion",
  "subject_token",
  "private_key",
  "privateKey",
  "secret",
  "token",
]);

/** In URLs and form bodies `code` is an authorization code; in JSON it is too often an error code. */
const SECRET_PARAMS = new Set([...SECRET_MEMBERS, "code", "device_code"]);

const SECRET_MEMBER_HINT = new RegExp(
  `"(${[...SECRET_MEMBERS].map((m) => m.replace(/-/g, "\\-")).join("|")})"\\s*:`,
);

const PRIVATE_JWK_MEMBERS = new Set(["d", "p", "q", "dp", "dq", "qi", "oth"]);

/** Shortest value hunted by value in free text; known places are replaced whatever the length. */
export const MIN_SECRET_LENGTH = 4;

export interface SecretEntry {
  readonly value: string;
  readonly name: string;
}

const normalise = (name: string): string => name.replace(/[^A-Za-z0-9_]/g, "_").toUpperCase();

/** What stands in for a text whose redaction could not be completed: nothing of it leaves. */
export const WITHHELD = "[withheld: the text could not be checked for secrets]";

export class Redactor {
  private readonly secrets = new Map<string, string>();
  private readonly names = new Set<string>();
  private matcher: SecretMatcher | undefined;

  constructor(entries: readonly SecretEntry[] = []) {
    for (const e of entries) this.add(e.value, e.name);
  }

  /** Registers a secret value (and its URL- and JSON-encoded forms); `name` becomes its placeholder. */
  add(value: string, name: string): void {
    const n = normalise(name);
    this.names.add(n);
    if (value.length < MIN_SECRET_LENGTH || this.secrets.has(value)) return;
    const forms = [
      value,
      encodeURIComponent(value),
      new URLSearchParams({ x: value }).toString().slice(2),
      JSON.stringify(value).slice(1, -1),
    ];
    for (const f of forms) if (!this.secrets.has(f)) this.secrets.set(f, n);
    this.matcher = undefined;
  }

  /** The placeholder names in use: the only `${NAME}` a curl command may leave unquoted. */
  placeholders(): ReadonlySet<string> {
    return this.names;
  }

  entries(): SecretEntry[] {
    return [...this.secrets].map(([value, name]) => ({ value, name }));
  }

  private placeholder(value: string, name: string): string {
    this.add(value, name);
    return `\${${this.secrets.get(value) ?? normalise(name)}}`;
  }

  /**
   * Replaces every registered secret in free text. With `cutEnd`, the text is the start of a
   * longer one, and a secret's beginning at its very end is replaced too. Never throws and
   * never fails open: a text that cannot be searched within bounds is withheld whole.
   */
  text(s: string, cutEnd = false): string {
    if (this.secrets.size === 0 || s.length === 0) return s;
    try {
      this.matcher ??= new SecretMatcher(this.secrets);
      const spans = this.matcher.spans(s, cutEnd);
      if (spans.length === 0) return s;
      let out = "";
      let at = 0;
      for (const sp of spans) {
        out += `${s.slice(at, sp.start)}\${${sp.name}}`;
        at = sp.end;
      }
      return out + s.slice(at);
    } catch {
      return WITHHELD;
    }
  }

  /**
   * Learns the secrets a message carries in known places (secret headers, JSON members, form
   * parameters), without rendering it: the recording client calls this on the whole message,
   * then keeps only a bounded prefix of it for the report.
   */
  learn(headers: Record<string, string>, body: string | undefined, url?: string): void {
    try {
      for (const [k, v] of Object.entries(headers)) {
        const lower = k.toLowerCase();
        if (SECRET_HEADERS.has(lower)) this.secretHeader(lower, v);
        else if (lower === "location") this.urlParams(v);
      }
      if (url !== undefined) this.urlParams(url);
      if (body === undefined || body.length === 0) return;
      const ct = (headers["content-type"] ?? "").toLowerCase();
      const parsed = this.secretJson(body, ct);
      if (parsed !== undefined) this.value(parsed);
      else if (ct.includes("application/x-www-form-urlencoded")) this.params(body);
    } catch {
      // Learning is best effort; rendering withholds what it cannot check.
    }
  }

  /** A header value with its credential (never the scheme) replaced by a placeholder. */
  private secretHeader(lower: string, v: string): string {
    const name = SECRET_HEADERS.get(lower) ?? "HEADER";
    // Keep the scheme (Bearer, DPoP, Basic) visible: it is evidence, the credential is not.
    const m = /^([A-Za-z][A-Za-z0-9-]*) +(.+)$/s.exec(v);
    return m && lower.endsWith("authorization")
      ? `${m[1]} ${this.placeholder(m[2] ?? "", `${name}_CREDENTIALS`)}`
      : this.placeholder(v, name);
  }

  /** `cut` names the headers whose values are only the start of what was sent. */
  headers(h: Record<string, string>, cut?: ReadonlySet<string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(h)) {
      const lower = k.toLowerCase();
      if (SECRET_HEADERS.has(lower)) out[k] = this.secretHeader(lower, v);
      else out[k] = this.text(lower === "location" ? this.urlParams(v) : v, cut?.has(lower) ?? false);
    }
    return out;
  }

  /** The parsed body when it is JSON that may hold secrets in known members (read within bounds). */
  private secretJson(text: string, ct: string): unknown {
    // Parse only a JSON body that names a secret member or holds a JWK; others need by-value replacement only.
    if (!(ct.includes("json") || /^\s*[[{]/.test(text))) return undefined;
    if (!(SECRET_MEMBER_HINT.test(text) || text.includes('"kty"'))) return undefined;
    const parsed = parseJsonBounded(text);
    return parsed.ok ? parsed.value : undefined;
  }

  /**
   * Redacts a body by its media type; unknown types get by-value replacement only. With
   * `cutEnd` the body is the start of a longer one (it does not parse; what it holds in known
   * places was learnt from the whole body by `learn`).
   */
  body(text: string, contentType: string | undefined, cutEnd = false): string {
    const ct = (contentType ?? "").toLowerCase();
    const parsed = cutEnd ? undefined : this.secretJson(text, ct);
    if (parsed !== undefined) return this.text(JSON.stringify(this.value(parsed), null, 2));
    if (ct.includes("application/x-www-form-urlencoded")) return this.text(this.params(text), cutEnd);
    return this.text(text, cutEnd);
  }

  /** Form or query parameters with the secret ones replaced, whatever their length. */
  private params(query: string): string {
    return query
      .split("&")
      .map((pair) => {
        const eq = pair.indexOf("=");
        if (eq < 0) return pair;
        const key = safeDecode(pair.slice(0, eq));
        return SECRET_PARAMS.has(key)
          ? `${pair.slice(0, eq)}=${this.placeholder(safeDecode(pair.slice(eq + 1)), key)}`
          : pair;
      })
      .join("&");
  }

  /** A URL with its secret query and fragment parameters replaced (known places only). */
  private urlParams(u: string): string {
    const q = u.indexOf("?");
    const h = u.indexOf("#");
    const end = h < 0 ? u.length : h;
    let out = q >= 0 && q < end ? `${u.slice(0, q + 1)}${this.params(u.slice(q + 1, end))}` : u.slice(0, end);
    if (h >= 0) out += `#${this.params(u.slice(h + 1))}`;
    return out;
  }

  /** A URL with secret query and fragment parameters replaced. */
  url(u: string): string {
    return this.text(this.urlParams(u));
  }

  /**
   * Walks a JSON value, replacing secret members and private JWK members. The value comes from
   * a bounded parse (at most 128 levels), so the walk's recursion is bounded too.
   */
  value(v: unknown, depth = 0): unknown {
    if (depth > 256) return "${REDACTED}";
    if (Array.isArray(v)) return v.map((x) => this.value(x, depth + 1));
    if (v === null || typeof v !== "object") return v;
    const obj = v as Record<string, unknown>;
    const isJwk = typeof obj.kty === "string";
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(obj)) {
      const secret =
        SECRET_MEMBERS.has(k) || (isJwk && (PRIVATE_JWK_MEMBERS.has(k) || (k === "k" && obj.kty === "oct")));
      if (secret && typeof x === "string") out[k] = this.placeholder(x, isJwk ? `JWK_${k}` : k);
      else if (secret && x !== null && typeof x === "object") out[k] = "${REDACTED}";
      else out[k] = this.value(x, depth + 1);
    }
    return out;
  }

  /** Every string of a JSON-like document passed through `text` (the last net before a file is written). */
  deep<T>(v: T, depth = 0): T {
    if (typeof v === "string") return this.text(v) as T;
    if (depth > 64) return WITHHELD as T;
    if (Array.isArray(v)) return v.map((x: unknown) => this.deep(x, depth + 1)) as T;
    if (v === null || typeof v !== "object") return v;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, this.deep(x, depth + 1)])) as T;
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch {
    return s;
  }
}
