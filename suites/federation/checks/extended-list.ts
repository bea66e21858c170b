import fc from "fast-check";
import { defineCheck } from "../../../src/engine/check.js";
import { rethrowControl } from "../../../src/engine/property.js";
import type { HttpResponse } from "../../../src/http/client.js";
import type { FederationProfile } from "../profile.js";
import { Fed } from "../client.js";
import { quote } from "../../../src/engine/quote.js";
import { TAG } from "../observers.js";
import { isObject, type Json } from "../statements.js";
import { baseList, withQuery } from "./fetch-list.js";
import {
  judgeWalk,
  PROPERTY_PAGES,
  releaseWalk,
  smallestLimit,
  walkExtendedList,
  type Walk,
  type WalkProblems,
} from "../walk.js";

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
      const unnamed = ref.pages.find((p) => p.badEntry !== undefined);
      if (unnamed !== undefined) {
        c.check("FED-XL-ENTRY-ID", false, {
          expected: "every entry with an id string",
          actual: unnamed.badEntry ?? "",
          res: unnamed.res,
          kind: "missing",
        });
        for (const id of [
          "FED-XL-NEXT-STRING",
          "FED-XL-UPPER-LIMIT",
          "FED-XL-SAME-AS-LIST",
          ...RULES.map(([, r]) => r),
        ])
          c.skipOnly(id, "the listing's entries name no subordinate: see FED-XL-ENTRY-ID", "dependency");
        return;
      }
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
        const walked = new Set(ids);
        const onlyList = listed.filter((x) => !walked.has(x));
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
      // Walks with limit that were answered: when none was, the paging rules saw nothing.
      let answered = 0;
      const walkWith = async (limit: number): Promise<boolean> => {
        const w = await walkExtendedList(c, url, { label: "extended list", limit });
        all.push(w);
        const p: WalkProblems = judgeWalk(w, ids);
        if (p.paging === undefined) answered++;
        // Judged: only the page it cites (and those kept for their own faults) stay in evidence.
        releaseWalk(c, w, p.at);
        for (const [key] of RULES) {
          const text = p[key];
          const had = found.get(key);
          if (text !== undefined && (had === undefined || limit < had.limit))
            found.set(key, { limit, text, res: p.at });
        }
        return RULES.every(([key]) => p[key] === undefined);
      };
      if (ref.stopped === undefined && n > 0) {
        // Generated limits keep every walk within the check's page budget: in a large federation
        // the smallest is n / (pages a walk may take), not 1 (walk.ts smallestLimit).
        const asked = c.profile.walk.runs;
        const lo = smallestLimit(c, n, asked + 2);
        if (lo > 1)
          c.note(
            `${n} entries: generated limits start at ${lo}, so that ${asked + 2} walks stay within ${PROPERTY_PAGES} pages and suites.federation.walk.maxPages`,
          );
        for (const limit of [lo, lo + 1]) await walkWith(limit);
        // A target's own page size may hold a walk above those pages whatever the limit (100,000
        // entries at 500 a page: 201 pages a walk); then fewer generated limits keep the budget.
        const pages = Math.max(1, ...all.slice(-2).map((w) => w.pages.length));
        const runs = Math.max(1, Math.min(asked, Math.floor(PROPERTY_PAGES / pages) - 2));
        if (runs < asked)
          c.note(
            `a walk with limit took ${pages} pages: ${runs} generated limits of ${asked} (suites.federation.walk.runs), within ${PROPERTY_PAGES} pages`,
          );
        const out = await fc.check(
          fc.asyncProperty(fc.integer({ min: lo, max: Math.max(lo, n + 1) }), walkWith),
          {
            seed: c.seed,
            numRuns: runs,
          },
        );
        rethrowControl(out);
        for (const [key, id, expected] of RULES) {
          const bad = found.get(key);
          if (answered === 0 && key !== "paging") {
            c.skipOnly(id, "no request with limit was answered: see FED-XL-PAGING-UNDERSTOOD", "dependency");
            continue;
          }
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
      if (first !== undefined) {
        // A next changed in its middle, in its last character, and with a character added before
        // and after it: values the target never issued. A target whose cursors are Entity
        // Identifiers could name a real subordinate by a changed one: those are left out.
        const ids = new Set((await baseList(c, f)) ?? []);
        for (const t of tampered(first)) if (t !== first && !ids.has(t)) forged.push(t);
      }
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

const B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/**
 * A real cursor changed four ways, each a value the target never issued: one character of its
 * middle changed, its last character changed to the next of the base64url alphabet (bits base64url
 * decoding may drop, so a lenient decoder reads the same bytes), and a `~` put before it and after
 * it (a decoder that matches a cursor's form anywhere in the value, not as the whole of it).
 */
export function tampered(next: string): string[] {
  const i = Math.floor(next.length / 2);
  const ch = next[i] === "A" ? "B" : "A";
  const last = next.slice(-1);
  const bumped = B64URL[(B64URL.indexOf(last) + 1) % B64URL.length] as string;
  return [
    `${next.slice(0, i)}${ch}${next.slice(i + 1)}`,
    `${next.slice(0, -1)}${bumped}`,
    `~${next}`,
    `${next}~`,
  ];
}

/** The extras FED-XL-PRACTICAL-LIMIT asks for on every entry: a statement, and both timestamps. */
const EXTRAS: readonly (readonly [string, string])[] = [
  ["claims", "subordinate_statement"],
  ["audit_timestamps", "true"],
];

/**
 * specs/001 Limits 1: a request without limit, or with an impractical one, can still be answered
 * completely with all requested additional parameters.
 */
export const practicalLimitChecks = [
  defineCheck<FederationProfile>({
    id: "federation.xl-practical-limit",
    title:
      "a request without limit, and one with a limit far above the list's size, each with claims=subordinate_statement and audit_timestamps=true, are answered 200 with complete pages that walk to the end",
    requirements: ["FED-XL-PRACTICAL-LIMIT"],
    timeoutMs: 120_000,
    async run(c) {
      const f = new Fed(c);
      await f.trusted();
      const url = await f.endpoint("federation_extended_list_endpoint");
      const plain = await walkExtendedList(c, url, { label: "extended list" });
      if (plain.stopped !== undefined)
        c.skip(
          `the extended list did not walk to its end (${plain.stopped}): see FED-XL-WALK-ONCE`,
          "dependency",
        );
      const ids = [...new Set(plain.ids)];
      let params = EXTRAS;
      const label = (limit: number | undefined): string =>
        `extended list, claims=subordinate_statement&audit_timestamps=true${limit === undefined ? ", no limit" : ""}`;
      // Only the entries that lack something are kept: a complete page of a large list is not held.
      const lacks = (e: Json): boolean =>
        typeof e.subordinate_statement !== "string" ||
        (params.some(([k]) => k === "audit_timestamps") &&
          (e.registered === undefined || e.updated === undefined));
      let bare = await walkExtendedList(c, url, {
        label: label(undefined),
        params,
        keepEntries: true,
        keepIf: lacks,
      });
      // audit_timestamps may be refused as unsupported (FED-XL-AUDIT-TIMESTAMPS allows it): it is
      // then not a parameter that can be requested, and the rest is asked without it.
      const first = bare.pages[0];
      if (
        first?.shape !== undefined &&
        first.res.status === 400 &&
        isObject(first.res.json) &&
        first.res.json.error === "unsupported_parameter"
      ) {
        params = EXTRAS.filter(([k]) => k !== "audit_timestamps");
        c.note(
          "audit_timestamps is refused as unsupported_parameter: the requests ask for subordinate_statement only",
        );
        bare = await walkExtendedList(c, url, {
          label: "extended list, claims=subordinate_statement, no limit",
          params,
          keepEntries: true,
          keepIf: lacks,
        });
      }
      const timestamps = params.some(([k]) => k === "audit_timestamps");
      // Far above the list's size, and above any page size a deployment would choose.
      const limit = Math.max(10_000, ids.length * 10);
      const big = await walkExtendedList(c, url, {
        label: `${label(limit)}, limit ${limit}`,
        params,
        limit,
        keepEntries: true,
        keepIf: lacks,
      });
      await c.each("FED-XL-PRACTICAL-LIMIT", [bare, big], "request", (w) => {
        const what = w.limit === undefined ? "without limit" : `with limit ${w.limit}`;
        if (w.stopped !== undefined)
          return {
            expected: `the request ${what} answered 200 with pages that walk to the end`,
            actual: w.stopped,
            ...(w.stoppedAt ? { res: w.stoppedAt } : {}),
            kind: /answered/.test(w.stopped) ? "wrong-status" : "wrong-value",
          };
        const listed = new Set(w.ids);
        const missing = ids.filter((id) => !listed.has(id));
        if (missing.length > 0)
          return {
            expected: `the request ${what} lists every Immediate Subordinate`,
            actual: `${missing.length} of ${ids.length} left out (the first ${missing[0]})`,
            res: w.pages[w.pages.length - 1]!.res,
            kind: "missing",
          };
        for (const p of w.pages) {
          const bad = p.entries.find(lacks);
          if (bad !== undefined)
            return {
              expected: `every entry of the request ${what} with subordinate_statement${timestamps ? ", registered and updated" : ""}`,
              actual: `entry ${quote(bad.id ?? null)} without ${typeof bad.subordinate_statement !== "string" ? "subordinate_statement" : bad.registered === undefined ? "registered" : "updated"}`,
              res: p.res,
              kind: "missing",
            };
        }
        return undefined;
      });
    },
  }),
];
