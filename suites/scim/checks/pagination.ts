import fc from "fast-check";
import { rethrowControl } from "../../../src/engine/property.js";
import { defineCheck, type CheckContext } from "../../../src/engine/check.js";
import { quote } from "../../../src/engine/quote.js";
import type { HttpResponse } from "../../../src/http/client.js";
import { divergingPage, PageLog, walk, type WalkOptions } from "../list-walk.js";
import type { ScimProfile } from "../profile.js";
import { ScimClient } from "../scim-client.js";

/** A walk of /Users for one filter (the check's own users). */
const walkUsers = (
  s: ScimClient,
  filter: string,
  o: Omit<WalkOptions, "resource" | "query">,
): ReturnType<typeof walk> =>
  walk(s, { resource: "/Users", query: `filter=${encodeURIComponent(filter)}`, ...o });

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
      "for generated count and startIndex, walking /Users pages yields each user once, in one order, never more than count, and every page is a whole ListResponse",
    requirements: ["SCIM-LIST-RESPONSE", "SCIM-LIST-PAGINATION"],
    async run(c) {
      await withUsers(c, "pages", async (s, filter, created) => {
        const n = created.length;
        // Every index page of every walk is judged as a ListResponse (RFC 7644 §3.4.2), not the first.
        const log = new PageLog();
        const ref = await walkUsers(s, filter, { count: n, expectTotal: n, maxPages: 2, log });
        if (ref.problem?.startsWith("page 1 answered 400"))
          return c.skip(`the filter ${filter} is refused: see SCIM-USER-FILTER-EMAIL`, "dependency");
        c.require("SCIM-LIST-RESPONSE", ref.problem === undefined, {
          expected: "a ListResponse with totalResults and Resources, startIndex and itemsPerPage as asked",
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
        // Why each (count, startIndex) failed, and the page that shows it: shrinking runs later
        // walks, which may pass, so the reason and the evidence shown are those of the
        // counterexample it ends with, never of the last walk tried.
        const why = new Map<string, { problem: string; res: HttpResponse | undefined }>();
        const property = fc.asyncProperty(
          fc.integer({ min: 1, max: n + 1 }),
          fc.integer({ min: 1, max: n }),
          async (count, startIndex) => {
            const w = await walkUsers(s, filter, { count, startIndex, expectTotal: n, maxPages: n + 3, log });
            const want = ref.ids.slice(startIndex - 1);
            const same = w.ids.length === want.length && w.ids.every((id, i) => id === want[i]);
            const problem =
              w.problem ??
              (same
                ? undefined
                : `listed ${describeIds(w.ids, ref.ids)} instead of ${describeIds(want, ref.ids)} (users numbered in the one-page order)`);
            if (problem !== undefined)
              why.set(`${count},${startIndex}`, {
                problem,
                res: w.problem !== undefined ? w.pages[w.pages.length - 1]?.res : divergingPage(w, want),
              });
            return problem === undefined;
          },
        );
        const out = await fc.check(property, { seed: c.seed, numRuns: c.profile.pagination.runs });
        rethrowControl(out);
        const [count, startIndex] = out.counterexample ?? [];
        const failed = why.get(`${count},${startIndex}`);
        c.check("SCIM-LIST-PAGINATION", !out.failed, {
          expected: "every walk lists each user once, in the same order, never more than count per page",
          actual: out.failed
            ? `count=${count}, startIndex=${startIndex}: ${failed?.problem ?? `the walk threw ${quote(String(out.errorInstance), 200)}`} (seed ${c.seed}, replay with --seed ${c.seed})`
            : "",
          ...(failed?.res !== undefined ? { res: failed.res } : {}),
        });
        // A walk from just past the last user lists nobody (RFC 7644 §3.4.2.4: startIndex greater
        // than totalResults). startIndex 10 for the default 9 users, so a provider that misreads a
        // two-digit number shows. Walked apart from the generated ones, so that a provider that
        // wraps around does not cut their search for other counterexamples short.
        const past = await walkUsers(s, filter, {
          count: 2,
          startIndex: n + 1,
          expectTotal: n,
          maxPages: 3,
          log,
        });
        const pastPage = past.pages[past.pages.length - 1]?.res;
        c.check("SCIM-LIST-PAGINATION", past.problem === undefined && past.ids.length === 0, {
          expected: `startIndex=${n + 1}, past the last of the ${n} users: no user listed (RFC 7644 §3.4.2.4)`,
          actual:
            past.problem ?? `listed ${describeIds(past.ids, ref.ids)} (users numbered in the one-page order)`,
          ...(pastPage !== undefined ? { res: pastPage } : {}),
        });
        await c.each("SCIM-LIST-RESPONSE", log.pages, "pages", (p) => p.violation);
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
          const w = await walkUsers(s, filter, { count, cursor: true, expectTotal: n, maxPages: n + 3 });
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
