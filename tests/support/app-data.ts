import { afterAll } from "vitest";
import { connectDb, disconnectDb } from "~/server/db.server";
import { Coupon } from "~/server/models/index.server";

/**
 * Browser tests arrange data in the test app's own database (what an admin or
 * an earlier visit would have left there), through the app's models.
 */
export function useAppDatabase() {
  afterAll(() => disconnectDb());
  return {
    async coupon(fields: { code: string; discount_type: "percentage" | "fixed"; discount_value: number; max_uses?: number }) {
      await connectDb();
      await Coupon.create(fields);
      return fields.code;
    },
  };
}

/** A paid order, fulfilled the way Stripe's webhook would, with its intake token and e-mail. */
export async function paidOrder(email: string) {
  const { Order } = await import("~/server/models/index.server");
  const { fulfilOrder } = await import("~/server/fulfilment.server");
  await connectDb();
  const order = await Order.create({ email, amount_total: 30_000 });
  const { token } = await fulfilOrder({ orderId: order._id, sessionId: `cs_test_${order._id}`, amountPaid: 30_000 });
  return { orderId: order._id, token };
}
