import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, isAbsolute, resolve } from "node:path";
import { parse as parseYaml, YAMLParseError } from "yaml";
import { z } from "zod";
import { HarnessError } from "./errors.js";
import { profileSchema, type KnownFailure, type RunOptions } from "./profile-schema.js";
import type { SuiteManifest, SuiteProfileBase } from "./suite.js";
import { MIN_SECRET_LENGTH, type SecretEntry } from "../http/redactor.js";

export interface LoadedProfile {
  readonly name: string;
  readonly path: string;
  readonly sha256: string;
  readonly options: RunOptions;
  readonly knownFailures: readonly KnownFailure[];
  readonly suites: Record<string, SuiteProfileBase>;
  /** Values that came from the environment or sit under a secret-looking key. */
  readonly secrets: readonly SecretEntry[];
  /** Things worth telling the user that are not errors (an inline secret, say). */
  readonly warnings: readonly string[];
}

const SECRET_KEY =
  /(token|secret|password|passwd|assertion|apikey|api_key|privatekey|private_key|credential)$/i;

/** Reads, interpolates and validates a profile; every problem names its exact path. */
export function loadProfile(
  path: string,
  suites: readonly SuiteManifest[],
  env: NodeJS.ProcessEnv = process.env,
): LoadedProfile {
  const abs = resolve(path);
  if (!existsSync(abs)) throw new HarnessError("IDC_PROFILE_NOT_FOUND", `profile not found: ${path}`);
  const text = readFileSync(abs, "utf8");
  return parseProfile(text, abs, suites, env);
}

export function parseProfile(
  text: string,
  abs: string,
  suites: readonly SuiteManifest[],
  env: NodeJS.ProcessEnv = process.env,
): LoadedProfile {
  let doc: unknown;
  try {
    doc = parseYaml(text, { prettyErrors: true, strict: true, uniqueKeys: true });
  } catch (err) {
    const msg = err instanceof YAMLParseError ? err.message : String(err);
    throw new HarnessError("IDC_PROFILE_YAML", `${basename(abs)}: not valid YAML: ${msg}`);
  }
  const secrets: SecretEntry[] = [];
  const warnings: string[] = [];
  const missing: string[] = [];
  const interpolated = interpolate(doc, [], env, secrets, warnings, missing);
  if (missing.length > 0) {
    throw new HarnessError(
      "IDC_PROFILE_ENV_MISSING",
      `${basename(abs)}: environment variable(s) not set:\n${missing.map((m) => `  - ${m}`).join("\n")}`,
    );
  }
  const suitesShape: Record<string, z.ZodType> = {};
  for (const s of suites) suitesShape[s.name] = s.profileSchema.optional();
  const schema = profileSchema(z.strictObject(suitesShape));
  const parsed = schema.safeParse(interpolated, { reportInput: true });
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  - ${formatIssue(i, schema)}`);
    throw new HarnessError(
      "IDC_PROFILE_INVALID",
      `${basename(abs)} is not a valid profile:\n${lines.join("\n")}`,
    );
  }
  const p = parsed.data;
  const options: RunOptions = {
    ...p.options,
    tls: p.options.tls.caFile ? { caFile: resolveFrom(abs, p.options.tls.caFile) } : {},
  };
  const suiteSections = p.suites as Record<string, SuiteProfileBase | undefined>;
  const present: Record<string, SuiteProfileBase> = {};
  for (const [k, v] of Object.entries(suiteSections)) if (v !== undefined) present[k] = v;
  if (Object.keys(present).length === 0) {
    throw new HarnessError(
      "IDC_PROFILE_INVALID",
      `${basename(abs)} is not a valid profile:\n  - suites: expected at least one suite section (${suites.map((s) => s.name).join(", ")})`,
    );
  }
  if (!options.allowInsecureHttp) {
    for (const [name, s] of Object.entries(present)) {
      if (new URL(s.baseUrl).protocol === "http:") {
        throw new HarnessError(
          "IDC_PROFILE_INVALID",
          `${basename(abs)} is not a valid profile:\n  - suites.${name}.baseUrl: plain http is refused; use https, or set options.allowInsecureHttp: true (the run is then not certifiable)`,
        );
      }
    }
  }
  const dupes = p.knownFailures.map((k) => k.id).filter((id, i, all) => all.indexOf(id) !== i);
  if (dupes.length > 0) {
    throw new HarnessError(
      "IDC_PROFILE_INVALID",
      `${basename(abs)} is not a valid profile:\n  - knownFailures: ${dupes.join(", ")} listed more than once`,
    );
  }
  for (const sec of secrets) {
    if (sec.value.length > 0 && sec.value.length < MIN_SECRET_LENGTH) {
      warnings.push(
        `\${${sec.name}} is shorter than ${MIN_SECRET_LENGTH} characters: it is hidden where it is expected (headers, token members) but cannot be hunted in free text`,
      );
    }
  }
  const known = new Set(suites.flatMap((s) => s.catalog.requirements.map((r) => r.id)));
  const badKnown = p.knownFailures.map((k, i) => [k, i] as const).filter(([k]) => !known.has(k.id));
  if (badKnown.length > 0) {
    throw new HarnessError(
      "IDC_PROFILE_INVALID",
      `${basename(abs)} is not a valid profile:\n${badKnown
        .map(
          ([k, i]) =>
            `  - knownFailures[${i}].id: no requirement "${k.id}" in any catalog${suggest(k.id, [...known])}`,
        )
        .join("\n")}`,
    );
  }
  return {
    name: p.name,
    path: abs,
    sha256: createHash("sha256").update(text).digest("hex"),
    options,
    knownFailures: p.knownFailures,
    suites: present,
    secrets,
    warnings,
  };
}

function resolveFrom(profilePath: string, p: string): string {
  return isAbsolute(p) ? p : resolve(dirname(profilePath), p);
}

/** `${VAR}` takes the variable's value (and marks it secret); `$${` is a literal `${`. */
function interpolate(
  v: unknown,
  path: (string | number)[],
  env: NodeJS.ProcessEnv,
  secrets: SecretEntry[],
  warnings: string[],
  missing: string[],
): unknown {
  if (typeof v === "string") {
    const key = String(path[path.length - 1] ?? "");
    let usedEnv = false;
    const out = v.replace(/\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (m, name: string | undefined) => {
      if (m === "$${") return "${";
      const val = env[name ?? ""];
      if (val === undefined) {
        missing.push(`${name} (at ${formatPath(path)})`);
        return "";
      }
      usedEnv = true;
      // Whatever comes from the environment is secret, but for a plain URL: evidence needs URLs.
      if (!isPlainUrl(val)) secrets.push({ value: val, name: name ?? "SECRET" });
      return val;
    });
    if (!usedEnv && SECRET_KEY.test(key) && out.length > 0) {
      secrets.push({ value: out, name: key });
      warnings.push(
        `${formatPath(path)} holds a secret inline; prefer \${ENV_VAR} so the profile can be shared`,
      );
    }
    return out;
  }
  if (Array.isArray(v)) return v.map((x, i) => interpolate(x, [...path, i], env, secrets, warnings, missing));
  if (v !== null && typeof v === "object") {
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [k, interpolate(x, [...path, k], env, secrets, warnings, missing)]),
    );
  }
  return v;
}

function isPlainUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return (
      (u.protocol === "http:" || u.protocol === "https:") &&
      u.username === "" &&
      u.password === "" &&
      u.search === ""
    );
  } catch {
    return false;
  }
}

export function formatPath(path: readonly PropertyKey[]): string {
  let s = "";
  for (const p of path) s += typeof p === "number" ? `[${p}]` : s === "" ? String(p) : `.${String(p)}`;
  return s === "" ? "(top level)" : s;
}

function describeInput(x: unknown): string {
  if (x === null) return "null";
  if (Array.isArray(x)) return "array";
  return typeof x;
}

function formatIssue(issue: z.core.$ZodIssue, root: z.ZodType): string {
  const where = formatPath(issue.path);
  switch (issue.code) {
    case "invalid_type": {
      const input = (issue as { input?: unknown }).input;
      if (input === undefined) return `${where}: required (expected ${issue.expected})`;
      return `${where}: expected ${issue.expected}, received ${describeInput(input)}`;
    }
    case "unrecognized_keys": {
      const known = keysAt(root, issue.path);
      return issue.keys
        .map(
          (k) =>
            `${formatPath([...issue.path, k])}: unknown key${suggest(k, known)}${known.length > 0 ? ` (known: ${known.join(", ")})` : ""}`,
        )
        .join("\n  - ");
    }
    case "invalid_value":
      return `${where}: expected one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    default:
      return `${where}: ${issue.message}`;
  }
}

/** The keys the schema knows at `path`, for "did you mean" suggestions. */
function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let cur: unknown = schema;
  const step = (s: unknown): unknown => {
    let x = s as { _zod?: { def?: Record<string, unknown> } };
    for (let i = 0; i < 10; i++) {
      const def = x._zod?.def;
      if (!def) break;
      if (
        def.type === "optional" ||
        def.type === "default" ||
        def.type === "nullable" ||
        def.type === "prefault"
      ) {
        x = def.innerType as typeof x;
      } else if (def.type === "pipe") x = def.in as typeof x;
      else break;
    }
    return x;
  };
  for (const p of path) {
    const def = (step(cur) as { _zod?: { def?: Record<string, unknown> } })._zod?.def;
    if (!def) return [];
    if (def.type === "object") cur = (def.shape as Record<string, unknown>)[String(p)];
    else if (def.type === "array") cur = def.element;
    else if (def.type === "record") cur = def.valueType;
    else return [];
  }
  const def = (step(cur) as { _zod?: { def?: Record<string, unknown> } })._zod?.def;
  return def?.type === "object" ? Object.keys(def.shape as object) : [];
}

/** ", did you mean "x"?" for the nearest known key within a small edit distance. */
export function suggest(input: string, known: readonly string[]): string {
  let best: string | undefined;
  let bestD = Infinity;
  for (const k of known) {
    const d = distance(input.toLowerCase(), k.toLowerCase());
    if (d < bestD) [best, bestD] = [k, d];
  }
  return best !== undefined && bestD <= Math.max(2, Math.floor(input.length / 3))
    ? `; did you mean "${best}"?`
    : "";
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j] ?? 0;
      row[j] = Math.min((row[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length] ?? 0;
}
