import { quote } from "../../../src/engine/quote.js";
import type { HttpResponse } from "../../../src/http/client.js";
import { absoluteUri, URN } from "../scim-client.js";

// What the group checks judge in a group as answered (RFC 7643 §3, §4.2; RFC 7644 §3.4.2.5).

/** JSON with object keys sorted, so two answers compare by content, not by key order. */
export const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    x !== null && typeof x === "object" && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : x,
  );
export type Json = Record<string, unknown>;
export const asJson = (res: HttpResponse): Json =>
  res.json !== null && typeof res.json === "object" && !Array.isArray(res.json) ? (res.json as Json) : {};

/**
 * excludedAttributes values that all name members: attribute names are case-insensitive
 * (RFC 7643 §2.1) and may carry their schema URN (RFC 7644 §3.10, which §3.4.2.5 requires
 * the names to follow); the last names id and schemas too, which it "SHALL have no effect
 * on" (RFC 7644 §3.4.2.5: returned "always", RFC 7643 §7).
 */
export const MEMBERS_EXCLUDED = ["members", "MEMBERS", `${URN.group}:members`, "members,id,schemas"];

/**
 * The attributes of `whole` other than `left` that `part` does not hold as they were. meta is
 * compared without its version: an entity-tag may be one of the representation, and a partial
 * one may have its own (RFC 7643 §3.1; RFC 9110 §8.8.3).
 */
export function changedBesides(whole: Json, part: Json, left: string): string[] {
  const same = (k: string): boolean => {
    if (k !== "meta") return canonical(part[k]) === canonical(whole[k]);
    const { version: _w, ...a } = (whole.meta ?? {}) as Json;
    const { version: _p, ...b } = (part.meta ?? {}) as Json;
    return part.meta !== undefined && canonical(a) === canonical(b);
  };
  return Object.keys(whole).filter((k) => k !== left && !same(k));
}

/**
 * What is wrong with a group read with members excluded, against the whole group read just
 * before: members must be gone, and every other attribute there as it was.
 */
export function excludeProblem(whole: Json, res: HttpResponse): string | undefined {
  if (res.status !== 200) return `${res.status} ${res.text.slice(0, 160)}`;
  const got = asJson(res);
  if (got.members !== undefined) return `members ${quote(got.members)}`;
  const lost = changedBesides(whole, got, "members");
  return lost.length === 0 ? undefined : `changed or left out besides members: ${lost.join(", ")}`;
}

/** Group bodies without members: the attribute left out, or null. */
export const BARE: readonly [string, Record<string, unknown>][] = [
  ["without a members attribute", {}],
  ["with members null", { members: null }],
];

/** An HTTP entity-tag (RFC 9110 §8.8.3), which meta.version must be (RFC 7643 §3.1). */
export const ENTITY_TAG = /^(W\/)?"[\x21\x23-\x7e\x80-\uffff]*"$/;

/**
 * What is wrong with a group as read back (RFC 7643 §3, §3.1, §4.2): schemas naming the Group
 * schema, meta.resourceType Group, a meta.version that is an entity-tag when given, and each
 * member's `$ref` and `type`, when given, those of the user it is.
 */
export function groupShapeProblem(g: Json, base: string): string | undefined {
  const wrong: string[] = [];
  if (!Array.isArray(g.schemas) || !g.schemas.includes(URN.group))
    wrong.push(`schemas ${quote(g.schemas ?? null)}`);
  const meta = (g.meta ?? {}) as Json;
  if (meta.resourceType !== "Group") wrong.push(`meta.resourceType ${quote(meta.resourceType ?? null)}`);
  if (meta.version !== undefined && (typeof meta.version !== "string" || !ENTITY_TAG.test(meta.version)))
    wrong.push(`meta.version ${quote(meta.version)} is not an entity-tag`);
  for (const m of Array.isArray(g.members) ? (g.members as Json[]) : []) {
    const ref = m.$ref === undefined ? undefined : absoluteUri(m.$ref, `${base}/Groups`);
    if (m.$ref !== undefined && !ref?.endsWith(`/Users/${encodeURIComponent(String(m.value))}`))
      wrong.push(`member ${quote(m.value ?? null)} has $ref ${quote(m.$ref)}, not the user's URI`);
    // members.type is not caseExact (RFC 7643 §8.7.1); its canonical values are User and Group.
    if (m.type !== undefined && String(m.type).toLowerCase() !== "user")
      wrong.push(`member ${quote(m.value ?? null)} has type ${quote(m.type)}, not User`);
  }
  return wrong.length === 0 ? undefined : wrong.join(", ");
}

/**
 * A list answer to count=0 (RFC 7644 §3.4.2.4: "no resource results are to be returned
 * except for totalResults"): 200, totalResults at least `atLeast`, no resources.
 */
export function totalOnly(res: HttpResponse, atLeast: number): boolean {
  const b = asJson(res);
  const list = b.Resources;
  return (
    res.status === 200 &&
    typeof b.totalResults === "number" &&
    b.totalResults >= atLeast &&
    (list === undefined || (Array.isArray(list) && list.length === 0))
  );
}
