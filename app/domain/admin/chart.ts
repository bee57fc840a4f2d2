import { DAY_MS } from "../dates";
import { isPaid } from "../order-status";
import type { FigureRow } from "./figures";

/** The admin orders page's chart: revenue and paid orders per week. */

/** The chart's span, which is also the span of rows the trends are computed from. */
export const CHART_WEEKS = 12;

export type WeekPoint = { weekStart: Date; revenue: number; orders: number };

/** Revenue (cents) and paid orders per week, oldest first, the last `weeks` weeks ending now. */
export function weeklySeries(rows: FigureRow[], now: Date, weeks = CHART_WEEKS): WeekPoint[] {
  const end = now.getTime();
  const points: WeekPoint[] = Array.from({ length: weeks }, (_, i) => ({
    weekStart: new Date(end - (weeks - i) * 7 * DAY_MS),
    revenue: 0,
    orders: 0,
  }));
  for (const r of rows) {
    if (!isPaid(r.status)) continue;
    const age = end - r.created_at.getTime();
    if (age < 0) continue;
    const index = weeks - 1 - Math.floor(age / (7 * DAY_MS));
    if (index < 0) continue;
    points[index].revenue += r.amount_paid;
    points[index].orders += 1;
  }
  return points;
}
