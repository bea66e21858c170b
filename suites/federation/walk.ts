import type { Details } from "../../src/engine/check.js";
import type { HttpResponse } from "../../src/http/client.js";
import { HarnessError } from "../../src/engine/errors.js";
import { quote } from "../../src/engine/quote.js";
import type { Ctx } from "./client.js";
import { withQuery } from "./checks/fetch-list.js";
import { TAG } from "./observers.js";
import { isObject, type Json } from "./statements.js";

/** One page of a list walk: what it held, and what was wrong with its form. */
export interface Page {
  /** The answer; after the first page, without its body (`withoutBody`): cite it, do not read it. */
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
  /** With `keepEntries`, only the entries this accepts are kept (a check judging some of a large list). */
  readonly keepIf?: (entry: Json) => boolean;
  /**
   * Called with each page as read, its entries whole and its answer with its body, before the
   * walk drops them: a check judging every entry of a large list judges page by page, holding
   * none. `pages` then keep only what `keepEntries` asks for.
   */
  readonly onPage?: (page: Page, index: number) => void | Promise<void>;
  /** Fewer pages than `walk.maxPages` (a check that needs only the first ones). */
  readonly maxPages?: number;
}

/**
 * Walks the extended list from its first page, following `next` with `from`, within the profile's
 * bounds (`walk.maxPages`, `walk.maxEntries`): a `next` that points back to a cursor already
 * followed, or pages that never end, stop the walk with the reason, never a hang. Only ids are
 * kept unless `keepEntries`, so a walk of a large federation stays small: the pages after the
 * first keep no body, and the evidence shows the first and the last page and every page with
 * something wrong on its own (its form, an entry, next, a page longer than limit or the stated
 * upper limit, a page starting with an entry already listed); a page a finding cites later is
 * shown too (`releaseWalk` frees the rest).
 */
export async function walkExtendedList(c: Ctx, url: string, o: WalkOptions): Promise<Walk> {
  const { maxEntries } = c.profile.walk;
  const maxPages = Math.min(c.profile.walk.maxPages, o.maxPages ?? Infinity);
  const upper = c.profile.limits.extendedList;
  const pages: Page[] = [];
  const ids: string[] = [];
  const listed = new Set<string>();
  const seen = new Set<string>();
  const intern = internerOf(c);
  let from: string | undefined;
  const end = (w: Omit<Walk, "limit" | "pages" | "ids">): Walk => {
    const last = pages[pages.length - 1];
    if (last !== undefined) c.http.keepEvidence(last.res.exchangeId);
    if (w.stoppedAt !== undefined) c.http.keepEvidence(w.stoppedAt.exchangeId);
    noteWalked(c, o.label, o.limit, pages.length, ids.length);
    return { limit: o.limit, pages, ids, ...w };
  };
  for (;;) {
    if (pages.length >= maxPages)
      return end({
        stopped: `stopped after ${maxPages} pages${maxPages === c.profile.walk.maxPages ? " (suites.federation.walk.maxPages)" : ""}`,
      });
    const params: (readonly [string, string])[] = [...(o.params ?? [])];
    if (o.limit !== undefined) params.push(["limit", String(o.limit)]);
    if (from !== undefined) params.push(["from", from]);
    const res = await c.http.get(withQuery(url, params), {
      label: `${o.label}, page ${pages.length + 1}${o.limit !== undefined ? ` (limit ${o.limit})` : ""}`,
      tags: [TAG.extendedList],
      ...(pages.length > 0 ? { evidence: "if-cited" as const } : {}),
    });
    const whole = readPage(res, o.keepEntries === true || o.onPage !== undefined, intern);
    if (o.onPage !== undefined && whole.shape === undefined) await o.onPage(whole, pages.length);
    const kept = o.keepEntries === true ? whole : { ...whole, entries: [] };
    const read = o.keepIf === undefined ? kept : { ...kept, entries: kept.entries.filter(o.keepIf) };
    const page = pages.length === 0 ? read : { ...read, res: withoutBody(res) };
    pages.push(page);
    const first = page.ids[0];
    if (
      page.shape !== undefined ||
      page.badEntry !== undefined ||
      page.badNext !== undefined ||
      (o.limit !== undefined && page.ids.length > o.limit) ||
      (upper !== undefined && page.ids.length > upper) ||
      (first !== undefined && listed.has(first))
    )
      c.http.keepEvidence(res.exchangeId);
    if (page.shape !== undefined)
      return end({ stopped: `page ${pages.length}: ${page.shape}`, stoppedAt: page.res });
    // Entries that name no subordinate (FED-XL-ENTRY-ID): what the walk lists cannot be known.
    if (page.badEntry !== undefined)
      return end({
        stopped: `page ${pages.length}: ${page.badEntry}: see FED-XL-ENTRY-ID`,
        stoppedAt: page.res,
      });
    ids.push(...page.ids);
    for (const id of page.ids) listed.add(id);
    if (ids.length > maxEntries)
      return end({
        stopped: `stopped after ${ids.length} entries (suites.federation.walk.maxEntries)`,
        stoppedAt: page.res,
      });
    if (page.next === undefined || page.badNext !== undefined) return end({});
    if (seen.has(page.next))
      return end({
        stopped: `page ${pages.length}: next ${quote(page.next, 80)} points back to a cursor already followed`,
        stoppedAt: page.res,
      });
    seen.add(page.next);
    from = page.next;
  }
}

/**
 * A rule judged on every entry of a walk, page by page (a large list is never held): the first
 * violation and how many, decided as `c.each` decides (an empty walk skips, one finding for the
 * first violation counting the others).
 */
export class Tally {
  private total = 0;
  private bad = 0;
  private first: Details | undefined;
  private firstAt = 0;

  constructor(
    private readonly c: Ctx,
    private readonly id: string,
    private readonly what: string,
  ) {}

  add(d: Details | undefined): void {
    this.total++;
    if (d === undefined) return;
    this.bad++;
    if (this.first === undefined) {
      this.first = d;
      this.firstAt = this.total;
      // The page it cites stays in the report when the walk frees the others (`releaseWalk`).
      if (d.res !== undefined) this.c.http.keepEvidence(d.res.exchangeId);
    }
  }

  decide(): void {
    const c = this.c;
    if (this.total === 0)
      return c.skipOnly(
        this.id,
        `no ${this.what} to judge: the requirement speaks of every one, and there were none`,
        "other",
      );
    if (this.first === undefined) {
      c.check(this.id, true);
      return;
    }
    const more =
      this.bad > 1 ? ` (${this.bad} of ${this.total} ${this.what} violate it; the first is shown)` : "";
    c.check(this.id, false, {
      ...this.first,
      message: `${this.what} ${this.firstAt} of ${this.total}: ${this.first.message ?? "not met"}${more}`,
    });
  }
}

/** A page's answer as a finding may cite it: the first page whole, a later one without its body. */
export const citable = (page: Page, index: number): HttpResponse =>
  index === 0 ? page.res : withoutBody(page.res);

/**
 * Pages the walks with generated limits of one check may take together. Over loopback a page of
 * the reference target costs 1 to 2 ms (a 100,000-member run: 5,400 pages of xl-walk in 8.5 s);
 * a deployment across a network costs tens of ms a page, and the budget is set for that: 3,000
 * pages at 20 ms are a minute, half a check's two minutes, leaving the rest for the walks
 * without limit the check also makes.
 */
export const PROPERTY_PAGES = 3000;

/**
 * The smallest `limit` a check may generate for a list of `n` entries when it walks `walks` times
 * with generated limits: at least ceil(n / pages) with `pages` = PROPERTY_PAGES / walks, and never
 * more pages a walk than `walk.maxPages` allows (a walk stopped by that bound is a finding, so a
 * generated limit must never cause one). A small list keeps every limit from 1 (100 entries in
 * 22 walks: pages = 136, smallest limit 1); 100,000 entries in 22 walks start at 736. A walk
 * cannot take fewer pages than the target's own page size allows whatever the limit: that floor
 * is the walk without limit's, which every such check makes anyway.
 */
export function smallestLimit(c: Ctx, n: number, walks: number): number {
  const pages = Math.max(
    1,
    Math.min(c.profile.walk.maxPages - 1, Math.floor(PROPERTY_PAGES / Math.max(1, walks))),
  );
  return Math.max(1, Math.ceil(n / pages));
}

/**
 * Frees the pages of a judged walk that no finding cites: only `cited` (the page a problem of
 * `judgeWalk` names) and the pages the walk kept as evidence stay in the report.
 */
export function releaseWalk(
  c: Ctx,
  w: { readonly pages: readonly { readonly res: HttpResponse }[] },
  cited?: HttpResponse,
): void {
  for (const p of w.pages) if (p.res.exchangeId !== cited?.exchangeId) c.http.release(p.res.exchangeId);
}

/**
 * An answer as a walk keeps it once read: status, headers and the exchange id a finding cites,
 * not the body (a walk of thousands of pages would hold them all). Reading the body throws.
 */
export function withoutBody(res: HttpResponse): HttpResponse {
  // Copied out: a closure over `res` would keep its body alive.
  const { headers, status, bytes, exchangeId } = res;
  const gone = (): never => {
    throw new HarnessError(
      "IDC_INTERNAL",
      `the body of exchange ${exchangeId} was not kept: a walk keeps only its first page's`,
    );
  };
  return {
    status,
    headers,
    bytes,
    exchangeId,
    header: (name) => headers[name.toLowerCase()],
    get text(): string {
      return gone();
    },
    get json(): unknown {
      return gone();
    },
    get jsonError(): string | undefined {
      return gone();
    },
  };
}

/** Says in the report how long a walk was when its evidence shows only some of its pages. */
export function noteWalked(
  c: Ctx,
  label: string,
  limit: number | undefined,
  pages: number,
  entries: number,
): void {
  if (pages <= 2) return;
  c.note(
    `${label}${limit !== undefined ? ` (limit ${limit})` : ""}: ${pages} pages walked, ${entries} entries; the evidence shows the first and the last page and the pages a finding cites`,
  );
}

/**
 * One copy of each id string per check: the walks of one check (a property runs twenty) then
 * share their ids rather than each holding its own copy of every id of a large federation.
 */
const interners = new WeakMap<object, Map<string, string>>();
function internerOf(c: Ctx): (s: string) => string {
  let m = interners.get(c);
  if (m === undefined) interners.set(c, (m = new Map()));
  const map = m;
  return (s) => {
    const had = map.get(s);
    if (had !== undefined) return had;
    map.set(s, s);
    return s;
  };
}

function readPage(res: HttpResponse, keep: boolean, intern: (s: string) => string): Page {
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
    ids: entries.map((e) => intern(String(e.id))),
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
