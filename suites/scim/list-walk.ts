import type { Details } from "../../src/engine/check.js";
import { quote } from "../../src/engine/quote.js";
import type { HttpResponse } from "../../src/http/client.js";
import { resources, type ScimClient, URN } from "./scim-client.js";

/** The members of a ListResponse (RFC 7644 §3.4.2) a walk and a page judge read. */
interface ListBody {
  schemas?: unknown;
  totalResults?: unknown;
  itemsPerPage?: unknown;
  startIndex?: unknown;
  nextCursor?: unknown;
}

/** One index page as a walk read it: what was asked and what came back. */
export interface IndexPage {
  readonly label: string;
  /** The startIndex the request asked for. */
  readonly asked: number;
  /** How many resources the page holds. */
  readonly size: number;
  readonly body: ListBody;
  readonly res: HttpResponse;
}

/**
 * Judges one index page against the ListResponse of RFC 7644 §3.4.2 (public-spec-facts §5):
 * the ListResponse schema and totalResults always; startIndex and itemsPerPage whenever the
 * page holds part of the results ("REQUIRED when partial results are returned due to
 * pagination"), so a page of everything may leave them out; and a stated startIndex or
 * itemsPerPage must be the page's own. Returns what is wrong, or undefined.
 */
export function judgeIndexPage(p: IndexPage): Details | undefined {
  const b = p.body;
  const wrong: string[] = [];
  if (!Array.isArray(b.schemas) || !b.schemas.includes(URN.list))
    wrong.push(`schemas ${quote(b.schemas ?? null)}`);
  if (typeof b.totalResults !== "number") wrong.push("no totalResults");
  const partial = typeof b.totalResults === "number" && p.size < b.totalResults;
  for (const member of ["startIndex", "itemsPerPage"] as const)
    if (partial && typeof b[member] !== "number") wrong.push(`no ${member}`);
  if (typeof b.startIndex === "number" && b.startIndex !== p.asked)
    wrong.push(`startIndex ${b.startIndex}, asked ${p.asked}`);
  if (typeof b.itemsPerPage === "number" && b.itemsPerPage !== p.size)
    wrong.push(`itemsPerPage ${b.itemsPerPage} for ${p.size} resources`);
  if (wrong.length === 0) return undefined;
  return {
    message: `${p.label}: ${wrong.join(", ")}`,
    expected: partial
      ? `a ListResponse with totalResults, startIndex ${p.asked} and itemsPerPage ${p.size} (the page holds part of the results)`
      : "a ListResponse with totalResults; startIndex and itemsPerPage, where stated, those of the page",
    actual: wrong.join(", "),
    res: p.res,
  };
}

/**
 * Every index page the walks of one check read, judged as it comes (RFC 7644 §3.4.2), for
 * `c.each`. Only the first violating page keeps its response as evidence: a property run
 * reads hundreds of pages, and the others only count.
 */
export class PageLog {
  readonly pages: { readonly label: string; readonly violation: Details | undefined }[] = [];
  private violated = false;

  add(p: IndexPage): void {
    const v = judgeIndexPage(p);
    if (v === undefined || !this.violated) {
      this.violated ||= v !== undefined;
      this.pages.push({ label: p.label, violation: v });
      return;
    }
    const { res: _, ...without } = v;
    this.pages.push({ label: p.label, violation: without });
  }
}

/** One page a walk read: its answer, and where its resources start among the walk's ids. */
export interface WalkPage {
  readonly res: HttpResponse;
  /** The index in `Walk.ids` of the page's first resource. */
  readonly from: number;
}

export interface Walk {
  readonly ids: string[];
  /** The first paging rule a page broke, if any. */
  readonly problem?: string;
  /** Every page read, in order: the last one is where the walk ended (or broke a rule). */
  readonly pages: readonly WalkPage[];
}

/**
 * The page that shows where a walk's ids first differ from `want`: the one holding the first
 * wrong id, or the last page read when the walk ended early. A finding cites it, so the
 * evidence is the page to fix, not whichever request the check happened to make last.
 */
export function divergingPage(w: Walk, want: readonly string[]): HttpResponse | undefined {
  const at = w.ids.findIndex((id, i) => id !== want[i]);
  // No wrong id: the walk listed too few or too many, which its last page shows.
  if (at < 0) return w.pages[w.pages.length - 1]?.res;
  return [...w.pages].reverse().find((p) => p.from <= at)?.res;
}

export interface WalkOptions {
  /** The list endpoint: `/Users` or `/Groups`. */
  readonly resource: string;
  /** The query parameters sent with every page besides the paging ones (a filter, excludedAttributes). */
  readonly query: string;
  readonly count: number;
  readonly startIndex?: number;
  readonly cursor?: boolean;
  /**
   * How many resources the query selects, when the check made them all: totalResults must
   * state it, the same on every page. Unset for a list other clients may change meanwhile.
   */
  readonly expectTotal?: number;
  readonly maxPages: number;
  /** Where each index page goes to be judged as a ListResponse. */
  readonly log?: PageLog;
}

/**
 * Walks the pages of one list, by startIndex or by cursor (RFC 9865), bounded to
 * `maxPages`; any broken page rule ends the walk with a problem, never a throw. A missing
 * startIndex or itemsPerPage does not stop it (the walk needs neither): that is for the
 * page judge (`log`), which speaks for the ListResponse rule, not the paging one.
 */
export async function walk(s: ScimClient, o: WalkOptions): Promise<Walk> {
  const ids: string[] = [];
  const pages: WalkPage[] = [];
  const end = (problem?: string): Walk => (problem === undefined ? { ids, pages } : { ids, problem, pages });
  let start = o.startIndex ?? 1;
  let cursor: string | undefined = o.cursor ? "" : undefined;
  let total: number | undefined;
  const seenCursors = new Set<string>();
  for (let page = 1; page <= o.maxPages; page++) {
    const where = cursor !== undefined ? `cursor=${encodeURIComponent(cursor)}` : `startIndex=${start}`;
    const label = `page ${page} (${where}, count ${o.count})`;
    const query = [o.query, where, `count=${o.count}`].filter((x) => x !== "").join("&");
    const res = await s.call("GET", `${o.resource}?${query}`, { label });
    pages.push({ res, from: ids.length });
    const list = resources(res);
    const body = res.json as ListBody | undefined;
    if (res.status !== 200 || list === undefined || body === undefined)
      return end(`page ${page} answered ${res.status} ${res.text.slice(0, 160)}`);
    if (cursor === undefined) o.log?.add({ label, asked: start, size: list.length, body, res });
    if (!Array.isArray(body.schemas) || !body.schemas.includes(URN.list))
      return end(`page ${page} is not a ListResponse (schemas ${quote(body.schemas)})`);
    if (typeof body.totalResults !== "number") return end(`page ${page} has no totalResults`);
    if (o.expectTotal !== undefined) {
      if (total !== undefined && body.totalResults !== total)
        return end(`totalResults changed from ${total} to ${body.totalResults} on page ${page}`);
      if (body.totalResults !== o.expectTotal)
        return end(`totalResults ${body.totalResults}, but ${o.expectTotal} resources match the query`);
    }
    total = body.totalResults;
    if (list.length > o.count) return end(`page ${page} holds ${list.length} resources for count=${o.count}`);
    // An index page's itemsPerPage is the ListResponse rule's (the page judge above); a cursor
    // page is judged by no page judge, so the walk holds it to its own count.
    if (cursor !== undefined && typeof body.itemsPerPage === "number" && body.itemsPerPage !== list.length)
      return end(`page ${page}: itemsPerPage ${body.itemsPerPage} but ${list.length} resources`);
    ids.push(...list.map((r) => String(r.id)));
    if (cursor !== undefined) {
      if (typeof body.nextCursor !== "string" || body.nextCursor === "") return end();
      if (seenCursors.has(body.nextCursor)) return end(`nextCursor ${body.nextCursor} came back: a cycle`);
      seenCursors.add(body.nextCursor);
      cursor = body.nextCursor;
    } else {
      if (typeof body.startIndex === "number" && body.startIndex !== start)
        return end(`page ${page}: startIndex ${body.startIndex}, asked ${start}`);
      if (list.length === 0 || start + list.length > total) return end();
      start += list.length;
    }
  }
  return end(`more than ${o.maxPages} pages: runaway pagination`);
}
