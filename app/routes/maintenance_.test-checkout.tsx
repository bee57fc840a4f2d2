import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { PageHero } from "~/components/PageHero";
import { findPlan } from "~/content/maintenance";
import { formatCents } from "~/domain/money";
import { requireUser } from "~/server/auth.server";
import { redirectWithFlash } from "~/server/flash.server";
import { SUBSCRIPTION_MESSAGES } from "~/domain/subscriptions";
import { assertOfflineBilling, completeOfflineSubscription, offlineCheckoutKey } from "~/server/subscriptions.server";
import { readForm } from "~/server/forms.server";

export const meta: MetaFunction = () => [
  { title: "Test subscription (no real money) | 24-Hour Website" },
  { name: "robots", content: "noindex" },
];

/** The offline test checkout for a maintenance plan: stands in for Stripe when no key is set (never in a deployment). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  assertOfflineBilling();
  const plan = findPlan(new URL(request.url).searchParams.get("plan"));
  if (!plan) throw redirect("/maintenance");
  return { plan: { id: plan.id, name: plan.name, price: plan.price }, pageKey: offlineCheckoutKey() };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  assertOfflineBilling();
  const form = await readForm(request);
  const plan = findPlan(String(form.get("plan") ?? ""));
  if (!plan) return redirect("/maintenance", 303);
  const refusal = await completeOfflineSubscription(user, plan, String(form.get("pageKey") ?? "").slice(0, 64));
  if (refusal) return redirectWithFlash(request, "/maintenance", { kind: "info", title: refusal }, { status: 303 });
  return redirectWithFlash(
    request,
    "/maintenance",
    { kind: "success", ...SUBSCRIPTION_MESSAGES.subscribed },
    { status: 303 },
  );
}

export default function TestSubscriptionCheckout() {
  const { plan, pageKey } = useLoaderData<typeof loader>();
  return (
    <PageHero
      eyebrow="Test mode: no real money"
      title="Test subscription"
      lead="Stripe is not configured here, so this page stands in for it."
    >
      <div className="card">
        <p>
          <strong>{plan.name} maintenance plan</strong>: {formatCents(plan.price)} AUD a month
        </p>
        <Form method="post" className="actions">
          <input type="hidden" name="plan" value={plan.id} />
          <input type="hidden" name="pageKey" value={pageKey} />
          <button type="submit" className="button button-primary">
            Complete test subscription
          </button>
          <Link to="/maintenance" className="button">
            Cancel
          </Link>
        </Form>
      </div>
    </PageHero>
  );
}
