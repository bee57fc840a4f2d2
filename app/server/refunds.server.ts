import { formatCents } from "~/domain/money";
import { shortId } from "~/domain/orders";
import { clockState, clockSummary, refundable, refundDue, refundNotDue } from "~/domain/delivery-clock";
import type Stripe from "stripe";
import { recordAdminAction, type Actor } from "./admin/audit.server";
import { DELETED_EMAIL } from "./data-deletion.server";
import { clockFactsOf } from "./delivery-clock.server";
import { isDuplicateKeyError } from "./db.server";
import { errorMessage, log } from "./log.server";
import { orderRefunded } from "./mail/messages.server";
import { queueMail } from "./mail/outbox.server";
import { IntakeToken, Order, OrderEvent } from "./models/index.server";
import { getStripe } from "./stripe.server";

/**
 * Full refunds: an admin's (through Stripe's Refunds API, or an offline refund
 * in the offline test checkout) and one made in Stripe's dashboard (its
 * charge.refunded webhook). Both end in recordRefund: one event under the key
 * refund:{order}, and only the request that inserted it changes the status,
 * writes the audit entry and queues the e-mail (itself keyed), so twenty racing
 * posts, a post and its webhook, or duplicate and out-of-order webhooks give one
 * refund, one status change and one e-mail.
 */

export type RefundOutcome = "refunded" | "already-refunded" | "not-refundable" | "failed";

type RefundableOrder = {
  _id: string;
  email: string;
  status: string;
  amount_paid: number;
  stripe_payment_intent_id?: string | null;
  stripe_session_id?: string | null;
  refunded_at?: Date | null;
};

const refundKey = (orderId: string) => `refund:${orderId}`;

/** The admin's Refund: the full amount paid, with the admin's reason in the audit log. */
export async function refundOrder(input: { orderId: string; reason: string; actor: Actor }): Promise<RefundOutcome> {
  const order = (await Order.findById(input.orderId).lean()) as RefundableOrder | null;
  if (!order) return "not-refundable";
  if (order.refunded_at || (await OrderEvent.exists({ _id: refundKey(input.orderId) }))) {
    await finishRefund(input.orderId); // a refund recorded by a request that died before its last step
    return "already-refunded";
  }
  if (!refundable(order)) return "not-refundable";

  let refundId: string | null;
  try {
    refundId = await refundPayment(order);
  } catch (error) {
    // Another request may have refunded it meanwhile (Stripe then refuses a second refund).
    if (await OrderEvent.exists({ _id: refundKey(input.orderId) })) return "already-refunded";
    log("error", "refund.failed", { order_id: input.orderId, reason: errorMessage(error) });
    return "failed";
  }
  const made = await recordRefund({
    orderId: input.orderId,
    amount: order.amount_paid,
    refundId,
    source: "admin",
    reason: input.reason,
    actor: input.actor,
  });
  return made ? "refunded" : "already-refunded";
}

/**
 * Refunds the payment in full and returns the refund's id. With Stripe: the
 * Refunds API under the idempotency key refund:{order}, so racing or retried
 * requests make one refund; a charge already refunded (in the dashboard, its
 * webhook not here yet) counts as refunded. Offline test checkout: an offline refund.
 */
async function refundPayment(order: RefundableOrder): Promise<string | null> {
  const stripe = getStripe();
  if (!stripe) return `offline_refund_${order._id}`;
  let paymentIntent = order.stripe_payment_intent_id ?? null;
  if (!paymentIntent && order.stripe_session_id?.startsWith("cs_")) {
    const session = await stripe.checkout.sessions.retrieve(order.stripe_session_id);
    paymentIntent =
      typeof session.payment_intent === "string" ? session.payment_intent : (session.payment_intent?.id ?? null);
  }
  if (!paymentIntent) throw new Error("The order has no Stripe payment to refund");
  try {
    const refund = await stripe.refunds.create(
      { payment_intent: paymentIntent, amount: order.amount_paid, metadata: { order_id: order._id } },
      { idempotencyKey: refundKey(order._id) },
    );
    return refund.id;
  } catch (error) {
    if ((error as { code?: string }).code === "charge_already_refunded") return null;
    throw error;
  }
}

/** Stripe's actor in the audit log for a refund made in its dashboard. */
const STRIPE_ACTOR: Actor = { id: "stripe", email: "Stripe dashboard" };

/**
 * charge.refunded: a refund made in Stripe's dashboard (or the echo of our own).
 * A full refund is recorded like the admin's; a partial one is logged for the
 * admin to look at, the order left as it is.
 */
export async function recordStripeRefund(charge: Stripe.Charge): Promise<"processed" | "ignored"> {
  // Our checkout puts the order id on the payment intent, whose charge carries it; else the payment intent's order.
  const paymentIntent = typeof charge.payment_intent === "string" ? charge.payment_intent : charge.payment_intent?.id;
  const orderId =
    charge.metadata?.order_id ||
    (paymentIntent ? (await Order.findOne({ stripe_payment_intent_id: paymentIntent }, { _id: 1 }).lean())?._id : null);
  if (!orderId || !(await Order.exists({ _id: orderId }))) {
    log("warn", "refund.webhook_without_order", { charge: charge.id });
    return "ignored";
  }
  if (!charge.refunded) {
    log("warn", "refund.partial", { order_id: orderId, charge: charge.id, amount_refunded: charge.amount_refunded });
    return "ignored";
  }
  const latest = charge.refunds?.data?.[0]?.id ?? null;
  await recordRefund({
    orderId,
    amount: charge.amount_refunded,
    refundId: latest,
    source: "stripe",
    reason: "Refunded in Stripe's dashboard",
    actor: STRIPE_ACTOR,
  });
  return "processed";
}

/** Records a full refund once; true for the one call that recorded it. */
async function recordRefund(input: {
  orderId: string;
  amount: number;
  refundId: string | null;
  source: "admin" | "stripe";
  reason: string;
  actor: Actor;
}): Promise<boolean> {
  const now = new Date();
  try {
    await OrderEvent.create({
      _id: refundKey(input.orderId),
      order_id: input.orderId,
      kind: "refunded",
      at: now,
      amount: input.amount,
      refund_id: input.refundId ?? undefined,
      source: input.source,
      note: input.reason,
      actor_email: input.actor.email,
    });
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    await finishRefund(input.orderId);
    return false;
  }
  await recordAdminAction(
    input.actor,
    "order.refunded",
    { type: "order", id: input.orderId },
    { amount: input.amount, refund_id: input.refundId, source: input.source, reason: input.reason },
  );
  await finishRefund(input.orderId);
  log("info", "order.refunded", { order_id: input.orderId, amount: input.amount, source: input.source });
  return true;
}

/** The order's state and e-mail after its refund event: idempotent, from the stored event. */
async function finishRefund(orderId: string) {
  const event = await OrderEvent.findById(refundKey(orderId)).lean();
  const order = await Order.findById(orderId, { email: 1, refunded_at: 1 }).lean();
  if (!event || !order) return;
  if (!order.refunded_at)
    await Order.updateOne(
      { _id: orderId },
      {
        $set: {
          status: "refunded",
          refunded_at: event.at,
          amount_refunded: event.amount ?? 0,
          stripe_refund_id: event.refund_id ?? null,
        },
      },
    );
  // The order is closed: its intake link stops (a used link can't be renewed by the customer; its page says why).
  await IntakeToken.updateMany(
    { order_id: orderId, purpose: "intake", used: false },
    { $set: { used: true, used_at: event.at } },
  );
  // An order whose personal data was deleted keeps no address to write to.
  if (order.email === DELETED_EMAIL) return;
  await queueMail({
    key: refundKey(orderId),
    to: order.email,
    about: { orderId },
    ...orderRefunded({ orderId, amount: formatCents(event.amount ?? 0) }),
  });
}

/** True when the order was refunded: its intake is closed (the intake link's page says so). */
export async function isRefunded(orderId: string): Promise<boolean> {
  return Boolean((await Order.findById(orderId, { refunded_at: 1 }).lean())?.refunded_at);
}

/** What the refund confirmation page shows, or null for an order that does not exist. */
export async function refundPage(orderId: string, now = new Date()) {
  const order = (await Order.findById(orderId).lean()) as (RefundableOrder & Parameters<typeof clockFactsOf>[0]) | null;
  if (!order) return null;
  const state = clockState(clockFactsOf(order), now);
  return {
    orderId,
    shortId: shortId(orderId),
    email: order.email,
    amount: formatCents(order.amount_paid),
    refundable: refundable(order),
    refundedAt: order.refunded_at ? order.refunded_at.toISOString() : null,
    refundDue: refundDue(state),
    refundNotDue: refundNotDue(state),
    clock: clockSummary(state),
    offline: !getStripe(),
  };
}
