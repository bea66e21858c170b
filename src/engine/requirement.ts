import { HarnessError } from "./errors.js";

/** RFC 2119 level of a requirement; it alone decides the severity of a broken rule. */
export type Level = "MUST" | "SHOULD" | "MAY";

/**
 * One rule a target is held to. Data, never code: checks name these by `id`.
 * `source` names the document and section (`specs/002 C.4.2`) or, for facts taken from
 * public-spec-facts.md, the public specification section (`public: RFC 7644 §3.4.2`).
 */
export interface Requirement {
  readonly id: string;
  readonly level: Level;
  readonly source: string;
  readonly text: string;
  /** Why no fault of the reference target can break it (only for MUST rules with no fault). */
  readonly untestable?: string;
}

export interface Catalog {
  readonly suite: string;
  readonly requirements: readonly Requirement[];
}

const ID_PATTERN = /^[A-Z][A-Z0-9]*(-[A-Z0-9]+)+$/;

/** Declares a suite's requirement catalog, rejecting malformed or duplicate ids at load. */
export function defineCatalog(suite: string, requirements: readonly Requirement[]): Catalog {
  const seen = new Set<string>();
  for (const r of requirements) {
    if (!ID_PATTERN.test(r.id)) {
      throw new HarnessError(
        "IDC_CATALOG_INVALID",
        `${suite}: requirement id "${r.id}" is not of the form ABC-WORD-WORD`,
      );
    }
    if (seen.has(r.id))
      throw new HarnessError("IDC_CATALOG_INVALID", `${suite}: duplicate requirement id ${r.id}`);
    if (r.text.includes("\n"))
      throw new HarnessError("IDC_CATALOG_INVALID", `${suite}: ${r.id} text must be one line`);
    seen.add(r.id);
  }
  return { suite, requirements };
}

/** Finds ids that occur in more than one catalog. */
export function duplicateIds(catalogs: readonly Catalog[]): string[] {
  const count = new Map<string, number>();
  for (const c of catalogs) for (const r of c.requirements) count.set(r.id, (count.get(r.id) ?? 0) + 1);
  return [...count].filter(([, n]) => n > 1).map(([id]) => id);
}

/** True when `id` matches a `--grep` value: the exact id, or an id prefix such as `SCIM-USER`. */
export function matchesGrep(id: string, grep: readonly string[]): boolean {
  if (grep.length === 0) return true;
  return grep.some((g) => {
    const p = g.toUpperCase();
    if (p.endsWith("*") || p.endsWith("-")) return id.startsWith(p.replace(/\*$/, ""));
    return id === p || id.startsWith(`${p}-`);
  });
}

/**
 * The names a run's texts use: a suite whose document lets the profile choose between sets of
 * identifiers (credential issuance: the document's `std` names or the published `openid` ones)
 * renders its requirement texts and check titles in the run's set. `terms` maps each name as
 * the catalog and the titles write it to the name of the set; results.json keeps both.
 */
export interface Wording {
  /** The set's name, as the profile chose it (`openid`). */
  readonly set: string;
  readonly terms: Readonly<Record<string, string>>;
}

/**
 * `text` with every term of `wording` replaced (longest first, so a name that contains a
 * shorter one is replaced whole). Rendering a rendered text again changes nothing, unless a
 * set maps a name onto one that contains another term.
 */
export function renderWording(text: string, wording: Wording | undefined): string {
  if (wording === undefined) return text;
  const terms = Object.entries(wording.terms)
    .filter(([from, to]) => from !== "" && from !== to)
    .sort(([a], [b]) => b.length - a.length);
  if (terms.length === 0) return text;
  const to = new Map(terms);
  const pattern = new RegExp(
    terms.map(([from]) => from.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("|"),
    "g",
  );
  return text.replace(pattern, (m) => to.get(m) ?? m);
}
