import type Stripe from "stripe";
import { isDuplicateKeyError } from "./db.server";
import { abandonCheckout, settlePayment } from "./fulfilment.server";
import { log } from "./log.server";
import { recordStripeRefund } from "./refunds.server";
import { paymentIntentIdOf, sessionPaid } from "./stripe.server";
import { StripeEvent } from "./models/index.server";
import { recordInvoiceEvent, recordSubscriptionEvent } from "./subscriptions.server";

/**
 * Handles one verified Stripe event. Each event id is recorded once (its own
 * unique key); a redelivery of an event already processed does nothing. An
 * event still being processed elsewhere is processed again, which is safe:
 * every effect below is idempotent.
 */
export async function handleStripeEvent(event: Stripe.Event): Promise<"processed" | "duplicate" | "ignored"> {
  try {
    await StripeEvent.create({ _id: event.id, type: event.type });
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    const seen = await StripeEvent.findById(event.id).lean();
    if (seen?.processed_at) return "duplicate";
  }

  const outcome = await apply(event);
  await StripeEvent.updateOne({ _id: event.id }, { $set: { processed_at: new Date() } });
  return outcome;
}

async function apply(event: Stripe.Event): Promise<"processed" | "ignored"> {
  switch (event.type) {
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted":
      return recordSubscriptionEvent(event);
    case "invoice.paid":
    case "invoice.payment_failed":
      return recordInvoiceEvent(event);
    case "charge.refunded":
      return recordStripeRefund(event.data.object);
  }
  if (!event.type.startsWith("checkout.session.")) return "ignored";
  const session = event.data.object as Stripe.Checkout.Session;
  // A maintenance plan's checkout: the plan itself arrives as customer.subscription.* events.
  if (session.metadata?.kind === "maintenance") return "ignored";
  const orderId = session.metadata?.order_id ?? session.client_reference_id;
  if (!orderId) {
    log("warn", "stripe.event_without_order", { event_id: event.id, type: event.type });
    return "ignored";
  }
  const paid = {
    orderId,
    sessionId: session.id,
    amountPaid: session.amount_total ?? 0,
    paymentIntentId: paymentIntentIdOf(session),
  };

  switch (event.type) {
    case "checkout.session.completed":
      // Card payments are paid now; bank debits complete later (async_payment_succeeded).
      if (sessionPaid(session)) await settlePayment(paid);
      return "processed";
    case "checkout.session.async_payment_succeeded":
      await settlePayment(paid);
      return "processed";
    case "checkout.session.async_payment_failed":
      await abandonCheckout(orderId, "failed");
      return "processed";
    case "checkout.session.expired":
      await abandonCheckout(orderId, "cancelled");
      return "processed";
    default:
      return "ignored";
  }
}
