import mongoose from "mongoose";
import { formatCents } from "~/domain/money";
import { orderIncludes } from "~/domain/order-includes";
import { TOKEN_VALID_DAYS } from "~/domain/tokens";
import { alertPaymentIssue } from "./alerts.server";
import { claimGuestOrders } from "./customer-orders.server";
import { keepCouponUse, releaseCouponUse } from "./coupons.server";
import { isDuplicateKeyError } from "./db.server";
import { absoluteUrl, getEnv } from "./env.server";
import { log } from "./log.server";
import { orderConfirmation, orderPaidNotice } from "./mail/messages.server";
import { queueMail } from "./mail/outbox.server";
import { customerReceipt } from "./receipt.server";
import { findUserByEmail, Fulfilment, Order, PaymentIssue } from "./models/index.server";
import type { PaymentIssueKind } from "~/domain/admin/payments";
import { issueToken } from "./tokens.server";

export type Payment = {
  orderId: string;
  sessionId: string;
  amountPaid: number;
  paymentIntentId?: string | null;
};

/** The links a paid order's e-mail carries: each page with its own token. */
export function orderLinks(tokens: { intake: string; status: string }) {
  return {
    intakeUrl: absoluteUrl(`/intake-form?token=${encodeURIComponent(tokens.intake)}`),
    statusUrl: absoluteUrl(`/order-status?access_token=${encodeURIComponent(tokens.status)}`),
  };
}

/** The intake form's link for a token (reminders, the admin's 'View Intake Form'). */
export const intakeLink = (token: string) => orderLinks({ intake: token, status: "" }).intakeUrl;
/** The order-status page's link for a token (the revision e-mail). */
export const statusLink = (token: string) => orderLinks({ intake: "", status: token }).statusUrl;

/** The intake token the payment issues (issued once; later calls return the same token). */
export const intakeTokenFor = (orderId: string) =>
  issueToken({ orderId, purpose: "intake", issueKey: `paid:${orderId}` });
/** The order-status token the payment issues. */
export const statusTokenFor = (orderId: string) =>
  issueToken({ orderId, purpose: "status", issueKey: `paid:${orderId}` });

export type Settlement = { state: "paid"; token: string } | { state: "review" };

/**
 * Where every payment reported from outside (Stripe's webhook, the success
 * page, the offline test checkout) enters. A payment whose amount differs from
 * the order's quoted total, even by a cent, is not fulfilled: it is held for
 * the admin as a PaymentIssue (the order keeps its status) and logged at warn.
 * Anything else is fulfilled.
 */
export async function settlePayment(payment: Payment): Promise<Settlement> {
  const order = await Order.findById(payment.orderId).lean();
  if (!order) throw new Error(`Paid checkout for unknown order ${payment.orderId}`);
  if (payment.amountPaid !== order.amount_total) {
    await recordPaymentIssue("amount_mismatch", payment, order);
    return { state: "review" };
  }
  const { token } = await fulfilOrder(payment);
  return { state: "paid", token };
}

type OrderDoc = { _id: string; amount_total: number; coupon_code?: string | null };

async function recordPaymentIssue(kind: PaymentIssueKind, payment: Payment, order: OrderDoc) {
  const issueId = `${kind}:${payment.sessionId}`;
  try {
    await PaymentIssue.create({
      _id: issueId,
      kind,
      order_id: order._id,
      stripe_session_id: payment.sessionId,
      expected_cents: order.amount_total,
      paid_cents: payment.amountPaid,
      coupon_code: order.coupon_code ?? null,
    });
    log("warn", `payment.${kind}`, {
      order_id: order._id,
      expected: order.amount_total,
      paid: payment.amountPaid,
      coupon: order.coupon_code ?? null,
    });
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error; // recorded already (a redelivery)
  }
  // On every delivery: a process that died after the insert is finished by the next (the alert is keyed).
  await alertPaymentIssue({
    id: issueId,
    kind,
    orderId: order._id,
    expectedCents: order.amount_total,
    paidCents: payment.amountPaid,
  });
}

/**
 * Fulfils a paid checkout whose amount is settled (callers with a payment from
 * outside go through settlePayment): records the payment, marks the order paid,
 * keeps its coupon use, issues the intake and order-status tokens and queues the
 * e-mail with both links. The webhook and the success page both call it, any
 * number of times, at once: each step is an insert under a unique key or an
 * idempotent $set, so the result is one paid order, one token of each purpose
 * and one e-mail. Returns the intake token.
 */
export async function fulfilOrder(payment: Payment): Promise<{ token: string }> {
  const order = await Order.findById(payment.orderId).lean();
  if (!order) throw new Error(`Paid checkout for unknown order ${payment.orderId}`);

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
  await markPaid(payment, order);
  // Paid as a guest with the address of a confirmed account: the order joins it now (viewing the dashboard writes nothing).
  if (!order.user_id) {
    const account = await findUserByEmail(order.email);
    if (account) await claimGuestOrders(account);
  }

  const token = await intakeTokenFor(payment.orderId);
  const statusToken = await statusTokenFor(payment.orderId);
  await queueMail({
    key: `order-paid:${payment.orderId}`,
    to: order.email,
    about: { orderId: payment.orderId },
    ...orderConfirmation({
      orderId: payment.orderId,
      productName: order.product_name,
      validDays: TOKEN_VALID_DAYS.intake,
      includes: orderIncludes(order),
      // Read before markPaid wrote: what was paid, and when, are this payment's.
      receipt: customerReceipt({ ...order, amount_paid: payment.amountPaid, paid_at: order.paid_at ?? new Date() }),
      ...orderLinks({ intake: token, status: statusToken }),
    }),
  });
  await queueMail({
    key: `order-paid-notice:${payment.orderId}`,
    to: getEnv().BUSINESS_EMAIL,
    replyTo: order.email,
    about: { orderId: payment.orderId },
    ...orderPaidNotice({
      orderId: payment.orderId,
      productName: order.product_name,
      addOns: (order.add_ons ?? []).map((a) => a.name),
      amount: formatCents(payment.amountPaid),
      email: order.email,
      adminUrl: `${getEnv().APP_URL}/admin/orders/${payment.orderId}`,
    }),
  });
  return { token };
}

/**
 * The state a fulfilled order must be in: paid, holding its coupon use. Run
 * after the Fulfilment insert, and again by a cancel that finds a Fulfilment
 * after its own writes: whichever of a racing pay and cancel writes last, the
 * other's check sees it, so a paid order never ends cancelled or without its use
 * (FerretDB does not make the conditional updates below atomic).
 */
async function markPaid(payment: Payment, order: OrderDoc) {
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
  if (order.coupon_code && !(await keepCouponUse(payment.orderId, order.coupon_code))) {
    await recordPaymentIssue("coupon_over_redeemed", payment, order);
  }
}

/** A checkout that will not be paid (failed, expired, cancelled): frees its coupon use. A paid order is left alone. */
export async function abandonCheckout(orderId: string, status: "failed" | "cancelled") {
  if (await Fulfilment.exists({ order_id: orderId })) return;
  await Order.updateOne({ _id: orderId, status: "pending" }, { $set: { status } });
  await releaseCouponUse(orderId);
  // A payment may have landed while we wrote: if so, put the paid state back (see markPaid).
  const paid = await Fulfilment.findOne({ order_id: orderId }).lean();
  const order = paid && (await Order.findById(orderId).lean());
  if (paid && order) {
    log("warn", "order.cancel_raced_payment", { order_id: orderId });
    await markPaid(
      {
        orderId,
        sessionId: paid.stripe_session_id,
        amountPaid: paid.amount_paid,
        paymentIntentId: paid.stripe_payment_intent_id,
      },
      order,
    );
  }
}
