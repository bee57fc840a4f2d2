import Stripe from "stripe";

/** The signing secret the test app and the test services share (scripts/services.sh env test). */
export const webhookSecret = () => process.env.STRIPE_WEBHOOK_SECRET!;

let n = 0;
export const uniqueId = (prefix: string) => `${prefix}_${Date.now()}_${++n}`;

export type TestSession = { id: string; orderId: string; amount: number; paymentStatus?: string };

/** A Checkout Session event as Stripe sends it (only the fields our handler reads). */
export function sessionEvent(type: string, session: TestSession, id = uniqueId("evt")) {
  return {
    id,
    object: "event",
    type,
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: session.id,
        object: "checkout.session",
        amount_total: session.amount,
        payment_status: session.paymentStatus ?? "paid",
        payment_intent: "pi_123",
        client_reference_id: session.orderId,
        metadata: { order_id: session.orderId },
      },
    },
  };
}

/** The body and headers of a webhook delivery as Stripe makes it: the event JSON and its signature (now, or at `timestamp`). */
export function signedDelivery(
  event: object,
  { secret = webhookSecret(), timestamp }: { secret?: string; timestamp?: number } = {},
) {
  const payload = JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
  return {
    method: "POST",
    body: payload,
    headers: { "stripe-signature": signature, "content-type": "application/json" },
  };
}

/** The same delivery as the webhook route's action receives it. */
export const webhookRequest = (event: object, options?: Parameters<typeof signedDelivery>[1]) =>
  new Request("http://localhost/webhooks/stripe", signedDelivery(event, options));
