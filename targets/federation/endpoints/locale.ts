import type { FaultSet } from "../faults.js";
import { invalidRequest } from "../http/reply.js";
import { LIMITS } from "../limits.js";

// A BCP 47 language range as RFC 4647 §2.1 basic filtering takes it: "*" or subtags of 1-8 alphanumerics.
const RANGE = /^(\*|[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*)$/;

/** The `locale` values of a collection request, validated. */
export function parseLocales(values: readonly string[]): string[] {
  for (const v of values) {
    if (v.length > LIMITS.maxLocaleChars || !RANGE.test(v))
      throw invalidRequest("locale must be a BCP 47 language tag");
  }
  return [...values];
}

/**
 * RFC 4647 §3.3.1 basic filtering: a range matches a tag when, ignoring case, it equals the
 * tag or is a prefix of it followed by "-" (de matches de and de-CH, not den); "*" matches
 * every tag (specs/001 Endpoints: Entity collection, locale).
 */
export function matches(faults: FaultSet, range: string, tag: string): boolean {
  const r = range.toLowerCase();
  const t = tag.toLowerCase();
  if (r === "*" || r === t) return true;
  if (faults.has("coll-locale-exact")) return false;
  if (faults.has("coll-locale-prefix")) return t.startsWith(r);
  return t.startsWith(`${r}-`);
}
