import { randomUUID } from "node:crypto";
import mongoose from "mongoose";
import { describe, expect, it } from "vitest";
import { summaryCards, tallyOrders, type FigureRow } from "~/domain/admin/figures";
import { formatCents } from "~/domain/money";
import { digestFromSnapshot, orderDigest } from "~/server/admin/order-digest.server";
import { listOrders, orderFigures, ordersPage } from "~/server/admin/orders.server";
import { Order, OrderChange, OrderChangeMark } from "~/server/models/index.server";
import * as bulkList from "~/routes/admin._index";
import * as refund from "~/routes/admin.orders.$orderId_.refund";
import * as restart from "~/routes/admin.orders.$orderId_.restart-clock";
import { action as webhook } from "~/routes/webhooks.stripe";
import { startCheckout } from "~/server/checkout.server";
import { deleteOrderData } from "~/server/data-deletion.server";
import { recordDelivery, startClock } from "~/server/delivery-clock.server";
import { Coupon } from "~/server/models/index.server";
import { post } from "../support/admin";
import { signedInUser } from "../support/auth";
import { useTestDatabase } from "../support/db";
import { sessionEvent, webhookRequest } from "../support/stripe-events";

// The admin figures come from the order digest (app/server/admin/order-digest.server.ts), kept
// current from the orders' change log. Each test compares what the page shows with one plain
// pass over the orders, read raw, after writes of every kind the app makes.

const conn = useTestDatabase();
const HOUR = 3_600_000;

/** The cards as one pass over every order (read raw, no digest) counts them. */
async function truth(now: Date) {
  const docs = (await Order.collection.find({}).toArray()) as unknown as FigureRow[];
  return summaryCards(tallyOrders(docs, now), formatCents);
}

async function expectCurrent() {
  const now = new Date();
  expect((await orderFigures(now)).cards).toEqual(await truth(now));
  const page = await ordersPage({}, { now });
  const list = await listOrders({}, { now });
  expect(page.page.rows.map((r) => r.id)).toEqual(list.page.rows.map((r) => r.id));
  expect(page.page.next === null).toBe(list.page.next === null);
}

const newOrder = (fields: Record<string, unknown> = {}) =>
  Order.create({ email: `d-${randomUUID()}@digest.test`, amount_total: 30_000, ...fields });

const entries = () => OrderChange.countDocuments({});

describe("the order digest", () => {
  it("shows every kind of write the app makes at the next view", async () => {
    await expectCurrent(); // built from no orders at all
    const a = await newOrder();
    const b = await newOrder({ status: "paid", amount_paid: 30_000 });
    await Order.insertMany(
      Array.from({ length: 30 }, (_, i) => ({
        email: `m${i}@digest.test`,
        amount_total: 30_000,
        status: i % 3 ? "completed" : "paid",
        amount_paid: 30_000,
        created_at: new Date(Date.now() - i * 40 * 24 * HOUR),
      })),
    );
    await expectCurrent();
    await Order.updateOne({ _id: a._id, status: "pending" }, { $set: { status: "paid", amount_paid: 25_000 } });
    await expectCurrent();
    await Order.updateMany({ _id: mongoose.trusted({ $in: [a._id, b._id] }) }, { $set: { status: "completed" } });
    await expectCurrent();
    await Order.updateOne({ _id: b._id }, { $set: { draft_delivered_at: new Date(), delivery_hours: 7 } });
    await expectCurrent();
    await Order.updateOne(
      { _id: a._id },
      { $set: { created_at: new Date(Date.now() - 45 * 24 * HOUR) } },
      {
        overwriteImmutable: true,
      },
    );
    await expectCurrent();
    await Order.updateMany({ status: "completed" }, { $set: { status: "in_progress" } }); // not by _id: "all"
    await expectCurrent();
    await Order.deleteOne({ _id: b._id });
    await expectCurrent();
  });

  it("misses none of 20 writes racing each other and a view", async () => {
    await expectCurrent();
    const made = await Promise.all(Array.from({ length: 10 }, () => newOrder()));
    await Promise.all([
      ...made.map((o, i) =>
        Order.updateOne({ _id: o._id }, { $set: { status: i % 2 ? "paid" : "cancelled", amount_paid: i * 100 } }),
      ),
      ...Array.from({ length: 10 }, () => newOrder({ status: "paid", amount_paid: 30_000 })),
      orderFigures(),
    ]);
    await expectCurrent();
  });

  it("logs a burst of writes in a few entries, and nothing for fields neither the figures nor the list read", async () => {
    await expectCurrent();
    const before = await entries();
    const made = await Promise.all(Array.from({ length: 30 }, () => newOrder()));
    const burst = (await entries()) - before;
    expect(burst).toBeGreaterThan(0);
    expect(burst).toBeLessThan(30);
    const after = await entries();
    await Order.updateOne({ _id: made[0]._id }, { $set: { intake_progress: 40 } });
    await Order.updateMany({ email: made[1].email }, { $set: { revision_1_enabled: true } });
    expect(await entries()).toBe(after);
    // The list shows who owns an order (a guest's, claimed at sign-up): that is noted, for the rows it keeps.
    await Order.updateMany({ email: made[1].email, user_id: null }, { $set: { user_id: "someone" } });
    expect(await entries()).toBe(after + 1);
    await expectCurrent();
  });

  it("notes a write naming more than 1,000 orders as some orders (one pass reads them), never as an oversized entry", async () => {
    await expectCurrent();
    const made = await newOrder();
    const named = [made._id, ...Array.from({ length: 1000 }, () => randomUUID())];
    const before = await OrderChange.countDocuments({ all: true });
    await Order.updateMany({ _id: mongoose.trusted({ $in: named }) }, { $set: { status: "completed" } });
    expect(await OrderChange.countDocuments({ all: true })).toBe(before + 1);
    await expectCurrent();
  });

  it("rebuilds from the orders when the log was emptied, went back, or lost an entry before it was read", async () => {
    await expectCurrent();
    // An emptied database: the orders and the whole log gone, then one new order.
    await conn().connection.db!.collection("orders").deleteMany({});
    await OrderChange.collection.deleteMany({});
    await OrderChangeMark.collection.deleteMany({});
    await newOrder({ status: "paid", amount_paid: 30_000 });
    await expectCurrent();
    expect((await orderFigures()).total).toBe(1);
    // An entry purged before this process read it.
    await newOrder();
    await OrderChange.collection.deleteMany({});
    await expectCurrent();
    expect((await orderFigures()).total).toBe(2);
    // A process's mark that went back (a restored database), with an order written raw meanwhile.
    await Order.collection.insertOne({
      _id: randomUUID(),
      email: "raw@digest.test",
      status: "paid",
      amount_paid: 1_000,
      amount_total: 1_000,
      created_at: new Date(),
    } as never);
    await OrderChangeMark.collection.updateMany({ _id: { $ne: "generation" } } as never, { $set: { seq: 0 } });
    await expectCurrent();
    expect((await orderFigures()).total).toBe(3);
  });
});

describe("the order digest's snapshot (what a process starting serves its first view from)", () => {
  const sorted = (rows: ReadonlyMap<string, unknown> | null) =>
    rows && [...rows.entries()].sort(([a], [b]) => a.localeCompare(b));

  it("holds the digest as the log left it, caught up with the writes made after it was written", async () => {
    // A log emptied: the next view makes a pass, and the pass is written as the snapshot.
    await OrderChangeMark.collection.deleteMany({});
    await newOrder({ status: "paid", amount_paid: 30_000 });
    await expectCurrent();
    expect(sorted(await digestFromSnapshot())).toEqual(sorted(await orderDigest()));
    // Writes after it: a start reads them from the log, as a view does.
    const late = await newOrder();
    await Order.updateOne({ _id: late._id }, { $set: { status: "paid", amount_paid: 12_300 } });
    await Order.insertMany(Array.from({ length: 5 }, (_, i) => ({ email: `s${i}@digest.test`, amount_total: 1 })));
    const fromSnapshot = await digestFromSnapshot();
    expect(fromSnapshot?.get(late._id)).toMatchObject({ status: "paid", amount_paid: 12_300 });
    expect(sorted(fromSnapshot)).toEqual(sorted(await orderDigest()));
  });

  it("is not used once the log was emptied or restored (another generation): the start makes a pass", async () => {
    await expectCurrent();
    expect(await digestFromSnapshot()).not.toBeNull();
    await OrderChangeMark.collection.deleteMany({});
    expect(await digestFromSnapshot()).toBeNull();
    await expectCurrent();
  });
});

describe("the order digest beside the app's own writes", () => {
  it("agrees with one plain pass over the orders after each way the app writes an order", async () => {
    const { cookie } = await signedInUser({ admin: true });
    await Coupon.create({ code: "DIGEST10", discount_type: "percentage", discount_value: 10 });
    // The checkout: pending orders priced by the server, one with a coupon and an add-on.
    const checkout = async (email: string, couponCode?: string) => {
      const started = await startCheckout({ email, addOnIds: ["logo-design"], couponCode });
      if (started.kind !== "started") throw new Error(`checkout ${started.kind}`);
      return (await Order.findById(started.orderId).lean())!;
    };
    const a = await checkout(`a-${randomUUID()}@digest.test`, "DIGEST10");
    const b = await checkout(`b-${randomUUID()}@digest.test`);
    const c = await checkout(`c-${randomUUID()}@digest.test`);
    await expectCurrent();
    // Stripe's signed webhook pays them.
    for (const o of [a, b, c]) {
      const paid = sessionEvent("checkout.session.completed", {
        id: o.stripe_session_id!,
        orderId: o._id,
        amount: o.amount_total!,
      });
      expect((await webhook({ request: webhookRequest(paid), params: {}, context: {} })).status).toBe(200);
    }
    await expectCurrent();
    // The delivery clock: started, a first draft delivered (a's), restarted by the admin (b's).
    await startClock(a._id, new Date(Date.now() - 5 * HOUR));
    await startClock(b._id, new Date(Date.now() - 30 * HOUR));
    await recordDelivery({ orderId: a._id, draftUrl: "https://draft.example/a" });
    await expectCurrent();
    const restarted = await post(
      restart.action,
      "/",
      cookie,
      { intent: "restart", missing: "Logo", restarts: "0" },
      {
        orderId: b._id,
      },
    );
    expect(restarted.status).toBe(303);
    await expectCurrent();
    // The admin's bulk status change, then a refund through Stripe's Refunds API.
    const moved = await post(bulkList.action, "/admin", cookie, {
      intent: "bulk",
      action: "completed",
      orderIds: [a._id],
    });
    expect(moved.status).toBe(303);
    await expectCurrent();
    await startClock(c._id, new Date(Date.now() - 30 * HOUR));
    const refunded = await post(
      refund.action,
      `/admin/orders/${c._id}/refund`,
      cookie,
      {
        intent: "refund",
        reason: "Missed the window",
      },
      { orderId: c._id },
    );
    expect(refunded.status).toBe(303);
    expect((await Order.findById(c._id).lean())!.status).toBe("refunded");
    await expectCurrent();
    // A customer's data deleted on request: the order stays for the books, its person gone.
    await deleteOrderData({ orderId: b._id, reason: "Asked for deletion" });
    await expectCurrent();
  });
});
