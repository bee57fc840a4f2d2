import { Link, useLocation } from "@remix-run/react";
import { pageHref, PAGE_PARAM } from "~/domain/paging";

/**
 * The foot of a paged admin list (app/domain/paging.ts): what part of the list
 * is shown, and plain links to the newest and the older rows, so every row is
 * reachable with JavaScript off. Renders nothing for a list that fits one page.
 */
export function Pager({
  page,
  noun,
  param = PAGE_PARAM,
  label,
}: {
  page: { rows: readonly unknown[]; next: string | null; first: boolean; pageSize: number };
  noun: string;
  param?: string;
  label?: string;
}) {
  const { pathname, search } = useLocation();
  if (page.first && !page.next) return null;
  return (
    <nav aria-label={label ?? `Pages of ${noun}`} className="pager">
      <p className="hint">
        {page.first ? `Showing the newest ${page.pageSize} ${noun}.` : `Showing ${page.rows.length} older ${noun}.`}
      </p>
      {page.first ? null : <Link to={pageHref(pathname, search, param, null)}>Newest {noun}</Link>}
      {page.next ? <Link to={pageHref(pathname, search, param, page.next)}>Older {noun}</Link> : null}
    </nav>
  );
}
