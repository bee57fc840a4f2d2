import { customerDueLine } from "~/domain/delivery-clock";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { DataExportButton } from "~/components/DataExportButton";
import {
  ContinueIntakeButton,
  OrderTimeline,
  ProgressBar,
  RevisionRounds,
  StatusBadge,
  type FeedbackReply,
} from "~/components/orders";
import { PageHero } from "~/components/PageHero";
import { Receipt } from "~/components/Receipt";
import { customerReceipt } from "~/server/receipt.server";
import { ConfirmEmailNotice, TwoFactorCard } from "~/components/account";
import { formatCents } from "~/domain/money";
import { formatDate } from "~/domain/dates";
import { orderIncludes, promise } from "~/domain/order-includes";
import { submittedLine } from "~/domain/completeness";
import { canContinueIntake, intakeFinished, ORDER_INTENTS, revisionRounds, shortId, timeline } from "~/domain/orders";
import { hasReceipt, isPaid } from "~/domain/order-status";
import { FeedbackSchema } from "~/domain/orders.schema";
import { formRules } from "~/server/form-rules.server";
import { requireUser } from "~/server/auth.server";
import { getOrderForUser, listOrdersForUser } from "~/server/customer-orders.server";
import { feedbackPost } from "~/server/revisions.server";
import { continueIntake } from "~/server/intake/continue.server";
import { currentSubscription, planOf } from "~/server/subscriptions.server";
import { readForm } from "~/server/forms.server";
import { deviceCopyKey } from "~/server/form-keys.server";

export const meta: MetaFunction = () => [
  { title: "Dashboard | 24-Hour Website" },
  { name: "robots", content: "noindex" },
];

/** /dashboard: the signed-in customer's own orders, newest first, and their maintenance plan. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [orders, subscription] = await Promise.all([listOrdersForUser(user.id), currentSubscription(user.id)]);
  const plan = planOf(subscription);
  return {
    feedbackRules: formRules(FeedbackSchema),
    user: {
      email: user.email,
      fullName: user.fullName,
      isAdmin: user.isAdmin,
      emailVerified: user.emailVerified,
      twoFactor: user.twoFactor,
    },
    plan: plan ? { name: plan.name, nextBilling: subscription?.currentPeriodEnd?.toISOString() ?? null } : null,
    orders: orders.map((o) => ({
      id: o._id,
      shortId: shortId(o._id),
      status: o.status,
      productName: o.product_name,
      amountPaid: o.amount_paid,
      createdAt: (o.created_at as Date).toISOString(),
      draftUrl: o.draft_url,
      progress: o.intake_progress,
      submitted: submittedLine(intakeFinished(o)),
      canContinue: canContinueIntake(o),
      receipt: hasReceipt(o.status) ? customerReceipt(o) : null,
      paid: isPaid(o.status),
      dueLine: customerDueLine(o, new Date()),
      included: promise.included(orderIncludes(o)),
      timeline: timeline(o),
      rounds: revisionRounds(o),
      copyKey: deviceCopyKey(o._id),
    })),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const formData = await readForm(request);
  switch (formData.get("intent")) {
    case ORDER_INTENTS.feedback: {
      const orderId = String(formData.get("orderId") ?? "").slice(0, 100);
      const order = orderId ? await getOrderForUser({ orderId, userId: user.id }) : null;
      // Another customer's order and no order at all look the same.
      if (!order) return data({ formId: "", result: undefined }, { status: 404 });
      return feedbackPost(request, formData, order._id, "/dashboard");
    }
    case ORDER_INTENTS.continueIntake: {
      const orderId = String(formData.get("orderId") ?? "").slice(0, 100);
      const order = orderId ? await getOrderForUser({ orderId, userId: user.id }) : null;
      if (!order) return data({ formId: "", result: undefined }, { status: 404 });
      return continueIntake(request, formData, order._id, "/dashboard");
    }
    default:
      return data({ formId: "", result: undefined }, { status: 400 });
  }
}

export default function Dashboard() {
  const { user, orders, plan } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FeedbackReply;
  return (
    <>
      <PageHero
        title="Dashboard"
        lead={`Signed in as ${user.fullName ? `${user.fullName} (${user.email})` : user.email}`}
      >
        <div className="actions">
          {user.isAdmin ? (
            <Link to="/admin" className="button">
              Admin Panel
            </Link>
          ) : null}
          <Form method="post" action="/auth/sign-out">
            <button type="submit" className="button">
              Sign Out
            </button>
          </Form>
        </div>
      </PageHero>
      <div className="wrap section dashboard">
        {!user.emailVerified ? <ConfirmEmailNotice email={user.email} back="/dashboard" /> : null}

        <section className="card" aria-labelledby="plans-heading">
          <h2 id="plans-heading">Maintenance Plans</h2>
          {plan ? (
            <p>
              Your plan: <strong>{plan.name}</strong>
              {plan.nextBilling ? `. Next billing date: ${formatDate(plan.nextBilling)}.` : "."}
            </p>
          ) : (
            <p>Keep your website secure, backed up and up to date with a monthly plan.</p>
          )}
          <Link to="/maintenance" className="button button-small">
            {plan ? "Manage your plan" : "See maintenance plans"}
          </Link>
        </section>

        <TwoFactorCard on={user.twoFactor} admin={user.isAdmin} />

        <section aria-labelledby="orders-heading">
          <h2 id="orders-heading">Your Orders</h2>
          {orders.length === 0 ? (
            <div className="card">
              <p>No orders yet.</p>
              <Link to="/24-hour-website" className="button button-primary">
                Get your 24-Hour Website
              </Link>
            </div>
          ) : (
            <ul className="card-list order-list">
              {orders.map((order) => (
                <OrderCard key={order.id} order={order}>
                  {order.paid ? (
                    <RevisionRounds
                      orderId={order.id}
                      copyKey={order.copyKey}
                      rounds={order.rounds}
                      reply={reply}
                      withOrderId
                    />
                  ) : null}
                  <DataExportButton action={`/dashboard/orders/${order.id}/export`} orderLabel={order.shortId} />
                </OrderCard>
              ))}
            </ul>
          )}
        </section>
      </div>
    </>
  );
}

type OrderCardView = ReturnType<typeof useLoaderData<typeof loader>>["orders"][number];

/** One order. `children` adds sections (revision rounds, the data export). */
function OrderCard({ order, children }: { order: OrderCardView; children?: ReactNode }) {
  return (
    <li className="card order-card">
      <h3>
        Order #{order.shortId} <StatusBadge status={order.status} />
      </h3>
      <p>
        {order.productName} · {formatCents(order.amountPaid)} AUD paid · Ordered {formatDate(order.createdAt)}
      </p>
      {order.draftUrl ? (
        <p>
          <a href={order.draftUrl} target="_blank" rel="noreferrer noopener">
            View your draft
          </a>
        </p>
      ) : null}
      {order.dueLine ? (
        <p className="due-line">
          <strong>{order.dueLine}</strong>
        </p>
      ) : null}
      {order.paid ? <p className="hint">{order.included}</p> : null}
      {order.paid ? (
        <>
          <ProgressBar label="Intake form progress" percent={order.progress} />
          <p>{order.submitted}</p>
          {order.canContinue ? <ContinueIntakeButton orderId={order.id} /> : null}
        </>
      ) : null}
      <OrderTimeline steps={order.timeline} />
      {order.receipt ? <Receipt receipt={order.receipt} /> : null}
      {children}
    </li>
  );
}
