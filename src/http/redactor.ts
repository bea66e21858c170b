/**
 * Secrets never leave the process in clear: every text bound for a report, a log or an
 * error passes through a Redactor. Two layers: structural (headers, JSON members, form
 * fields and private JWK members known to hold secrets) and by value (every secret the
 * profile supplied or the run obtained is replaced wherever it occurs, even inside a body
 * the target echoed back). A replaced secret reads `${NAME}`, which the curl rendering
 * keeps as a shell variable so the command still reproduces the request.
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
  "refresh_token",
  "id_token",
  "client_assertion",
  "client_secret",
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

const SECRET_MEMBER_HINT = new RegExp(
  `"(${[...SECRET_MEMBERS].map((m) => m.replace(/[-]/g, "\\-")).join("|")})"\\s*:`,
);

const PRIVATE_JWK_MEMBERS = new Set(["d", "p", "q", "dp", "dq", "qi", "oth"]);

/** Shortest value registered for by-value replacement: shorter strings are too common to hunt. */
const MIN_SECRET_LENGTH = 4;

export interface SecretEntry {
  readonly value: string;
  readonly name: string;
}

export class Redactor {
  private readonly secrets = new Map<string, string>();
  private pattern: RegExp | undefined;

  constructor(entries: readonly SecretEntry[] = []) {
    for (const e of entries) this.add(e.value, e.name);
  }

  /** Registers a secret value; `name` becomes its placeholder (`${NAME}`). */
  add(value: string, name: string): void {
    if (value.length < MIN_SECRET_LENGTH || this.secrets.has(value)) return;
    this.secrets.set(value, name.replace(/[^A-Za-z0-9_]/g, "_").toUpperCase());
    this.pattern = undefined;
  }

  entries(): SecretEntry[] {
    return [...this.secrets].map(([value, name]) => ({ value, name }));
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
        out[k] = this.text(v);
        continue;
      }
      // Keep the scheme (Bearer, DPoP, Basic) visible: it is evidence, the credential is not.
      const m = /^([A-Za-z][A-Za-z0-9-]*) +(.+)$/.exec(v);
      if (m && k.toLowerCase().endsWith("authorization")) {
        this.add(m[2] ?? "", `${name}_CREDENTIALS`);
        out[k] = `${m[1]} ${this.text(m[2] ?? "")}`;
      } else {
        this.add(v, name);
        out[k] = this.text(v);
      }
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
    if (ct.includes("application/x-www-form-urlencoded")) {
      const params = new URLSearchParams(text);
      for (const [k, v] of params) {
        if (SECRET_MEMBERS.has(k)) this.add(v, k);
      }
    }
    return this.text(text);
  }

  url(u: string): string {
    try {
      const parsed = new URL(u);
      for (const [k, v] of parsed.searchParams) if (SECRET_MEMBERS.has(k)) this.add(v, k);
    } catch {
      // Not a URL: by-value replacement still applies.
    }
    return this.text(u);
  }

  /** Walks a JSON value and registers the secret members it holds. */
  value(v: unknown): unknown {
    if (Array.isArray(v)) return v.map((x) => this.value(x));
    if (v === null || typeof v !== "object") return v;
    const obj = v as Record<string, unknown>;
    const isJwk = typeof obj.kty === "string";
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(obj)) {
      const secret =
        SECRET_MEMBERS.has(k) || (isJwk && (PRIVATE_JWK_MEMBERS.has(k) || (k === "k" && obj.kty === "oct")));
      if (secret && typeof x === "string") {
        this.add(x, isJwk ? `JWK_${k}` : k);
        out[k] = `\${${this.secrets.get(x) ?? "REDACTED"}}`;
      } else if (secret && x !== null && typeof x === "object") {
        out[k] = "${REDACTED}";
      } else {
        out[k] = this.value(x);
      }
    }
    return out;
  }
}
