import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/GeneralErrorBoundary";
import { PageHero } from "~/components/PageHero";
import { formatCents } from "~/domain/money";
import { NotFound } from "~/root";
import { findOfflineOrder } from "~/server/checkout.server";
import { standInsAllowed } from "~/server/env.server";
import { redirectWithFlash } from "~/server/flash.server";
import { readForm } from "~/server/forms.server";
import { abandonCheckout, settlePayment } from "~/server/fulfilment.server";
import { getStripe } from "~/server/stripe.server";
import { startOfflinePlanForOrder } from "~/server/subscriptions.server";

export const meta: MetaFunction = () => [
  { title: "Test payment (no real money) | 24-Hour Website" },
  { name: "robots", content: "noindex" },
];

const OFFLINE_INTENTS = { pay: "pay", cancel: "cancel" } as const;

/**
 * The offline test checkout: stands in for Stripe when no key is configured, in
 * development, tests and the local run (LOCAL_STANDINS) only. Paying here runs the
 * same fulfilment as Stripe.
 */
async function pendingOrder(sessionId: string | null) {
  if (!standInsAllowed() || getStripe()) throw new Response("Not Found", { status: 404 });
  const order = await findOfflineOrder(sessionId);
  if (!order) throw redirect("/checkout");
  return order;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const sessionId = new URL(request.url).searchParams.get("session_id");
  const order = await pendingOrder(sessionId);
  if (order.status === "paid") throw redirect(`/order-success?session_id=${sessionId}`);
  return {
    sessionId: sessionId!,
    email: order.email,
    product: order.product_name,
    addOns: order.add_ons.map((a) => a.name),
    total: order.amount_total,
    status: order.status,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const sessionId = String(form.get("session_id") ?? "");
  const order = await pendingOrder(sessionId);
  switch (form.get("intent")) {
    case OFFLINE_INTENTS.cancel:
      await abandonCheckout(order._id, "cancelled");
      return redirectWithFlash(
        request,
        "/checkout",
        { kind: "info", title: "Test payment cancelled", description: "Nothing was charged." },
        { status: 303 },
      );
    case OFFLINE_INTENTS.pay:
      if (order.status !== "pending") throw redirect("/checkout");
      await settlePayment({ orderId: order._id, sessionId, amountPaid: order.amount_total });
      await startOfflinePlanForOrder(order);
      return redirect(`/order-success?session_id=${encodeURIComponent(sessionId)}`, 303);
    default:
      throw new Response("Unknown action. Please use the buttons on the page.", { status: 400 });
  }
}

export default function OfflineCheckout() {
  const order = useLoaderData<typeof loader>();
  return (
    <>
      <PageHero
        eyebrow="Test mode: no real money"
        title="Test payment"
        lead="Stripe is not configured here, so this page stands in for it."
      />
      <div className="wrap section">
        <div className="card">
          <p>
            <strong>{order.product}</strong>
            {order.addOns.length ? ` with ${order.addOns.join(", ")}` : ""} for {order.email}
          </p>
          <p className="price">{formatCents(order.total)}</p>
          {order.status === "pending" ? (
            <Form method="post" className="actions">
              <input type="hidden" name="session_id" value={order.sessionId} />
              <button type="submit" name="intent" value={OFFLINE_INTENTS.pay} className="button button-primary">
                Complete test payment
              </button>
              <button type="submit" name="intent" value={OFFLINE_INTENTS.cancel} className="button">
                Cancel
              </button>
            </Form>
          ) : (
            <p>This checkout was {order.status}. Please start again from the checkout.</p>
          )}
        </div>
      </div>
    </>
  );
}

/** The offline checkout where it is not offered (Stripe configured, production) is the site's not-found page; anything else the general boundary. */
export function ErrorBoundary() {
  return <GeneralErrorBoundary statusHandlers={{ 404: () => <NotFound /> }} />;
}
