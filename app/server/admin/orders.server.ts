import mongoose from "mongoose";
import { shortId } from "~/domain/orders";
import { BULK_MAX, BULK_MESSAGES, type BulkAction } from "~/domain/admin/bulk";
import { newTally, summaryCards, tallyOrder, TREND_BASIS } from "~/domain/admin/figures";
import {
  compareByDeadline,
  compareNewestFirst,
  dateFilterStart,
  deadlinePart,
  matchesFilters,
  PAGE_SIZE,
  searchTerm,
  type OrderFilters,
} from "~/domain/admin/order-filters";
import { CSV_COLUMNS, csvLine } from "~/domain/admin/orders-csv";
import { clockState, clockSummary, DUE_SOON_HOURS } from "~/domain/delivery-clock";
import { adminStatusTone, PAID_STATUSES, statusText } from "~/domain/order-status";
import { formatCents } from "~/domain/money";
import { encodeCursor, type PageCursor } from "~/domain/paging";
import { Order } from "../models/index.server";
import { DIGEST_FIELDS, LISTED_FIELDS } from "../models/order.server";
import { orderDigestStamped, type DigestRow } from "./order-digest.server";
import { afterCursor, allOf, newestFirst } from "../paging.server";
import { sendReminders } from "../reminders.server";
import { addOnsInShort } from "~/domain/receipt";
import { recordAdminActions, type Actor } from "./audit.server";
import { setRevisionRound } from "../revisions.server";
import { HOUR_MS } from "~/domain/dates";

const trusted = mongoose.trusted;

/** deadlinePart 1 as a query: the clock runs (a deadline, no draft delivered, not refunded, data kept)... */
const CLOCK_RUNS = {
  draft_delivered_at: null,
  refunded_at: null,
  data_deleted_at: null,
  clock_deadline: trusted({ $ne: null }),
};
/**
 * The orders page's queries (ARCHITECTURE.md rule 7): equality and ranges on
 * indexed fields (status, created_at, email, _id), keyset pages on (created_at,
 * _id), one accumulator per $group, arithmetic in TypeScript.
 */
export function ordersFilter(f: OrderFilters, now: Date): Record<string, unknown> {
  const conditions: Record<string, unknown>[] = [];
  if (f.status) conditions.push({ status: f.status });
  if (f.date) conditions.push({ created_at: trusted({ $gte: dateFilterStart(f.date, now) }) });
  // The delivery clock's filters: only orders whose clock runs (started, undelivered, not refunded, data kept).
  // Sorting by deadline filters nothing (listOrders walks every order in deadlinePart's two parts).
  if (f.clock) {
    const deadline =
      f.clock === "overdue"
        ? { $ne: null, $lt: now }
        : { $gte: now, $lte: new Date(now.getTime() + DUE_SOON_HOURS * HOUR_MS) };
    conditions.push({ ...CLOCK_RUNS, clock_deadline: trusted(deadline) });
  }
  if (f.q) {
    const { emailPrefix, idPrefix } = searchTerm(f.q);
    const or: Record<string, unknown>[] = [{ email: trusted({ $gte: emailPrefix, $lt: `${emailPrefix}\uffff` }) }];
    if (idPrefix) or.push({ _id: trusted({ $gte: idPrefix, $lt: `${idPrefix}\uffff` }) });
    conditions.push({ $or: or });
  }
  return allOf(...conditions);
}

const NEWEST_FIRST = newestFirst("created_at");
/** The fields a row of the list reads (scripts/bench/admin-orders.ts runs the same queries bare). */
export const ROW_FIELDS = Object.fromEntries([...DIGEST_FIELDS, ...LISTED_FIELDS].map((f) => [f, 1])) as Record<
  (typeof DIGEST_FIELDS)[number] | (typeof LISTED_FIELDS)[number],
  1
>;

export type AdminOrderRow = {
  id: string;
  shortId: string;
  email: string;
  guest: boolean;
  status: string;
  statusText: string;
  tone: ReturnType<typeof adminStatusTone>;
  amount: string;
  createdAt: string;
  paymentIntentId: string | null;
  /** The delivery clock in words ("5 h 12 min left", "Overdue by 2 h"), null before it starts. */
  clock: string | null;
  clockTone: "green" | "yellow" | "red" | "grey";
  /** The customer's data was deleted: the order has ended. */
  dataDeleted: boolean;
  /** The add-ons bought, in short ("Priority, 2 Extra Pages"); empty when none. */
  addOns: string;
};

function toRow(
  o: {
    _id: string;
    email: string;
    user_id?: string | null;
    status: string;
    amount_paid: number;
    created_at?: Date;
    stripe_payment_intent_id?: string | null;
    clock_started_at?: Date | null;
    clock_deadline?: Date | null;
    draft_delivered_at?: Date | null;
    refunded_at?: Date | null;
    data_deleted_at?: Date | null;
    add_ons?: { id: string; name: string }[];
  },
  now: Date,
): AdminOrderRow {
  const clock = clockState(
    {
      startedAt: o.clock_started_at ?? null,
      deadline: o.clock_deadline ?? null,
      windowHours: null,
      deliveredAt: o.draft_delivered_at ?? null,
      refundedAt: o.refunded_at ?? null,
      dataDeletedAt: o.data_deleted_at ?? null,
    },
    now,
  );
  return {
    id: o._id,
    shortId: shortId(o._id),
    email: o.email,
    guest: !o.user_id,
    status: o.status,
    statusText: statusText(o.status),
    tone: adminStatusTone(o.status),
    amount: formatCents(o.amount_paid),
    createdAt: (o.created_at ?? new Date(0)).toISOString(),
    paymentIntentId: o.stripe_payment_intent_id ?? null,
    clock:
      clock.kind === "running" || clock.kind === "overdue" || clock.kind === "delivered" ? clockSummary(clock) : null,
    dataDeleted: Boolean(o.data_deleted_at),
    addOns: addOnsInShort(o.add_ons ?? []),
    clockTone:
      clock.kind === "overdue" ? "red" : clock.kind === "running" ? (clock.dueSoon ? "yellow" : "green") : "grey",
  };
}

type OrderRowDoc = Parameters<typeof toRow>[0];

/**
 * The first `n` rows that `match` and come after `cursor` in the list's order: one pass, keeping the best `n`
 * (a page is small, the digest is every order).
 */
function firstOf(
  rows: Iterable<DigestRow>,
  n: number,
  match: (r: DigestRow) => boolean,
  after: (r: DigestRow) => boolean,
  compare: (a: DigestRow, b: DigestRow) => number,
) {
  const first: DigestRow[] = [];
  let total = 0;
  for (const r of rows) {
    if (!match(r)) continue;
    total += 1;
    if (!after(r) || (first.length === n && compare(r, first[n - 1]) >= 0)) continue;
    let i = first.length;
    while (i > 0 && compare(r, first[i - 1]) < 0) i--;
    first.splice(i, 0, r);
    if (first.length > n) first.pop();
  }
  return { first, total };
}

/** The cursor a row ends a page with: its deadline in the deadline sort's first part, else its creation time. */
function cursorOf(r: DigestRow, byDeadline: boolean): PageCursor {
  return byDeadline && deadlinePart(r) === 1
    ? { at: r.clock_deadline!, id: r._id }
    : { at: r.created_at, id: r._id, ...(byDeadline ? { part: 2 as const } : {}) };
}

/** The row a cursor names, as the list's order compares it (only its sort time and `_id` count). */
function cursorRow(cursor: PageCursor, byDeadline: boolean): DigestRow {
  const firstPart = byDeadline && cursor.part !== 2;
  return {
    _id: cursor.id,
    created_at: cursor.at,
    clock_deadline: firstPart ? cursor.at : null,
    status: "",
    email: "",
    amount_paid: 0,
  };
}

/**
 * One page of the orders list and how many orders match: the order digest names them, filtered and
 * sorted in memory (`matchesFilters`, `compareNewestFirst`, `compareByDeadline`), and their rows are read by
 * `_id`, so on FerretDB a page costs the same at 100,000 orders as at 1,000: no query but `_id` lookups.
 */
async function pageOf(
  digest: Stamped,
  f: OrderFilters,
  options: { cursor?: PageCursor | null; pageSize?: number; now?: Date } = {},
) {
  const { cursor = null, pageSize = PAGE_SIZE, now = new Date() } = options;
  const byDeadline = f.sort === "deadline";
  const compare = byDeadline ? compareByDeadline : compareNewestFirst;
  const from = cursor && cursorRow(cursor, byDeadline);
  const { first, total } = keptAnswer(digest.stamp, now, JSON.stringify(["page", f, cursor, pageSize]), () =>
    firstOf(digest.rows.values(), pageSize + 1, matchesFilters(f, now), (r) => !from || compare(r, from) > 0, compare),
  );
  const ids = first.slice(0, pageSize).map((r) => r._id);
  // Kept like the choice of rows: every write to a field the list shows is in the change log, so until the
  // digest's stamp changes, the rows read by `_id` for the last view are the rows the database holds.
  const found = await keptAnswer(digest.stamp, now, JSON.stringify(["rows", ids]), () => rowsById(ids));
  const last = first.at(pageSize - 1);
  return {
    page: {
      rows: found.map((r) => toRow(r, now)),
      next: first.length > pageSize && last ? encodeCursor(cursorOf(last, byDeadline)) : null,
      first: !cursor,
      pageSize,
    },
    total,
  };
}

type Stamped = Awaited<ReturnType<typeof orderDigestStamped>>;

/** The list's rows of these orders, by `_id` (an order deleted meanwhile is left out). */
async function rowsById(ids: string[]): Promise<OrderRowDoc[]> {
  const docs = await Promise.all(
    ids.map((id) => Order.collection.findOne({ _id: id } as never, { projection: ROW_FIELDS })),
  );
  return docs.filter((d): d is NonNullable<typeof d> => d !== null) as unknown as OrderRowDoc[];
}

/** One page of the filtered list after `cursor`, how many orders match, and whether there are any. */
export async function listOrders(
  f: OrderFilters,
  options: { cursor?: PageCursor | null; pageSize?: number; now?: Date } = {},
) {
  const digest = await orderDigestStamped();
  return { ...(await pageOf(digest, f, options)), anyOrders: digest.rows.size > 0 };
}

/**
 * What the views work out from the digest (the figures, a page's orders and count), kept until the digest changes
 * or the minute turns: at 100,000 orders each is a pass over them in memory (about 50 and 30 ms), and views come far
 * more often than orders change. Within the minute, an order crossing a period's edge (30 days, a week, a delivery
 * deadline) shows at the next minute; every change to an order shows at the next view.
 */
const kept = new Map<string, unknown>();
let keptUnder = "";
/** At most this many answers a minute (pages of filters and cursors); past it, they are worked out again. */
const KEPT_MAX = 100;
function keptAnswer<T>(stamp: string, now: Date, key: string, work: () => T): T {
  const under = `${stamp}@${Math.floor(now.getTime() / 60_000)}`;
  if (keptUnder !== under) {
    kept.clear();
    keptUnder = under;
  }
  if (kept.has(key)) return kept.get(key) as T;
  const answer = work();
  if (kept.size < KEPT_MAX) kept.set(key, answer);
  // An answer still to come that fails is not kept: the next view asks again.
  if (answer instanceof Promise)
    answer.catch(() => {
      if (kept.get(key) === answer) kept.delete(key);
    });
  return answer;
}

/** The six cards and the weekly chart, counted from the order digest (see order-digest.server.ts). */
function figuresOf(rows: Iterable<DigestRow>, now: Date) {
  const tally = newTally(now);
  for (const r of rows) tallyOrder(tally, r);
  return {
    /** Every order: what an unfiltered list's "Select all (N orders)" counts. */
    total: tally.all.orders,
    cards: summaryCards(tally, formatCents),
    trendBasis: TREND_BASIS,
    weeks: tally.weeks.map((w) => ({
      weekStart: w.weekStart.toISOString(),
      revenue: w.revenue,
      orders: w.orders,
    })),
  };
}

/** The six cards and the weekly chart. */
export const orderFigures = async (now = new Date()) => figuresFrom(await orderDigestStamped(), now);

const figuresFrom = (digest: Stamped, now: Date) =>
  keptAnswer(digest.stamp, now, "figures", () => figuresOf(digest.rows.values(), now));

/**
 * The orders page (/admin): one page of the list and the figures, both from the order digest (every page,
 * filtered or not: `pageOf`). A filtered list counts what matches; the unfiltered one says its figures' total.
 */
export async function ordersPage(
  f: OrderFilters,
  options: { cursor?: PageCursor | null; now?: Date; pageSize?: number } = {},
) {
  const now = options.now ?? new Date();
  const pageSize = options.pageSize ?? PAGE_SIZE;
  const digest = await orderDigestStamped();
  const figures = figuresFrom(digest, now);
  const { page, total } = await pageOf(digest, f, { ...options, now, pageSize });
  const filtered = Boolean(f.q || f.status || f.date || f.clock);
  return { ...figures, page, total: filtered ? total : figures.total, anyOrders: digest.rows.size > 0 };
}

/** The filtered list as CSV, streamed a keyset page at a time (never the whole collection in memory). */
export function ordersCsvStream(f: OrderFilters, now = new Date()): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const filter = ordersFilter(f, now);
  let cursor: PageCursor | null = null;
  let started = false;
  return new ReadableStream({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(`${CSV_COLUMNS.join(",")}\r\n`));
      }
      const docs = await Order.find(afterCursor(filter, "created_at", cursor), ROW_FIELDS)
        .sort(NEWEST_FIRST)
        .limit(500)
        .lean();
      if (docs.length) {
        controller.enqueue(
          encoder.encode(
            docs
              .map(
                (d) =>
                  csvLine({
                    id: d._id,
                    status: d.status,
                    user_id: d.user_id ?? null,
                    email: d.email,
                    amount_paid: d.amount_paid,
                    currency: d.currency ?? "aud",
                    created_at: d.created_at as Date,
                    stripe_payment_intent_id: d.stripe_payment_intent_id ?? null,
                    product_name: d.product_name ?? "",
                    add_ons: d.add_ons ?? [],
                    coupon_code: d.coupon_code ?? null,
                    discount: d.discount ?? 0,
                    data_deleted: Boolean(d.data_deleted_at),
                  }) + "\r\n",
              )
              .join(""),
          ),
        );
      }
      const last = docs.at(-1);
      if (docs.length < 500 || !last) controller.close();
      else cursor = { at: last.created_at as Date, id: last._id };
    },
  });
}

/** The ids a bulk action applies to: the ticked ones, or every order matching the filters (at most BULK_MAX). */
export async function bulkTargets(input: {
  orderIds: string[];
  all: boolean;
  filters: OrderFilters;
  now?: Date;
}): Promise<string[] | "too-many"> {
  if (!input.all) return [...new Set(input.orderIds)];
  const docs = await Order.find(ordersFilter(input.filters, input.now ?? new Date()), { _id: 1 })
    .sort(NEWEST_FIRST)
    .limit(BULK_MAX + 1)
    .lean();
  return docs.length > BULK_MAX ? "too-many" : docs.map((d) => d._id);
}

/** A status change only moves paid work along: unpaid, failed or cancelled orders are left as they are. */
const MOVABLE = [...PAID_STATUSES];

/** Runs one bulk action over the orders named; returns the spec's message with how many orders it changed. */
export async function runBulkAction(action: BulkAction, ids: string[], actor: Actor): Promise<string> {
  switch (action) {
    case "completed":
    case "in_progress": {
      const movable = (
        await Order.find({ _id: trusted({ $in: ids }), status: trusted({ $in: MOVABLE }) }, { _id: 1 }).lean()
      ).map((d) => d._id);
      if (movable.length) await Order.updateMany({ _id: trusted({ $in: movable }) }, { $set: { status: action } });
      await recordAdminActions(actor, "order.status", "order", movable, { status: action, bulk: true });
      return BULK_MESSAGES.done(action, movable.length, [
        { reason: BULK_MESSAGES.notPaid, count: ids.length - movable.length },
      ]);
    }
    case "enable_revision_1": {
      const eligible = (
        await Order.find({ _id: trusted({ $in: ids }), status: trusted({ $in: MOVABLE }) }, { _id: 1 }).lean()
      ).map((d) => d._id);
      for (const id of eligible) await setRevisionRound({ orderId: id, round: 1, enabled: true, actor });
      return BULK_MESSAGES.done(action, eligible.length, [
        { reason: BULK_MESSAGES.notPaid, count: ids.length - eligible.length },
      ]);
    }
    case "send_reminders": {
      const { sent, skipped } = await sendReminders({ orderIds: ids, actor: actor.email });
      await recordAdminActions(actor, "order.reminder", "order", sent, { bulk: true });
      // Grouped by the reason each order was not sent one, in the single reminder's own words.
      const reasons = new Map<string, number>();
      for (const s of skipped) reasons.set(s.reason, (reasons.get(s.reason) ?? 0) + 1);
      return BULK_MESSAGES.done(
        action,
        sent.length,
        [...reasons].map(([reason, count]) => ({ reason, count })),
      );
    }
  }
}
