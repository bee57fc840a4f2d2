import type { OrderFilters } from "./order-filters.schema";
import { DAY_MS, HOUR_MS, startOfSydneyDay } from "../dates";
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
/** Newest first (the default), or by deadline, soonest first (see `compareByDeadline`). */
export const ORDER_SORTS = ["deadline"] as const;

export type { OrderFilters };

/** What the deadline sort reads of an order: its delivery clock's facts. */
export type DeadlineFacts = {
  _id: string;
  created_at: Date;
  clock_deadline?: Date | null;
  draft_delivered_at?: Date | null;
  refunded_at?: Date | null;
  data_deleted_at?: Date | null;
};

/**
 * The deadline sort lists every order, in two parts. First the orders with a deadline
 * still to meet (the clock runs: a deadline, no draft delivered, not refunded, data kept), soonest
 * first, so overdue ones lead; then every other order (clock not started, draft
 * delivered, refunded, data deleted), newest first, as the default list. Part 1 or 2 of an order.
 */
export function deadlinePart(o: Omit<DeadlineFacts, "_id" | "created_at">): 1 | 2 {
  return o.clock_deadline && !o.draft_delivered_at && !o.refunded_at && !o.data_deleted_at ? 1 : 2;
}

const byId = (a: { _id: string }, b: { _id: string }) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0);

/** The list's default order: newest first, ties broken by id, descending (as the keyset pages break them). */
export function compareNewestFirst(a: Pick<DeadlineFacts, "_id" | "created_at">, b: typeof a): number {
  return b.created_at.getTime() - a.created_at.getTime() || -byId(a, b);
}

/** The deadline sort's order, ties broken by id as the keyset pages break them (app/server/admin/orders.server.ts). */
export function compareByDeadline(a: DeadlineFacts, b: DeadlineFacts): number {
  const [pa, pb] = [deadlinePart(a), deadlinePart(b)];
  if (pa !== pb) return pa - pb;
  if (pa === 1) return a.clock_deadline!.getTime() - b.clock_deadline!.getTime() || byId(a, b);
  return compareNewestFirst(a, b);
}

/** What the filters read of an order. */
export type FilterFacts = DeadlineFacts & { email: string; status: string };

/**
 * The filters as a test of one order, as `ordersFilter` (app/server/admin/orders.server.ts) asks the database:
 * the orders page runs it over the order digest, the CSV and "select all" run the query
 * (tests/integration/admin-filters-by-id.test.ts holds the two to the same orders).
 */
export function matchesFilters(f: OrderFilters, now: Date): (o: FilterFacts) => boolean {
  const from = f.date ? dateFilterStart(f.date, now).getTime() : null;
  const soon = now.getTime() + DUE_SOON_HOURS * HOUR_MS;
  const search = f.q ? searchTerm(f.q) : null;
  return (o) => {
    if (f.status && o.status !== f.status) return false;
    if (from !== null && o.created_at.getTime() < from) return false;
    if (f.clock) {
      if (deadlinePart(o) !== 1) return false;
      const due = o.clock_deadline!.getTime();
      if (f.clock === "overdue" ? due >= now.getTime() : due < now.getTime() || due > soon) return false;
    }
    if (search)
      return o.email.startsWith(search.emailPrefix) || Boolean(search.idPrefix && o._id.startsWith(search.idPrefix));
    return true;
  };
}

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
