import mongoose from "mongoose";
import { isDuplicateKeyError } from "../db.server";

/**
 * A customer's orders, found by `_id` (issue 36): FerretDB 1.24 on SQLite pushes down only an `_id`
 * equality (ARCHITECTURE.md rule 7), so `orders` by `user_id` scans every order anyone placed. Instead
 * each customer has numbered slots, `<user id>:0`, `<user id>:1`, ..., each naming one of their orders,
 * and the dashboard walks them by `_id` until one is not taken, then reads each order by `_id`.
 *
 * A slot is taken by an insert (unique `_id`) and an order takes one slot at most (unique `order_id`), so
 * two links racing for one customer neither overwrite nor repeat each other, and a link run again adds
 * nothing. The Order model's hooks keep the slots in step with `orders.user_id` (order.server.ts): the slot
 * is taken before an order names its customer, and emptied before it stops naming them (a data deletion),
 * so a slot may name an order that is not (or no longer) the customer's, and the reader checks
 * `user_id`, but no order of theirs is ever missing. A slot is never removed, only emptied (its `order_id`
 * becomes its own `_id`, unique and no order's), so a walk stops only past the last slot taken.
 */
const CustomerOrderSchema = new mongoose.Schema(
  {
    _id: { type: String, required: true },
    order_id: { type: String, required: true },
  },
  { collection: "customer_orders", versionKey: false, timestamps: { createdAt: "created_at", updatedAt: false } },
);
CustomerOrderSchema.index({ order_id: 1 }, { unique: true });

export const CustomerOrder = mongoose.model("CustomerOrder", CustomerOrderSchema);

type Slot = { _id: string; order_id: string };

/** How many slots a walk reads at once: most customers have one to three orders. */
const WALK = 4;

const slotId = (userId: string, n: number) => `${userId}:${n}`;

/** The customer's slots, in the order they were taken, each read by `_id`. */
async function slotsOf(userId: string): Promise<Slot[]> {
  const slots: Slot[] = [];
  for (;;) {
    const from = slots.length;
    const batch = await Promise.all(
      Array.from({ length: WALK }, (_, i) => CustomerOrder.findById(slotId(userId, from + i)).lean<Slot>()),
    );
    const taken = batch.findIndex((slot) => !slot);
    slots.push(...(batch.slice(0, taken === -1 ? WALK : taken) as Slot[]));
    if (taken !== -1) return slots;
  }
}

/** The ids of the orders in the customer's slots, oldest link first (each may no longer be theirs). */
export async function customerOrderIds(userId: string): Promise<string[]> {
  return (await slotsOf(userId)).filter((slot) => slot.order_id !== slot._id).map((slot) => slot.order_id);
}

/** Lists the order under the customer, once however often or concurrently it is called. */
export async function linkCustomerOrder(userId: string, orderId: string): Promise<void> {
  for (;;) {
    const slots = await slotsOf(userId);
    if (slots.some((slot) => slot.order_id === orderId)) return;
    const next = slotId(userId, slots.length);
    try {
      await CustomerOrder.create({ _id: next, order_id: orderId });
      return;
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      // The slot was taken meanwhile (walk again), or the order is in a slot already (unique order_id).
      if (!(await CustomerOrder.findById(next, { _id: 1 }).lean())) return;
    }
  }
}

/** Empties the customer's slot naming the order, if any. */
export async function unlinkCustomerOrder(userId: string, orderId: string): Promise<void> {
  const slot = (await slotsOf(userId)).find((s) => s.order_id === orderId);
  if (slot) await CustomerOrder.updateOne({ _id: slot._id }, { $set: { order_id: slot._id } });
}
