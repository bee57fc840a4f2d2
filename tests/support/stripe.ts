import Stripe from "stripe";

/** A webhook delivery as Stripe makes it: the event JSON and its signature header (stripe-mock sends none itself). */
export function webhookDelivery(event: object, secret = process.env.STRIPE_WEBHOOK_SECRET!) {
  const payload = JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret });
  return new Request("http://localhost/webhooks/stripe", {
    method: "POST",
    body: payload,
    headers: { "stripe-signature": signature, "content-type": "application/json" },
  });
}
