import { quote } from "../../../src/engine/quote.js";

/** RFC 7643 §7: the values an attribute definition's characteristics take. */
const TYPES = ["string", "boolean", "decimal", "integer", "dateTime", "reference", "binary", "complex"];
const MUTABILITY = ["readOnly", "readWrite", "immutable", "writeOnly"];
const RETURNED = ["always", "never", "default", "request"];
const UNIQUENESS = ["none", "server", "global"];

/**
 * RFC 7643 §2.2: the characteristics an attribute definition has when it leaves them out (its
 * own §8.7.1 schemas leave caseExact and uniqueness out of booleans and complex attributes).
 */
const DEFAULTS: Readonly<Record<string, unknown>> = {
  type: "string",
  required: false,
  caseExact: false,
  mutability: "readWrite",
  returned: "default",
  uniqueness: "none",
};

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : undefined;

/**
 * What is wrong with one attribute definition (RFC 7643 §7: name, type, multiValued,
 * required, caseExact, mutability, returned, uniqueness; subAttributes for a complex
 * type, referenceTypes for a reference), its sub-attributes included. Empty when none. A
 * characteristic left out takes its RFC 7643 §2.2 default; one given must be of its kind.
 */
export function attributeFaults(a: unknown, where: string): string[] {
  const d = obj(a);
  if (d === undefined) return [`${where}: not an object`];
  const at = `${where}.${typeof d.name === "string" ? d.name : "?"}`;
  const out: string[] = [];
  const bad = (what: string): number => out.push(`${at}: ${what}`);
  if (typeof d.name !== "string" || d.name.length === 0) bad(`name ${quote(d.name ?? null)}`);
  if (d.type !== undefined && !TYPES.includes(String(d.type))) bad(`type ${quote(d.type)}`);
  if (typeof d.multiValued !== "boolean") bad(`multiValued ${quote(d.multiValued ?? null)} is not a boolean`);
  for (const k of ["required", "caseExact"])
    if (d[k] !== undefined && typeof d[k] !== "boolean") bad(`${k} ${quote(d[k])} is not a boolean`);
  for (const [k, allowed] of [
    ["mutability", MUTABILITY],
    ["returned", RETURNED],
    ["uniqueness", UNIQUENESS],
  ] as const)
    if (d[k] !== undefined && !allowed.includes(String(d[k]))) bad(`${k} ${quote(d[k])}`);
  if (d.type === "complex") {
    if (!Array.isArray(d.subAttributes) || d.subAttributes.length === 0) bad("complex without subAttributes");
    else for (const s of d.subAttributes as unknown[]) out.push(...attributeFaults(s, at));
  }
  if (
    d.type === "reference" &&
    (!Array.isArray(d.referenceTypes) ||
      d.referenceTypes.length === 0 ||
      d.referenceTypes.some((t) => typeof t !== "string" || t === ""))
  )
    bad(`referenceTypes ${quote(d.referenceTypes ?? null)}`);
  if (
    d.canonicalValues !== undefined &&
    (!Array.isArray(d.canonicalValues) || d.canonicalValues.some((v) => typeof v !== "string" || v === ""))
  )
    bad(`canonicalValues ${quote(d.canonicalValues)}`);
  return out;
}

/** The attribute `name` of a schema (or of a complex attribute), compared without case. */
export function findAttr(container: unknown, name: string): Obj | undefined {
  const list = obj(container)?.attributes ?? obj(container)?.subAttributes;
  if (!Array.isArray(list)) return undefined;
  return list
    .map(obj)
    .find((a) => typeof a?.name === "string" && a.name.toLowerCase() === name.toLowerCase());
}

/** An attribute the profile uses, and the characteristics RFC 7643 §4 gives it. */
export interface Expected {
  readonly path: string;
  readonly type: string;
  readonly multiValued: boolean;
  readonly caseExact?: boolean;
  readonly required?: boolean;
  readonly uniqueness?: string;
  /** Judged only when described: RFC 7643 §8.7.1 leaves common attributes out of the schema. */
  readonly optional?: boolean;
}

/** RFC 7643 §4.1, §4.2 (and §8.7.1): the attributes of User and Group the profile relies on. */
export const PROFILE_ATTRS: Readonly<Record<"user" | "group", readonly Expected[]>> = {
  user: [
    // userName is case-insensitive (public-spec-facts §5: caseExact false) and unique.
    {
      path: "userName",
      type: "string",
      multiValued: false,
      caseExact: false,
      required: true,
      uniqueness: "server",
    },
    // RFC 7643 §3.1: externalId is caseExact.
    { path: "externalId", type: "string", multiValued: false, caseExact: true, optional: true },
    { path: "name", type: "complex", multiValued: false, required: false },
    { path: "name.givenName", type: "string", multiValued: false, required: false },
    { path: "name.familyName", type: "string", multiValued: false, required: false },
    { path: "displayName", type: "string", multiValued: false, required: false },
    { path: "emails", type: "complex", multiValued: true, required: false },
    { path: "emails.value", type: "string", multiValued: false, required: false },
    { path: "emails.type", type: "string", multiValued: false, required: false },
    { path: "emails.primary", type: "boolean", multiValued: false, required: false },
    { path: "active", type: "boolean", multiValued: false, required: false },
  ],
  group: [
    // RFC 7643 §4.2 calls displayName REQUIRED, its §8.7.1 schema says required false: not judged.
    { path: "displayName", type: "string", multiValued: false },
    { path: "externalId", type: "string", multiValued: false, caseExact: true, optional: true },
    { path: "members", type: "complex", multiValued: true, required: false },
    { path: "members.value", type: "string", multiValued: false },
  ],
};

/** How a schema document departs from what the profile needs of it; empty when it does not. */
export function profileAttrFaults(schema: unknown, expected: readonly Expected[]): string[] {
  const out: string[] = [];
  for (const e of expected) {
    const [top, sub] = e.path.split(".");
    const parent = findAttr(schema, top ?? "");
    const a = sub === undefined ? parent : findAttr(parent, sub);
    if (a === undefined) {
      if (e.optional === true) continue;
      out.push(`${e.path}: not described`);
      continue;
    }
    const diff = (["type", "multiValued", "caseExact", "required", "uniqueness"] as const)
      .filter((k) => e[k] !== undefined && (a[k] ?? DEFAULTS[k]) !== e[k])
      .map((k) => `${k} ${quote(a[k] ?? null)} (RFC 7643: ${String(e[k])})`);
    if (diff.length > 0) out.push(`${e.path}: ${diff.join(", ")}`);
  }
  return out;
}
