import fc from "fast-check";
import { defineCheck, type Details } from "../../../src/engine/check.js";
import { rethrowControl } from "../../../src/engine/property.js";
import { quote } from "../../../src/engine/quote.js";
import type { HttpResponse } from "../../../src/http/client.js";
import type { FederationProfile } from "../profile.js";
import { Fed } from "../client.js";
import { TAG } from "../observers.js";
import { isObject, type Json } from "../statements.js";
import { PROPERTY_PAGES, releaseWalk, Tally, withoutBody } from "../walk.js";
import { collectingAnchor, readCollPage, walkCollection, type CollWalk } from "./collection.js";
import { withQuery } from "./fetch-list.js";
import { Federation, markProblem, publishedMarks, unexpired } from "./collection-entities.js";

/** One Entity Info object as a walk returned it, with the page that held it. */
interface Seen {
  readonly info: Json;
  readonly id: string;
  readonly res: HttpResponse;
}

/** One filtered walk: its parameters, and why it stopped before its end (its pages are judged and gone). */
interface Filtered {
  readonly values: readonly string[];
  readonly stopped?: string;
}

/** Filter values asked one at a time, and pairs of them asked together, at most. */
const MAX_SINGLE = 12;
const MAX_PAIRS = 4;

/** Free text for `query` that a regular expression or a LIKE pattern would choke on. */
const AWKWARD_QUERIES = ["(", "a[", "*", "+x", "?", "\\", "%", "_", ")(", "[a-", "{1", "'", '"', "é"];

const pairsOf = (xs: readonly string[]): [string, string][] =>
  xs
    .slice(0, MAX_PAIRS + 1)
    .flatMap((x, i) => (i + 1 < xs.length ? [[x, xs[i + 1]!] as [string, string]] : []))
    .slice(0, MAX_PAIRS);

/** True when the walk's first page refuses its parameter with unsupported_parameter (allowed by specs/001). */
const refused = (w: CollWalk): boolean => {
  const first = w.pages[0]?.res;
  return (
    first !== undefined &&
    first.status >= 400 &&
    first.status < 500 &&
    isObject(first.json) &&
    first.json.error === "unsupported_parameter"
  );
};

type Own = (s: Seen) => Promise<string[] | undefined>;

/** FED-COLL-ENTITY-TYPES: an array of type identifiers holding every type the entity declares. */
async function entityTypesProblem(s: Seen, own: Own): Promise<Details | undefined> {
  const given = s.info.entity_types;
  if (!Array.isArray(given) || !given.every((t) => typeof t === "string"))
    return {
      expected: "an array of Entity Type Identifiers",
      actual: `${quote(given, 120)} (${s.id})`,
      res: s.res,
      kind: "malformed",
    };
  const has = await own(s);
  const missing = (has ?? []).filter((t) => !given.includes(t));
  return missing.length === 0
    ? undefined
    : {
        expected: `every type ${s.id} declares: ${has!.join(", ")}`,
        actual: `entity_types ${quote(given)}, without ${missing.join(", ")}`,
        res: s.res,
        kind: "missing",
      };
}

/** FED-COLL-INFOS-SHAPE: an object of Entity Type Info objects keyed by the entity's own types. */
async function infosShapeProblem(s: Seen, own: Own): Promise<Details | undefined> {
  const infos = s.info.entity_infos;
  if (!isObject(infos))
    return { expected: "an object", actual: `${quote(infos, 120)} (${s.id})`, res: s.res, kind: "malformed" };
  const notObject = Object.entries(infos).find(([, v]) => !isObject(v));
  if (notObject)
    return {
      expected: "an Entity Type Info object for each type",
      actual: `${notObject[0]}: ${quote(notObject[1] ?? null, 80)} (${s.id})`,
      res: s.res,
      kind: "malformed",
    };
  const has = await own(s);
  const foreign = has === undefined ? [] : Object.keys(infos).filter((t) => !has.includes(t));
  return foreign.length === 0
    ? undefined
    : {
        expected: `members among the types ${s.id} declares: ${has!.join(", ")}`,
        actual: `entity_infos has ${foreign.join(", ")}`,
        res: s.res,
        kind: "wrong-value",
      };
}

/** FED-COLL-TRUST-MARKS: an array of objects with trust_mark_type and trust_mark strings. */
function trustMarksProblem(s: Seen): Details | undefined {
  const marks = s.info.trust_marks;
  const bad = Array.isArray(marks)
    ? marks.find(
        (m) =>
          !isObject(m) ||
          typeof m.trust_mark_type !== "string" ||
          typeof m.trust_mark !== "string" ||
          m.trust_mark === "",
      )
    : marks;
  return Array.isArray(marks) && bad === undefined
    ? undefined
    : {
        expected: "an array of objects with trust_mark_type and trust_mark strings",
        actual: `${Array.isArray(marks) ? `an element ${quote(bad ?? null, 120)}` : quote(marks, 120)} (${s.id})`,
        res: s.res,
        kind: "malformed",
      };
}

/** FED-COLL-TRUST-MARK-VERIFIED for one entity listed for trust_mark_type `values`. */
async function verifiedProblem(
  fed: Federation,
  anchor: string,
  r: Seen,
  values: readonly string[],
  marks: ReturnType<typeof publishedMarks>,
): Promise<Details | undefined> {
  if (values.length > 1 && !values.every((t) => marks.some((m) => m.type === t && unexpired(m))))
    return undefined;
  for (const t of values) {
    const ofType = marks.filter((m) => m.type === t);
    if (ofType.length === 0) continue;
    const why: string[] = [];
    for (const m of ofType) {
      const p = await markProblem(fed, anchor, r.id, m);
      if (p === undefined) break;
      why.push(p);
    }
    if (why.length === ofType.length)
      return {
        expected: `an entity whose Trust Mark of ${t} verifies for ${anchor}`,
        actual: `${r.id}: ${why[0]}`,
        res: r.res,
        kind: "accepted",
      };
  }
  return undefined;
}

/** specs/001 Entity Info object; Endpoints: Entity collection (entity_type, trust_mark_type, query). */
export const collectionFilterChecks = [
  defineCheck<FederationProfile>({
    id: "federation.collection-filters",
    title:
      "every Entity Info of every walk carries entity_types holding all of the entity's own types, entity_infos keyed by its types with object values, trust_marks as objects, and lies below the Trust Anchor; entity_type keeps entities of a requested type with infos of those types only; trust_mark_type keeps entities publishing a valid Trust Mark of every requested type, verified with its issuer's key",
    requirements: [
      "FED-COLL-ENTITY-TYPES",
      "FED-COLL-ENTITY-TYPES-PRESENT",
      "FED-COLL-INFOS-SHAPE",
      "FED-COLL-TRUST-MARKS",
      "FED-COLL-BELOW-ANCHOR",
      "FED-COLL-ENTITY-TYPE",
      "FED-COLL-INFOS-TYPES",
      "FED-COLL-TRUST-MARK-TYPE",
      "FED-COLL-TRUST-MARK-VERIFIED",
    ],
    timeoutMs: 180_000,
    async run(c) {
      const f = new Fed(c);
      const ec = await f.trusted();
      const url = await f.endpoint("federation_collection_endpoint");
      const coll = await collectingAnchor(c, f);
      const fed = new Federation(c);
      fed.adopt(f.entityId, ec);
      const max = c.profile.walk.fetchMax;
      const unfinished = new Map<string, string>();
      // The entities compared with their own Entity Configurations: the first walk.fetchMax the
      // walk without filters lists (filled as its pages are read).
      const judged = new Set<string>();
      const typesOf = async (id: string): Promise<string[] | undefined> =>
        judged.has(id) || fed.fetched < max ? fed.typesOf(id) : undefined;
      const marksOf = async (id: string) =>
        judged.has(id) || fed.fetched < max ? publishedMarks(await fed.configuration(id)) : undefined;
      const partlyIds = new Set<string>();
      const own = async (s: Seen): Promise<string[] | undefined> => {
        const t = await typesOf(s.id);
        if (t === undefined) partlyIds.add(s.id);
        return t;
      };
      // Every Entity Info of every walk is judged as its page is read, one tally per requirement
      // (as c.each decides), and dropped: a collection of 100,000 is never held, walk after walk.
      const rule = {
        present: new Tally(c, "FED-COLL-ENTITY-TYPES-PRESENT", "Entity Info"),
        types: new Tally(c, "FED-COLL-ENTITY-TYPES", "Entity Info with entity_types"),
        infos: new Tally(c, "FED-COLL-INFOS-SHAPE", "Entity Info with entity_infos"),
        marks: new Tally(c, "FED-COLL-TRUST-MARKS", "Entity Info with trust_marks"),
        type: new Tally(c, "FED-COLL-ENTITY-TYPE", "entity listed for entity_type"),
        infosTypes: new Tally(c, "FED-COLL-INFOS-TYPES", "Entity Info listed for entity_type"),
        markType: new Tally(c, "FED-COLL-TRUST-MARK-TYPE", "entity listed for trust_mark_type"),
        verified: new Tally(c, "FED-COLL-TRUST-MARK-VERIFIED", "entity listed for trust_mark_type"),
      };
      let withTypes = 0;
      let withInfos = 0;
      let withMarks = 0;
      // Each entity listed, with the page it was first seen on (FED-COLL-BELOW-ANCHOR).
      const firstSeen = new Map<string, HttpResponse>();
      const judgeInfo = async (s: Seen): Promise<void> => {
        if (s.id !== "" && !firstSeen.has(s.id)) firstSeen.set(s.id, s.res);
        rule.present.add(
          s.info.entity_types === undefined
            ? { expected: "entity_types", actual: `(absent) for ${s.id}`, res: s.res, kind: "missing" }
            : undefined,
        );
        if (s.info.entity_types !== undefined) {
          withTypes++;
          rule.types.add(await entityTypesProblem(s, own));
        }
        if (s.info.entity_infos !== undefined) {
          withInfos++;
          rule.infos.add(await infosShapeProblem(s, own));
        }
        if (s.info.trust_marks !== undefined) {
          withMarks++;
          rule.marks.add(trustMarksProblem(s));
        }
      };
      const walk = async (
        label: string,
        params: [string, string][],
        also?: (s: Seen) => Promise<void>,
        first?: (id: string) => Promise<void>,
      ): Promise<CollWalk> => {
        const w = await walkCollection(c, url, undefined, label, [...coll.params, ...params], {
          keep: 0,
          onPage: async (p, i) => {
            const res = i === 0 ? p.res : withoutBody(p.res);
            for (const [k, info] of p.entities.entries()) {
              const s: Seen = { info, id: p.ids[k] ?? "", res };
              await first?.(s.id);
              await judgeInfo(s);
              await also?.(s);
            }
          },
        });
        if (w.stopped !== undefined) unfinished.set(label, w.stopped);
        releaseWalk(c, w);
        return w;
      };

      // Only the first page of a walk is held past it (its entities are judged as read).
      const top = (w: CollWalk): CollWalk => ({ pages: w.pages.slice(0, 1), ids: [] });
      const ref = top(
        await walk("collection", [], undefined, async (id) => {
          // The entities judged against their own Entity Configurations, read before any other.
          if (judged.size < max && id !== "" && !judged.has(id)) {
            judged.add(id);
            await fed.configuration(id);
          }
        }),
      );
      if (ref.pages[0]?.shape !== undefined)
        return c.skip(`the collection ${ref.pages[0].shape}: see FED-COLL-OK`, "dependency");
      // entity_claims naming every optional Entity Info claim: entity_types must then be there
      // (and whole) as much as in the responder's default choice.
      const claimed = top(
        await walk(
          "collection, entity_claims entity_types, entity_infos and trust_marks",
          ["entity_types", "entity_infos", "trust_marks"].map((x) => ["entity_claims", x]),
        ),
      );
      if (refused(claimed))
        c.note("the collection refuses entity_claims with unsupported_parameter (allowed)");
      // Each judged entity's own Entity Configuration (read already as its Entity Info was judged).
      for (const id of judged) await fed.configuration(id);

      // entity_type: each type the entities declare, alone and in pairs (any of them).
      const allTypes = new Set<string>();
      const allMarks = new Set<string>();
      for (const id of judged) {
        for (const t of (await fed.typesOf(id)) ?? []) allTypes.add(t);
        for (const m of publishedMarks(await fed.configuration(id))) allMarks.add(m.type);
      }
      // The filtered walks share a page budget (walk.ts PROPERTY_PAGES): in a large collection
      // fewer filter values are asked, the first of each kind always, and a note says so.
      let spent = 0;
      const noted = new Set<string>();
      const within = (kind: string, done: number, of: number): boolean => {
        if (done === 0 || spent < PROPERTY_PAGES) return true;
        if (!noted.has(kind))
          c.note(
            `${kind}: ${done} of ${of} filter values asked, so that the filtered walks stay near ${PROPERTY_PAGES} pages`,
          );
        noted.add(kind);
        return false;
      };
      const types = [...allTypes].sort().slice(0, MAX_SINGLE);
      const typeWalks: Filtered[] = [];
      // A type no entity has, too: the answer must then list nothing.
      const noSuchType = `urn:idconform:${c.runId.slice(-6)}:no-such-type`;
      const typeValues = [...types.map((t) => [t]), ...pairsOf(types)];
      for (const values of [...typeValues, [noSuchType]]) {
        if (values[0] !== noSuchType && !within("entity_type", typeWalks.length, typeValues.length)) continue;
        const label = `collection, entity_type ${values.join(" and ")}`;
        const w = await walk(
          label,
          values.map((t) => ["entity_type", t]),
          async (r) => {
            const has = await typesOf(r.id);
            if (has === undefined) partlyIds.add(r.id);
            rule.type.add(
              has === undefined || has.some((t) => values.includes(t))
                ? undefined
                : {
                    expected: `an entity with type ${values.join(" or ")}`,
                    actual: `${r.id} declares ${has.join(", ") || "no type"}`,
                    res: r.res,
                    kind: "wrong-value",
                  },
            );
            const infos = r.info.entity_infos;
            const extra = isObject(infos)
              ? Object.keys(infos).filter((t) => !values.includes(t) && t !== "federation_entity")
              : [];
            rule.infosTypes.add(
              extra.length === 0
                ? undefined
                : {
                    expected: `entity_infos of ${values.join(", ")} (and federation_entity) only`,
                    actual: `${r.id}: entity_infos has ${extra.join(", ")}`,
                    res: r.res,
                    kind: "wrong-value",
                  },
            );
          },
        );
        spent += w.pages.length;
        if (refused(w)) {
          c.note("the collection refuses entity_type with unsupported_parameter (allowed)");
          break;
        }
        typeWalks.push({ values, ...(w.stopped !== undefined ? { stopped: w.stopped } : {}) });
      }
      // trust_mark_type: each type the entities publish, alone and in pairs (every one of them).
      const markTypes = [...allMarks].sort().slice(0, MAX_SINGLE);
      const markWalks: Filtered[] = [];
      const markValues = [...markTypes.map((t) => [t]), ...pairsOf(markTypes)];
      for (const values of markValues) {
        if (!within("trust_mark_type", markWalks.length, markValues.length)) break;
        const label = `collection, trust_mark_type ${values.join(" and ")}`;
        const w = await walk(
          label,
          values.map((t) => ["trust_mark_type", t]),
          async (r) => {
            const marks = await marksOf(r.id);
            if (marks === undefined) {
              // Counted as judged without a finding, and partly observed (partlyIds).
              partlyIds.add(r.id);
              rule.markType.add(undefined);
              rule.verified.add(undefined);
              return;
            }
            const lacking = values.filter((t) => !marks.some((m) => m.type === t && unexpired(m)));
            rule.markType.add(
              lacking.length === 0
                ? undefined
                : {
                    expected: `an entity whose Entity Configuration publishes an unexpired Trust Mark of ${values.join(" and ")}`,
                    actual: `${r.id} has none of ${lacking.join(", ")}${
                      lacking.some((t) => marks.some((m) => m.type === t)) ? " that is unexpired" : ""
                    }`,
                    res: r.res,
                    kind: "wrong-value",
                  },
            );
            // A single type: every listed entity that publishes a mark of it must hold one that
            // verifies. Several types: the entities that hold an unexpired mark of each (the
            // others are FED-COLL-TRUST-MARK-TYPE's finding) must hold verifying ones.
            rule.verified.add(await verifiedProblem(fed, coll.anchor, r, values, marks));
          },
        );
        spent += w.pages.length;
        if (refused(w)) {
          c.note("the collection refuses trust_mark_type with unsupported_parameter (allowed)");
          break;
        }
        markWalks.push({ values, ...(w.stopped !== undefined ? { stopped: w.stopped } : {}) });
      }
      // query: free text, matched as the responder likes, so only what it lists is judged here
      // (below the anchor, well-formed); every answer must be 200 or unsupported_parameter
      // (FED-COLL-UNSUPPORTED-PARAM, judged on every walk by its observer).
      const words = [...judged]
        .slice(0, 20)
        .map(
          (id) =>
            id
              .replace(/^https?:\/\//, "")
              .split("/")
              .pop() ?? "",
        )
        .filter((w) => w !== "")
        .map((w) => w.slice(0, 40));
      const queries = fc.oneof(
        fc.constantFrom(...AWKWARD_QUERIES),
        fc.constantFrom(...(words.length > 0 ? words : ["a"])),
        fc.string({ minLength: 1, maxLength: 12 }),
      );
      let queryRefused = false;
      const out = await fc.check(
        fc.asyncProperty(queries, async (q) => {
          if (queryRefused) return true;
          const label = `collection, query ${quote(q, 40)}`;
          const res = await c.http.get(withQuery(url, [...coll.params, ["query", q]]), {
            label,
            tags: [TAG.collection, TAG.collectionValid],
          });
          const page = readCollPage(res);
          const w: CollWalk = { pages: [page], ids: page.ids };
          if (refused(w)) {
            queryRefused = true;
            c.note("the collection refuses query with unsupported_parameter (allowed)");
            return true;
          }
          if (page.shape === undefined)
            for (const [k, info] of page.entities.entries())
              await judgeInfo({ info, id: page.ids[k] ?? "", res });
          return res.status === 200;
        }),
        { seed: c.seed, numRuns: Math.min(c.profile.walk.runs, 20) },
      );
      rethrowControl(out);
      if (out.failed && out.counterexample)
        c.note(
          `query ${quote(out.counterexample[0], 60)} is answered neither 200 nor unsupported_parameter (seed ${c.seed}; FED-COLL-UNSUPPORTED-PARAM)`,
        );

      rule.present.decide();
      if (withTypes === 0)
        c.skipOnly("FED-COLL-ENTITY-TYPES", "no Entity Info carries entity_types", "not-offered");
      else rule.types.decide();
      if (withInfos === 0)
        c.skipOnly("FED-COLL-INFOS-SHAPE", "no Entity Info carries entity_infos", "not-offered");
      else rule.infos.decide();
      if (withMarks === 0)
        c.skipOnly("FED-COLL-TRUST-MARKS", "no Entity Info carries trust_marks", "not-offered");
      else rule.marks.decide();

      // Every entity listed lies below the anchor collected under.
      const listed = firstSeen.size;
      const below = [...firstSeen.keys()].filter((id) => judged.has(id) || fed.fetched < max);
      let unknown = 0;
      await c.each("FED-COLL-BELOW-ANCHOR", below, "entity listed", async (id) =>
        (await fed.isBelow(id, coll.anchor)) || (fed.exhausted && ++unknown > 0)
          ? undefined
          : {
              expected: `an entity directly or indirectly below ${coll.anchor} (reached through its and its Intermediates' base lists)`,
              actual: `${id} is not`,
              res: firstSeen.get(id) ?? ref.pages[0]!.res,
              kind: "wrong-value",
            },
      );
      if (below.length - unknown < listed)
        c.partly(
          "FED-COLL-BELOW-ANCHOR",
          `judged for ${below.length - unknown} of ${listed} entities (${unknown > 0 ? fed.unknownWhy : "suites.federation.walk.fetchMax"})`,
        );

      // entity_type: every listed entity has one of the types; entity_infos only those types.
      if (typeWalks.length === 0) {
        for (const id of ["FED-COLL-ENTITY-TYPE", "FED-COLL-INFOS-TYPES"])
          c.skipOnly(
            id,
            types.length === 0 ? "no entity declares a type" : "entity_type is refused",
            "not-offered",
          );
      } else {
        rule.type.decide();
        rule.infosTypes.decide();
      }

      // trust_mark_type: a valid mark of every type (TYPE); the marks verify (VERIFIED).
      if (markWalks.length === 0) {
        for (const id of ["FED-COLL-TRUST-MARK-TYPE", "FED-COLL-TRUST-MARK-VERIFIED"])
          c.skipOnly(
            id,
            markTypes.length === 0 ? "no entity publishes a Trust Mark" : "trust_mark_type is refused",
            "not-offered",
          );
      } else {
        rule.markType.decide();
        rule.verified.decide();
      }
      const stopped = (ws: readonly Filtered[]): Filtered | undefined =>
        ws.find((w) => w.stopped !== undefined);
      for (const [ws, reqs] of [
        [typeWalks, ["FED-COLL-ENTITY-TYPE", "FED-COLL-INFOS-TYPES"]],
        [markWalks, ["FED-COLL-TRUST-MARK-TYPE", "FED-COLL-TRUST-MARK-VERIFIED"]],
      ] as const) {
        const w = stopped(ws);
        if (w)
          for (const id of reqs)
            c.partly(id, `the walk for ${w.values.join(" and ")} did not end: ${w.stopped!}`);
      }
      if (partlyIds.size > 0)
        for (const id of [
          "FED-COLL-ENTITY-TYPES",
          "FED-COLL-INFOS-SHAPE",
          "FED-COLL-ENTITY-TYPE",
          "FED-COLL-TRUST-MARK-TYPE",
          "FED-COLL-TRUST-MARK-VERIFIED",
        ])
          c.partly(
            id,
            `${partlyIds.size} entities' own Entity Configurations were not read or not usable (suites.federation.walk.fetchMax, or unverifiable)`,
          );
      for (const [label, why] of unfinished) c.note(`${label} did not end: ${why}`);
    },
  }),
];
