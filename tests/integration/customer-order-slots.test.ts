import mongoose from "mongoose";
import { describe, expect, it } from "vitest";
import { claimGuestOrders } from "~/server/auth.server";
import { listOrdersForUser } from "~/server/customer-orders.server";
import { deleteOrderData } from "~/server/data-deletion.server";
import { MIGRATIONS } from "~/server/migrations.server";
import { linkCustomerOrder } from "~/server/models/customer-order.server";
import { CustomerOrder, Order, User } from "~/server/models/index.server";
import { useTestDatabase } from "../support/db";

/**
 * A customer's orders are found by `_id` (issue 36): numbered slots per customer, filled by the Order model's
 * hooks on every write that names or stops naming a customer, under unique indexes (ARCHITECTURE.md rule 7).
 */
useTestDatabase();

let n = 0;
const user = () => `user-${Date.now()}-${++n}`;
const ids = (orders: { _id: string }[]) => orders.map((o) => o._id);
const slotsOf = async (userId: string) =>
  (await CustomerOrder.find({ _id: mongoose.trusted({ $regex: `^${userId}:` }) }).lean()).sort((a, b) =>
    a._id.localeCompare(b._id),
  );
const order = (userId: string | null, fields: Record<string, unknown> = {}) =>
  Order.create({ email: `c${++n}@example.test`, amount_total: 30_000, user_id: userId, ...fields });

describe("a customer's orders by _id", () => {
  it("list the customer's own orders newest first, each in one slot, and no one else's", async () => {
    const [me, other] = [user(), user()];
    const day = 86_400_000;
    const made = [];
    for (const k of [3, 1, 2]) made.push(await order(me, { created_at: new Date(Date.now() - k * day) }));
    const theirs = await order(other);
    await order(null);
    const [b, c] = await Order.insertMany([
      { email: "many@example.test", amount_total: 1, user_id: me, created_at: new Date(Date.now() - 2000) },
      { email: "many@example.test", amount_total: 1, user_id: me, created_at: new Date(Date.now() - 1000) },
    ]);

    expect(ids(await listOrdersForUser(me))).toEqual([c._id, b._id, made[1]._id, made[2]._id, made[0]._id]);
    expect((await slotsOf(me)).map((s) => s._id)).toEqual([0, 1, 2, 3, 4].map((k) => `${me}:${k}`));
    expect(ids(await listOrdersForUser(other))).toEqual([theirs._id]);
  });

  it("give 20 orders created at once for one customer 20 slots, and an order linked 10 times at once one", async () => {
    const me = user();
    const made = await Promise.all(Array.from({ length: 20 }, () => order(me)));
    const slots = await slotsOf(me);
    expect(slots).toHaveLength(20);
    expect(new Set(slots.map((s) => s.order_id))).toEqual(new Set(ids(made)));
    expect(ids(await listOrdersForUser(me)).sort()).toEqual(ids(made).sort());

    const more = await order(null);
    await Promise.all(Array.from({ length: 10 }, () => linkCustomerOrder(me, more._id)));
    expect((await slotsOf(me)).filter((s) => s.order_id === more._id)).toHaveLength(1);
    // In a slot but not the customer's order: not listed.
    expect(ids(await listOrdersForUser(me))).not.toContain(more._id);
  });

  it("list guest orders once the account claims them, and no longer once their data is deleted", async () => {
    const address = `claim-${++n}@example.test`;
    const account = await User.create({ email: address, password_hash: "x", email_verified_at: new Date() });
    const me = String(account._id);
    const guests = [await order(null, { email: address }), await order(null, { email: address })];
    expect(await listOrdersForUser(me)).toEqual([]);

    await claimGuestOrders(account.toObject());
    await claimGuestOrders(account.toObject());
    expect(ids(await listOrdersForUser(me)).sort()).toEqual(ids(guests).sort());
    expect(await slotsOf(me)).toHaveLength(2);

    await deleteOrderData({ orderId: guests[0]._id, reason: "asked by the customer" });
    expect(ids(await listOrdersForUser(me))).toEqual([guests[1]._id]);
    // The slot stays taken (a walk goes on past it) but names no order.
    expect((await slotsOf(me)).map((s) => s.order_id)).toEqual([`${me}:0`, guests[1]._id]);
    const later = await order(me);
    expect(ids(await listOrdersForUser(me))).toEqual([later._id, guests[1]._id]);
  });

  it("put the orders stored before the slots in them, by the migration, once", async () => {
    const me = user();
    const { insertedIds } = await Order.collection.insertMany(
      [1, 2, 3].map((k) => ({
        _id: `${me}-order-${k}`,
        email: "before@example.test",
        amount_total: 30_000,
        status: "paid",
        user_id: me,
        created_at: new Date(Date.now() - k * 1000),
      })) as never[],
    );
    expect(await listOrdersForUser(me)).toEqual([]);
    const migration = MIGRATIONS.find((m) => m.id === "2026-11-27-customer-order-slots")!;
    expect(await migration.up(new Date())).toMatch(/^put \d+ orders in their customers' slots$/);
    await migration.up(new Date());
    expect(ids(await listOrdersForUser(me))).toEqual(Object.values(insertedIds).map(String));
    expect(await slotsOf(me)).toHaveLength(3);
  });
});
