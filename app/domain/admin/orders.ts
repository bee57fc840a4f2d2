import * as z from "../zod";
import { BUSINESS_TIME_ZONE } from "../dates";
import { ORDER_STATUSES, PAID_STATUSES, type OrderStatus } from "../order-status";
import { REMINDER_MESSAGES } from "../reminders";

/**
 * The admin orders page: its query-string filters, the figures on its cards and
 * chart, its CSV and its bulk actions. Pure functions over plain rows; the
 * server module (app/server/admin/orders.server.ts) runs the queries.
 */

export const PAGE_SIZE = 25;
/** The most orders one bulk action touches; "Select all" beyond this asks for narrower filters. */
export const BULK_MAX = 500;
export const DATE_FILTERS = ["today", "week", "month", "quarter"] as const;
export type DateFilter = (typeof DATE_FILTERS)[number];

const empty = (v: unknown) => (v === "" || v === null ? undefined : v);
/** A query-string filter: empty is absent, and a value that does not fit is dropped, never an error. */
const dropInvalid = <T extends z.core.SomeType>(schema: T) =>
  z.catch(z.optional(z.preprocess(empty, schema)), undefined);

/**
 * The filters of /admin, from the query string (or the bulk form's hidden copy of it). Unknown values are dropped, never an error.
 * The page's keyset cursor (`?before=`) is read apart from them, by app/domain/paging.ts, like every admin list's.
 */
export const OrderFiltersSchema = z.object({
  q: dropInvalid(z.string().check(z.trim(), z.toLowerCase(), z.maxLength(100))),
  status: dropInvalid(z.enum(ORDER_STATUSES)),
  date: dropInvalid(z.enum(DATE_FILTERS)),
});
export type OrderFilters = z.infer<typeof OrderFiltersSchema>;

export function parseOrderFilters(params: URLSearchParams): OrderFilters {
  return OrderFiltersSchema.parse({
    q: params.get("q") ?? undefined,
    status: params.get("status") ?? undefined,
    date: params.get("date") ?? undefined,
  });
}

export function hasActiveFilters(f: OrderFilters): boolean {
  return Boolean(f.q || f.status || f.date);
}

/** The filters as a query string, for links, the CSV and the bulk form. */
export function filterQuery(f: OrderFilters): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries({ q: f.q, status: f.status, date: f.date })) if (v) params.set(k, v);
  const s = params.toString();
  return s ? `?${s}` : "";
}

/** Midnight of `now`'s date in a time zone (the business's own day by default), as an instant. */
export function startOfDay(now: Date, timeZone = BUSINESS_TIME_ZONE): Date {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-AU", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(now)
      .map((p) => [p.type, p.value]),
  );
  const asUtc = Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour, +parts.minute, +parts.second);
  const offset = asUtc - Math.floor(now.getTime() / 1000) * 1000;
  return new Date(Date.UTC(+parts.year, +parts.month - 1, +parts.day) - offset);
}

/** Date filters (spec 2 section 9): today from start of day, week the last 7 days, month the last month, quarter the last 3 months. */
export function dateFilterStart(filter: DateFilter, now: Date): Date {
  switch (filter) {
    case "today":
      return startOfDay(now);
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

/* Figures */

export const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** The "from last month" comparisons use two 30-day windows. */
export const PERIOD_DAYS = 30;
/** The chart's span, which is also the span of rows the trends are computed from. */
export const CHART_WEEKS = 12;
/** Spec 2 section 9: shown while no delivery has been measured yet. */
export const FIXED_AVG_DELIVERY_HOURS = 18;

/** A recent paid order, as the figures need it. delivery_hours: intake submission to first draft URL, when measured. */
export type FigureRow = { status: string; amount_paid: number; created_at: Date; delivery_hours: number | null };

/** All-time totals per status, from two single-accumulator $group queries. */
export type StatusTotals = {
  count: Partial<Record<OrderStatus, number>>;
  revenue: Partial<Record<OrderStatus, number>>;
};

export type SummaryCard = { label: string; value: string; caption: string };

const isPaid = (status: string) => (PAID_STATUSES as readonly string[]).includes(status);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

export type PeriodFigures = {
  revenue: number;
  orders: number;
  avgOrderValue: number;
  completed: number;
  completionRate: number;
  avgDeliveryHours: number | null;
};

/** The figures of one period's paid orders (the cards' own definitions, spec 2 section 9). */
export function periodFigures(rows: FigureRow[]): PeriodFigures {
  const paid = rows.filter((r) => isPaid(r.status));
  const revenue = sum(paid.map((r) => r.amount_paid));
  const completed = paid.filter((r) => r.status === "completed").length;
  const delivered = paid.map((r) => r.delivery_hours).filter((h): h is number => typeof h === "number");
  return {
    revenue,
    orders: paid.length,
    avgOrderValue: paid.length ? Math.round(revenue / paid.length) : 0,
    completed,
    completionRate: paid.length ? Math.round((completed / paid.length) * 100) : 0,
    avgDeliveryHours: delivered.length ? sum(delivered) / delivered.length : null,
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

function hoursChange(current: number | null, previous: number | null): string {
  if (current === null) return "no deliveries this month";
  if (previous === null) return "new this month";
  const d = Math.round(current - previous);
  return `${d > 0 ? "+" : ""}${d}h`;
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
  now: Date;
  formatMoney: (cents: number) => string;
}): SummaryCard[] {
  const { totals, now, formatMoney } = input;
  const count = (s: OrderStatus) => totals.count[s] ?? 0;
  const orders = sum(PAID_STATUSES.map(count));
  const revenue = sum(PAID_STATUSES.map((s) => totals.revenue[s] ?? 0));
  const active = count("paid") + count("in_progress");
  const completionRate = orders ? Math.round((count("completed") / orders) * 100) : 0;
  const allDelivered = periodFigures(input.recent).avgDeliveryHours;
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
    {
      label: "Avg Delivery",
      value: `${Math.round(allDelivered ?? FIXED_AVG_DELIVERY_HOURS)}h`,
      caption:
        allDelivered === null
          ? "fixed estimate until a delivery is measured"
          : fromLastMonth(hoursChange(cur.avgDeliveryHours, prev.avgDeliveryHours)),
    },
  ];
}

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

/** Hours between an intake submission and the first draft URL, to one decimal. */
export function deliveryHours(submittedAt: Date, draftAt: Date): number {
  return Math.max(0, Math.round(((draftAt.getTime() - submittedAt.getTime()) / HOUR_MS) * 10) / 10);
}

/* CSV */

export const CSV_COLUMNS = [
  "order_id",
  "status",
  "guest",
  "email",
  "amount_paid",
  "currency",
  "created_at",
  "payment_intent_id",
  "product",
] as const;
export type CsvRow = {
  id: string;
  status: string;
  user_id: string | null;
  email: string;
  amount_paid: number;
  currency: string;
  created_at: Date;
  stripe_payment_intent_id: string | null;
  product_name: string;
};

/** One CSV cell: quoted when needed, and a leading = + - @ neutralised so a spreadsheet never runs it as a formula. */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvLine(row: CsvRow): string {
  return [
    row.id,
    row.status,
    row.user_id ? "no" : "yes",
    row.email,
    (row.amount_paid / 100).toFixed(2),
    row.currency.toUpperCase(),
    row.created_at.toISOString(),
    row.stripe_payment_intent_id ?? "",
    row.product_name,
  ]
    .map(csvCell)
    .join(",");
}

/* Bulk actions */

export const BULK_ACTIONS = ["completed", "in_progress", "enable_revision_1", "send_reminders"] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];
export const BULK_ACTION_LABELS: Record<BulkAction, string> = {
  completed: "Mark as completed",
  in_progress: "Mark as in progress",
  enable_revision_1: "Enable revision 1",
  send_reminders: "Send reminders",
};

const OrderId = z.uuid();

/** The bulk form: the action, the ticked orders or "all matching the filters". Checked by the server whatever the browser sent. */
export const BulkSchema = z.object({
  action: z.preprocess(empty, z.optional(z.string())),
  orderIds: z.catch(
    z.preprocess(
      (v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]),
      z.array(OrderId).check(z.maxLength(BULK_MAX)),
    ),
    [],
  ),
  all: z.preprocess((v) => v === "on", z.boolean()),
});

export const BULK_MESSAGES = {
  noAction: "Please choose a bulk action",
  invalid: "Invalid action selected",
  noneSelected: "Please select at least one order",
  tooMany: `Select at most ${BULK_MAX} orders at once: narrow the filters first`,
  failed: "Failed to perform bulk action",
  done(action: BulkAction, n: number): string {
    switch (action) {
      case "completed":
        return `Updated ${n} orders to completed`;
      case "in_progress":
        return `Updated ${n} orders to in progress`;
      case "enable_revision_1":
        return `Enabled revision 1 for ${n} orders`;
      case "send_reminders":
        return REMINDER_MESSAGES.bulkSent(n);
    }
  },
} as const;

export function isBulkAction(v: unknown): v is BulkAction {
  return typeof v === "string" && (BULK_ACTIONS as readonly string[]).includes(v);
}
