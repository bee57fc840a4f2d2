import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { PageHero } from "~/components/PageHero";
import { requireUser } from "~/server/auth.server";
import { redirectWithFlash } from "~/server/flash.server";
import { SUBSCRIPTION_MESSAGES } from "~/domain/subscriptions";
import {
  assertOfflineBilling,
  cancelOfflineSubscription,
  currentSubscription,
  planOf,
} from "~/server/subscriptions.server";

export const meta: MetaFunction = () => [
  { title: "Test billing portal (no real money) | 24-Hour Website" },
  { name: "robots", content: "noindex" },
];

/** Stands in for Stripe's Customer Portal when no key is set (never in production): shows the plan and cancels it. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  assertOfflineBilling();
  const plan = planOf(await currentSubscription(user.id));
  if (!plan) throw redirect("/maintenance");
  return { planName: plan.name };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  assertOfflineBilling();
  await cancelOfflineSubscription(user.id);
  return redirectWithFlash(
    request,
    "/maintenance",
    { kind: "success", ...SUBSCRIPTION_MESSAGES.cancelled },
    { status: 303 },
  );
}

export default function TestPortal() {
  const { planName } = useLoaderData<typeof loader>();
  return (
    <PageHero
      eyebrow="Test mode: no real money"
      title="Test billing portal"
      lead={`Your plan: ${planName}. Stripe's Customer Portal stands here when Stripe is configured.`}
    >
      <Form method="post" className="actions">
        <button type="submit" className="button button-danger">
          Cancel my plan
        </button>
        <Link to="/maintenance" className="button">
          Back to plans
        </Link>
      </Form>
    </PageHero>
  );
}
