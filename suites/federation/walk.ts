import type { HttpResponse } from "../../src/http/client.js";
import { quote } from "../../src/engine/quote.js";
import type { Ctx } from "./client.js";
import { withQuery } from "./checks/fetch-list.js";
import { TAG } from "./observers.js";
import { isObject, type Json } from "./statements.js";

/** One page of a list walk: what it held, and what was wrong with its form. */
export interface Page {
  readonly res: HttpResponse;
  readonly ids: readonly string[];
  readonly entries: readonly Json[];
  readonly next: string | undefined;
  /** FED-XL-OK: not 200 JSON with an array of objects. */
  readonly shape?: string;
  /** FED-XL-ENTRY-ID: an entry without an id string. */
  readonly badEntry?: string;
  /** FED-XL-NEXT-STRING: next present but not a non-empty string. */
  readonly badNext?: string;
}

/** A walk of `next`→`from` to its end, or to where it was stopped. */
export interface Walk {
  readonly limit: number | undefined;
  readonly pages: readonly Page[];
  /** Every id in the order walked, repeats kept. */
  readonly ids: readonly string[];
  /** Why the walk stopped before a page without next (a status, a bound, a cursor seen before). */
  readonly stopped?: string;
  /** The page the walk stopped at, when a page made it stop. */
  readonly stoppedAt?: HttpResponse;
}

export interface WalkOptions {
  readonly limit?: number;
  /** Parameters sent on every page (claims, filters). */
  readonly params?: readonly (readonly [string, string])[];
  readonly label: string;
  /** Entries kept whole (for the claims checks); otherwise only ids are kept. */
  readonly keepEntries?: boolean;
}

/**
 * Walks the extended list from its first page, following `next` with `from`, within the profile's
 * bounds (`walk.maxPages`, `walk.maxEntries`): a `next` that points back to a cursor already
 * followed, or pages that never end, stop the walk with the reason, never a hang. Only ids are
 * kept unless `keepEntries`, so a walk of a large federation stays small.
 */
export async function walkExtendedList(c: Ctx, url: string, o: WalkOptions): Promise<Walk> {
  const { maxPages, maxEntries } = c.profile.walk;
  const pages: Page[] = [];
  const ids: string[] = [];
  const seen = new Set<string>();
  let from: string | undefined;
  for (;;) {
    if (pages.length >= maxPages)
      return {
        limit: o.limit,
        pages,
        ids,
        stopped: `stopped after ${maxPages} pages (suites.federation.walk.maxPages)`,
      };
    const params: (readonly [string, string])[] = [...(o.params ?? [])];
    if (o.limit !== undefined) params.push(["limit", String(o.limit)]);
    if (from !== undefined) params.push(["from", from]);
    const res = await c.http.get(withQuery(url, params), {
      label: `${o.label}, page ${pages.length + 1}${o.limit !== undefined ? ` (limit ${o.limit})` : ""}`,
      tags: [TAG.extendedList],
    });
    const page = readPage(res, o.keepEntries === true);
    pages.push(page);
    if (page.shape !== undefined)
      return { limit: o.limit, pages, ids, stopped: `page ${pages.length}: ${page.shape}`, stoppedAt: res };
    ids.push(...page.ids);
    if (ids.length > maxEntries)
      return {
        limit: o.limit,
        pages,
        ids,
        stopped: `stopped after ${ids.length} entries (suites.federation.walk.maxEntries)`,
        stoppedAt: res,
      };
    if (page.next === undefined || page.badNext !== undefined) return { limit: o.limit, pages, ids };
    if (seen.has(page.next))
      return {
        limit: o.limit,
        pages,
        ids,
        stopped: `page ${pages.length}: next ${quote(page.next, 80)} points back to a cursor already followed`,
        stoppedAt: res,
      };
    seen.add(page.next);
    from = page.next;
  }
}

function readPage(res: HttpResponse, keep: boolean): Page {
  const ctype = res.header("content-type") ?? "";
  const base = { res, ids: [] as string[], entries: [] as Json[], next: undefined };
  if (res.status !== 200) return { ...base, shape: `answered ${res.status}` };
  if (!/^application\/json\s*(;|$)/i.test(ctype))
    return { ...base, shape: `Content-Type ${quote(ctype || "(none)")}` };
  const body = res.json;
  if (!isObject(body)) return { ...base, shape: res.jsonError ?? `${quote(body, 80)} is not a JSON object` };
  const list = body.immediate_subordinate_entities;
  if (!Array.isArray(list))
    return { ...base, shape: `immediate_subordinate_entities ${quote(list ?? null, 80)} is not an array` };
  const notObject = list.find((e) => !isObject(e));
  if (notObject !== undefined) return { ...base, shape: `an entry ${quote(notObject, 80)} is not an object` };
  const entries = list as Json[];
  const noId = entries.find((e) => typeof e.id !== "string" || e.id === "");
  const next = body.next;
  return {
    res,
    ids: entries.map((e) => String(e.id)),
    entries: keep ? entries : [],
    next: typeof next === "string" && next !== "" ? next : undefined,
    ...(noId !== undefined ? { badEntry: `an entry without an id string: ${quote(noId, 120)}` } : {}),
    ...(next !== undefined && (typeof next !== "string" || next === "")
      ? { badNext: `next ${quote(next)}` }
      : {}),
  };
}

/** What is wrong with a walk measured against the reference order (the walk without limit). */
export interface WalkProblems {
  /** FED-XL-PAGING-UNDERSTOOD: a request with limit or from refused. */
  paging?: string;
  /** FED-XL-LIMIT: a page longer than limit. */
  limit?: string;
  /** FED-XL-WALK-ONCE: an entry repeated or left out. */
  once?: string;
  /** FED-XL-ORDER: another order than the reference. */
  order?: string;
  /** FED-XL-NEXT-REQUIRED: the walk ended (no next) before the last entry. */
  next?: string;
  /** FED-XL-FROM-INCLUSIVE: a page after the first does not start right after the previous one. */
  border?: string;
  /** The page that shows the first problem. */
  at?: HttpResponse;
}

/** Judges a walk with `limit` against `ref`, the ids of the walk without limit in their order. */
export function judgeWalk(w: Walk, ref: readonly string[]): WalkProblems {
  const p: WalkProblems = {};
  const at = (res: HttpResponse | undefined): void => {
    if (res !== undefined) p.at ??= res;
  };
  if (w.stopped !== undefined && /answered (4|5)\d\d/.test(w.stopped)) {
    p.paging = w.stopped;
    at(w.stoppedAt);
    return p;
  }
  if (w.limit !== undefined) {
    const long = w.pages.findIndex((pg) => pg.ids.length > w.limit!);
    if (long >= 0) {
      p.limit = `page ${long + 1} holds ${w.pages[long]!.ids.length} entries for limit ${w.limit}`;
      at(w.pages[long]!.res);
    }
  }
  const index = new Map(ref.map((id, i) => [id, i]));
  const seen = new Set<string>();
  const repeated = w.ids.find((id) => (seen.has(id) ? true : (seen.add(id), false)));
  const missing = ref.filter((id) => !seen.has(id));
  if (w.stopped !== undefined) {
    p.once = w.stopped;
    at(w.stoppedAt);
  } else if (repeated !== undefined || missing.length > 0) {
    p.once = [
      repeated !== undefined ? `${repeated} listed more than once` : "",
      missing.length > 0 ? `${missing.length} of ${ref.length} left out (the first ${missing[0]})` : "",
    ]
      .filter(Boolean)
      .join("; ");
  }
  const last = w.pages[w.pages.length - 1];
  if (w.stopped === undefined && missing.length > 0 && last !== undefined && last.next === undefined) {
    const after = w.ids.length > 0 ? index.get(w.ids[w.ids.length - 1]!) : undefined;
    if (after === undefined || after < ref.length - 1) {
      p.next = `the walk ended without next after ${w.ids.length} entries, before the last of ${ref.length}`;
      at(last.res);
    }
  }
  const unique = [...new Set(w.ids)].filter((id) => index.has(id));
  const outOfOrder = unique.findIndex((id, i) => i > 0 && index.get(id)! < index.get(unique[i - 1]!)!);
  if (outOfOrder > 0)
    p.order = `${unique[outOfOrder]} comes after ${unique[outOfOrder - 1]}, the other way round without limit`;
  // A page border: the page fetched with from starts right after the previous page's last entry.
  // Read against the reference order only when the walk keeps it (else FED-XL-ORDER says so);
  // a border that repeats an entry shows whatever the order.
  const listed = new Set<string>();
  for (let k = 1; k < w.pages.length; k++) {
    const prev = w.pages[k - 1]!.ids;
    for (const id of prev) listed.add(id);
    const first = w.pages[k]!.ids[0];
    const lastPrev = prev[prev.length - 1];
    if (first === undefined || lastPrev === undefined) continue;
    const want = p.order === undefined ? ref[(index.get(lastPrev) ?? -2) + 1] : undefined;
    if (listed.has(first) || (want !== undefined && first !== want)) {
      p.border = listed.has(first)
        ? `page ${k + 1} starts with ${first}, already listed on an earlier page`
        : `page ${k + 1} starts with ${first}; the entry after ${lastPrev} (page ${k}'s last) is ${String(want)}`;
      at(w.pages[k]!.res);
      break;
    }
  }
  return p;
}
