import { LIMITS } from "../limits.js";
import type { CursorCodec } from "./cursor.js";
import { LIST_URN } from "./responder.js";

/** The paging parameters of a list request (RFC 7644 §3.4.2.4, RFC 9865 §2). */
export interface PageQuery {
  readonly startIndex: string | undefined;
  readonly count: string | undefined;
  readonly cursor: string | undefined;
}

export interface ListOptions {
  /** Resource type name, which binds cursors to it. */
  readonly kind: string;
  readonly cursors: CursorCodec;
  /** Where an index page really starts, 0-based, for a requested startIndex (faults move it). */
  readonly offsetFor?: (startIndex: number, total: number) => number;
  /** The list-start-index-zero-based fault: the answer states startIndex one less than asked. */
  readonly zeroBasedStartIndex?: boolean;
  /** The list-omits-paging-members fault: index pages after the first leave itemsPerPage out. */
  readonly itemsPerPageOnFirstOnly?: boolean;
  /** The cursor-repeats fault: nextCursor continues before the page's last item, not after it. */
  readonly cursorRepeatsLast?: boolean;
  /** The page-overrun-empty fault: an index page reaching past the last item holds none. */
  readonly emptyOnOverrun?: boolean;
  /** The items-per-page-count fault: index pages state itemsPerPage as the count asked. */
  readonly itemsPerPageIsCount?: boolean;
}

// String(undefined) is "undefined", which is no integer: an absent parameter gives undefined.
const integer = (v: string | undefined): number | undefined =>
  // Stryker disable next-line Regex: what a count or startIndex that is no plain integer (padded, with text around it) means is left open by RFC 7644 §3.4.2.4 (the digit bound, which the pagination walk from startIndex 10 kills, goes with them: a disable names mutators, not mutants)
  /^\s*-?\d{1,15}\s*$/.test(String(v)) ? Number(v) : undefined;

// Stryker disable all: true only under the list-omits-paging-members fault (itemsPerPageOnFirstOnly), and a mutation run has no fault on
/** The list-omits-paging-members fault: an index page after the first leaves itemsPerPage out. */
const omitsItemsPerPage = (opts: ListOptions, startIndex: number): boolean =>
  opts.itemsPerPageOnFirstOnly === true && startIndex > 1;

/** The page-overrun-empty fault: a page after the first whose end lies past the last item is answered empty. */
const overruns = (opts: ListOptions, startIndex: number, end: number, total: number): boolean =>
  opts.emptyOnOverrun === true && startIndex > 1 && end > total;
// Stryker restore all

/**
 * One page of a ListResponse over `items` (already filtered, in creation order).
 * Index paging: startIndex 1-based (below 1 means 1), count defaults to 50 and is capped
 * at 100 (below 0 means 0: only totalResults). Cursor paging, when `cursor` is present
 * (empty for the first page): the page after the cursor's position and a nextCursor
 * while more remain; no startIndex then (RFC 9865 §2.2).
 */
export function listPage<T extends { readonly seq: number }>(
  items: readonly T[],
  q: PageQuery,
  opts: ListOptions,
  render: (item: T) => unknown,
): Record<string, unknown> {
  const count = Math.min(Math.max(integer(q.count) ?? LIMITS.defaultPageSize, 0), LIMITS.maxPageSize);
  if (q.cursor !== undefined) {
    const after = q.cursor === "" ? 0 : opts.cursors.decode(opts.kind, q.cursor);
    const rest = items.filter((i) => i.seq > after);
    const page = rest.slice(0, count);
    const last = page[page.length - 1];
    return {
      schemas: [LIST_URN],
      totalResults: items.length,
      itemsPerPage: page.length,
      ...(last !== undefined && rest.length > page.length
        ? // Stryker disable next-line ArithmeticOperator: the arithmetic runs only under the cursor-repeats fault (cursorRepeatsLast)
          { nextCursor: opts.cursors.encode(opts.kind, opts.cursorRepeatsLast ? last.seq - 1 : last.seq) }
        : {}),
      Resources: page.map(render),
    };
  }
  const startIndex = Math.max(integer(q.startIndex) ?? 1, 1);
  const offset = Math.max(opts.offsetFor ? opts.offsetFor(startIndex, items.length) : startIndex - 1, 0);
  // Stryker disable next-line ConditionalExpression: false is equivalent: true only under the page-overrun-empty fault
  const page = overruns(opts, startIndex, offset + count, items.length)
    ? []
    : items.slice(offset, offset + count);
  return {
    schemas: [LIST_URN],
    totalResults: items.length,
    // Stryker disable next-line ArithmeticOperator: the arithmetic runs only under the list-start-index-zero-based fault
    startIndex: opts.zeroBasedStartIndex ? startIndex - 1 : startIndex,
    ...(omitsItemsPerPage(opts, startIndex)
      ? {}
      : // Stryker disable next-line ConditionalExpression: true only under the items-per-page-count fault
        { itemsPerPage: opts.itemsPerPageIsCount === true ? count : page.length }),
    Resources: page.map(render),
  };
}
