import type { OrderFilters } from "./order-filters.schema";
import { DAY_MS, startOfSydneyDay } from "../dates";
import { DUE_SOON_HOURS } from "../delivery-clock";

/**
 * The admin orders list's filters (spec 2 section 9): the query string of its
 * `<Form method="get">`, parsed by one schema, and what each filter means for a
 * query. The server module (app/server/admin/orders.server.ts) runs the queries.
 */

export const PAGE_SIZE = 25;
export const DATE_FILTERS = ["today", "week", "month", "quarter"] as const;
export type DateFilter = (typeof DATE_FILTERS)[number];
/** The delivery clock's filters: orders whose clock runs, due within DUE_SOON_HOURS, or overdue. */
export const CLOCK_FILTERS = ["due-soon", "overdue"] as const;
export type ClockFilter = (typeof CLOCK_FILTERS)[number];
export const CLOCK_FILTER_LABELS: Record<ClockFilter, string> = {
  "due-soon": `Due within ${DUE_SOON_HOURS} hours`,
  overdue: "Overdue",
};
/** Newest first (the default), or by deadline, soonest first (orders whose clock runs). */
export const ORDER_SORTS = ["deadline"] as const;

export type { OrderFilters };

export function hasActiveFilters(f: OrderFilters): boolean {
  return Boolean(f.q || f.status || f.date || f.clock || f.sort);
}

/** The filters as a query string, for links, the CSV and the bulk form. */
export function filterQuery(f: OrderFilters): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries({ q: f.q, status: f.status, date: f.date, clock: f.clock, sort: f.sort }))
    if (v) params.set(k, v);
  const s = params.toString();
  return s ? `?${s}` : "";
}

/** Date filters (spec 2 section 9): today from start of day, week the last 7 days, month the last month, quarter the last 3 months. */
export function dateFilterStart(filter: DateFilter, now: Date): Date {
  switch (filter) {
    case "today":
      return startOfSydneyDay(now);
    case "week":
      return new Date(now.getTime() - 7 * DAY_MS);
    case "month":
    case "quarter": {
      const d = new Date(now);
      d.setUTCMonth(d.getUTCMonth() - (filter === "month" ? 1 : 3));
      return d;
    }
  }
}

/** What the search box means: an e-mail prefix or an order-id prefix, both compared in lower case. */
export function searchTerm(q: string): { emailPrefix: string; idPrefix: string | null } {
  const id = q.replace(/^order\s*#?\s*/, "").replace(/^#/, "");
  return { emailPrefix: q, idPrefix: /^[0-9a-f-]{1,36}$/.test(id) ? id : null };
}
