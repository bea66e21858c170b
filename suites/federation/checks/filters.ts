import fc from "fast-check";
import { defineCheck, type Details } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { HttpResponse } from "../../../src/http/client.js";
import type { FederationProfile } from "../profile.js";
import { Fed, type Ctx } from "../client.js";
import { TAG } from "../observers.js";
import { isObject, type Json } from "../statements.js";
import {
  declaredTypes,
  MarkJudge,
  subordinateConfigurations,
  type SubordinateConfigurations,
} from "../subordinates.js";
import { walkExtendedList } from "../walk.js";
import { baseList, getList, listJson, listMaxBytes, withQuery } from "./fetch-list.js";

/** Most filter values tried: a hostile federation may declare any number of types. */
const MAX_VALUES = 20;
/** Longest filter value sent (an Entity Type or Trust Mark type identifier is short). */
const MAX_VALUE_CHARS = 512;
const sendable = (v: string): boolean => v.length > 0 && v.length <= MAX_VALUE_CHARS;

/** A refusal the base list allows for a filter it does not support: 400 with error unsupported_parameter. */
export function refusedUnsupported(res: HttpResponse): boolean {
  return res.status === 400 && isObject(res.json) && res.json.error === "unsupported_parameter";
}

/** The walk without filters: the Immediate Subordinates a filter chooses among. Skips when it does not end. */
async function unfiltered(c: Ctx, url: string): Promise<string[]> {
  const w = await walkExtendedList(c, url, { label: "extended list" });
  if (w.stopped !== undefined)
    c.skip(
      `the extended list without filters did not walk to its end (${w.stopped}): see FED-XL-WALK-ONCE`,
      "dependency",
    );
  return [...new Set(w.ids)];
}

/** Says what of `id` could not be judged because some Entity Configurations were not read. */
function partlyRead(c: Ctx, id: string, ecs: SubordinateConfigurations): void {
  if (ecs.beyond > 0)
    c.partly(
      id,
      `judged on the first ${ecs.read.size + ecs.unread.length} subordinates; ${ecs.beyond} more not read (suites.federation.walk.fetchMax)`,
    );
  if (ecs.unread.length > 0)
    c.partly(
      id,
      `${ecs.unread.length} subordinate(s) not judged, their Entity Configuration unusable (the first ${ecs.unread[0]!.id}: ${ecs.unread[0]!.why})`,
    );
}

/**
 * The value sets a filter is asked with: each value alone, all of them at once (repeated), and
 * generated subsets of two or more (fixed seed, `walk.runs` of them).
 */
function valueSets(c: Ctx, values: readonly string[]): string[][] {
  const out = new Map<string, string[]>();
  const add = (v: readonly string[]): void => {
    const s = [...new Set(v)].sort();
    if (s.length > 0) out.set(JSON.stringify(s), s);
  };
  for (const v of values) add([v]);
  if (values.length >= 2) {
    add(values);
    for (const s of fc.sample(
      fc.subarray([...values], { minLength: 2, maxLength: Math.min(3, values.length) }),
      {
        seed: c.seed,
        numRuns: c.profile.walk.runs,
      },
    ))
      add(s);
  }
  return [...out.values()];
}

const listLabel = (name: string, values: readonly string[]): string =>
  values.map((v) => `${name}=${v.length > 60 ? `${v.slice(0, 60)}…` : v}`).join("&");

/** What a filtered walk holds against what the filter should choose: the extra and the missing ids. */
function compare(
  got: readonly string[],
  all: ReadonlySet<string>,
  judged: ReadonlySet<string>,
  chosen: ReadonlySet<string>,
): { extra: string[]; missing: string[] } {
  const have = new Set(got);
  // An entry the unfiltered list does not name is never right; an unjudged one is left alone.
  const extra = [...have].filter((id) => !all.has(id) || (judged.has(id) && !chosen.has(id)));
  const missing = [...chosen].filter((id) => !have.has(id));
  return { extra, missing };
}

/** Judges every request made: each with what was wrong with its answer (none: met). */
async function judgeAll(c: Ctx, id: string, requests: readonly Details[][], what: string): Promise<void> {
  await c.each(id, requests, what, (ps) =>
    ps.length === 0 ? undefined : { ...ps[0]!, actual: ps.map((p) => p.actual).join("; ") },
  );
}

const some = (ids: readonly string[]): string => ids.slice(0, 3).join(", ") + (ids.length > 3 ? ", …" : "");

/**
 * Whether an Entity Configuration shows an Intermediate: Trust Anchors and Intermediates publish
 * federation_fetch_endpoint and federation_list_endpoint (public-spec-facts §2), an entity
 * without subordinates neither. One with only one of them is left unjudged.
 */
function intermediateKind(ec: Json): "intermediate" | "leaf" | "unknown" {
  const metadata = isObject(ec.metadata) ? ec.metadata : {};
  const fe = isObject(metadata.federation_entity) ? metadata.federation_entity : {};
  const fetch = typeof fe.federation_fetch_endpoint === "string";
  const list = typeof fe.federation_list_endpoint === "string";
  return fetch && list ? "intermediate" : !fetch && !list ? "leaf" : "unknown";
}

/**
 * One base list request with a boolean filter, judged against what it should choose among the
 * unfiltered list's ids (`all`): every `chosen` one, and none of the other `judged` ones.
 */
async function judgeListFilter(
  c: Ctx,
  id: string,
  listUrl: string,
  name: string,
  sets: { all: ReadonlySet<string>; judged: ReadonlySet<string>; chosen: ReadonlySet<string> },
  what: string,
): Promise<void> {
  const label = `${name}=true`;
  const res = await getList(c, withQuery(listUrl, [[name, "true"]]), { label: `base list, ${label}` });
  if ("over" in res)
    return void c.check(id, false, {
      expected: `the base list with ${label}: a JSON array of Entity Identifier strings`,
      actual: res.over,
      kind: "malformed",
    });
  if (refusedUnsupported(res))
    return c.skipOnly(
      id,
      `not offered: the base list refuses ${name} with 400 unsupported_parameter`,
      "not-offered",
    );
  if (res.status !== 200)
    return c.skipOnly(
      id,
      `the base list with ${label} answered ${res.status}: see FED-LIST-FILTER-REFUSED`,
      "dependency",
    );
  const read = listJson(c, res);
  const got = Array.isArray(read.json) ? (read.json as unknown[]) : undefined;
  if (got === undefined || !got.every((x) => typeof x === "string"))
    return void c.check(id, false, {
      expected: `the base list with ${label}: a JSON array of Entity Identifier strings`,
      actual: read.error ?? quote(read.json ?? null, 200),
      res,
      kind: "malformed",
    });
  const { extra, missing } = compare(got as string[], sets.all, sets.judged, sets.chosen);
  c.check(id, extra.length === 0 && missing.length === 0, {
    expected: `${label}: every Immediate Subordinate with ${what}, and no other`,
    actual: [
      extra.length > 0 ? `${extra.length} listed without (${some(extra)})` : "",
      missing.length > 0 ? `${missing.length} with it left out (${some(missing)})` : "",
    ]
      .filter(Boolean)
      .join("; "),
    res,
    kind: extra.length > 0 ? "accepted" : "missing",
  });
}

/**
 * specs/001 Endpoints: Extended subordinate listing (the base list's parameters, entity_type and
 * trust_mark_type in use); public-spec-facts §2 List (the filters, 400 unsupported_parameter).
 */
export const filterChecks = [
  defineCheck<FederationProfile>({
    id: "federation.xl-entity-type",
    title:
      "with entity_type (repeated for several) the extended list holds exactly the Immediate Subordinates whose own Entity Configuration declares one of the types, the same as the base list asked the same way, or both refuse with 400 unsupported_parameter",
    requirements: ["FED-XL-ENTITY-TYPE"],
    timeoutMs: 120_000,
    async run(c) {
      const f = new Fed(c);
      await f.trusted();
      const url = await f.endpoint("federation_extended_list_endpoint");
      const listUrl = await f.endpoint("federation_list_endpoint");
      const ids = await unfiltered(c, url);
      const ecs = await subordinateConfigurations(c, ids);
      const types = [...new Set([...ecs.read.values()].flatMap(declaredTypes))]
        .filter(sendable)
        .sort()
        .slice(0, MAX_VALUES);
      if (types.length === 0)
        return c.skip(
          "no listed subordinate's Entity Configuration declares an Entity Type to filter by",
          "other",
        );
      const all = new Set(ids);
      const judged = new Set(ecs.read.keys());
      const requests: Details[][] = [];
      for (const set of valueSets(c, types)) {
        const problems: Details[] = [];
        requests.push(problems);
        const params = set.map((t) => ["entity_type", t] as const);
        const label = listLabel("entity_type", set);
        const w = await walkExtendedList(c, url, { label: `extended list, ${label}`, params });
        const got = await getList(c, withQuery(listUrl, params), { label: `base list, ${label}` });
        if ("over" in got) {
          problems.push({
            expected: `${label}: the base list answers 200 with a JSON array of Entity Identifiers, within ${listMaxBytes(c)} bytes`,
            actual: got.over,
            kind: "malformed",
          });
          continue;
        }
        const base = got;
        const baseJson = listJson(c, base);
        const baseIds =
          base.status === 200 &&
          Array.isArray(baseJson.json) &&
          (baseJson.json as unknown[]).every((x) => typeof x === "string")
            ? (baseJson.json as string[])
            : undefined;
        const xlRefused =
          w.pages[0] !== undefined && w.pages[0].shape !== undefined && refusedUnsupported(w.pages[0].res);
        if (xlRefused || refusedUnsupported(base)) {
          if (!(xlRefused && refusedUnsupported(base)))
            problems.push({
              expected:
                "the extended list and the base list both answer, or both refuse with 400 unsupported_parameter",
              actual: `${label}: the ${xlRefused ? "extended list" : "base list"} refuses it, the ${xlRefused ? "base list" : "extended list"} answers ${xlRefused ? base.status : w.pages[0]?.res.status}`,
              res: xlRefused ? base : w.pages[0]!.res,
              kind: "wrong-value",
            });
          continue;
        }
        if (w.stopped !== undefined) {
          problems.push({
            expected: `the extended list with ${label} walked to its end`,
            actual: w.stopped,
            ...(w.stoppedAt ? { res: w.stoppedAt } : {}),
            kind: /answered/.test(w.stopped) ? "wrong-status" : "wrong-value",
          });
          continue;
        }
        const chosen = new Set(
          [...ecs.read].filter(([, ec]) => declaredTypes(ec).some((t) => set.includes(t))).map(([id]) => id),
        );
        const { extra, missing } = compare(w.ids, all, judged, chosen);
        if (extra.length > 0 || missing.length > 0)
          problems.push({
            expected: `${label}: exactly the subordinates whose Entity Configuration declares ${set.length > 1 ? "one of these types" : "the type"}`,
            actual: [
              extra.length > 0 ? `${extra.length} listed that declare none (${some(extra)})` : "",
              missing.length > 0 ? `${missing.length} left out that declare one (${some(missing)})` : "",
            ]
              .filter(Boolean)
              .join("; "),
            res: w.pages[0]!.res,
            kind: missing.length > 0 ? "missing" : "wrong-value",
          });
        // A base list that answers no list of identifiers is FED-LIST-OK's: the comparison is not made.
        if (baseIds === undefined)
          c.partly(
            "FED-XL-ENTITY-TYPE",
            `${label}: the base list answered ${base.status}, not a JSON array of identifiers (see FED-LIST-OK): not compared with it`,
            "dependency",
          );
        else {
          const xl = new Set(w.ids);
          const b = new Set(baseIds);
          const onlyBase = [...b].filter((x) => !xl.has(x));
          const onlyXl = [...xl].filter((x) => !b.has(x));
          if (onlyBase.length > 0 || onlyXl.length > 0)
            problems.push({
              expected: `${label}: the extended list names the entities the base list names`,
              actual: `${onlyXl.length} only in the extended list (${some(onlyXl)}), ${onlyBase.length} only in the base list (${some(onlyBase)})`,
              res: base,
              kind: "wrong-value",
            });
        }
      }
      await judgeAll(c, "FED-XL-ENTITY-TYPE", requests, "entity_type request");
      partlyRead(c, "FED-XL-ENTITY-TYPE", ecs);
    },
  }),
  defineCheck<FederationProfile>({
    id: "federation.xl-trust-mark-type",
    title:
      "with trust_mark_type (repeated for several) the extended list holds every Immediate Subordinate whose Entity Configuration has a Trust Mark of one listed type that verifies with its issuer's key and is unexpired, and no other",
    requirements: ["FED-XL-TRUST-MARK-TYPE"],
    timeoutMs: 120_000,
    async run(c) {
      const f = new Fed(c);
      await f.trusted();
      const url = await f.endpoint("federation_extended_list_endpoint");
      const ids = await unfiltered(c, url);
      const ecs = await subordinateConfigurations(c, ids);
      const types = [...new Set([...ecs.read.values()].flatMap((ec) => MarkJudge.typesListed(ec)))]
        .filter(sendable)
        .sort()
        .slice(0, MAX_VALUES);
      if (types.length === 0)
        return c.skip(
          "no listed subordinate's Entity Configuration has a Trust Mark with a trust_mark_type to filter by",
          "other",
        );
      const judge = new MarkJudge(c);
      const holdings = new Map<string, Awaited<ReturnType<MarkJudge["holdings"]>>>();
      for (const [id, ec] of ecs.read) holdings.set(id, await judge.holdings(id, ec));
      const all = new Set(ids);
      const requests: Details[][] = [];
      let refused: HttpResponse | undefined;
      let answered = 0;
      const uncertain = new Set<string>();
      for (const set of valueSets(c, types)) {
        const params = set.map((t) => ["trust_mark_type", t] as const);
        const label = listLabel("trust_mark_type", set);
        const w = await walkExtendedList(c, url, { label: `extended list, ${label}`, params });
        const first = w.pages[0];
        if (first?.shape !== undefined && refusedUnsupported(first.res)) {
          refused ??= first.res;
          continue;
        }
        answered++;
        const problems: Details[] = [];
        requests.push(problems);
        if (w.stopped !== undefined) {
          problems.push({
            expected: `the extended list with ${label} walked to its end`,
            actual: w.stopped,
            ...(w.stoppedAt ? { res: w.stoppedAt } : {}),
            kind: /answered/.test(w.stopped) ? "wrong-status" : "wrong-value",
          });
          continue;
        }
        // An entity whose mark of a listed type could not be judged is left out of this request's judgement.
        const judged = new Set(
          [...holdings]
            .filter(([, h]) => set.some((t) => h.valid.has(t)) || !set.some((t) => h.uncertain.has(t)))
            .map(([id]) => id),
        );
        for (const id of holdings.keys()) if (!judged.has(id)) uncertain.add(id);
        const chosen = new Set(
          [...holdings].filter(([, h]) => set.some((t) => h.valid.has(t))).map(([id]) => id),
        );
        const { extra, missing } = compare(w.ids, all, judged, chosen);
        if (extra.length > 0 || missing.length > 0)
          problems.push({
            expected: `${label}: every subordinate with a verified, unexpired Trust Mark of ${set.length > 1 ? "one of these types" : "the type"}, and no other`,
            actual: [
              extra.length > 0 ? `${extra.length} listed without one (${some(extra)})` : "",
              missing.length > 0 ? `${missing.length} with one left out (${some(missing)})` : "",
            ]
              .filter(Boolean)
              .join("; "),
            res: first!.res,
            kind: extra.length > 0 ? "accepted" : "missing",
          });
      }
      if (answered === 0 && refused !== undefined)
        return c.skip(
          "not offered: the extended list refuses trust_mark_type with 400 unsupported_parameter",
          "not-offered",
        );
      if (refused !== undefined)
        requests.push([
          {
            expected: "trust_mark_type answered alike for every set of values, or refused for all",
            actual: "some requests with trust_mark_type answered, others refused with unsupported_parameter",
            res: refused,
            kind: "wrong-status",
          },
        ]);
      await judgeAll(c, "FED-XL-TRUST-MARK-TYPE", requests, "trust_mark_type request");
      partlyRead(c, "FED-XL-TRUST-MARK-TYPE", ecs);
      if (uncertain.size > 0)
        c.partly(
          "FED-XL-TRUST-MARK-TYPE",
          `${uncertain.size} subordinate(s) with a Trust Mark that could not be judged (issuer unreachable, or exp within the leeway), e.g. ${[...uncertain][0]}`,
        );
    },
  }),
  defineCheck<FederationProfile>({
    id: "federation.list-boolean-filters",
    title:
      "with trust_marked=true the base list names exactly the Immediate Subordinates holding a verified, unexpired Trust Mark, and with intermediate=true exactly the Intermediates (or refuses the filter with 400 unsupported_parameter)",
    requirements: ["FED-LIST-TRUST-MARKED", "FED-LIST-INTERMEDIATE"],
    timeoutMs: 120_000,
    async run(c) {
      const f = new Fed(c);
      await f.trusted();
      const listUrl = await f.endpoint("federation_list_endpoint");
      const ids = await baseList(c, f);
      if (ids === undefined) return c.skip("the base list is not a list: see FED-LIST-OK", "dependency");
      const ecs = await subordinateConfigurations(c, ids);
      const all = new Set(ids);
      // trust_marked: an entity whose marks could not all be judged (an issuer unreachable, an
      // element not {trust_mark_type, trust_mark}), and none verified, is left alone.
      const judge = new MarkJudge(c);
      const marked = { all, judged: new Set<string>(), chosen: new Set<string>() };
      const uncertain: string[] = [];
      for (const [id, ec] of ecs.read) {
        const h = await judge.holdings(id, ec);
        if (h.valid.size > 0) marked.chosen.add(id);
        const listed = Array.isArray(ec.trust_marks) ? ec.trust_marks.length : 0;
        const malformed = listed > MarkJudge.typesListed(ec).length;
        if (h.valid.size > 0 || (h.uncertain.size === 0 && !malformed)) marked.judged.add(id);
        else uncertain.push(id);
      }
      await judgeListFilter(
        c,
        "FED-LIST-TRUST-MARKED",
        listUrl,
        "trust_marked",
        marked,
        "a verified, unexpired Trust Mark",
      );
      partlyRead(c, "FED-LIST-TRUST-MARKED", ecs);
      if (uncertain.length > 0)
        c.partly(
          "FED-LIST-TRUST-MARKED",
          `${uncertain.length} subordinate(s) with a Trust Mark that could not be judged (not {trust_mark_type, trust_mark}, issuer unreachable, or exp within the leeway), e.g. ${uncertain[0]}`,
        );
      const kinds = { all, judged: new Set<string>(), chosen: new Set<string>() };
      for (const [id, ec] of ecs.read) {
        const k = intermediateKind(ec);
        if (k !== "unknown") kinds.judged.add(id);
        if (k === "intermediate") kinds.chosen.add(id);
      }
      await judgeListFilter(
        c,
        "FED-LIST-INTERMEDIATE",
        listUrl,
        "intermediate",
        kinds,
        "federation_fetch_endpoint and federation_list_endpoint (an Intermediate)",
      );
      partlyRead(c, "FED-LIST-INTERMEDIATE", ecs);
    },
  }),
  defineCheck<FederationProfile>({
    id: "federation.list-filter-refused",
    title:
      "the base list answers each of its filters (entity_type, trust_marked, trust_mark_type, intermediate) with a valid value, or refuses it with 400 unsupported_parameter",
    requirements: ["FED-LIST-FILTER-REFUSED"],
    async run(c) {
      const f = new Fed(c);
      const ec = await f.trusted();
      const listUrl = await f.endpoint("federation_list_endpoint");
      // A real Trust Mark type where the target names one (the anchor's trust_mark_issuers), else
      // one under the target's identifier: either is a well-formed value.
      const issuers = isObject(ec.payload.trust_mark_issuers)
        ? Object.keys(ec.payload.trust_mark_issuers)
        : [];
      const markType = issuers[0] ?? `${f.entityId.replace(/\/+$/, "")}/trust-marks/idconform`;
      // Each filter alone, and entity_type repeated (the base list takes several).
      const requests: (readonly (readonly [string, string])[])[] = [
        [["entity_type", "openid_relying_party"]],
        [
          ["entity_type", "openid_relying_party"],
          ["entity_type", "openid_provider"],
        ],
        [["trust_marked", "true"]],
        [["trust_mark_type", markType]],
        [["intermediate", "true"]],
      ];
      const answers: { name: string; res: HttpResponse }[] = [];
      for (const params of requests) {
        const name = listLabel(
          params[0]![0],
          params.map(([, v]) => v),
        );
        answers.push({
          name,
          res: await c.http.get(withQuery(listUrl, params), {
            label: `base list, ${name}`,
            tags: [TAG.list],
            // A filter that is not applied answers the whole list, large in a large federation.
            maxBytes: listMaxBytes(c),
          }),
        });
      }
      await c.each("FED-LIST-FILTER-REFUSED", answers, "filter", ({ name, res }) => {
        if (res.status === 200) return undefined;
        const error = isObject(res.json) ? res.json.error : undefined;
        return res.status === 400 && error === "unsupported_parameter"
          ? undefined
          : {
              expected: `${name} answered 200, or refused with 400 and error unsupported_parameter`,
              actual: `${res.status} error ${quote(error ?? null)}`,
              res,
              kind: res.status !== 400 ? "wrong-status" : error === undefined ? "missing" : "wrong-code",
            };
      });
    },
  }),
];
