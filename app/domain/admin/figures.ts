import { DAY_MS } from "../dates";
import { isPaid } from "../order-status";
import { countOf } from "../words";
import { addToWeeks, emptyWeeks, type ChartRow, type WeekPoint } from "./chart";

/**
 * The admin orders page's six cards (spec 2 sections 8 and 9) and its chart, from
 * one pass over every order (ARCHITECTURE.md rule 7: FerretDB scans the whole
 * collection for each query, so the page reads it once): the server streams the
 * orders through `tallyOrder`, and nothing but these counters is kept.
 *
 * The spec's definitions: Total Orders counts every order, whatever its status
 * (so it agrees with the list's "Select all (N orders)" when no filter is set);
 * revenue is what paid, in-progress and completed orders paid (a refund leaves
 * it); average order value = revenue / orders; completion rate = completed / all
 * orders; active = paid or in progress, less those whose data was deleted (ended). Each trend compares the orders placed in
 * the last 30 days with those placed in the 30 days before ("+2 vs previous 30
 * days"); Avg Delivery compares the drafts delivered in those two periods.
 */

/** The two periods a trend compares. */
export const PERIOD_DAYS = 30;
export const TREND_BASIS = "Trends compare orders placed in the last 30 days with the 30 days before.";
const VS = "vs previous 30 days";

/** What the figures need of an order. */
export type FigureRow = ChartRow & {
  draft_delivered_at?: Date | null;
  delivery_hours?: number | null;
  /** The customer's data was deleted: the order has ended (its money still counts). */
  data_deleted_at?: Date | null;
};

type Counts = { orders: number; revenue: number; completed: number; active: number };
type Hours = { n: number; total: number };

/** The running totals of one pass. */
export type OrderTally = {
  now: Date;
  all: Counts;
  /** Orders placed in the last PERIOD_DAYS ([0]) and in the PERIOD_DAYS before them ([1]). */
  periods: [Counts, Counts];
  /** First drafts delivered: all of them, and by delivery date in the two periods. */
  deliveries: Hours;
  deliveryPeriods: [Hours, Hours];
  weeks: WeekPoint[];
};

export type SummaryCard = {
  label: string;
  value: string;
  /** The comparison with the previous 30 days, in words. */
  trend: string;
  /** What the card counts. */
  hint: string;
};

const counts = (): Counts => ({ orders: 0, revenue: 0, completed: 0, active: 0 });

export function newTally(now: Date): OrderTally {
  return {
    now,
    all: counts(),
    periods: [counts(), counts()],
    deliveries: { n: 0, total: 0 },
    deliveryPeriods: [
      { n: 0, total: 0 },
      { n: 0, total: 0 },
    ],
    weeks: emptyWeeks(now),
  };
}

/** 0 for the last PERIOD_DAYS up to now, 1 for the PERIOD_DAYS before, null otherwise. */
export function periodOf(at: Date, now: Date): 0 | 1 | null {
  const age = now.getTime() - at.getTime();
  if (age < 0) return null;
  if (age <= PERIOD_DAYS * DAY_MS) return 0;
  if (age <= 2 * PERIOD_DAYS * DAY_MS) return 1;
  return null;
}

/** An abandoned checkout (Stripe's session expired, or the buyer cancelled): no order to count. */
const ABANDONED = "cancelled";

function count(c: Counts, row: FigureRow) {
  if (row.status === ABANDONED) return;
  c.orders += 1;
  if (!isPaid(row.status)) return;
  c.revenue += row.amount_paid;
  if (row.status === "completed") c.completed += 1;
  else if (!row.data_deleted_at) c.active += 1; // paid or in progress, and not ended by a data deletion
}

/** Adds one order to the tally. */
export function tallyOrder(t: OrderTally, row: FigureRow): void {
  count(t.all, row);
  const placed = periodOf(row.created_at, t.now);
  if (placed !== null) count(t.periods[placed], row);
  addToWeeks(t.weeks, row, t.now);
  if (row.draft_delivered_at && typeof row.delivery_hours === "number") {
    t.deliveries.n += 1;
    t.deliveries.total += row.delivery_hours;
    const delivered = periodOf(row.draft_delivered_at, t.now);
    if (delivered !== null) {
      t.deliveryPeriods[delivered].n += 1;
      t.deliveryPeriods[delivered].total += row.delivery_hours;
    }
  }
}

/** The tally of a list of orders (the server streams them through `tallyOrder` instead). */
export function tallyOrders(rows: FigureRow[], now: Date): OrderTally {
  const t = newTally(now);
  for (const r of rows) tallyOrder(t, r);
  return t;
}

const average = (c: Counts) => (c.orders ? Math.round(c.revenue / c.orders) : 0);
const rate = (c: Counts) => (c.orders ? Math.round((c.completed / c.orders) * 100) : 0);
const meanHours = (h: Hours) => (h.n ? Math.round(h.total / h.n) : null);
/** A mean under half an hour reads "<1h", not "0h". */
const showHours = (h: Hours) => (h.total / h.n < 0.5 ? "<1h" : `${Math.round(h.total / h.n)}h`);

/** "+2 vs previous 30 days", "-1 vs previous 30 days", "no change vs previous 30 days". */
export function trend(change: number, show: (n: number) => string = String): string {
  if (change === 0) return `no change ${VS}`;
  return `${change > 0 ? "+" : "-"}${show(Math.abs(change))} ${VS}`;
}

/**
 * The six cards, in the spec's order. `formatMoney` turns cents into text.
 */
export function summaryCards(t: OrderTally, formatMoney: (cents: number) => string): SummaryCard[] {
  const [cur, prev] = t.periods;
  const ratioTrend = (f: (c: Counts) => number, show: (n: number) => string) =>
    !cur.orders
      ? "no orders in the last 30 days"
      : !prev.orders
        ? "no orders in the previous 30 days"
        : trend(f(cur) - f(prev), show);
  const [curHours, prevHours] = t.deliveryPeriods.map(meanHours);
  const allHours = meanHours(t.deliveries);
  return [
    {
      label: "Total Revenue",
      value: formatMoney(t.all.revenue),
      trend: trend(cur.revenue - prev.revenue, formatMoney),
      hint: "Paid, in-progress and completed orders; refunded ones and abandoned checkouts (cancelled) left out",
    },
    {
      label: "Total Orders",
      value: String(t.all.orders),
      trend: trend(cur.orders - prev.orders),
      hint: "Every order but abandoned checkouts (cancelled)",
    },
    {
      label: "Avg Order Value",
      value: formatMoney(average(t.all)),
      trend: ratioTrend(average, formatMoney),
      hint: "Total Revenue ÷ Total Orders (abandoned checkouts left out)",
    },
    {
      label: "Active Projects",
      value: String(t.all.active),
      trend: trend(cur.active - prev.active),
      hint: "Orders paid or in progress, not counting those whose data was deleted (never unpaid or cancelled ones)",
    },
    {
      label: "Completion Rate",
      value: `${rate(t.all)}%`,
      trend: ratioTrend(rate, (n) => countOf(n, "point")),
      hint: "Completed orders ÷ Total Orders (abandoned checkouts left out)",
    },
    {
      label: "Avg Delivery",
      value: allHours === null ? "None yet" : showHours(t.deliveries),
      trend:
        allHours === null
          ? "no deliveries yet"
          : curHours === null
            ? "none delivered in the last 30 days"
            : prevHours === null
              ? "none delivered in the previous 30 days"
              : trend(curHours - prevHours, (n) => `${n}h`),
      hint: "Hours from the intake to the first draft; trend by delivery date",
    },
  ];
}
