import fc from "fast-check";
import { defineCheck, type Details } from "../../../src/engine/check.js";
import { rethrowControl } from "../../../src/engine/property.js";
import { quote } from "../../../src/engine/quote.js";
import type { HttpResponse } from "../../../src/http/client.js";
import type { FederationProfile } from "../profile.js";
import { Fed } from "../client.js";
import { TAG } from "../observers.js";
import { isObject, type Json } from "../statements.js";
import { collectingAnchor, readCollPage, walkCollection, type CollWalk } from "./collection.js";
import { withQuery } from "./fetch-list.js";
import { Federation, markProblem, publishedMarks, unexpired } from "./collection-entities.js";

/** One Entity Info object as a walk returned it, with the page that held it. */
interface Seen {
  readonly info: Json;
  readonly id: string;
  readonly res: HttpResponse;
}

/** One filtered walk: its parameters and what it listed. */
interface Filtered {
  readonly values: readonly string[];
  readonly walk: CollWalk;
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
      const seen: Seen[] = [];
      const unfinished = new Map<string, string>();
      const keep = (w: CollWalk, label: string): void => {
        for (const p of w.pages)
          p.entities.forEach((info, i) => seen.push({ info, id: p.ids[i] ?? "", res: p.res }));
        if (w.stopped !== undefined) unfinished.set(label, w.stopped);
      };
      const walk = async (label: string, params: [string, string][]): Promise<CollWalk> =>
        walkCollection(c, url, undefined, label, [...coll.params, ...params]);

      const ref = await walk("collection", []);
      if (ref.pages[0]?.shape !== undefined)
        return c.skip(`the collection ${ref.pages[0].shape}: see FED-COLL-OK`, "dependency");
      keep(ref, "the walk without filters");
      // entity_claims naming every optional Entity Info claim: entity_types must then be there
      // (and whole) as much as in the responder's default choice.
      const claimed = await walk(
        "collection, entity_claims entity_types, entity_infos and trust_marks",
        ["entity_types", "entity_infos", "trust_marks"].map((x) => ["entity_claims", x]),
      );
      if (refused(claimed))
        c.note("the collection refuses entity_claims with unsupported_parameter (allowed)");
      else keep(claimed, "the walk with entity_claims");
      const ids = [...new Set(ref.ids)];
      // Each entity's own Entity Configuration, for the first walk.fetchMax entities.
      const judged = new Set(ids.slice(0, max));
      for (const id of judged) await fed.configuration(id);
      const typesOf = async (id: string): Promise<string[] | undefined> =>
        judged.has(id) || fed.fetched < max ? fed.typesOf(id) : undefined;

      // entity_type: each type the entities declare, alone and in pairs (any of them).
      const allTypes = new Set<string>();
      const allMarks = new Set<string>();
      for (const id of judged) {
        for (const t of (await fed.typesOf(id)) ?? []) allTypes.add(t);
        for (const m of publishedMarks(await fed.configuration(id))) allMarks.add(m.type);
      }
      const types = [...allTypes].sort().slice(0, MAX_SINGLE);
      const typeWalks: Filtered[] = [];
      // A type no entity has, too: the answer must then list nothing.
      const noSuchType = `urn:idconform:${c.runId.slice(-6)}:no-such-type`;
      for (const values of [...types.map((t) => [t]), ...pairsOf(types), [noSuchType]]) {
        const label = `collection, entity_type ${values.join(" and ")}`;
        const w = await walk(
          label,
          values.map((t) => ["entity_type", t]),
        );
        if (refused(w)) {
          c.note("the collection refuses entity_type with unsupported_parameter (allowed)");
          break;
        }
        keep(w, label);
        typeWalks.push({ values, walk: w });
      }
      // trust_mark_type: each type the entities publish, alone and in pairs (every one of them).
      const markTypes = [...allMarks].sort().slice(0, MAX_SINGLE);
      const markWalks: Filtered[] = [];
      for (const values of [...markTypes.map((t) => [t]), ...pairsOf(markTypes)]) {
        const label = `collection, trust_mark_type ${values.join(" and ")}`;
        const w = await walk(
          label,
          values.map((t) => ["trust_mark_type", t]),
        );
        if (refused(w)) {
          c.note("the collection refuses trust_mark_type with unsupported_parameter (allowed)");
          break;
        }
        keep(w, label);
        markWalks.push({ values, walk: w });
      }
      // query: free text, matched as the responder likes, so only what it lists is judged here
      // (below the anchor, well-formed); every answer must be 200 or unsupported_parameter
      // (FED-COLL-UNSUPPORTED-PARAM, judged on every walk by its observer).
      const words = ids
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
          if (page.shape === undefined) keep(w, label);
          return res.status === 200;
        }),
        { seed: c.seed, numRuns: Math.min(c.profile.walk.runs, 20) },
      );
      rethrowControl(out);
      if (out.failed && out.counterexample)
        c.note(
          `query ${quote(out.counterexample[0], 60)} is answered neither 200 nor unsupported_parameter (seed ${c.seed}; FED-COLL-UNSUPPORTED-PARAM)`,
        );

      // Every Entity Info of every walk: entity_types, entity_infos, trust_marks.
      const partlyIds = new Set<string>();
      const own = async (s: Seen): Promise<string[] | undefined> => {
        const t = await typesOf(s.id);
        if (t === undefined) partlyIds.add(s.id);
        return t;
      };
      await c.each("FED-COLL-ENTITY-TYPES-PRESENT", seen, "Entity Info", (s) =>
        s.info.entity_types === undefined
          ? { expected: "entity_types", actual: `(absent) for ${s.id}`, res: s.res, kind: "missing" }
          : undefined,
      );
      const withTypes = seen.filter((s) => s.info.entity_types !== undefined);
      if (withTypes.length === 0)
        c.skipOnly("FED-COLL-ENTITY-TYPES", "no Entity Info carries entity_types", "not-offered");
      else
        await c.each("FED-COLL-ENTITY-TYPES", withTypes, "Entity Info with entity_types", async (s) => {
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
        });
      const withInfos = seen.filter((s) => s.info.entity_infos !== undefined);
      if (withInfos.length === 0)
        c.skipOnly("FED-COLL-INFOS-SHAPE", "no Entity Info carries entity_infos", "not-offered");
      else
        await c.each("FED-COLL-INFOS-SHAPE", withInfos, "Entity Info with entity_infos", async (s) => {
          const infos = s.info.entity_infos;
          if (!isObject(infos))
            return {
              expected: "an object",
              actual: `${quote(infos, 120)} (${s.id})`,
              res: s.res,
              kind: "malformed",
            };
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
        });
      const withMarks = seen.filter((s) => s.info.trust_marks !== undefined);
      if (withMarks.length === 0)
        c.skipOnly("FED-COLL-TRUST-MARKS", "no Entity Info carries trust_marks", "not-offered");
      else
        await c.each("FED-COLL-TRUST-MARKS", withMarks, "Entity Info with trust_marks", (s) => {
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
        });

      // Every entity listed lies below the anchor collected under.
      const listed = [...new Set(seen.map((s) => s.id))].filter((id) => id !== "");
      const below = listed.filter((id) => judged.has(id) || fed.fetched < max);
      let unknown = 0;
      await c.each("FED-COLL-BELOW-ANCHOR", below, "entity listed", async (id) =>
        (await fed.isBelow(id, coll.anchor)) || (fed.exhausted && ++unknown > 0)
          ? undefined
          : {
              expected: `an entity directly or indirectly below ${coll.anchor} (reached through its and its Intermediates' base lists)`,
              actual: `${id} is not`,
              res: seen.find((s) => s.id === id)?.res ?? ref.pages[0]!.res,
              kind: "wrong-value",
            },
      );
      if (below.length - unknown < listed.length)
        c.partly(
          "FED-COLL-BELOW-ANCHOR",
          `judged for ${below.length - unknown} of ${listed.length} entities (${unknown > 0 ? fed.unknownWhy : "suites.federation.walk.fetchMax"})`,
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
        const rows = typeWalks.flatMap((w) =>
          w.walk.pages.flatMap((p) =>
            p.ids.map((id, i) => ({ id, values: w.values, res: p.res, info: p.entities[i]! })),
          ),
        );
        await c.each("FED-COLL-ENTITY-TYPE", rows, "entity listed for entity_type", async (r) => {
          const has = await typesOf(r.id);
          if (has === undefined) {
            partlyIds.add(r.id);
            return undefined;
          }
          return has.some((t) => r.values.includes(t))
            ? undefined
            : {
                expected: `an entity with type ${r.values.join(" or ")}`,
                actual: `${r.id} declares ${has.join(", ") || "no type"}`,
                res: r.res,
                kind: "wrong-value",
              };
        });
        await c.each("FED-COLL-INFOS-TYPES", rows, "Entity Info listed for entity_type", (r) => {
          const infos = r.info.entity_infos;
          if (!isObject(infos)) return undefined;
          const extra = Object.keys(infos).filter((t) => !r.values.includes(t) && t !== "federation_entity");
          return extra.length === 0
            ? undefined
            : {
                expected: `entity_infos of ${r.values.join(", ")} (and federation_entity) only`,
                actual: `${r.id}: entity_infos has ${extra.join(", ")}`,
                res: r.res,
                kind: "wrong-value",
              };
        });
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
        const rows = markWalks.flatMap((w) =>
          w.walk.pages.flatMap((p) => p.ids.map((id) => ({ id, values: w.values, res: p.res }))),
        );
        const marksOf = async (id: string) =>
          judged.has(id) || fed.fetched < max ? publishedMarks(await fed.configuration(id)) : undefined;
        await c.each("FED-COLL-TRUST-MARK-TYPE", rows, "entity listed for trust_mark_type", async (r) => {
          const marks = await marksOf(r.id);
          if (marks === undefined) {
            partlyIds.add(r.id);
            return undefined;
          }
          const lacking = r.values.filter((t) => !marks.some((m) => m.type === t && unexpired(m)));
          return lacking.length === 0
            ? undefined
            : {
                expected: `an entity whose Entity Configuration publishes an unexpired Trust Mark of ${r.values.join(" and ")}`,
                actual: `${r.id} has none of ${lacking.join(", ")}${
                  lacking.some((t) => marks.some((m) => m.type === t)) ? " that is unexpired" : ""
                }`,
                res: r.res,
                kind: "wrong-value",
              };
        });
        // A single type: every listed entity that publishes a mark of it must hold one that
        // verifies. Several types: the entities that hold an unexpired mark of each (the others
        // are FED-COLL-TRUST-MARK-TYPE's finding) must hold verifying ones.
        await c.each(
          "FED-COLL-TRUST-MARK-VERIFIED",
          rows,
          "entity listed for trust_mark_type",
          async (r): Promise<Details | undefined> => {
            const marks = await marksOf(r.id);
            if (marks === undefined) return undefined;
            if (
              r.values.length > 1 &&
              !r.values.every((t) => marks.some((m) => m.type === t && unexpired(m)))
            )
              return undefined;
            for (const t of r.values) {
              const ofType = marks.filter((m) => m.type === t);
              if (ofType.length === 0) continue;
              const why: string[] = [];
              for (const m of ofType) {
                const p = await markProblem(fed, coll.anchor, r.id, m);
                if (p === undefined) break;
                why.push(p);
              }
              if (why.length === ofType.length)
                return {
                  expected: `an entity whose Trust Mark of ${t} verifies for ${coll.anchor}`,
                  actual: `${r.id}: ${why[0]}`,
                  res: r.res,
                  kind: "accepted",
                };
            }
            return undefined;
          },
        );
      }
      const stopped = (ws: readonly Filtered[]): Filtered | undefined =>
        ws.find((w) => w.walk.stopped !== undefined);
      for (const [ws, reqs] of [
        [typeWalks, ["FED-COLL-ENTITY-TYPE", "FED-COLL-INFOS-TYPES"]],
        [markWalks, ["FED-COLL-TRUST-MARK-TYPE", "FED-COLL-TRUST-MARK-VERIFIED"]],
      ] as const) {
        const w = stopped(ws);
        if (w)
          for (const id of reqs)
            c.partly(id, `the walk for ${w.values.join(" and ")} did not end: ${w.walk.stopped!}`);
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
