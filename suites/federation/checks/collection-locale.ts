import fc from "fast-check";
import { defineCheck } from "../../../src/engine/check.js";
import { rethrowControl } from "../../../src/engine/property.js";
import type { FederationProfile } from "../profile.js";
import { entityProblem, walkJudged } from "./collection-select.js";
import {
  collectionBasis,
  few,
  infosOf,
  partlyPublished,
  rangeMatches,
  refusedAs,
  runsWithin,
  splitKey,
  Tally,
  type Basis,
  type SeenEntity,
} from "./collection-published.js";

const MATCH = "FED-COLL-LOCALE-MATCH";
const SUBTAGS = "FED-COLL-LOCALE-SUBTAGS";
const UNTAGGED = "FED-COLL-LOCALE-UNTAGGED";
const ALL = "FED-COLL-LOCALE-ALL";

/** A BCP47 language tag in the form basic filtering takes (RFC 4647 §2.1): subtags of 1-8 alphanumerics. */
const TAG_FORM = /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/;
/** Tags taken from the data into the generated ranges (a hostile target may publish thousands). */
const MAX_TAGS = 64;
/** Tags no entity is expected to use, so that ranges matching nothing are generated too. */
const UNRELATED = ["nl", "ja", "en-US", "pt-BR", "zh-Hant"];

/** Keys of `o` with a language tag (claim#tag). */
const taggedKeys = (o: Record<string, unknown>): string[] =>
  Object.keys(o).filter((k) => splitKey(k).tag !== undefined);

/**
 * The language ranges the property draws from: every tag the entities use (in their metadata and
 * in the collection), each parent of them (de-CH → de), look-alikes that continue a tag without
 * a subtag border (fi for fil), and tags nobody uses. `focus` are the border cases, asked alone
 * before the generated lists: the parents and the look-alikes.
 */
function rangePool(b: Basis): { pool: string[]; focus: string[] } {
  const tags = new Set<string>();
  const add = (o: Record<string, unknown>): void => {
    for (const k of taggedKeys(o)) {
      const tag = splitKey(k).tag!;
      if (TAG_FORM.test(tag) && tags.size < MAX_TAGS) tags.add(tag);
    }
  };
  for (const p of b.sweep.byId.values()) for (const md of p.metadata.values()) add(md);
  for (const x of b.entities) for (const info of infosOf(x.e).values()) add(info);
  const parents = new Set<string>();
  const lookAlikes = new Set<string>();
  for (const tag of tags) {
    const parts = tag.split("-");
    for (let n = parts.length - 1; n >= 1; n--) parents.add(parts.slice(0, n).join("-"));
    const primary = parts[0]!;
    if (primary.length >= 3) lookAlikes.add(primary.slice(0, 2));
  }
  const focus = [...new Set([...lookAlikes, ...parents])].sort();
  const pool = [...new Set([...tags, ...parents, ...lookAlikes, ...UNRELATED])].sort();
  return { pool, focus };
}

/**
 * Judges one walk with `locale` = `ranges` against the default answer and the entities' own
 * metadata: every tagged value returned matches a range; every published or default-answer
 * variant a range matches is returned; every untagged value stays.
 */
function judgeLocale(
  t: Tally,
  b: Basis,
  ranges: readonly string[],
  xs: readonly SeenEntity[],
  changed: boolean,
): boolean {
  let ok = true;
  const asked = `locale ${ranges.join(" ")}`;
  const matched = (tag: string): boolean => ranges.some((r) => rangeMatches(r, tag));
  for (const x of xs) {
    const own = infosOf(x.e);
    const ref = changed ? new Map() : infosOf(b.byId.get(x.id)?.e ?? {});
    const pub = b.sweep.byId.get(x.id);
    for (const type of new Set([...own.keys(), ...ref.keys()])) {
      const info = own.get(type) ?? {};
      const refInfo: Record<string, unknown> = ref.get(type) ?? {};
      const md = pub?.metadata.get(type) ?? {};
      const stray = taggedKeys(info).filter((k) => !matched(splitKey(k).tag!));
      if (taggedKeys(info).length > 0)
        ok =
          t.see(
            MATCH,
            stray.length === 0
              ? undefined
              : entityProblem(
                  x,
                  `only language variants a range of ${asked} matches`,
                  `${type} ${few(stray)}`,
                  "wrong-value",
                ),
            ranges.length,
          ) && ok;
      const names = new Set([...Object.keys(info), ...Object.keys(refInfo)].map((k) => splitKey(k).name));
      const variants = [...new Set([...taggedKeys(md), ...taggedKeys(refInfo)])].filter(
        (k) => names.has(splitKey(k).name) && matched(splitKey(k).tag!),
      );
      if (variants.length > 0) {
        const lost = variants.filter((k) => !(k in info));
        ok =
          t.see(
            SUBTAGS,
            lost.length === 0
              ? undefined
              : entityProblem(
                  x,
                  `${type} ${few(variants)}, which ${asked} matches`,
                  `without ${few(lost)}`,
                  "missing",
                ),
            ranges.length,
            pub?.res,
          ) && ok;
      }
      const untagged = [...names].filter(
        (n) => n in refInfo || (n in md && taggedKeys(info).some((k) => splitKey(k).name === n)),
      );
      if (untagged.length > 0) {
        const lost = untagged.filter((n) => !(n in info));
        ok =
          t.see(
            UNTAGGED,
            lost.length === 0
              ? undefined
              : entityProblem(
                  x,
                  `${type} ${few(untagged)} untagged, always (${asked})`,
                  `without ${few(lost)}`,
                  "missing",
                ),
            ranges.length,
            pub?.res,
          ) && ok;
      }
    }
  }
  return ok;
}

/** Without locale: every variant the entity publishes of each claim returned is there. */
function judgeAll(t: Tally, b: Basis): void {
  for (const x of b.entities) {
    const pub = b.sweep.byId.get(x.id);
    if (pub === undefined) continue;
    for (const [type, info] of infosOf(x.e)) {
      const names = new Set(Object.keys(info).map((k) => splitKey(k).name));
      const variants = taggedKeys(pub.metadata.get(type) ?? {}).filter((k) => names.has(splitKey(k).name));
      if (variants.length === 0) continue;
      const lost = variants.filter((k) => !(k in info));
      t.see(
        ALL,
        lost.length === 0
          ? undefined
          : entityProblem(
              x,
              `${type} ${few(variants)}, which its ${type} metadata publishes (no locale)`,
              `without ${few(lost)}`,
              "missing",
            ),
        0,
        pub.res,
      );
    }
  }
}

/** specs/001 Endpoints: Entity collection (locale); Language variants; RFC 4647 §3.3.1. */
export const collectionLocaleChecks = [
  defineCheck<FederationProfile>({
    id: "federation.collection-locale",
    title:
      "for generated lists of locale ranges, every language variant returned matches one by RFC 4647 basic filtering, every matching variant (subtags too) is returned and every untagged value stays; without locale every variant is returned",
    requirements: [MATCH, SUBTAGS, UNTAGGED, ALL],
    timeoutMs: 180_000,
    async run(c) {
      const b = await collectionBasis(c);
      const t = new Tally(c);
      judgeAll(t, b);
      const { pool, focus } = rangePool(b);
      // Refused on the first request: locale is not offered. A refusal after answers were judged
      // is not a "not offered" that could hide what they showed: it leaves the rest unjudged.
      let refused = false;
      let asked = 0;
      const unread: string[] = [];
      const once = async (ranges: readonly string[]): Promise<boolean> => {
        if (refused) return true;
        // Judged page by page as walked (none held); a refused first request has no page to judge.
        const { w, ok } = await walkJudged(
          c,
          b,
          `collection, locale ${ranges.join(" ")}`,
          ranges.map((r) => ["locale", r] as const),
          (xs, changed) => judgeLocale(t, b, ranges, xs, changed),
        );
        if (
          asked++ === 0 &&
          w.pages[0]!.shape !== undefined &&
          refusedAs(w.pages[0]!.res, "unsupported_parameter")
        ) {
          refused = true;
          return true;
        }
        if (w.stopped !== undefined) {
          unread.push(`locale ${ranges.join(" ")}: ${w.stopped}`);
          return true;
        }
        return ok;
      };
      // The subtag borders first (a parent range, a look-alike that continues a tag without "-").
      // In a large collection, as many as the page budget allows (collection-published runsWithin).
      const borders = runsWithin(
        c,
        b,
        Math.min(focus.length, c.profile.walk.runs),
        0,
        "subtag border ranges asked alone",
      );
      for (const r of focus.slice(0, borders)) await once([r]);
      const casing = (r: string, k: number): string =>
        k === 1 ? r.toLowerCase() : k === 2 ? r.toUpperCase() : r;
      const ranges = fc
        .uniqueArray(fc.tuple(fc.constantFrom(...pool), fc.integer({ min: 0, max: 2 })), {
          minLength: 1,
          maxLength: 3,
          selector: ([r]) => r.toLowerCase(),
        })
        .map((xs) => xs.map(([r, k]) => casing(r, k)));
      const out = await fc.check(fc.asyncProperty(ranges, once), {
        seed: c.seed,
        numRuns: runsWithin(c, b, c.profile.walk.runs, borders, "generated locale lists"),
      });
      rethrowControl(out);
      t.decide(c, ALL, "Entity Type Infos with published language variants");
      if (refused)
        for (const id of [MATCH, SUBTAGS, UNTAGGED])
          c.skipOnly(id, "locale is refused as unsupported_parameter", "not-offered");
      else {
        t.decide(c, MATCH, "Entity Type Infos with language variants", c.seed);
        t.decide(c, SUBTAGS, "Entity Type Infos with variants a range matches", c.seed);
        t.decide(c, UNTAGGED, "Entity Type Infos with untagged values", c.seed);
      }
      partlyPublished(c, b.sweep, refused ? [ALL] : [SUBTAGS, UNTAGGED, ALL]);
      if (unread.length > 0)
        for (const id of [MATCH, SUBTAGS, UNTAGGED])
          c.partly(
            id,
            `${unread.length} locale requests could not be walked (the first: ${unread[0]!.slice(0, 160)}): see FED-COLL-UNSUPPORTED-PARAM`,
          );
    },
  }),
];
