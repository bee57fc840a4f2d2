/**
 * Keyset pages for every admin list (orders, outbox, coupons, payments, privacy
 * audit log, deletion requests, an order's admin history): newest first, the
 * next page named by the last row shown, never by an offset, so rows that
 * arrive while an admin reads page 2 neither repeat nor go missing.
 *
 * A cursor is the last row's sort time (ms) and its _id: "1700000000000_<id>".
 * The id goes last and may hold anything but whitespace, so string ids
 * ("amount_mismatch:cs_…") and ObjectIds both fit. A list walked in two parts (the
 * orders list sorted by deadline) marks a cursor in its second part "2:1700000000000_<id>".
 * A cursor that does not parse
 * is ignored (the first page), never an error. The query that uses it is
 * `keysetPage` in app/server/paging.server.ts; the links, `<Pager>` in
 * app/components/admin/Pager.tsx.
 */
import { countOf } from "./words";

/** The query parameter of a page's list; a page with two lists names the second one's itself. */
export const PAGE_PARAM = "before";

export type PageCursor = {
  at: Date;
  id: string;
  /** Set in the second part of a list walked in two parts. */ part?: 2;
};

/** The latest instant a Date can hold (ECMA-262): a larger number is not a time. */
const MAX_TIME_MS = 8.64e15;

/** Where the second part of a two-part list begins: after a row at the end of time, so every row of it comes next. */
export const SECOND_PART_START: PageCursor = { at: new Date(MAX_TIME_MS), id: "~", part: 2 };
const CURSOR = /^(2:)?(\d{1,16})_(\S{1,300})$/;

export function encodeCursor(row: PageCursor): string {
  return `${row.part === 2 ? "2:" : ""}${row.at.getTime()}_${row.id}`;
}

/** The cursor in a query-string value, or null (first page) for anything that is not one. */
export function parseCursor(raw: string | null | undefined): PageCursor | null {
  if (!raw || raw.length > 320) return null;
  const match = CURSOR.exec(raw);
  if (!match) return null;
  const ms = Number(match[2]);
  if (ms > MAX_TIME_MS) return null;
  return match[1] ? { at: new Date(ms), id: match[3], part: 2 } : { at: new Date(ms), id: match[3] };
}

/** The cursor a page's URL carries under `param` (only its first value counts; `before[]=x` is simply absent). */
export function cursorParam(params: URLSearchParams, param: string = PAGE_PARAM): PageCursor | null {
  return parseCursor(params.get(param));
}

/** One page of a list: its rows, the cursor of the page after it (null on the last page), and whether it is the first. */
export type Page<T> = { rows: T[]; next: string | null; first: boolean; pageSize: number };

/** A link to another page of the same URL: `search` with `param` set to `cursor`, or removed (the newest page). */
export function pageHref(pathname: string, search: string, param: string, cursor: string | null): string {
  const params = new URLSearchParams(search);
  if (cursor) params.set(param, cursor);
  else params.delete(param);
  const s = params.toString();
  return s ? `${pathname}?${s}` : pathname;
}

/**
 * What a pager says of the page shown: "Showing the newest 25 coupons.", "Showing 1 older coupon."
 * A list in another order (`newestFirst` false: the orders by deadline) says "the first 25
 * orders", "12 more orders".
 */
export function pagerSummary(
  page: Pick<Page<unknown>, "rows" | "first" | "pageSize">,
  one: string,
  many: string,
  newestFirst = true,
) {
  if (!newestFirst)
    return page.first
      ? `Showing the first ${countOf(page.pageSize, one, many)}.`
      : `Showing ${countOf(page.rows.length, `more ${one}`, `more ${many}`)}.`;
  return page.first
    ? `Showing the newest ${countOf(page.pageSize, one, many)}.`
    : `Showing ${countOf(page.rows.length, `older ${one}`, `older ${many}`)}.`;
}
