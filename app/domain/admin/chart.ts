import { DAY_MS } from "../dates";
import { isPaid } from "../order-status";

/** The admin orders page's chart: revenue and paid orders per week. */

/**
 * The chart's words. Its line counts paid orders only (addToWeeks), beside a Total Orders card that counts
 * every order: so it says "paid orders" wherever it names the line.
 */
export const CHART_WORDS = {
  title: "Revenue and paid orders per week",
  key: "bars revenue, line paid orders",
  column: "Paid orders",
  /** Which orders it counts, beside the cards' hints. */
  counts:
    "Counts paid, in-progress and completed orders in the week they were placed; pending, failed, refunded and abandoned checkouts (cancelled) are left out.",
} as const;

/** The chart's span: twelve weeks ending now. */
export const CHART_WEEKS = 12;

export type WeekPoint = { weekStart: Date; revenue: number; orders: number };

/** What the chart needs of an order. */
export type ChartRow = { status: string; amount_paid: number; created_at: Date };

/** The empty series: `weeks` weeks ending now, oldest first. */
export function emptyWeeks(now: Date, weeks = CHART_WEEKS): WeekPoint[] {
  return Array.from({ length: weeks }, (_, i) => ({
    weekStart: new Date(now.getTime() - (weeks - i) * 7 * DAY_MS),
    revenue: 0,
    orders: 0,
  }));
}

/** Counts one order into its week (paid orders only; older or future ones are left out). */
export function addToWeeks(points: WeekPoint[], row: ChartRow, now: Date): void {
  if (!isPaid(row.status)) return;
  const age = now.getTime() - row.created_at.getTime();
  if (age < 0) return;
  const index = points.length - 1 - Math.floor(age / (7 * DAY_MS));
  if (index < 0) return;
  points[index].revenue += row.amount_paid;
  points[index].orders += 1;
}

/** Revenue (cents) and paid orders per week, oldest first, the last `weeks` weeks ending now. */
export function weeklySeries(rows: ChartRow[], now: Date, weeks = CHART_WEEKS): WeekPoint[] {
  const points = emptyWeeks(now, weeks);
  for (const r of rows) addToWeeks(points, r, now);
  return points;
}
