import { DAY_MS } from "../dates";
import { isPaid, PAID_STATUSES, type OrderStatus } from "../order-status";

/**
 * The admin orders page's cards (spec 2 section 9): all-time totals, each
 * compared with the month before, from plain rows the server module reads.
 */

/** The "from last month" comparisons use two 30-day windows. */
export const PERIOD_DAYS = 30;
/** A recent paid order, as the figures need it. */
export type FigureRow = { status: string; amount_paid: number; created_at: Date };

/** A first draft delivered (app/domain/delivery-clock.ts): when, and hours from the clock's start. */
export type DeliveryRow = { delivered_at: Date; hours: number };

/** All-time totals per status, from two single-accumulator $group queries. */
export type StatusTotals = {
  count: Partial<Record<OrderStatus, number>>;
  revenue: Partial<Record<OrderStatus, number>>;
};

export type SummaryCard = { label: string; value: string; caption: string };

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

export type PeriodFigures = {
  revenue: number;
  orders: number;
  avgOrderValue: number;
  completed: number;
  completionRate: number;
};

/** The figures of one period's paid orders (the cards' own definitions, spec 2 section 9). */
export function periodFigures(rows: FigureRow[]): PeriodFigures {
  const paid = rows.filter((r) => isPaid(r.status));
  const revenue = sum(paid.map((r) => r.amount_paid));
  const completed = paid.filter((r) => r.status === "completed").length;
  return {
    revenue,
    orders: paid.length,
    avgOrderValue: paid.length ? Math.round(revenue / paid.length) : 0,
    completed,
    completionRate: paid.length ? Math.round((completed / paid.length) * 100) : 0,
  };
}

/** "+12.5%" / "-3.0%": the change from the previous period; "new this month" when there was nothing before. */
export function percentChange(current: number, previous: number): string {
  if (previous === 0) return current === 0 ? "no change" : "new this month";
  const change = ((current - previous) / previous) * 100;
  return `${change >= 0 ? "+" : ""}${change.toFixed(1)}%`;
}

function pointsChange(current: PeriodFigures, previous: PeriodFigures): string {
  if (previous.orders === 0) return current.orders === 0 ? "no change" : "new this month";
  const d = current.completionRate - previous.completionRate;
  return `${d >= 0 ? "+" : ""}${d.toFixed(1)}%`;
}

/**
 * Avg Delivery (issue 23; the spec fixes it at 18 hours): the mean hours from the
 * clock's start to the first draft over the drafts delivered in the last
 * PERIOD_DAYS, compared with the PERIOD_DAYS before.
 */
export function avgDeliveryCard(rows: DeliveryRow[], now: Date): SummaryCard {
  const start = now.getTime() - PERIOD_DAYS * DAY_MS;
  const mean = (xs: DeliveryRow[]) => (xs.length ? sum(xs.map((r) => r.hours)) / xs.length : null);
  const t = (r: DeliveryRow) => r.delivered_at.getTime();
  const cur = mean(rows.filter((r) => t(r) >= start && t(r) <= now.getTime()));
  const prev = mean(rows.filter((r) => t(r) >= start - PERIOD_DAYS * DAY_MS && t(r) < start));
  if (cur === null) return { label: "Avg Delivery", value: "–", caption: "no deliveries yet" };
  const d = prev === null ? null : Math.round(cur - prev);
  return {
    label: "Avg Delivery",
    value: `${Math.round(cur)}h`,
    caption: d === null ? "new this month" : `${d > 0 ? "+" : ""}${d}h from last month`,
  };
}

/** Splits recent rows into the last PERIOD_DAYS and the PERIOD_DAYS before them. */
export function splitPeriods(rows: FigureRow[], now: Date): { current: FigureRow[]; previous: FigureRow[] } {
  const start = now.getTime() - PERIOD_DAYS * DAY_MS;
  const before = start - PERIOD_DAYS * DAY_MS;
  return {
    current: rows.filter((r) => r.created_at.getTime() >= start && r.created_at.getTime() <= now.getTime()),
    previous: rows.filter((r) => r.created_at.getTime() >= before && r.created_at.getTime() < start),
  };
}

/**
 * The six cards: all-time values, each with its real comparison with the
 * previous month (the spec's fixed captions, computed). `formatMoney` turns cents into text.
 */
export function summaryCards(input: {
  totals: StatusTotals;
  recent: FigureRow[];
  deliveries: DeliveryRow[];
  now: Date;
  formatMoney: (cents: number) => string;
}): SummaryCard[] {
  const { totals, now, formatMoney } = input;
  const count = (s: OrderStatus) => totals.count[s] ?? 0;
  const orders = sum(PAID_STATUSES.map(count));
  const revenue = sum(PAID_STATUSES.map((s) => totals.revenue[s] ?? 0));
  const active = count("paid") + count("in_progress");
  const completionRate = orders ? Math.round((count("completed") / orders) * 100) : 0;
  const { current, previous } = splitPeriods(input.recent, now);
  const cur = periodFigures(current);
  const prev = periodFigures(previous);
  const fromLastMonth = (s: string) => (/^[+-]/.test(s) ? `${s} from last month` : s);
  return [
    {
      label: "Total Revenue",
      value: formatMoney(revenue),
      caption: fromLastMonth(percentChange(cur.revenue, prev.revenue)),
    },
    { label: "Total Orders", value: String(orders), caption: fromLastMonth(percentChange(cur.orders, prev.orders)) },
    {
      label: "Avg Order Value",
      value: formatMoney(orders ? Math.round(revenue / orders) : 0),
      caption: fromLastMonth(percentChange(cur.avgOrderValue, prev.avgOrderValue)),
    },
    { label: "Active Projects", value: String(active), caption: `${count("paid")} pending` },
    { label: "Completion Rate", value: `${completionRate}%`, caption: fromLastMonth(pointsChange(cur, prev)) },
    avgDeliveryCard(input.deliveries, now),
  ];
}
