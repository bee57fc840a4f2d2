import { describe, expect, it } from "vitest";
import type { OrderFilters } from "~/domain/admin/order-filters";
import { parseCursor } from "~/domain/paging";
import { listOrders, ordersFilter, ordersPage } from "~/server/admin/orders.server";
import { Order } from "~/server/models/index.server";
import { useTestDatabase } from "../support/db";

/**
 * The orders list's filters run over the order digest (on FerretDB a query by status, date or
 * address scans every order), and its rows are read by `_id`. The CSV and "select all" still ask the database
 * (`ordersFilter`): both must name the same orders, in the same order, for every filter.
 */
useTestDatabase();

const H = 3_600_000;
const now = new Date();
const STATUSES = ["pending", "paid", "in_progress", "completed", "refunded", "cancelled"];

describe("the admin list's filters by the digest", () => {
  it("name the orders the database query names, newest first, page after page, each counted", async () => {
    const docs = Array.from({ length: 60 }, (_, i) => ({
      email: `${i % 3 ? "alice" : "bob"}${i % 5}@filters.test`,
      amount_total: 30_000,
      amount_paid: 30_000,
      status: STATUSES[i % STATUSES.length],
      // Some share a time, so pages end inside a tie (the _id breaks it).
      created_at: new Date(now.getTime() - Math.floor(i / 2) * 20 * H),
      clock_deadline: i % 4 ? new Date(now.getTime() + (i % 7) * 2 * H - 5 * H) : null,
      draft_delivered_at: i % 11 === 0 ? now : null,
      refunded_at: i % 13 === 0 ? now : null,
    }));
    const made = await Order.insertMany(docs);
    const idPrefix = made[7]._id.slice(0, 3);
    const cases: OrderFilters[] = [
      {},
      { status: "paid" },
      { status: "completed", date: "week" },
      { date: "month" },
      { date: "today" },
      { clock: "overdue" },
      { clock: "due-soon" },
      { q: "alice1" },
      { q: "bob" },
      { q: idPrefix },
      { q: `order #${idPrefix}` },
      { status: "in_progress", q: "alice" },
    ] as OrderFilters[];
    for (const f of cases) {
      const expected = (
        await Order.find(ordersFilter(f, now), { _id: 1 }).sort({ created_at: -1, _id: -1 }).lean()
      ).map((o) => o._id);
      expect(expected.length, JSON.stringify(f)).toBeGreaterThan(0);
      const seen: string[] = [];
      let cursor = null;
      for (let pages = 0; pages < 100; pages++) {
        const { page, total } = await listOrders(f, { cursor, pageSize: 4, now });
        expect(total, JSON.stringify(f)).toBe(expected.length);
        seen.push(...page.rows.map((r) => r.id));
        if (!page.next) break;
        cursor = parseCursor(page.next);
      }
      expect(seen, JSON.stringify(f)).toEqual(expected);
    }
    // The page's count of a filtered list is the filter's; written orders are seen at the next view.
    const before = await ordersPage({ status: "paid" }, { now });
    await Order.create({
      email: "new@filters.test",
      amount_total: 1,
      status: "paid",
      created_at: new Date(now.getTime() + 1),
    });
    const after = await ordersPage({ status: "paid" }, { now });
    expect(after.total).toBe(before.total + 1);
    expect(after.page.rows[0].email).toBe("new@filters.test");
    // The rows are kept between views, yet a change to what a row shows (not a field the filters read) shows next.
    expect(after.page.rows[0].guest).toBe(true);
    await Order.updateOne(
      { _id: after.page.rows[0].id },
      { $set: { user_id: "claimed-at-sign-up", coupon_code: "SAVE10" } },
    );
    const claimed = await ordersPage({ status: "paid" }, { now });
    expect(claimed.page.rows[0]).toMatchObject({ id: after.page.rows[0].id, guest: false });
  });
});
