import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { ConfirmEmailNotice } from "~/components/account";
import { FormAlert } from "~/components/forms";
import { useIsPending } from "~/components/hooks";
import { PageHero } from "~/components/PageHero";
import { findPlan, MAINTENANCE_GUARANTEE, MAINTENANCE_PLANS } from "~/content/maintenance";
import { pageMeta } from "~/content/meta";
import { formatCents } from "~/domain/money";
import { formatDate } from "~/domain/dates";
import { AUTH_MESSAGES } from "~/domain/account";
import { getUser, requireUser } from "~/server/auth.server";
import { consumeRateLimit } from "~/server/rate-limit.server";
import { currentSubscription, openPortal, planOf, startSubscription } from "~/server/subscriptions.server";
import { readForm } from "~/server/forms.server";

export const meta: MetaFunction = () =>
  pageMeta(
    "Website Maintenance Plans | 24-Hour Website",
    "Monthly care for your website: updates, backups and support.",
  );

const MAINTENANCE_INTENTS = { subscribe: "subscribe", manage: "manage" } as const;
/** Starting Stripe sessions costs an API call each: plenty for a person, a wall for a script. */
const BILLING_LIMIT = { name: "billing:account", max: 20, windowMs: 60 * 60_000 };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getUser(request);
  const subscription = user ? await currentSubscription(user.id) : null;
  const plan = planOf(subscription);
  return {
    signedIn: Boolean(user),
    unconfirmedEmail: user && !user.emailVerified ? user.email : null,
    justSubscribed: new URL(request.url).searchParams.get("subscribed") === "1",
    current: plan
      ? {
          planId: plan.id,
          nextBilling: subscription?.currentPeriodEnd?.toISOString() ?? null,
          cancelAtPeriodEnd: subscription?.cancelAtPeriodEnd ?? false,
        }
      : null,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request, { kind: "info", ...AUTH_MESSAGES.signInToSubscribe });
  const formData = await readForm(request);
  const intent = formData.get("intent");
  if (intent !== MAINTENANCE_INTENTS.subscribe && intent !== MAINTENANCE_INTENTS.manage)
    return data({ error: "Unknown action" }, { status: 400 });
  if (!(await consumeRateLimit(BILLING_LIMIT, user.id))) return data({ error: AUTH_MESSAGES.tooMany }, { status: 429 });
  const result =
    intent === MAINTENANCE_INTENTS.subscribe
      ? await (async () => {
          const plan = findPlan(String(formData.get("plan") ?? ""));
          return plan ? startSubscription(user, plan) : { error: "Please choose a plan." };
        })()
      : await openPortal(user);
  if ("error" in result) return data({ error: result.error }, { status: 409 });
  return redirect(result.redirectTo, 303);
}

export default function Maintenance() {
  const { signedIn, unconfirmedEmail, current, justSubscribed } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const pending = useIsPending();
  return (
    <>
      <PageHero
        title="Website Maintenance Plans"
        lead="Monthly care for your website: updates, backups and support, so you can get on with your business."
      />
      <div className="wrap section">
        <FormAlert message={actionData?.error} />
        {justSubscribed ? (
          <p className="flash flash-success" role="status">
            <strong>Thank you!</strong> Your plan starts as soon as Stripe confirms the payment.
          </p>
        ) : null}
        {!signedIn ? (
          <p className="card notice">
            <Link to="/auth?redirectTo=%2Fmaintenance">Sign in</Link> or{" "}
            <Link to="/auth?tab=signup">create an account</Link> to subscribe.
          </p>
        ) : null}
        {unconfirmedEmail ? <ConfirmEmailNotice email={unconfirmedEmail} back="/maintenance" /> : null}
        <ul className="grid plan-grid card-list plan-list">
          {MAINTENANCE_PLANS.map((plan) => {
            const isCurrent = current?.planId === plan.id;
            return (
              <li key={plan.id} className={`card plan${plan.popular ? " popular" : ""}${isCurrent ? " current" : ""}`}>
                <h2>
                  {plan.name}{" "}
                  <span className="badges">
                    {plan.popular ? <span className="badge">Most Popular</span> : null}
                    {isCurrent ? <span className="badge badge-current">Current Plan</span> : null}
                  </span>
                </h2>
                <p>
                  <span className="price">{formatCents(plan.price).replace(/\.00$/, "")}</span> AUD / month
                </p>
                <ul className="checklist">
                  {plan.features.map((f) => (
                    <li key={f}>{f}</li>
                  ))}
                </ul>
                {isCurrent ? (
                  <Form method="post">
                    {current?.nextBilling ? (
                      <p className="hint">
                        {current.cancelAtPeriodEnd ? "Ends on" : "Next billing date:"} {formatDate(current.nextBilling)}
                      </p>
                    ) : null}
                    <button
                      type="submit"
                      name="intent"
                      value={MAINTENANCE_INTENTS.manage}
                      className="button"
                      disabled={pending}
                    >
                      Manage Subscription
                    </button>
                  </Form>
                ) : current ? (
                  // Spec: only the current plan's button is disabled. A subscriber changes plan in Stripe's
                  // portal (one subscription, prorated), so this card says so and opens it.
                  <Form method="post">
                    <p className="hint" id={`switch-${plan.id}`}>
                      You're on {findPlan(current.planId)?.name ?? "another plan"}. Switching opens Manage Subscription,
                      where you change plans.
                    </p>
                    <button
                      type="submit"
                      name="intent"
                      value={MAINTENANCE_INTENTS.manage}
                      className="button"
                      disabled={pending}
                      aria-describedby={`switch-${plan.id}`}
                    >
                      Switch to {plan.name}
                    </button>
                  </Form>
                ) : (
                  <Form method="post">
                    <input type="hidden" name="plan" value={plan.id} />
                    <button
                      type="submit"
                      name="intent"
                      value={MAINTENANCE_INTENTS.subscribe}
                      className="button button-primary"
                      disabled={pending}
                      aria-label={`Subscribe Now to ${plan.name}`}
                    >
                      Subscribe Now
                    </button>
                  </Form>
                )}
              </li>
            );
          })}
        </ul>
        <p className="guarantee">{MAINTENANCE_GUARANTEE}.</p>
        <p>
          Need something different? <Link to="/contact">Contact us for a custom plan</Link>.
        </p>
      </div>
    </>
  );
}
