import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, isAbsolute, resolve } from "node:path";
import { parse as parseYaml, YAMLParseError } from "yaml";
import { z } from "zod";
import { HarnessError } from "./errors.js";
import { profileSchema, type KnownFailure, type RunOptions } from "./profile-schema.js";
import type { SuiteManifest, SuiteProfileBase } from "./suite.js";
import { MIN_SECRET_LENGTH, type SecretEntry } from "../http/redactor.js";
import { privateKeyParts } from "./profile-keys.js";

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
  /(token|secret|password|passwd|assertion|apikey|api_key|privatekey|private_key|credential|clientkey|signingkey)$/i;

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
  const missing: Missing[] = [];
  const interpolated = interpolate(doc, [], env, secrets, warnings, missing);
  const suitesShape: Record<string, z.ZodType> = {};
  for (const s of suites) suitesShape[s.name] = s.profileSchema.optional();
  const schema = profileSchema(z.strictObject(suitesShape));
  const parsed = schema.safeParse(interpolated, { reportInput: true });
  if (missing.length > 0) {
    // The rest of the profile is still checked (a typo is found without the secrets at hand);
    // what stands where a variable is unset is not, nor what refines it: it is checked once set.
    const unset = (m: Missing) => `  - ${m.name} (at ${formatPath(m.path)})`;
    const others = parsed.success ? [] : parsed.error.issues.filter((i) => !fromUnset(i, missing));
    if (others.length === 0) {
      throw new HarnessError(
        "IDC_PROFILE_ENV_MISSING",
        `${basename(abs)}: environment variable(s) not set:\n${missing.map(unset).join("\n")}`,
      );
    }
    throw new HarnessError(
      "IDC_PROFILE_INVALID",
      `${basename(abs)} is not a valid profile:\n${others.map((i) => `  - ${formatIssue(i, schema)}`).join("\n")}\nand environment variable(s) not set (their values are checked once set):\n${missing.map(unset).join("\n")}`,
    );
  }
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
  // A private JWK's members are hidden on their own too, wherever one of them turns up, and so
  // is the text a suite receives for a key given without alg (profile-keys.ts).
  for (const sec of [...secrets]) {
    for (const part of privateKeyParts(sec.value)) secrets.push({ value: part, name: sec.name });
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

interface Missing {
  readonly name: string;
  readonly path: readonly (string | number)[];
}

/** Whether a schema issue may come from an unset variable: at or under its value, or a refinement above it. */
function fromUnset(issue: z.core.$ZodIssue, missing: readonly Missing[]): boolean {
  if (issue.code === "unrecognized_keys") return false;
  const prefix = (a: readonly PropertyKey[], b: readonly PropertyKey[]) =>
    a.length <= b.length && a.every((x, i) => x === b[i]);
  return missing.some(
    (m) =>
      prefix(m.path, issue.path) ||
      ((issue.code === "custom" || issue.code === "invalid_union") && prefix(issue.path, m.path)),
  );
}

/** `${VAR}` takes the variable's value (and marks it secret); `$${` is a literal `${`. */
function interpolate(
  v: unknown,
  path: (string | number)[],
  env: NodeJS.ProcessEnv,
  secrets: SecretEntry[],
  warnings: string[],
  missing: Missing[],
): unknown {
  if (typeof v === "string") {
    const key = String(path[path.length - 1] ?? "");
    let usedEnv = false;
    const out = v.replace(/\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (m, name: string | undefined) => {
      if (m === "$${") return "${";
      const val = env[name ?? ""];
      if (val === undefined) {
        missing.push({ name: name ?? "", path: [...path] });
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
            `${formatPath([...issue.path, k])}: unknown key${suggest(k, known)}${known.length > 0 ? ` (known: ${known.join(", ")})` : closedAt(root, issue.path) ? " (none is known here)" : ""}`,
        )
        .join("\n  - ");
    }
    case "invalid_value":
      return `${where}: expected one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "invalid_union":
      return formatUnion(issue, root);
    default:
      return `${where}: ${issue.message}`;
  }
}

type SchemaNode = { _zod?: { def?: Record<string, unknown> } };

/** The schema under its wrappers (optional, default, pipe...); a union gives each of its options. */
function unwrap(s: unknown): SchemaNode[] {
  let x = s as SchemaNode;
  for (let i = 0; i < 10; i++) {
    const def = x._zod?.def;
    if (!def) return [x];
    if (["optional", "default", "nullable", "prefault", "readonly"].includes(def.type as string)) {
      x = def.innerType as SchemaNode;
    } else if (def.type === "pipe") x = def.in as SchemaNode;
    else if (def.type === "union") return (def.options as unknown[]).flatMap(unwrap);
    else return [x];
  }
  return [x];
}

/**
 * A value that fits no form of a union: the issues of the one form it comes near (its type
 * matches and, best, its keys do), else its keys that no form knows, else the forms expected.
 */
function formatUnion(issue: z.core.$ZodIssueInvalidUnion, root: z.ZodType): string {
  const branches = issue.errors;
  const typeMismatch = (b: z.core.$ZodIssue[]): boolean =>
    b.some((i) => i.path.length === 0 && (i.code === "invalid_type" || i.code === "invalid_value"));
  const near = branches.filter((b) => !typeMismatch(b));
  const fitting = near.filter((b) => b.every((i) => i.path.length > 0));
  const pick = fitting.length === 1 ? fitting[0] : near.length === 1 ? near[0] : undefined;
  if (pick && pick.length > 0) {
    return pick.map((i) => formatIssue({ ...i, path: [...issue.path, ...i.path] }, root)).join("\n  - ");
  }
  const forms = formsAt(root, issue.path);
  const input = (issue as { input?: unknown }).input;
  if (input !== null && typeof input === "object" && !Array.isArray(input)) {
    const known = keysAt(root, issue.path);
    const unknown = Object.keys(input).filter((k) => !known.includes(k));
    if (unknown.length > 0) {
      return unknown
        .map(
          (k) =>
            `${formatPath([...issue.path, k])}: unknown key${suggest(k, known)} (expected one of: ${forms.join(", ")})`,
        )
        .join("\n  - ");
    }
  }
  const got = input === undefined ? "" : `, received ${describeInput(input)}`;
  return `${formatPath(issue.path)}: expected one of: ${forms.join(", ")}${got}`;
}

/** The schemas that may stand at `path` (more than one under a union). */
function schemasAt(schema: z.ZodType, path: readonly PropertyKey[]): SchemaNode[] {
  let cur = unwrap(schema);
  for (const p of path) {
    cur = cur.flatMap((s) => {
      const def = s._zod?.def;
      if (def?.type === "object") {
        const next = (def.shape as Record<string, unknown>)[String(p)];
        return next === undefined ? [] : unwrap(next);
      }
      if (def?.type === "array") return unwrap(def.element);
      if (def?.type === "record") return unwrap(def.valueType);
      return [];
    });
  }
  return cur;
}

/** The keys the schema knows at `path`, for "did you mean" suggestions. */
function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  const keys = schemasAt(schema, path).flatMap((s) =>
    s._zod?.def?.type === "object" ? Object.keys(s._zod.def.shape as object) : [],
  );
  return [...new Set(keys)];
}

/** Whether an object that takes no key at all stands at `path` (a suite without probes, say). */
function closedAt(schema: z.ZodType, path: readonly PropertyKey[]): boolean {
  return schemasAt(schema, path).some((s) => s._zod?.def?.type === "object");
}

/** How each option of a union at `path` reads: `false`, `{ url, method, headers }`, `string`. */
function formsAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  return schemasAt(schema, path).map((s) => {
    const def = s._zod?.def;
    if (def?.type === "object") return `{ ${Object.keys(def.shape as object).join(", ")} }`;
    if (def?.type === "literal") return (def.values as unknown[]).map((v) => JSON.stringify(v)).join(" or ");
    return String(def?.type ?? "?");
  });
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
