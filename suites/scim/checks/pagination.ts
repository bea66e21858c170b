import fc from "fast-check";
import { rethrowControl } from "../../../src/engine/property.js";
import { defineCheck, type CheckContext } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { ScimProfile } from "../profile.js";
import { resources, ScimClient, URN } from "../scim-client.js";

interface Walk {
  readonly ids: string[];
  /** The first rule a page broke, if any. */
  readonly problem?: string;
}

/**
 * Walks /Users pages for one filter, by startIndex or by cursor (RFC 9865), bounded to
 * `maxPages`; any broken page rule ends the walk with a problem, never a throw.
 */
async function walk(
  s: ScimClient,
  filter: string,
  o: { count: number; startIndex?: number; cursor?: boolean; expectTotal: number; maxPages: number },
): Promise<Walk> {
  const ids: string[] = [];
  let start = o.startIndex ?? 1;
  let cursor: string | undefined = o.cursor ? "" : undefined;
  let total: number | undefined;
  const seenCursors = new Set<string>();
  for (let page = 1; page <= o.maxPages; page++) {
    const where = cursor !== undefined ? `cursor=${encodeURIComponent(cursor)}` : `startIndex=${start}`;
    const res = await s.call("GET", `/Users?filter=${encodeURIComponent(filter)}&${where}&count=${o.count}`, {
      label: `page ${page} (${where}, count ${o.count})`,
    });
    const list = resources(res);
    const body = res.json as
      | {
          schemas?: unknown;
          totalResults?: unknown;
          itemsPerPage?: unknown;
          startIndex?: unknown;
          nextCursor?: unknown;
        }
      | undefined;
    if (res.status !== 200 || list === undefined)
      return { ids, problem: `page ${page} answered ${res.status} ${res.text.slice(0, 160)}` };
    if (!Array.isArray(body?.schemas) || !body.schemas.includes(URN.list))
      return {
        ids,
        problem: `page ${page} is not a ListResponse (schemas ${quote(body?.schemas)})`,
      };
    if (typeof body.totalResults !== "number") return { ids, problem: `page ${page} has no totalResults` };
    if (total !== undefined && body.totalResults !== total)
      return { ids, problem: `totalResults changed from ${total} to ${body.totalResults} on page ${page}` };
    total = body.totalResults;
    if (total !== o.expectTotal)
      return { ids, problem: `totalResults ${total}, but ${o.expectTotal} users match the filter` };
    if (list.length > o.count)
      return { ids, problem: `page ${page} holds ${list.length} resources for count=${o.count}` };
    if (typeof body.itemsPerPage === "number" && body.itemsPerPage !== list.length)
      return { ids, problem: `page ${page}: itemsPerPage ${body.itemsPerPage} but ${list.length} resources` };
    ids.push(...list.map((r) => String(r.id)));
    if (cursor !== undefined) {
      if (typeof body.nextCursor !== "string" || body.nextCursor === "") return { ids };
      if (seenCursors.has(body.nextCursor))
        return { ids, problem: `nextCursor ${body.nextCursor} came back: a cycle` };
      seenCursors.add(body.nextCursor);
      cursor = body.nextCursor;
    } else {
      if (typeof body.startIndex === "number" && body.startIndex !== start)
        return { ids, problem: `page ${page}: startIndex ${body.startIndex}, asked ${start}` };
      if (list.length === 0 || start + list.length > total) return { ids };
      start += list.length;
    }
  }
  return { ids, problem: `more than ${o.maxPages} pages: runaway pagination` };
}

const describeIds = (ids: readonly string[], all: readonly string[]): string =>
  ids.map((id) => `#${all.indexOf(id) + 1}`).join(" ");

/** Creates the check's users, all sharing one extra email so one required filter selects exactly them. */
async function withUsers(
  c: CheckContext<ScimProfile>,
  what: string,
  body: (s: ScimClient, filter: string, ids: string[]) => Promise<void>,
): Promise<void> {
  const s = new ScimClient(c);
  const shared = `${s.name(what)}@pages.example.test`;
  const ids: string[] = [];
  try {
    for (let i = 0; i < c.profile.pagination.users; i++) {
      const u = s.user();
      const { res, id } = await s.createUser({
        ...u,
        emails: [...(u.emails as object[]), { value: shared, type: "other" }],
      });
      if (id === undefined)
        return c.skip(`creating user ${i + 1} answered ${res.status}: see SCIM-USER-CREATE`, "dependency");
      ids.push(id);
    }
    await body(s, `emails[value eq "${shared}"]`, ids);
  } finally {
    for (const id of ids) await s.remove("Users", id);
  }
}

/** specs/002 area C Endpoints (GET /Users MUST support pagination), property-based. */
export const paginationChecks = [
  defineCheck<ScimProfile>({
    id: "scim.list-pagination",
    title:
      "for generated count and startIndex, walking /Users pages yields each user once, in one order, never more than count",
    requirements: ["SCIM-LIST-RESPONSE", "SCIM-LIST-PAGINATION"],
    async run(c) {
      await withUsers(c, "pages", async (s, filter, created) => {
        const n = created.length;
        const ref = await walk(s, filter, { count: n, expectTotal: n, maxPages: 2 });
        if (ref.problem?.startsWith("page 1 answered 400"))
          return c.skip(`the filter ${filter} is refused: see SCIM-USER-FILTER-EMAIL`, "dependency");
        c.require("SCIM-LIST-RESPONSE", ref.problem === undefined, {
          expected: "a ListResponse with totalResults, Resources, startIndex, itemsPerPage",
          actual: ref.problem ?? "",
        });
        c.require(
          "SCIM-LIST-PAGINATION",
          ref.ids.length === n && created.every((id) => ref.ids.includes(id)),
          {
            expected: `one page of all ${n} users`,
            actual: `${ref.ids.length} listed`,
          },
        );
        let last: string | undefined;
        const property = fc.asyncProperty(
          fc.integer({ min: 1, max: n + 1 }),
          fc.integer({ min: 1, max: Math.min(3, n) }),
          async (count, startIndex) => {
            const w = await walk(s, filter, { count, startIndex, expectTotal: n, maxPages: n + 3 });
            const want = ref.ids.slice(startIndex - 1);
            const same = w.ids.length === want.length && w.ids.every((id, i) => id === want[i]);
            last =
              w.problem ??
              (same
                ? undefined
                : `listed ${describeIds(w.ids, ref.ids)} instead of ${describeIds(want, ref.ids)} (users numbered in the one-page order)`);
            return last === undefined;
          },
        );
        const out = await fc.check(property, { seed: c.seed, numRuns: c.profile.pagination.runs });
        rethrowControl(out);
        c.check("SCIM-LIST-PAGINATION", !out.failed, {
          expected: "every walk lists each user once, in the same order, never more than count per page",
          actual: out.failed
            ? `count=${out.counterexample?.[0]}, startIndex=${out.counterexample?.[1]}: ${last ?? "the walk failed"} (seed ${c.seed}, replay with --seed ${c.seed})`
            : "",
        });
      });
    },
  }),
  defineCheck<ScimProfile>({
    id: "scim.list-cursor",
    title: "when ServiceProviderConfig offers cursor pagination, walking nextCursor yields each user once",
    requirements: ["SCIM-LIST-CURSOR"],
    async run(c) {
      const spc = await new ScimClient(c).call("GET", "/ServiceProviderConfig", {
        label: "ServiceProviderConfig",
      });
      const offered =
        (spc.json as { pagination?: { cursor?: unknown } } | undefined)?.pagination?.cursor === true;
      if (!offered)
        return c.skip("not offered: ServiceProviderConfig does not set pagination.cursor", "not-offered");
      await withUsers(c, "cursor", async (s, filter, created) => {
        const n = created.length;
        const plain = await s.call("GET", `/Users?filter=${encodeURIComponent(filter)}&count=1`, {
          label: "filter without cursor",
        });
        if (plain.status === 400)
          return c.skip(`the filter ${filter} is refused: see SCIM-USER-FILTER-EMAIL`, "dependency");
        for (const count of [1, 2, n]) {
          const w = await walk(s, filter, { count, cursor: true, expectTotal: n, maxPages: n + 3 });
          const once =
            created.every((id) => w.ids.filter((x) => x === id).length === 1) && w.ids.length === n;
          c.check("SCIM-LIST-CURSOR", w.problem === undefined && once, {
            expected: `count=${count}: each of the ${n} users once`,
            actual: w.problem ?? `${w.ids.length} listed: ${describeIds(w.ids, created)}`,
          });
        }
      });
    },
  }),
];
