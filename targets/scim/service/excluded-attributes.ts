/** Attributes returned "always" (RFC 7643 §7): no request can leave them out. */
const ALWAYS = new Set(["id", "schemas"]);

/**
 * The top-level attribute names an `excludedAttributes` parameter names (RFC 7644
 * §3.4.2.5), lower-case; a schema URN prefix is dropped and `a.b` counts as `a`
 * only when it is the whole attribute (sub-attribute exclusion is not offered).
 */
export function parseExcluded(param: string | undefined): ReadonlySet<string> {
  const out = new Set<string>();
  for (const raw of (param ?? "").split(",")) {
    let name = raw.trim();
    if (name.toLowerCase().startsWith("urn:")) name = name.slice(name.lastIndexOf(":") + 1);
    if (name !== "" && !name.includes(".")) out.add(name.toLowerCase());
  }
  return out;
}

/** The resource without the excluded attributes (case-insensitive names). */
export function withoutExcluded(
  resource: Record<string, unknown>,
  excluded: ReadonlySet<string>,
): Record<string, unknown> {
  if (excluded.size === 0) return resource;
  return Object.fromEntries(
    Object.entries(resource).filter(([k]) => ALWAYS.has(k.toLowerCase()) || !excluded.has(k.toLowerCase())),
  );
}
