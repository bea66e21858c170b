import { quote } from "../../src/engine/quote.js";
import { isObject, type Json } from "./statements.js";

/**
 * Metadata policy, as a federation client applies it (OpenID Federation 1.0, Metadata Policy:
 * Structure, Operators, Enforcement: Resolution and Application), written from the specification
 * for the harness: the resolve check compares a resolver's Resolved Metadata with what this
 * computes from the same Trust Chain. Every input is a target's, so every size is bounded and
 * every failure is a `PolicyError` (a policy error makes the Trust Chain invalid), never a crash.
 */

/** Entity Type → metadata parameter → value. */
export type Metadata = Record<string, Json>;

/** Entity Type → metadata parameter → operator → operator value. */
export type Policy = Record<string, Record<string, Json>>;

/** A policy error (Metadata Policy, Operators and Enforcement): the Trust Chain is invalid. */
export class PolicyError extends Error {}

/** The standard operators in their order of application (value first, essential last). */
export const OPERATORS = [
  "value",
  "add",
  "default",
  "one_of",
  "subset_of",
  "superset_of",
  "essential",
] as const;
type Operator = (typeof OPERATORS)[number];
const STANDARD: ReadonlySet<string> = new Set(OPERATORS);

/** Bounds of what is read: Entity Types, parameters a type, operator array values, nesting. */
const MAX_TYPES = 64;
const MAX_PARAMS = 256;
const MAX_VALUES = 1000;
const MAX_DEPTH = 32;

const fail = (what: string): never => {
  throw new PolicyError(what);
};

/** A JSON value as text with sorted members: equal values give equal text (bounded depth). */
export function canonical(v: unknown, depth = 0): string {
  if (depth > MAX_DEPTH) fail(`a value nested deeper than ${MAX_DEPTH} levels`);
  if (Array.isArray(v)) return `[${v.map((x) => canonical(x, depth + 1)).join(",")}]`;
  if (isObject(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k], depth + 1)}`)
      .join(",")}}`;
  return JSON.stringify(v) ?? "null";
}

const same = (a: unknown, b: unknown): boolean => canonical(a) === canonical(b);
const has = (list: readonly unknown[], x: unknown): boolean => list.some((y) => same(x, y));
const subset = (a: readonly unknown[], b: readonly unknown[]): boolean => a.every((x) => has(b, x));
const union = (a: readonly unknown[], b: readonly unknown[]): unknown[] => [
  ...a,
  ...b.filter((x) => !has(a, x)),
];
const intersection = (a: readonly unknown[], b: readonly unknown[]): unknown[] => a.filter((x) => has(b, x));

/** An operator value that must be an array (add, one_of, subset_of, superset_of), bounded. */
function arrayValue(op: string, v: unknown, where: string): unknown[] {
  if (!Array.isArray(v)) return fail(`${where}: ${op} ${quote(v, 80)} is not an array`);
  if (v.length > MAX_VALUES) return fail(`${where}: ${op} has more than ${MAX_VALUES} values`);
  return v;
}

/** The values an operator value stands for, for the combination rules (null: none). */
const valuesOf = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === null ? [] : [v]);

/**
 * Checks one parameter policy's operator values and combinations (each operator's "Operator JSON
 * values" and "Combination with other operators"). Unknown operators are dropped, unless critical.
 */
function validateParameter(ops: unknown, crit: ReadonlySet<string>, where: string): Json {
  if (!isObject(ops)) return fail(`${where}: the parameter policy ${quote(ops, 80)} is not an object`);
  const out: Json = {};
  for (const [op, v] of Object.entries(ops)) {
    if (!STANDARD.has(op)) {
      if (crit.has(op)) fail(`${where}: critical operator ${quote(op)} is not understood`);
      continue;
    }
    out[op] = v;
  }
  checkOperatorValues(out, where);
  checkCombinations(out, where);
  return out;
}

function checkOperatorValues(ops: Json, where: string): void {
  const scalar = (v: unknown): boolean =>
    typeof v === "string" || typeof v === "number" || typeof v === "boolean" || Array.isArray(v);
  if ("value" in ops && !(ops.value === null || scalar(ops.value)))
    fail(`${where}: value ${quote(ops.value, 80)} is not a string, number, boolean, array or null`);
  if ("default" in ops && !scalar(ops.default))
    fail(`${where}: default ${quote(ops.default, 80)} is not a string, number, boolean or array`);
  for (const op of ["add", "one_of", "subset_of", "superset_of"] as const)
    if (op in ops) arrayValue(op, ops[op], where);
  if ("essential" in ops && typeof ops.essential !== "boolean")
    fail(`${where}: essential ${quote(ops.essential, 80)} is not a boolean`);
}

/** The combinations each standard operator allows (Operators: Standard Operators). */
function checkCombinations(ops: Json, where: string): void {
  const inOps = (op: Operator): boolean => op in ops;
  const bad = (why: string): never => fail(`${where}: ${why}`);
  if (inOps("one_of"))
    for (const other of ["add", "subset_of", "superset_of"] as const)
      if (inOps(other)) bad(`one_of cannot be combined with ${other}`);
  if (inOps("value")) {
    const v = valuesOf(ops.value);
    if (inOps("add") && !subset(ops.add as unknown[], v)) bad("the add values are not a subset of value");
    if (inOps("default") && ops.value === null) bad("default with value null");
    if (inOps("one_of") && (ops.value === null || !has(ops.one_of as unknown[], ops.value)))
      bad("value is not among the one_of values");
    if (inOps("subset_of") && !subset(v, ops.subset_of as unknown[]))
      bad("value is not a subset of subset_of");
    if (inOps("superset_of") && !subset(ops.superset_of as unknown[], v))
      bad("value is not a superset of superset_of");
    if (ops.value === null && ops.essential === true) bad("value null with essential true");
  }
  if (inOps("add") && inOps("subset_of") && !subset(ops.add as unknown[], ops.subset_of as unknown[]))
    bad("the add values are not a subset of subset_of");
  if (
    inOps("subset_of") &&
    inOps("superset_of") &&
    !subset(ops.superset_of as unknown[], ops.subset_of as unknown[])
  )
    bad("subset_of is not a superset of superset_of");
}

/** Validates a metadata_policy claim (Structure; Enforcement: Resolution), bounded. */
export function validatePolicy(p: unknown, crit: ReadonlySet<string> = new Set()): Policy {
  if (!isObject(p)) return fail(`metadata_policy ${quote(p, 80)} is not an object`);
  const types = Object.entries(p);
  if (types.length > MAX_TYPES) fail(`metadata_policy has more than ${MAX_TYPES} Entity Types`);
  const out: Policy = {};
  for (const [type, params] of types) {
    if (!isObject(params)) return fail(`metadata_policy.${type} is not an object`);
    const entries = Object.entries(params);
    if (entries.length > MAX_PARAMS) fail(`metadata_policy.${type} has more than ${MAX_PARAMS} parameters`);
    out[type] = {};
    for (const [param, ops] of entries)
      out[type][param] = validateParameter(ops, crit, `metadata_policy.${type}.${param}`);
  }
  return out;
}

/** Merges a subordinate's operator value into the current one (each operator's "Operator value merge"). */
function mergeOperator(op: Operator, cur: unknown, next: unknown, where: string): unknown {
  switch (op) {
    case "value":
    case "default":
      return same(cur, next) ? cur : fail(`${where}: ${op} ${quote(cur, 60)} and ${quote(next, 60)} differ`);
    case "add":
    case "superset_of":
      return union(cur as unknown[], next as unknown[]);
    case "one_of": {
      const both = intersection(cur as unknown[], next as unknown[]);
      return both.length > 0 ? both : fail(`${where}: the one_of values have no value in common`);
    }
    case "subset_of":
      return intersection(cur as unknown[], next as unknown[]);
    case "essential":
      return cur === true || next === true;
  }
}

/**
 * The Trust Chain's resolved policy (Enforcement: Resolution): the metadata_policy claims of
 * its Subordinate Statements, given from the one the most Superior Entity issued down to the one
 * about the subject, each validated, then merged level by level into the current policy.
 * `crit` are the operator names of every metadata_policy_crit of the chain.
 */
export function resolvePolicy(policies: readonly unknown[], crit: ReadonlySet<string> = new Set()): Policy {
  const current: Policy = {};
  for (const raw of policies) {
    const next = validatePolicy(raw, crit);
    for (const [type, params] of Object.entries(next)) {
      const curType = (current[type] ??= {});
      for (const [param, ops] of Object.entries(params)) {
        const where = `metadata_policy.${type}.${param}`;
        const cur = curType[param];
        if (cur === undefined) {
          curType[param] = { ...ops };
          continue;
        }
        for (const op of OPERATORS)
          if (op in ops) cur[op] = op in cur ? mergeOperator(op, cur[op], ops[op], where) : ops[op];
        checkCombinations(cur, where);
      }
    }
  }
  return current;
}

/** Applies one parameter policy to `md[param]` in the operators' order (Enforcement: Application). */
function applyParameter(md: Json, param: string, ops: Json, where: string): void {
  // scope is a space-separated string that the operators treat as an array of its values.
  const scope = param === "scope";
  const norm = (x: unknown): unknown => (scope && typeof x === "string" ? x.split(" ").filter(Boolean) : x);
  let v: unknown = norm(md[param]);
  const present = (): boolean => v !== undefined;
  const needArray = (op: string): unknown[] =>
    Array.isArray(v) ? v : fail(`${where}: ${op} on ${quote(v, 60)}, which is not an array`);
  if ("value" in ops) v = ops.value === null ? undefined : norm(ops.value);
  if ("add" in ops)
    v = present() ? union(needArray("add"), ops.add as unknown[]) : [...(ops.add as unknown[])];
  if ("default" in ops && !present()) v = norm(ops.default);
  if ("one_of" in ops && present()) {
    if (Array.isArray(v)) fail(`${where}: one_of on the array ${quote(v, 60)}`);
    if (!has(ops.one_of as unknown[], v))
      fail(`${where}: ${quote(v, 60)} is not one of ${quote(ops.one_of, 80)}`);
  }
  if ("subset_of" in ops && present()) v = intersection(needArray("subset_of"), ops.subset_of as unknown[]);
  if ("superset_of" in ops && present() && !subset(ops.superset_of as unknown[], needArray("superset_of")))
    fail(`${where}: ${quote(v, 60)} lacks values of superset_of ${quote(ops.superset_of, 80)}`);
  if (ops.essential === true && !present()) fail(`${where}: essential, but absent`);
  if (v === undefined) delete md[param];
  else md[param] = scope && Array.isArray(v) ? v.join(" ") : v;
}

/**
 * The subject's Resolved Metadata: its Entity Configuration's `metadata`, overridden parameter
 * by parameter by the Immediate Superior's Subordinate Statement `metadata` (only for the Entity
 * Types the subject declares), then the resolved policy applied to every Entity Type and
 * parameter it names (Enforcement: Application; the `metadata` claim).
 */
export function applyPolicy(own: unknown, superior: unknown, policy: Policy): Metadata {
  if (own !== undefined && !isObject(own))
    return fail(`the subject's metadata ${quote(own, 80)} is not an object`);
  const out: Metadata = {};
  const types = Object.entries(own ?? {});
  if (types.length > MAX_TYPES) fail(`the subject's metadata has more than ${MAX_TYPES} Entity Types`);
  for (const [type, md] of types) {
    if (!isObject(md)) return fail(`metadata.${type} is not an object`);
    const over = isObject(superior) && isObject(superior[type]) ? superior[type] : {};
    out[type] = { ...md, ...over };
  }
  for (const [type, params] of Object.entries(policy)) {
    const md = out[type];
    if (md === undefined) continue;
    for (const [param, ops] of Object.entries(params)) applyParameter(md, param, ops, `${type}.${param}`);
  }
  return out;
}

/** Whether two arrays hold the same values, in any order and counting repeats. */
export const sameSet = (a: readonly unknown[], b: readonly unknown[]): boolean =>
  a.length === b.length && subset(a, b) && subset(b, a);

/** The operators of a resolved policy that change arrays as sets (their result order is not defined). */
export const setOperators = (policy: Policy, type: string, param: string): boolean => {
  const ops = policy[type]?.[param];
  return ops !== undefined && ("add" in ops || "subset_of" in ops || "superset_of" in ops);
};
