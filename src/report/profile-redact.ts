import { parse as parseYaml, stringify } from "yaml";
import { HarnessError } from "../engine/errors.js";
import { Redactor, type SecretEntry } from "../http/redactor.js";

/**
 * The profile copy an evidence bundle carries: what a run was configured with, never a secret.
 * A `${VAR}` reference is a name, not a value, and stays as written; an inline value under a
 * secret-looking key (a superset of the keys src/engine/profile.ts marks secret, plus keys and
 * codes: `clientKey`, `txCode`, header values), a private JWK member, a PEM private key, a URL's
 * password or secret query parameter is replaced by `[redacted]`, and every such value is then
 * hunted in the rest of the text. Comments are dropped: nothing can tell a secret in one.
 */
export const REDACTED = "[redacted]";

const SECRET_KEY =
  /(token|secret|password|passwd|assertion|apikey|api_key|privatekey|private_key|credential|credentials|key|code|authorization|cookie)$/i;
const PRIVATE_JWK = new Set(["d", "p", "q", "dp", "dq", "qi", "oth", "k"]);
const SECRET_PARAM =
  /^(access_token|refresh_token|id_token|token|code|client_secret|password|secret|api_key|apikey|key|sig|signature)$/i;
const HUNTED = "IDC_PROFILE_INLINE_SECRET";
const REFS = /\$\$\{|\$\{[A-Za-z_][A-Za-z0-9_]*\}/g;

/** A value made only of `${VAR}` references (and separators) names secrets without holding one. */
const onlyRefs = (s: string): boolean =>
  /^\s*(Bearer|Basic|DPoP)?[\s:;,./_-]*$/i.test(s.replace(REFS, "")) && /\$\{[A-Za-z_]/.test(s);

function looksPrivate(s: string): boolean {
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(s)) return true;
  if (!/^\s*\{/.test(s)) return false;
  try {
    const v = JSON.parse(s) as unknown;
    return typeof v === "object" && v !== null && [...PRIVATE_JWK].some((m) => m in v);
  } catch {
    return false;
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function redactUrl(s: string, found: SecretEntry[]): string {
  if (!/^https?:\/\//i.test(s)) return s;
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    return s;
  }
  let changed = false;
  const password = safeDecode(u.password);
  if (password !== "" && !onlyRefs(password)) {
    found.push({ value: password, name: HUNTED });
    u.password = REDACTED;
    changed = true;
  }
  for (const [k, v] of [...u.searchParams]) {
    if (SECRET_PARAM.test(k) && !onlyRefs(v)) {
      found.push({ value: v, name: HUNTED });
      u.searchParams.set(k, REDACTED);
      changed = true;
    }
  }
  return changed ? u.href.replaceAll(encodeURIComponent(REDACTED), REDACTED) : s;
}

function walk(v: unknown, secret: boolean, found: SecretEntry[], depth: number): unknown {
  if (depth > 64) return REDACTED;
  if (typeof v === "string") {
    if ((secret || looksPrivate(v)) && !onlyRefs(v)) {
      found.push({ value: v, name: HUNTED });
      return REDACTED;
    }
    return redactUrl(v, found);
  }
  if (Array.isArray(v)) return v.map((x) => walk(x, secret, found, depth + 1));
  if (v === null || typeof v !== "object") {
    // A number under a secret key (a numeric PIN) is a secret too; a flag is not. Neither is
    // hunted by value: "1234" elsewhere may be a port.
    if (secret && typeof v === "number") return REDACTED;
    return v;
  }
  const obj = v as Record<string, unknown>;
  const jwk = typeof obj.kty === "string";
  return Object.fromEntries(
    Object.entries(obj).map(([k, x]) => [
      k,
      // A JWK's public members are evidence; its private ones never are, wherever it sits.
      walk(x, jwk ? PRIVATE_JWK.has(k) : secret || SECRET_KEY.test(k), found, depth + 1),
    ]),
  );
}

/** The redacted YAML text of a profile; `file` names it in errors. */
export function redactProfile(text: string, file: string): string {
  let doc: unknown;
  try {
    doc = parseYaml(text, { strict: true, uniqueKeys: true, maxAliasCount: 100 });
  } catch {
    throw new HarnessError("IDC_PROFILE_YAML", `${file}: not valid YAML`);
  }
  const found: SecretEntry[] = [];
  const clean = walk(doc, false, found, 0);
  const out = stringify(clean, { lineWidth: 0 });
  // Hunt each inline secret wherever else the profile repeats it (a URL, a description).
  return found.length > 0 ? new Redactor(found).text(out).replaceAll(`\${${HUNTED}}`, REDACTED) : out;
}
