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
}: {
  page: { rows: unknown[]; next: string | null; first: boolean; pageSize: number };
  /** The rows' noun, plural ("coupons"), and singular ("coupon"), for "Showing 1 older coupon." */
  noun: string;
  one: string;
  param?: string;
  label?: string;
}) {
  const { pathname, search } = useLocation();
  if (page.first && !page.next) return null;
  return (
    <nav aria-label={label ?? `Pages of ${noun}`} className="pager">
      <p className="hint">{pagerSummary(page, one, noun)}</p>
      {page.first ? null : <Link to={pageHref(pathname, search, param, null)}>Newest {noun}</Link>}
      {page.next ? <Link to={pageHref(pathname, search, param, page.next)}>Older {noun}</Link> : null}
    </nav>
  );
}
