import fc from "fast-check";
import { defineCheck } from "../../../src/engine/check.js";
import { rethrowControl } from "../../../src/engine/property.js";
import { quote } from "../../../src/engine/quote.js";
import type { HttpResponse } from "../../../src/http/client.js";
import type { FederationProfile } from "../profile.js";
import { Fed, readEntityConfiguration, STATEMENT_TYPE, wellKnownUrl, type Ctx } from "../client.js";
import { TAG } from "../observers.js";
import { refusalProblem } from "../refusal.js";
import { isObject, type Json } from "../statements.js";
import { withQuery } from "./fetch-list.js";
import { noteWalked, PROPERTY_PAGES, releaseWalk, smallestLimit, Tally, withoutBody } from "../walk.js";

export interface CollPage {
  readonly res: HttpResponse;
  readonly ids: readonly string[];
  readonly entities: readonly Json[];
  readonly next: string | undefined;
  readonly lastUpdated: unknown;
  readonly shape?: string;
  readonly badEntity?: string;
}

export interface CollWalk {
  readonly pages: readonly CollPage[];
  readonly ids: readonly string[];
  readonly stopped?: string;
}

export function readCollPage(res: HttpResponse): CollPage {
  const base = { res, ids: [], entities: [], next: undefined, lastUpdated: undefined };
  if (res.status !== 200) return { ...base, shape: `answered ${res.status}` };
  if (!/^application\/json\s*(;|$)/i.test(res.header("content-type") ?? ""))
    return { ...base, shape: `Content-Type ${quote(res.header("content-type") ?? "(none)")}` };
  const b = res.json;
  if (!isObject(b)) return { ...base, shape: res.jsonError ?? "not a JSON object" };
  if (!Array.isArray(b.entities) || !b.entities.every(isObject))
    return { ...base, shape: `entities ${quote(b.entities ?? null, 80)} is not an array of objects` };
  if (b.next !== undefined && (typeof b.next !== "string" || b.next === ""))
    return { ...base, shape: `next ${quote(b.next)}` };
  if (b.last_updated !== undefined && typeof b.last_updated !== "number")
    return { ...base, shape: `last_updated ${quote(b.last_updated)} is not a number` };
  const named = (e: Json): boolean => typeof e.entity_id === "string" && e.entity_id !== "";
  const bad = (b.entities as Json[]).find((e) => !named(e));
  // An Entity Info without entity_id names no entity (FED-COLL-ENTITY-ID judges it): it is not
  // counted as one, rather than as an entity named "undefined". ids[i] names entities[i].
  const entities = (b.entities as Json[]).filter(named);
  return {
    res,
    ids: entities.map((e) => e.entity_id as string),
    entities,
    next: typeof b.next === "string" ? b.next : undefined,
    lastUpdated: b.last_updated,
    ...(bad !== undefined ? { badEntity: `an Entity Info without entity_id: ${quote(bad, 120)}` } : {}),
  };
}

/** How a collection walk treats the entities of its pages (a large collection is never held whole). */
export interface CollWalkOptions {
  /**
   * Called with each page as read (its entities whole, its answer with its body) before the walk
   * drops what it does not keep: a check judging every entity judges page by page.
   */
  readonly onPage?: (page: CollPage, index: number) => void | Promise<void>;
  /** How many entities the walk keeps whole, the first ones (default all); ids are always kept. */
  readonly keep?: number;
}

/**
 * Walks the collection next→from within the profile's bounds; a cursor seen before stops it.
 * `params` are sent on every page (trust_anchor, filters, claims, locale): they must be valid
 * values, since every answer of a walk is judged by FED-COLL-UNSUPPORTED-PARAM (200, or the
 * parameter refused with unsupported_parameter).
 */
export async function walkCollection(
  c: Ctx,
  url: string,
  limit: number | undefined,
  label: string,
  params: readonly (readonly [string, string])[] = [],
  o: CollWalkOptions = {},
): Promise<CollWalk> {
  const pages: CollPage[] = [];
  const ids: string[] = [];
  const seen = new Set<string>();
  // Entities kept whole across the walk (`o.keep`); the others are judged by `o.onPage` and dropped.
  let room = o.keep ?? Infinity;
  const upper = c.profile.limits.collection;
  let from: string | undefined;
  // As the extended list's walk (walk.ts): the pages after the first keep no body, and the
  // evidence shows the first and the last page and those with something wrong on their own.
  const end = (stopped?: string): CollWalk => {
    const last = pages[pages.length - 1];
    if (last !== undefined) c.http.keepEvidence(last.res.exchangeId);
    noteWalked(c, label, undefined, pages.length, ids.length);
    return { pages, ids, ...(stopped !== undefined ? { stopped } : {}) };
  };
  for (;;) {
    if (pages.length >= c.profile.walk.maxPages)
      return end(`stopped after ${pages.length} pages (suites.federation.walk.maxPages)`);
    const query: (readonly [string, string])[] = [...params];
    if (limit !== undefined) query.push(["limit", String(limit)]);
    if (from !== undefined) query.push(["from", from]);
    const res = await c.http.get(withQuery(url, query), {
      label: `${label}, page ${pages.length + 1}`,
      tags: [TAG.collection, TAG.collectionValid],
      ...(pages.length > 0 ? { evidence: "if-cited" as const } : {}),
    });
    const whole = readCollPage(res);
    if (o.onPage !== undefined && whole.shape === undefined) await o.onPage(whole, pages.length);
    const kept = whole.entities.length <= room ? whole.entities : whole.entities.slice(0, Math.max(0, room));
    room -= kept.length;
    const read = kept === whole.entities ? whole : { ...whole, entities: kept };
    const page = pages.length === 0 ? read : { ...read, res: withoutBody(res) };
    pages.push(page);
    if (
      page.shape !== undefined ||
      page.badEntity !== undefined ||
      page.lastUpdated === undefined ||
      (limit !== undefined && page.ids.length > limit) ||
      (upper !== undefined && page.ids.length > upper)
    )
      c.http.keepEvidence(res.exchangeId);
    if (page.shape !== undefined) return end(`page ${pages.length}: ${page.shape}`);
    ids.push(...page.ids);
    if (ids.length > c.profile.walk.maxEntries) return end(`stopped after ${ids.length} entities`);
    if (page.next === undefined) return end();
    if (seen.has(page.next)) return end(`next ${quote(page.next, 60)} came back`);
    seen.add(page.next);
    from = page.next;
  }
}

/** The Trust Anchor a collection request collects under, and the parameters that name it. */
export interface Collecting {
  readonly anchor: string;
  /** `trust_anchor=<anchor>`, or nothing when the target is the anchor (it collects under itself). */
  readonly params: readonly (readonly [string, string])[];
  /** The target is the Trust Anchor itself. */
  readonly own: boolean;
}

/** How many authority_hints levels are followed up to a Trust Anchor. */
const MAX_LEVELS = 8;

/**
 * The Trust Anchor the collection checks collect under (specs/001 Endpoints: Entity collection,
 * trust_anchor): the target itself when it is an anchor; otherwise, since a responder that is no
 * Trust Anchor answers a request without trust_anchor with an empty result (What the service
 * does, Rules 2), the anchor its authority_hints lead to, named with trust_anchor. Skips the
 * check when no anchor can be reached.
 */
export async function collectingAnchor(c: Ctx, f: Fed): Promise<Collecting> {
  return (await findCollectingAnchor(c, f)) ?? c.skip(NO_ANCHOR, "dependency");
}

export const NO_ANCHOR =
  "the target is no Trust Anchor and no Trust Anchor above it was reached through authority_hints: nothing to collect under";

/** The anchor the target collects under (see collectingAnchor); undefined when none is reached. */
export async function findCollectingAnchor(c: Ctx, f: Fed): Promise<Collecting | undefined> {
  if ((await f.role()) === "anchor") return { anchor: f.entityId, params: [], own: true };
  let ec = await f.trusted();
  const seen = new Set<string>([f.entityId]);
  for (let level = 0; level < MAX_LEVELS; level++) {
    const hints = ec.payload.authority_hints;
    const up = Array.isArray(hints) ? hints.find((h) => typeof h === "string" && !seen.has(h)) : undefined;
    if (typeof up !== "string" || !/^https?:\/\//.test(up)) break;
    seen.add(up);
    const res = await c.http.get(wellKnownUrl(up), {
      label: `Entity Configuration of ${up} (a superior)`,
      headers: { accept: STATEMENT_TYPE },
    });
    ec = await readEntityConfiguration(res);
    if (ec.res.status !== 200 || ec.unverified !== undefined) break;
    if (ec.payload.authority_hints === undefined)
      return { anchor: up, params: [["trust_anchor", up]], own: false };
  }
  return undefined;
}

/** specs/001 Endpoints: Entity collection (GET or form POST; from, limit, next; last_updated). */
export const collectionChecks = [
  defineCheck<FederationProfile>({
    id: "federation.collection-walk",
    title:
      "the collection answers GET and form POST alike with entities carrying entity_id; walking next→from, for any limit, lists every entity once, never more than limit a page, with last_updated",
    requirements: [
      "FED-COLL-OK",
      "FED-COLL-ENTITY-ID",
      "FED-COLL-METHODS",
      "FED-COLL-LIMIT",
      "FED-COLL-NEXT-REQUIRED",
      "FED-COLL-WALK-ONCE",
      "FED-COLL-LAST-UPDATED",
    ],
    timeoutMs: 120_000,
    async run(c) {
      const f = new Fed(c);
      await f.trusted();
      const url = await f.endpoint("federation_collection_endpoint");
      const { params: ta } = await collectingAnchor(c, f);
      // Every page of every walk is judged as read on its own rules (the upper limit, entity_id,
      // last_updated), one tally each as c.each would decide; the walks are then freed.
      const upper = c.profile.limits.collection;
      const pageRules = {
        upper: new Tally(c, "FED-COLL-LIMIT", "page"),
        id: new Tally(c, "FED-COLL-ENTITY-ID", "page"),
        stamp: new Tally(c, "FED-COLL-LAST-UPDATED", "page"),
      };
      const judgePages = (w: CollWalk): void => {
        for (const p of w.pages) {
          if (p.shape !== undefined) continue;
          if (upper !== undefined)
            pageRules.upper.add(
              p.ids.length > upper
                ? { expected: `at most ${upper} entities a page`, actual: `${p.ids.length}`, res: p.res }
                : undefined,
            );
          pageRules.id.add(
            p.badEntity
              ? {
                  expected: "entity_id on every Entity Info",
                  actual: p.badEntity,
                  res: p.res,
                  kind: "missing",
                }
              : undefined,
          );
          pageRules.stamp.add(
            p.lastUpdated === undefined
              ? { expected: "last_updated", actual: "(absent)", res: p.res, kind: "missing" }
              : undefined,
          );
        }
      };
      const ref = await walkCollection(c, url, undefined, "collection", ta, { keep: 0 });
      judgePages(ref);
      c.require("FED-COLL-OK", ref.pages[0]!.shape === undefined, {
        expected: "200 application/json with entities, an array of objects",
        actual: ref.pages[0]!.shape ?? "",
        res: ref.pages[0]!.res,
      });
      // The same page by form POST (the document allows either method), with a parameter in
      // both so that a POST whose body is not read shows.
      const getTwo = await c.http.get(withQuery(url, [...ta, ["limit", "2"]]), {
        label: "collection, limit 2",
        tags: [TAG.collection, TAG.collectionValid],
      });
      const post = await c.http.post(url, {
        form: { ...Object.fromEntries(ta), limit: "2" },
        label: "collection by form POST, limit 2",
        tags: [TAG.collection],
      });
      if (post.status === 405) {
        c.note(
          "the collection endpoint refuses POST (405); the document allows GET alone without client authentication",
        );
        c.skipOnly(
          "FED-COLL-METHODS",
          "POST is refused with 405 (allowed without client authentication)",
          "not-offered",
        );
      } else {
        const p = readCollPage(post);
        const g = readCollPage(getTwo);
        const same = p.shape === undefined && p.ids.join(" ") === g.ids.join(" ");
        c.check("FED-COLL-METHODS", same, {
          expected: "the entities of the GET answer to the same parameters",
          actual: p.shape ?? `${p.ids.length} entities by POST, ${g.ids.length} by GET`,
          res: post,
        });
      }
      // An empty result is an empty array too (entities is REQUIRED): a type no entity has.
      const none = await c.http.get(
        withQuery(url, [...ta, ["entity_type", `urn:idconform:${c.runId.slice(-6)}:no-such-type`]]),
        {
          label: "collection, an entity_type no entity has",
          tags: [TAG.collection, TAG.collectionValid],
        },
      );
      if (!(none.status === 400 && isObject(none.json) && none.json.error === "unsupported_parameter")) {
        // Only the form is judged here: entities listed although none has the type are
        // FED-COLL-ENTITY-TYPE's finding (federation.collection-filters asks the same).
        const e = readCollPage(none);
        c.check("FED-COLL-OK", e.shape === undefined, {
          expected: "200 application/json with entities, an array of objects (no entity has the type)",
          actual: e.shape ?? "",
          res: none,
        });
        if (e.shape === undefined && e.ids.length > 0)
          c.note(
            `an entity_type no entity has listed ${e.ids.length} entities: the empty answer was not seen`,
          );
      }
      const known = new Set(ref.ids);
      const n = known.size;
      const refPages = ref.pages.length;
      releaseWalk(c, ref);
      const problems = new Map<string, { limit: number; text: string; res?: HttpResponse }>();
      const note = (id: string, limit: number, text: string, res?: HttpResponse): void => {
        const had = problems.get(id);
        if (had === undefined || limit < had.limit)
          problems.set(id, { limit, text, ...(res ? { res } : {}) });
      };
      if (ref.stopped === undefined && n > 0) {
        const bounded = new Set<number>();
        let walkPages = refPages;
        const walkWith = async (limit: number): Promise<boolean> => {
          const w = await walkCollection(c, url, limit, `collection, limit ${limit}`, ta, { keep: 0 });
          judgePages(w);
          walkPages = Math.max(walkPages, w.pages.length);
          const stamps = new Set(w.pages.map((p) => JSON.stringify(p.lastUpdated ?? null)));
          // The data changed between pages: nothing to judge.
          if (stamps.size > 1) {
            releaseWalk(c, w);
            return true;
          }
          // The harness's own page bound stops a correct walk whose limit needs more pages.
          if (
            w.stopped !== undefined &&
            /walk\.maxPages/.test(w.stopped) &&
            Math.ceil(n / limit) >= c.profile.walk.maxPages
          ) {
            bounded.add(limit);
            releaseWalk(c, w);
            return true;
          }
          const before = problems.size;
          const long = w.pages.find((p) => p.ids.length > limit);
          if (long)
            note(
              "FED-COLL-LIMIT",
              limit,
              `a page holds ${long.ids.length} entities for limit ${limit}`,
              long.res,
            );
          if (w.stopped !== undefined)
            note(
              /came back/.test(w.stopped) ? "FED-COLL-WALK-ONCE" : "FED-COLL-NEXT-REQUIRED",
              limit,
              w.stopped,
            );
          // Linear in the walk: a Set of what it listed, not a search of the list per entity.
          const listed = new Set<string>();
          let twice: string | undefined;
          for (const x of w.ids) {
            if (listed.has(x)) twice ??= x;
            else listed.add(x);
          }
          if (twice !== undefined) note("FED-COLL-WALK-ONCE", limit, `${twice} listed twice`);
          let missing = 0;
          let firstMissing: string | undefined;
          for (const x of known)
            if (!listed.has(x)) {
              missing++;
              firstMissing ??= x;
            }
          if (missing > 0 && w.stopped === undefined)
            note(
              "FED-COLL-NEXT-REQUIRED",
              limit,
              `${missing} of ${n} never reached (the first ${firstMissing})`,
              w.pages[w.pages.length - 1]?.res,
            );
          // Judged: the pages it cites were kept as evidence by the walk; the others are freed.
          releaseWalk(c, w);
          return problems.size === before;
        };
        // Generated limits keep every walk within the check's page budget: in a large collection
        // the smallest is n / (pages a walk may take), not 1 (walk.ts smallestLimit); a small one
        // keeps limits 1 and 2 first.
        const asked = c.profile.walk.runs;
        const lo = smallestLimit(c, n, asked + 2);
        if (lo > 1)
          c.note(
            `${n} entities: limits start at ${lo}, so that ${asked + 2} walks stay within ${PROPERTY_PAGES} pages and suites.federation.walk.maxPages`,
          );
        for (const limit of [lo, lo + 1]) await walkWith(limit);
        // A target's own page size may hold a walk above those pages whatever the limit (100,000
        // entities at 100 a page: 1,000 pages a walk): then fewer generated limits keep the budget.
        const runs = Math.max(1, Math.min(asked, Math.floor(PROPERTY_PAGES / Math.max(1, walkPages)) - 2));
        if (runs < asked)
          c.note(
            `a walk took ${walkPages} pages: ${runs} generated limits of ${asked} (suites.federation.walk.runs), within ${PROPERTY_PAGES} pages`,
          );
        const out = await fc.check(
          fc.asyncProperty(fc.integer({ min: lo, max: Math.max(lo, n + 1) }), walkWith),
          { seed: c.seed, numRuns: runs },
        );
        rethrowControl(out);
        if (bounded.size > 0)
          for (const id of ["FED-COLL-NEXT-REQUIRED", "FED-COLL-WALK-ONCE"])
            c.partly(
              id,
              `walks with limit ${[...bounded].sort((a, b) => a - b).join(", ")} need more than suites.federation.walk.maxPages pages`,
            );
        for (const [id, expected] of [
          ["FED-COLL-LIMIT", "no page longer than limit"],
          ["FED-COLL-NEXT-REQUIRED", "every entity reached by the walk"],
          ["FED-COLL-WALK-ONCE", "no entity listed twice"],
        ] as const) {
          const p = problems.get(id);
          c.check(id, p === undefined, {
            expected,
            actual: p ? `limit ${p.limit}: ${p.text} (seed ${c.seed})` : "",
            ...(p?.res ? { res: p.res } : {}),
          });
        }
      } else
        for (const id of ["FED-COLL-LIMIT", "FED-COLL-NEXT-REQUIRED", "FED-COLL-WALK-ONCE"])
          c.skipOnly(
            id,
            n === 0 ? "the collection is empty: nothing to page" : "the walk without limit did not end",
            n === 0 ? "other" : "dependency",
          );
      if (upper !== undefined) pageRules.upper.decide();
      pageRules.id.decide();
      pageRules.stamp.decide();
    },
  }),
  defineCheck<FederationProfile>({
    id: "federation.collection-errors",
    title:
      "the collection answers a from it never issued with page_not_found and an unknown trust_anchor with invalid_trust_anchor",
    requirements: ["FED-COLL-FROM-UNKNOWN", "FED-COLL-TA-UNKNOWN"],
    async run(c) {
      const f = new Fed(c);
      await f.trusted();
      const url = await f.endpoint("federation_collection_endpoint");
      // A non-anchor answers an empty result without trust_anchor (Rules 2), whatever from says:
      // an unknown from is asked under the anchor above it, where there is a collection to page.
      // An unknown trust_anchor needs no anchor: it is judged even when none is reached.
      const coll = await findCollectingAnchor(c, f);
      if (coll === undefined) c.skipOnly("FED-COLL-FROM-UNKNOWN", NO_ANCHOR, "dependency");
      const ta = coll?.params ?? [];
      const tag = c.runId.slice(-6);
      for (const [id, param, value, code] of [
        ["FED-COLL-FROM-UNKNOWN", "from", `idconform-${tag}-never-issued`, "page_not_found"],
        [
          "FED-COLL-TA-UNKNOWN",
          "trust_anchor",
          `https://anchor-${tag}.invalid/unknown`,
          "invalid_trust_anchor",
        ],
      ] as const) {
        if (coll === undefined && param === "from") continue;
        const res = await c.http.get(withQuery(url, [...(param === "from" ? ta : []), [param, value]]), {
          label: `collection, unknown ${param}`,
          tags: [TAG.collection],
        });
        const problem = refusalProblem(res, [code], { expected: `an error ${code}`, clientError: true });
        c.check(id, problem === undefined, problem);
      }
    },
  }),
];
