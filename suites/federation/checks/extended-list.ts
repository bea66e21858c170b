import fc from "fast-check";
import { defineCheck } from "../../../src/engine/check.js";
import { rethrowControl } from "../../../src/engine/property.js";
import type { HttpResponse } from "../../../src/http/client.js";
import type { FederationProfile } from "../profile.js";
import { Fed } from "../client.js";
import { quote } from "../../../src/engine/quote.js";
import { TAG } from "../observers.js";
import { baseList, withQuery } from "./fetch-list.js";
import { judgeWalk, walkExtendedList, type Walk, type WalkProblems } from "../walk.js";

/** Which requirement each problem of a walk is (walk.ts `WalkProblems`). */
const RULES = [
  [
    "paging",
    "FED-XL-PAGING-UNDERSTOOD",
    "a request with limit, and one with from copied from next, answered 200",
  ],
  ["limit", "FED-XL-LIMIT", "no page longer than limit"],
  ["once", "FED-XL-WALK-ONCE", "every Immediate Subordinate exactly once"],
  ["order", "FED-XL-ORDER", "the order of the walk without limit"],
  ["next", "FED-XL-NEXT-REQUIRED", "next on every page after which entries remain"],
  ["border", "FED-XL-FROM-INCLUSIVE", "each page starting with the entry after the previous page's last"],
] as const;

/** specs/001 Endpoints: Extended subordinate listing (from, limit, next; Limits 3: one ordering). */
export const extendedListChecks = [
  defineCheck<FederationProfile>({
    id: "federation.xl-walk",
    title:
      "walking the extended list next→from, for any limit, lists every Immediate Subordinate once, in one order, never more than limit a page, each page starting where the last ended, and names the entities of the base list",
    requirements: [
      "FED-XL-OK",
      "FED-XL-ENTRY-ID",
      "FED-XL-NEXT-STRING",
      "FED-XL-UPPER-LIMIT",
      "FED-XL-SAME-AS-LIST",
      ...RULES.map(([, id]) => id),
    ],
    timeoutMs: 120_000,
    async run(c) {
      const f = new Fed(c);
      await f.trusted();
      const url = await f.endpoint("federation_extended_list_endpoint");
      const all: Walk[] = [];
      const ref = await walkExtendedList(c, url, { label: "extended list" });
      all.push(ref);
      const first = ref.pages[0]!;
      c.require("FED-XL-OK", first.shape === undefined, {
        expected: "200 application/json with immediate_subordinate_entities, an array of objects",
        actual: first.shape ?? "",
        res: first.res,
      });
      // Every page of the walk without limit has that form too (a walk stops at the first that has not).
      await c.each("FED-XL-OK", ref.pages, "page", (p) =>
        p.shape === undefined
          ? undefined
          : {
              expected: "200 application/json with immediate_subordinate_entities",
              actual: p.shape,
              res: p.res,
            },
      );
      const ids = [...new Set(ref.ids)];
      // The reference order is the walk without limit; a walk that did not finish cannot be one.
      if (ref.stopped !== undefined)
        c.check("FED-XL-WALK-ONCE", false, {
          expected: "a walk that ends",
          actual: ref.stopped,
          ...(ref.stoppedAt ? { res: ref.stoppedAt } : {}),
        });
      const listed = await baseList(c, f);
      if (listed !== undefined && ref.stopped === undefined) {
        const a = new Set(listed);
        const onlyList = listed.filter((x) => !ids.includes(x));
        const onlyXl = ids.filter((x) => !a.has(x));
        c.check("FED-XL-SAME-AS-LIST", onlyList.length === 0 && onlyXl.length === 0, {
          expected: "the entities of the base list",
          actual: `${onlyList.length} only in the base list (${onlyList.slice(0, 3).join(", ")}), ${onlyXl.length} only in the extended list (${onlyXl.slice(0, 3).join(", ")})`,
          kind: onlyList.length > 0 ? "missing" : "wrong-value",
        });
      } else
        c.skipOnly(
          "FED-XL-SAME-AS-LIST",
          "the base list could not be read, or the walk did not end",
          "dependency",
        );
      // For generated limits (and the smallest ones, where borders are many), every rule of a walk.
      const n = ids.length;
      const found = new Map<string, { limit: number; text: string; res: HttpResponse | undefined }>();
      const walkWith = async (limit: number): Promise<boolean> => {
        const w = await walkExtendedList(c, url, { label: "extended list", limit });
        all.push(w);
        const p: WalkProblems = judgeWalk(w, ids);
        for (const [key] of RULES) {
          const text = p[key];
          const had = found.get(key);
          if (text !== undefined && (had === undefined || limit < had.limit))
            found.set(key, { limit, text, res: p.at });
        }
        return RULES.every(([key]) => p[key] === undefined);
      };
      if (ref.stopped === undefined && n > 0) {
        for (const limit of [1, 2]) await walkWith(limit);
        const out = await fc.check(
          fc.asyncProperty(fc.integer({ min: 1, max: Math.max(1, n + 1) }), walkWith),
          {
            seed: c.seed,
            numRuns: c.profile.walk.runs,
          },
        );
        rethrowControl(out);
        for (const [key, id, expected] of RULES) {
          const bad = found.get(key);
          c.check(id, bad === undefined, {
            expected,
            actual: bad ? `limit ${bad.limit}: ${bad.text} (seed ${c.seed})` : "",
            ...(bad?.res ? { res: bad.res } : {}),
          });
        }
      } else
        for (const [, id] of RULES)
          c.skipOnly(
            id,
            n === 0 ? "the extended list is empty: nothing to page" : "the walk without limit did not end",
            n === 0 ? "other" : "dependency",
          );
      // Every page of every walk: entries with ids, next a non-empty string, the upper limit.
      const pages = all.flatMap((w) => w.pages);
      await c.each("FED-XL-ENTRY-ID", pages, "page", (p) =>
        p.badEntry
          ? { expected: "every entry with an id string", actual: p.badEntry, res: p.res, kind: "missing" }
          : undefined,
      );
      await c.each("FED-XL-NEXT-STRING", pages, "page", (p) =>
        p.badNext
          ? { expected: "next a non-empty string, or no next", actual: p.badNext, res: p.res }
          : undefined,
      );
      const upper = c.profile.limits.extendedList;
      if (upper === undefined)
        c.skipOnly(
          "FED-XL-UPPER-LIMIT",
          "the profile states no upper limit (suites.federation.limits.extendedList)",
          "not-exercised",
        );
      else
        await c.each("FED-XL-UPPER-LIMIT", pages, "page", (p) =>
          p.ids.length > upper
            ? { expected: `at most ${upper} entries a page`, actual: `${p.ids.length} entries`, res: p.res }
            : undefined,
        );
    },
  }),
];

/** specs/001 Errors (extended listing: unknown from gives 404 page_not_found, application/json). */
export const fromUnknownChecks = [
  defineCheck<FederationProfile>({
    id: "federation.xl-from-unknown",
    title:
      "a from the target never issued (random, or a real next with characters changed) answers 404 application/json page_not_found, never a page or a 5xx",
    requirements: ["FED-XL-FROM-UNKNOWN"],
    async run(c) {
      const f = new Fed(c);
      await f.trusted();
      const url = await f.endpoint("federation_extended_list_endpoint");
      const first = await walkFirstPage(c, url);
      const forged = [`idconform-${c.runId.slice(-6)}-never-issued`];
      if (first !== undefined) forged.push(tamper(first));
      await c.each("FED-XL-FROM-UNKNOWN", forged, "forged from", async (from) => {
        const res = await c.http.get(
          // Without limit: a target that refuses limit (FED-XL-PAGING-UNDERSTOOD) still answers this.
          withQuery(url, [["from", from]]),
          {
            label: `extended list, from ${from.length > 40 ? `${from.slice(0, 40)}…` : from}`,
            tags: [TAG.extendedList],
          },
        );
        const error = (res.json as { error?: unknown } | undefined)?.error;
        const json = /^application\/json\s*(;|$)/i.test(res.header("content-type") ?? "");
        return res.status === 404 && json && error === "page_not_found"
          ? undefined
          : {
              expected: "404 application/json with error page_not_found",
              actual: `${res.status} ${res.header("content-type") ?? "(no Content-Type)"} error ${quote(error ?? null)}`,
              res,
              kind:
                res.status >= 200 && res.status < 300
                  ? "accepted"
                  : res.status !== 404
                    ? "wrong-status"
                    : !json
                      ? "malformed"
                      : error === undefined
                        ? "missing"
                        : "wrong-code",
            };
      });
    },
  }),
];

/** The next of the first page with limit 1, if any. */
async function walkFirstPage(
  c: Parameters<typeof walkExtendedList>[0],
  url: string,
): Promise<string | undefined> {
  const res = await c.http.get(withQuery(url, [["limit", "1"]]), {
    label: "extended list, limit 1",
    tags: [TAG.extendedList],
  });
  const next = (res.json as { next?: unknown } | undefined)?.next;
  return typeof next === "string" && next !== "" ? next : undefined;
}

/** A real cursor with one character changed in its middle (base64url stays base64url). */
function tamper(next: string): string {
  const i = Math.floor(next.length / 2);
  const ch = next[i] === "A" ? "B" : "A";
  return `${next.slice(0, i)}${ch}${next.slice(i + 1)}`;
}
