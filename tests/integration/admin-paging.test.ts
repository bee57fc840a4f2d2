import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { cursorParam, parseCursor, type Page } from "~/domain/paging";
import * as orderDetail from "~/routes/admin.orders.$orderId";
import * as orders from "~/routes/admin._index";
import * as coupons from "~/routes/admin.coupons._index";
import * as outbox from "~/routes/admin.outbox";
import * as payments from "~/routes/admin.payments";
import * as privacy from "~/routes/admin.privacy._index";
import { adminHistory } from "~/server/admin/audit.server";
import { listCoupons } from "~/server/admin/coupons.server";
import { listOrders, ordersPage } from "~/server/admin/orders.server";
import { listPaymentIssues } from "~/server/admin/payments.server";
import { deletionRequests, privacyAuditLog } from "~/server/admin/privacy.server";
import { listOutbox } from "~/server/mail/outbox.server";
import {
  AdminAuditLog,
  Coupon,
  IntakeSubmission,
  Order,
  OutboxMessage,
  PaymentIssue,
  PrivacyAuditLog,
} from "~/server/models/index.server";
import { get } from "../support/admin";
import { signedInUser } from "../support/auth";
import { useTestDatabase } from "../support/db";

/**
 * Every admin list reaches every row (app/domain/paging.ts): each is seeded with
 * more rows than a page of 3, several sharing one time (the _id breaks the tie),
 * walked page by page through its cursor, and must show every row exactly once,
 * newest first. Then hostile cursors on every page's URL: never a 5xx.
 */

useTestDatabase();

const SIZE = 3;
const T0 = Date.UTC(2026, 0, 15, 12);
/** Eleven times with ties: 3 rows at T0, 2 at T0-1s, ... so pages end in the middle of a tie. */
const TIMES = [0, 0, 0, 1, 1, 2, 3, 3, 3, 3, 4].map((s) => new Date(T0 - s * 1000));

/** Newest first, ties by _id descending: the order every list promises. */
function expectedOrder(rows: { id: string; at: Date }[]): string[] {
  return [...rows]
    .sort((a, b) => b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .map((r) => r.id);
}

/** Follows `next` from the first page to the last, as an admin clicking "Older" would. */
async function walk<T>(
  fetchPage: (cursor: ReturnType<typeof parseCursor>) => Promise<Page<T>>,
  idOf: (row: T) => string,
): Promise<string[]> {
  const seen: string[] = [];
  let cursor: ReturnType<typeof parseCursor> = null;
  for (let pages = 0; pages < 50; pages++) {
    const page = await fetchPage(cursor);
    expect(page.rows.length).toBeLessThanOrEqual(SIZE);
    expect(page.first).toBe(pages === 0);
    seen.push(...page.rows.map(idOf));
    if (!page.next) return seen;
    expect(page.rows).toHaveLength(SIZE);
    cursor = parseCursor(page.next);
    expect(cursor).not.toBeNull();
  }
  throw new Error("the list never ended");
}

async function expectEveryRowOnce<T>(
  seeded: { id: string; at: Date }[],
  fetchPage: (cursor: ReturnType<typeof parseCursor>) => Promise<Page<T>>,
  idOf: (row: T) => string,
) {
  const seen = await walk(fetchPage, idOf);
  expect(seen).toEqual(expectedOrder(seeded));
  expect(new Set(seen).size).toBe(seeded.length);
}

const orderId = () => randomUUID();

describe("every admin list pages to its last row, each row once, newest first", () => {
  it("orders (with and without a filter)", async () => {
    const seeded = TIMES.map((at) => ({ id: orderId(), at }));
    await Order.insertMany(
      seeded.map((s, i) => ({
        _id: s.id,
        email: `p${i}@paging.test`,
        status: i % 2 ? "paid" : "pending",
        amount_paid: 30_000,
        amount_total: 30_000,
        created_at: s.at,
      })),
    );
    await expectEveryRowOnce(
      seeded,
      (cursor) => listOrders({}, { cursor, pageSize: SIZE }).then((r) => r.page),
      (r) => r.id,
    );
    // The orders page takes its unfiltered first page from the figures' pass: the same rows, and a cursor the list carries on from.
    await expectEveryRowOnce(
      seeded,
      (cursor) =>
        cursor
          ? listOrders({}, { cursor, pageSize: SIZE }).then((r) => r.page)
          : ordersPage({}, { pageSize: SIZE }).then((r) => r.page),
      (r) => r.id,
    );
    const paid = seeded.filter((_, i) => i % 2);
    await expectEveryRowOnce(
      paid,
      (cursor) => listOrders({ status: "paid" }, { cursor, pageSize: SIZE }).then((r) => r.page),
      (r) => r.id,
    );
  });

  it("the outbox (all messages and one status)", async () => {
    const docs = TIMES.map((at, i) => ({
      key: `paging:${randomUUID()}`,
      to: `m${i}@paging.test`,
      subject: `Message ${i}`,
      text: "x",
      html: "x",
      status: i < 4 ? "failed" : "sent",
      attempts: 1,
      next_attempt_at: at,
      created_at: at,
    }));
    const { insertedIds } = await OutboxMessage.collection.insertMany(docs);
    const seeded = docs.map((d, i) => ({ id: String(insertedIds[i]), at: d.created_at }));
    await expectEveryRowOnce(
      seeded,
      (cursor) => listOutbox({ cursor, pageSize: SIZE }),
      (r) => r.id,
    );
    await expectEveryRowOnce(
      seeded.slice(0, 4),
      (cursor) => listOutbox({ status: "failed", cursor, pageSize: SIZE }),
      (r) => r.id,
    );
  });

  it("coupons", async () => {
    const docs = TIMES.map((at, i) => ({
      code: `PAGE${i}${randomUUID().slice(0, 4)}`.toUpperCase(),
      discount_type: "fixed",
      discount_value: 1000,
      active: true,
      allowed_emails: [],
      allowed_domains: [],
      created_at: at,
    }));
    const { insertedIds } = await Coupon.collection.insertMany(docs);
    const seeded = docs.map((d, i) => ({ id: String(insertedIds[i]), at: d.created_at }));
    await expectEveryRowOnce(
      seeded,
      (cursor) => listCoupons({ cursor, pageSize: SIZE }),
      (r) => r.id,
    );
  });

  it("payments: the open list and the resolved list, each on its own cursor", async () => {
    const issue = (i: number, at: Date, resolvedAt: Date | null) => ({
      _id: `amount_mismatch:cs_paging_${i}_${randomUUID().slice(0, 8)}`,
      kind: "amount_mismatch",
      order_id: orderId(),
      stripe_session_id: `cs_paging_${i}`,
      expected_cents: 30_000,
      paid_cents: 25_000,
      created_at: at,
      resolved_at: resolvedAt,
      resolution: resolvedAt ? "resolved" : null,
    });
    const open = TIMES.map((at, i) => issue(i, at, null));
    const resolved = TIMES.map((at, i) => issue(100 + i, new Date(T0 - 86_400_000), at));
    await PaymentIssue.collection.insertMany([...open, ...resolved] as never[]);
    await expectEveryRowOnce(
      open.map((d) => ({ id: d._id, at: d.created_at })),
      (cursor) => listPaymentIssues({ openCursor: cursor, pageSize: SIZE }).then((r) => r.open),
      (r) => r.id,
    );
    await expectEveryRowOnce(
      resolved.map((d) => ({ id: d._id, at: d.resolved_at! })),
      (cursor) => listPaymentIssues({ resolvedCursor: cursor, pageSize: SIZE }).then((r) => r.resolved),
      (r) => r.id,
    );
  });

  it("the privacy audit log", async () => {
    const docs = TIMES.map((at) => ({
      key: randomUUID(),
      timestamp: at,
      action: "ai_processing",
      privacy_level: "standard",
      order_id: orderId(),
      ai_provider: "test",
    }));
    const { insertedIds } = await PrivacyAuditLog.collection.insertMany(docs);
    const seeded = docs.map((d, i) => ({ id: String(insertedIds[i]), at: d.timestamp }));
    await expectEveryRowOnce(
      seeded,
      (cursor) => privacyAuditLog({ cursor, pageSize: SIZE }),
      (r) => r.id,
    );
  });

  it("deletion requests", async () => {
    const docs = TIMES.map((at, i) => {
      const id = orderId();
      return {
        _id: id,
        order_id: id,
        business_name: `Business ${i}`,
        contact_email: `d${i}@paging.test`,
        data_deletion_requested: true,
        data_deletion_date: at,
      };
    });
    await IntakeSubmission.collection.insertMany([
      ...docs,
      { _id: orderId(), order_id: "not-requested", data_deletion_requested: false, data_deletion_date: null },
    ] as never[]);
    await expectEveryRowOnce(
      docs.map((d) => ({ id: d._id, at: d.data_deletion_date })),
      (cursor) => deletionRequests({ cursor, pageSize: SIZE }),
      (r) => r.orderId,
    );
  });

  it("an order's admin history (only that order's entries)", async () => {
    const target = orderId();
    const entry = (id: string, at: Date) => ({
      actor_id: "a",
      actor_email: "admin@paging.test",
      action: "order.status",
      target_type: "order",
      target_id: id,
      details: {},
      at,
    });
    const docs = TIMES.map((at) => entry(target, at));
    const { insertedIds } = await AdminAuditLog.collection.insertMany([...docs, entry(orderId(), TIMES[0])]);
    const seeded = docs.map((d, i) => ({ id: String(insertedIds[i]), at: d.at }));
    await expectEveryRowOnce(
      seeded,
      (cursor) => adminHistory(target, { cursor, pageSize: SIZE }),
      (r) => r.id,
    );
  });
});

describe("a cursor, not an offset", () => {
  it("two admins on page 2 while a new row arrives: neither repeats nor skips a row", async () => {
    const target = orderId();
    const entry = (at: Date) => ({
      actor_id: "a",
      actor_email: "admin@paging.test",
      action: "order.status",
      target_type: "order",
      target_id: target,
      details: {},
      at,
    });
    const { insertedIds } = await AdminAuditLog.collection.insertMany(TIMES.map(entry));
    const all = expectedOrder(TIMES.map((at, i) => ({ id: String(insertedIds[i]), at })));
    const first = await adminHistory(target, { pageSize: SIZE });
    const cursor = parseCursor(first.next);
    const tabA = await adminHistory(target, { cursor, pageSize: SIZE });
    // A new entry lands (the newest of all) and one at the very time of the page boundary.
    await AdminAuditLog.collection.insertMany([entry(new Date(T0 + 60_000)), entry(TIMES[0])]);
    const tabB = await adminHistory(target, { cursor, pageSize: SIZE });
    expect(tabB.rows.map((r) => r.id)).toEqual(tabA.rows.map((r) => r.id));
    expect([...first.rows, ...tabA.rows].map((r) => r.id)).toEqual(all.slice(0, 2 * SIZE));
  });
});

describe("hostile cursors", () => {
  let cookie: string;
  let detailId: string;
  beforeAll(async () => {
    cookie = (await signedInUser({ admin: true })).cookie;
    detailId = orderId();
    await Order.create({ _id: detailId, email: "detail@paging.test", amount_total: 30_000 });
  });

  const HOSTILE = [
    "before=abc",
    "before=9999-99-99",
    `before=${"9".repeat(10_240)}`,
    `before=1700000000000_${"a".repeat(10_240)}`,
    "before[]=x",
    "before[$gt]=",
    "before=99999999999999999_x",
    "before=1700000000000_not-an-object-id",
    "before=1700000000000_%00",
    "before=-1_x",
    "before=1700000000000_$gt",
    "before=1700000000000_a&before=9",
  ];

  it("parses nothing but a well-formed cursor", () => {
    for (const q of HOSTILE.filter(
      (h) => !h.includes("not-an-object-id") && !h.includes("$gt") && !h.includes("%00") && !h.includes("&before=9"),
    )) {
      expect(cursorParam(new URLSearchParams(q))).toBeNull();
    }
    expect(parseCursor("1700000000000_abc")).toEqual({ at: new Date(1_700_000_000_000), id: "abc" });
  });

  const PAGES: { path: string; params?: () => Record<string, string>; loader: unknown; cursorParams: string[] }[] = [
    { path: "/admin", loader: orders.loader, cursorParams: ["before"] },
    { path: "/admin/outbox", loader: outbox.loader, cursorParams: ["before"] },
    { path: "/admin/coupons", loader: coupons.loader, cursorParams: ["before"] },
    { path: "/admin/payments", loader: payments.loader, cursorParams: ["before", "resolvedBefore"] },
    { path: "/admin/privacy?tab=audit", loader: privacy.loader, cursorParams: ["before"] },
    { path: "/admin/privacy?tab=deletions", loader: privacy.loader, cursorParams: ["before"] },
    {
      path: "/admin/orders/:id",
      params: () => ({ orderId: detailId }),
      loader: orderDetail.loader,
      cursorParams: ["historyBefore"],
    },
  ];

  it.each(PAGES)(
    "$path answers a hostile cursor with a page, never a 5xx",
    async ({ path, params, loader, cursorParams }) => {
      for (const param of cursorParams) {
        for (const hostile of HOSTILE) {
          const q = hostile.replace(/^before/, param).replace("&before=", `&${param}=`);
          const url = `${path.replace(":id", detailId)}${path.includes("?") ? "&" : "?"}${q}`;
          const answer = await get(loader, url, cookie, params?.());
          expect(answer.data, url).not.toBeInstanceOf(Error);
          expect(answer.status, url).toBeLessThan(500);
        }
      }
    },
  );
});
