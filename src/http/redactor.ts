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

export class Redactor {
  private readonly secrets = new Map<string, string>();
  private readonly names = new Set<string>();
  private pattern: RegExp | undefined;

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
    this.pattern = undefined;
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

  /** Replaces every registered secret in free text. */
  text(s: string): string {
    if (this.secrets.size === 0 || s.length === 0) return s;
    this.pattern ??= new RegExp(
      [...this.secrets.keys()]
        .sort((a, b) => b.length - a.length)
        .map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
        .join("|"),
      "g",
    );
    return s.replace(this.pattern, (m) => `\${${this.secrets.get(m) ?? "REDACTED"}}`);
  }

  headers(h: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(h)) {
      const name = SECRET_HEADERS.get(k.toLowerCase());
      if (name === undefined) {
        out[k] = this.text(k.toLowerCase() === "location" ? this.url(v) : v);
        continue;
      }
      // Keep the scheme (Bearer, DPoP, Basic) visible: it is evidence, the credential is not.
      const m = /^([A-Za-z][A-Za-z0-9-]*) +(.+)$/.exec(v);
      out[k] =
        m && k.toLowerCase().endsWith("authorization")
          ? `${m[1]} ${this.placeholder(m[2] ?? "", `${name}_CREDENTIALS`)}`
          : this.placeholder(v, name);
    }
    return out;
  }

  /** Redacts a body by its media type; unknown types get by-value replacement only. */
  body(text: string, contentType: string | undefined): string {
    const ct = (contentType ?? "").toLowerCase();
    // Parse only a JSON body that names a secret member or holds a JWK; others need by-value replacement only.
    if (
      (ct.includes("json") || /^\s*[[{]/.test(text)) &&
      (SECRET_MEMBER_HINT.test(text) || text.includes('"kty"'))
    ) {
      try {
        const parsed: unknown = JSON.parse(text);
        return this.text(JSON.stringify(this.value(parsed), null, 2));
      } catch {
        // Not JSON after all: fall through to text.
      }
    }
    if (ct.includes("application/x-www-form-urlencoded")) return this.text(this.params(text));
    return this.text(text);
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

  /** A URL with secret query and fragment parameters replaced. */
  url(u: string): string {
    const q = u.indexOf("?");
    const h = u.indexOf("#");
    const end = h < 0 ? u.length : h;
    let out = q >= 0 && q < end ? `${u.slice(0, q + 1)}${this.params(u.slice(q + 1, end))}` : u.slice(0, end);
    if (h >= 0) out += `#${this.params(u.slice(h + 1))}`;
    return this.text(out);
  }

  /** Walks a JSON value, replacing secret members and private JWK members. */
  value(v: unknown): unknown {
    if (Array.isArray(v)) return v.map((x) => this.value(x));
    if (v === null || typeof v !== "object") return v;
    const obj = v as Record<string, unknown>;
    const isJwk = typeof obj.kty === "string";
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(obj)) {
      const secret =
        SECRET_MEMBERS.has(k) || (isJwk && (PRIVATE_JWK_MEMBERS.has(k) || (k === "k" && obj.kty === "oct")));
      if (secret && typeof x === "string") out[k] = this.placeholder(x, isJwk ? `JWK_${k}` : k);
      else if (secret && x !== null && typeof x === "object") out[k] = "${REDACTED}";
      else out[k] = this.value(x);
    }
    return out;
  }

  /** Every string of a JSON-like document passed through `text` (the last net before a file is written). */
  deep<T>(v: T): T {
    if (typeof v === "string") return this.text(v) as T;
    if (Array.isArray(v)) return v.map((x: unknown) => this.deep(x)) as T;
    if (v === null || typeof v !== "object") return v;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, this.deep(x)])) as T;
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch {
    return s;
  }
}
