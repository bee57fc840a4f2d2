import Stripe from "stripe";
import { getEnv } from "./env.server";

let client: Stripe | null | undefined;

/**
 * Stripe, when STRIPE_SECRET_KEY is set; null means the offline test checkout
 * (development and tests only: production refuses to start without the key).
 * STRIPE_API_BASE points the client at stripe-mock in tests.
 */
export function getStripe(): Stripe | null {
  if (client === undefined) {
    const env = getEnv();
    if (!env.STRIPE_SECRET_KEY) {
      client = null;
    } else {
      const base = env.STRIPE_API_BASE ? new URL(env.STRIPE_API_BASE) : null;
      client = new Stripe(env.STRIPE_SECRET_KEY, {
        maxNetworkRetries: 2,
        timeout: 20_000,
        ...(base
          ? {
              host: base.hostname,
              port: Number(base.port),
              protocol: base.protocol === "https:" ? ("https" as const) : ("http" as const),
            }
          : {}),
      });
    }
  }
  return client;
}

/**
 * The largest webhook body we read before checking its signature. Stripe's
 * checkout.session events are a few KB; this leaves room for large metadata
 * and future fields while keeping an unsigned flood bounded.
 */
export const STRIPE_PAYLOAD_MAX_BYTES = 512 * 1024;

/** How far a webhook's signed timestamp may be from our clock, either way (Stripe's default tolerance). */
const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * Verifies a webhook's signature against the raw body; throws when it does not
 * match or its timestamp is outside the tolerance. Stripe's library refuses
 * only old timestamps; a signed timestamp from the future is refused here too.
 */
export function verifyWebhook(payload: string, signature: string | null, now = Date.now()): Stripe.Event {
  const secret = getEnv().STRIPE_WEBHOOK_SECRET;
  if (!secret || !signature) throw new Error("Missing webhook secret or signature");
  const event = Stripe.webhooks.constructEvent(payload, signature, secret, WEBHOOK_TOLERANCE_SECONDS);
  const signedAt = Number(/(?:^|,)\s*t=(\d+)/.exec(signature)?.[1]);
  if (!(signedAt * 1000 <= now + WEBHOOK_TOLERANCE_SECONDS * 1000))
    throw new Error("Webhook timestamp is in the future");
  return event;
}

/** The payment intent's id of a Checkout Session (Stripe sends an id, or the object when expanded). */
export function paymentIntentIdOf(session: Stripe.Checkout.Session): string | null {
  return typeof session.payment_intent === "string" ? session.payment_intent : (session.payment_intent?.id ?? null);
}

/** A Checkout Session that is settled: paid now (a card), or with nothing to pay; a bank debit is paid later (async_payment_succeeded). */
export const sessionPaid = (session: Stripe.Checkout.Session) =>
  session.payment_status === "paid" || session.payment_status === "no_payment_required";

export type { Stripe };
