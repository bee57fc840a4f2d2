import { Link, useLocation } from "@remix-run/react";
import { pageHref, pagerSummary, PAGE_PARAM } from "~/domain/paging";

/**
 * The foot of a paged admin list (app/domain/paging.ts): what part of the list
 * is shown, and plain links to the newest and the older rows, so every row is
 * reachable with JavaScript off. Renders nothing for a list that fits one page.
 */
export function Pager({
  page,
  noun,
  one,
  param = PAGE_PARAM,
  label,
  newestFirst = true,
}: {
  page: { rows: unknown[]; next: string | null; first: boolean; pageSize: number };
  /** The rows' noun, plural ("coupons"), and singular ("coupon"), for "Showing 1 older coupon." */
  noun: string;
  one: string;
  param?: string;
  label?: string;
  /** False for a list in another order (the orders by deadline): its links say "First" and "More". */
  newestFirst?: boolean;
}) {
  const { pathname, search } = useLocation();
  if (page.first && !page.next) return null;
  return (
    <nav aria-label={label ?? `Pages of ${noun}`} className="pager">
      <p className="hint">{pagerSummary(page, one, noun, newestFirst)}</p>
      {page.first ? null : (
        <Link to={pageHref(pathname, search, param, null)}>
          {newestFirst ? "Newest" : "First"} {noun}
        </Link>
      )}
      {page.next ? (
        <Link to={pageHref(pathname, search, param, page.next)}>
          {newestFirst ? "Older" : "More"} {noun}
        </Link>
      ) : null}
    </nav>
  );
}
