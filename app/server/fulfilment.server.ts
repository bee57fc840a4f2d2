import mongoose from "mongoose";
import { TOKEN_VALID_DAYS } from "~/domain/tokens";
import { confirmCouponUse, releaseCouponUse } from "./coupons.server";
import { connectDb, isDuplicateKeyError } from "./db.server";
import { getEnv } from "./env.server";
import { log } from "./log.server";
import { orderConfirmation } from "./mail/messages.server";
import { queueMail } from "./mail/outbox.server";
import { Fulfilment, Order } from "./models/index.server";
import { issueToken } from "./tokens.server";

export type Payment = {
  orderId: string;
  sessionId: string;
  amountPaid: number;
  paymentIntentId?: string | null;
};

/** The links a paid order's e-mail carries: each page with its own token. */
export function orderLinks(tokens: { intake: string; status: string }) {
  const base = getEnv().APP_URL;
  return {
    intakeUrl: `${base}/intake-form?token=${encodeURIComponent(tokens.intake)}`,
    statusUrl: `${base}/order-status?access_token=${encodeURIComponent(tokens.status)}`,
  };
}

/** The intake token the payment issues (issued once; later calls return the same token). */
export const intakeTokenFor = (orderId: string) => issueToken({ orderId, purpose: "intake", issueKey: `paid:${orderId}` });
/** The order-status token the payment issues. */
export const statusTokenFor = (orderId: string) => issueToken({ orderId, purpose: "status", issueKey: `paid:${orderId}` });

/**
 * Fulfils a paid checkout: records the payment, marks the order paid, turns the
 * coupon reservation into a use, issues the intake and order-status tokens and
 * queues the e-mail with both links. The webhook and the success page both call
 * it, any number of times, at once: each step is an insert under a unique key or
 * an idempotent $set, so the result is one paid order, one token of each purpose
 * and one e-mail. Returns the intake token.
 */
export async function fulfilOrder(payment: Payment): Promise<{ token: string }> {
  await connectDb();
  const order = await Order.findById(payment.orderId).lean();
  if (!order) throw new Error(`Paid checkout for unknown order ${payment.orderId}`);
  if (payment.amountPaid !== order.amount_total) {
    log("warn", "payment.amount_mismatch", { order_id: payment.orderId, expected: order.amount_total, paid: payment.amountPaid });
  }

  try {
    await Fulfilment.create({
      order_id: payment.orderId,
      stripe_session_id: payment.sessionId,
      amount_paid: payment.amountPaid,
      stripe_payment_intent_id: payment.paymentIntentId ?? undefined,
    });
    log("info", "order.paid", { order_id: payment.orderId, amount: payment.amountPaid });
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    // Already fulfilled (a retry or a race): carry on, every later step is idempotent.
  }

  await Order.updateOne(
    { _id: payment.orderId, status: mongoose.trusted({ $in: ["pending", "failed", "cancelled"] }) },
    {
      $set: {
        status: "paid",
        amount_paid: payment.amountPaid,
        stripe_session_id: payment.sessionId,
        stripe_payment_intent_id: payment.paymentIntentId ?? null,
        paid_at: new Date(),
      },
    },
  );
  await confirmCouponUse(payment.orderId);

  const token = await intakeTokenFor(payment.orderId);
  const statusToken = await statusTokenFor(payment.orderId);
  await queueMail({
    key: `order-paid:${payment.orderId}`,
    to: order.email,
    ...orderConfirmation({
      orderId: payment.orderId,
      productName: order.product_name,
      validDays: TOKEN_VALID_DAYS.intake,
      ...orderLinks({ intake: token, status: statusToken }),
    }),
  });
  return { token };
}

/** A checkout that will not be paid (failed, expired, cancelled): frees its coupon use. A paid order is left alone. */
export async function abandonCheckout(orderId: string, status: "failed" | "cancelled") {
  await connectDb();
  await Order.updateOne({ _id: orderId, status: "pending" }, { $set: { status } });
  if (!(await Fulfilment.exists({ order_id: orderId }))) await releaseCouponUse(orderId);
}
