import type { ActionFunctionArgs } from "@remix-run/node";
import { readRawBody } from "~/server/forms.server";
import { errorMessage, log } from "~/server/log.server";
import { handleStripeEvent } from "~/server/stripe-events.server";
import { STRIPE_PAYLOAD_MAX_BYTES, verifyWebhook } from "~/server/stripe.server";

/** Stripe's webhook: the signature is checked on the raw body before anything else. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return new Response("Method Not Allowed", { status: 405 });
  const payload = await readRawBody(request, { maxBytes: STRIPE_PAYLOAD_MAX_BYTES });
  let event;
  try {
    event = verifyWebhook(payload, request.headers.get("stripe-signature"));
  } catch {
    log("warn", "stripe.bad_signature");
    return new Response("Invalid signature", { status: 400 });
  }
  try {
    const outcome = await handleStripeEvent(event);
    log("info", "stripe.event", { event_id: event.id, type: event.type, outcome });
    return Response.json({ received: true, outcome });
  } catch (error) {
    // Stripe retries on a 5xx, and every effect is idempotent, so a retry finishes the job.
    log("error", "stripe.event_failed", { event_id: event.id, type: event.type, reason: errorMessage(error) });
    return new Response("Webhook handler failed; please retry", { status: 503 });
  }
}

export function loader() {
  return new Response("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });
}
