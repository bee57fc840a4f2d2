import { customerDueLine } from "~/domain/delivery-clock";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { FormKey } from "~/components/forms";
import { DataExportButton } from "~/components/DataExportButton";
import { EmailAddress } from "~/components/EmailAddress";
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
import { pageMeta } from "~/content/meta";
import { formatCents } from "~/domain/money";
import { formatDate, formatDateTime } from "~/domain/dates";
import { hasReceipt, isPaid } from "~/domain/order-status";
import { orderIncludes, promise } from "~/domain/order-includes";
import { customerCompleteness, intakeCompleteMessage, submittedLine } from "~/domain/completeness";
import { BUSINESS } from "~/content/site";
import {
  canContinueIntake,
  intakeFinished,
  ORDER_INTENTS,
  ORDER_STATUS_MESSAGES,
  revisionRounds,
  shortId,
  timeline,
} from "~/domain/orders";
import { ACCESS_LABELS, accessState, linkTimeLeft, TOKEN_MESSAGES, UNKNOWN_LINK } from "~/domain/tokens";
import { FeedbackSchema } from "~/domain/orders.schema";
import { formRules } from "~/server/form-rules.server";
import { redirectWithFlash } from "~/server/flash.server";
import {
  loadOrderStatus,
  orderStatusAccess,
  renewIntakeAccess,
  requestDataDeletion,
} from "~/server/order-status.server";
import { exchangeToken, renewToken } from "~/server/tokens.server";
import { feedbackPost } from "~/server/revisions.server";
import { continueIntake } from "~/server/intake/continue.server";
import { deviceCopyKey, oncePerPost } from "~/server/form-keys.server";
import { readForm } from "~/server/forms.server";
import { SendStatus } from "~/components/connection";

export const meta: MetaFunction = () => pageMeta("Order Status | 24-Hour Website", "Track your website build");

/**
 * /order-status?access_token=…: the e-mailed link. The token becomes a cookie
 * for that one order and leaves the address bar; then the page shows the order.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const token = params.get("access_token");
  if (token) throw await exchangeToken(request, token, "status");
  // Where a link that matches no order lands (spec: the 'Order Not Found' card, with a way to contact support).
  if (params.get("link") === UNKNOWN_LINK) return data({ screen: "not-found" as const }, { status: 404 });
  const access = await orderStatusAccess(request);
  // Both are ordinary pages (the site's public /order-status), each saying what to do next.
  if (!access) return { screen: "token-required" as const };
  if (access.state === "expired") return { screen: "link-expired" as const };
  const loaded = await loadOrderStatus(access.orderId);
  if (!loaded) return data({ screen: "not-found" as const }, { status: 404 });
  const { order, intakeLink, submission } = loaded;
  const now = new Date();
  return {
    screen: "order" as const,
    feedbackRules: formRules(FeedbackSchema),
    confirmDeletion: new URL(request.url).searchParams.get("confirm") === "delete",
    order: {
      id: order._id,
      shortId: shortId(order._id),
      status: order.status,
      productName: order.product_name,
      createdAt: (order.created_at as Date).toISOString(),
      amountPaid: order.amount_paid,
      email:
        typeof submission?.contact_email === "string" && submission.contact_email
          ? submission.contact_email
          : order.email,
      draftUrl: order.draft_url,
      paid: isPaid(order.status),
      dueLine: customerDueLine(order, new Date()),
      included: promise.included(orderIncludes(order)),
      timeline: timeline(order),
      rounds: revisionRounds(order),
      copyKey: deviceCopyKey(order._id),
    },
    completeness: customerCompleteness(submission),
    completeMessage: intakeCompleteMessage(customerCompleteness(submission)),
    submitted: submittedLine(intakeFinished(order)),
    canContinue: canContinueIntake(order),
    receipt: hasReceipt(order.status) ? customerReceipt(order) : null,
    access: {
      state: accessState(intakeLink, now),
      expiresAt: intakeLink?.expires_at.toISOString() ?? null,
      timeLeft: intakeLink ? linkTimeLeft(intakeLink.expires_at, now) : null,
    },
    deletionRequested: Boolean(submission?.data_deletion_requested),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const access = await orderStatusAccess(request);
  if (!access) return redirect("/order-status", 303);
  const formData = await readForm(request);
  const intent = formData.get("intent");
  // An expired status link can only be renewed (spec: renew-token with the customer's token).
  if (access.state === "expired" && intent !== ORDER_INTENTS.renewLink) return redirect("/order-status", 303);
  switch (intent) {
    case ORDER_INTENTS.feedback:
      return feedbackPost(request, formData, access.orderId, "/order-status");
    case ORDER_INTENTS.renewAccess:
    case ORDER_INTENTS.renewLink: {
      const renewed =
        intent === ORDER_INTENTS.renewLink ? await renewToken(access.tokenId) : await renewIntakeAccess(access.orderId);
      if (!renewed)
        return redirectWithFlash(
          request,
          "/order-status",
          { kind: "error", title: ORDER_STATUS_MESSAGES.renewFailed },
          { status: 303 },
        );
      return redirectWithFlash(
        request,
        "/order-status",
        { kind: "success", ...ORDER_STATUS_MESSAGES.renewed },
        { status: 303 },
      );
    }
    case ORDER_INTENTS.continueIntake:
      return continueIntake(request, formData, access.orderId, "/order-status");
    case ORDER_INTENTS.requestDeletion: {
      await oncePerPost(`deletion:${access.orderId}`, formData, async () => {
        await requestDataDeletion(access.orderId);
        return { done: true, answer: true, orderId: access.orderId };
      });
      return redirectWithFlash(
        request,
        "/order-status",
        { kind: "success", ...ORDER_STATUS_MESSAGES.deletionRequested },
        { status: 303 },
      );
    }
    default:
      return data({ formId: "", result: undefined }, { status: 400 });
  }
}

function SupportLink() {
  return <EmailAddress address={BUSINESS.email} href={`mailto:${BUSINESS.email}`} />;
}

export default function OrderStatus() {
  const view = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FeedbackReply;
  return (
    <>
      <PageHero title="Order Status" lead="Track your website build" />
      <div className="wrap section order-status">
        {view.screen === "token-required" ? (
          <div className="card" role="alert">
            <h2>{TOKEN_MESSAGES.statusTokenRequired.title}</h2>
            <p>{TOKEN_MESSAGES.statusTokenRequired.description}</p>
          </div>
        ) : view.screen === "link-expired" ? (
          <div className="card" role="alert">
            <h2>This link has expired</h2>
            <p>For your security, order status links stop working after a while. You can renew yours for 30 days.</p>
            <Form method="post">
              <button type="submit" name="intent" value={ORDER_INTENTS.renewLink} className="button button-primary">
                Renew this link
              </button>
            </Form>
          </div>
        ) : view.screen === "not-found" ? (
          <div className="card" role="alert">
            <h2>{ORDER_STATUS_MESSAGES.notFound.title}</h2>
            <p>{ORDER_STATUS_MESSAGES.notFound.description}</p>
            <p>
              Please <Link to="/contact">contact support</Link> or e-mail <SupportLink />.
            </p>
          </div>
        ) : (
          <OrderView view={view} reply={reply} />
        )}
      </div>
    </>
  );
}

type OrderScreen = Extract<ReturnType<typeof useLoaderData<typeof loader>>, { screen: "order" }>;

function OrderView({ view, reply }: { view: OrderScreen; reply: FeedbackReply }) {
  const { order, access } = view;
  return (
    <div className="status-grid">
      <section className="card" aria-labelledby="project-heading">
        <h2 id="project-heading">
          Your Project <StatusBadge status={order.status} />
        </h2>
        <dl className="facts">
          <dt>Order</dt>
          <dd>#{order.shortId}</dd>
          <dt>Ordered</dt>
          <dd>{formatDate(order.createdAt)}</dd>
          <dt>Amount paid</dt>
          <dd>{formatCents(order.amountPaid)} AUD</dd>
          <dt>Contact e-mail</dt>
          <dd>
            <EmailAddress address={order.email} />
          </dd>
          <dt>Draft</dt>
          <dd>
            {order.draftUrl ? (
              <a href={order.draftUrl} target="_blank" rel="noreferrer noopener">
                View your draft
              </a>
            ) : (
              "Your draft link appears here when it's ready."
            )}
          </dd>
        </dl>
        {order.dueLine ? (
          <p className="due-line">
            <strong>{order.dueLine}</strong>
          </p>
        ) : null}
        {order.paid ? <p className="hint">{order.included}</p> : null}
        <OrderTimeline steps={order.timeline} />
      </section>

      <section className="card" aria-labelledby="intake-heading">
        <h2 id="intake-heading">Intake Form</h2>
        <ProgressBar label="Intake form completeness" percent={view.completeness} />
        <p>{view.submitted}</p>
        {/* Never beside "Your order was refunded in full": a refunded order is not being built. */}
        {view.completeMessage && order.status !== "refunded" ? (
          <p className="flash flash-success">{view.completeMessage}</p>
        ) : null}
        <h3>Intake form access</h3>
        <p>
          <span className={`badge access-${access.state}`}>{ACCESS_LABELS[access.state]}</span>{" "}
          {access.state === "submitted"
            ? "You've submitted your intake form."
            : access.expiresAt
              ? access.state === "expired"
                ? `Your link expired on ${formatDateTime(access.expiresAt)}.`
                : `Your link works until ${formatDateTime(access.expiresAt)} (${access.timeLeft} left).`
              : null}
        </p>
        {access.state === "expired" || access.state === "expiring" ? (
          <Form method="post">
            <button type="submit" name="intent" value={ORDER_INTENTS.renewAccess} className="button button-primary">
              Renew Access for 30 Days
            </button>
          </Form>
        ) : null}
        {view.canContinue ? (
          <ContinueIntakeButton />
        ) : (
          <p className="hint">Open the intake form with the link in your order confirmation e-mail.</p>
        )}
      </section>

      {view.receipt ? (
        <div className="card">
          <Receipt receipt={view.receipt} heading="h2" />
        </div>
      ) : null}

      <section className="card" aria-labelledby="help-heading">
        <h2 id="help-heading">Need Help?</h2>
        <p>
          E-mail us at <SupportLink /> or call <a href={BUSINESS.phoneHref}>{BUSINESS.phone}</a>. We answer within 24
          hours.
        </p>
      </section>

      {/* Across the page where there is room (its rounds side by side): beside the shorter cards, its
          height left holes as tall as a round's feedback. */}
      {order.paid ? (
        <section className="card status-rounds">
          <RevisionRounds
            orderId={order.id}
            copyKey={order.copyKey}
            rounds={order.rounds}
            reply={reply}
            withOrderId={false}
            heading="h2"
          />
        </section>
      ) : null}

      <section className="card" aria-labelledby="data-heading">
        <h2 id="data-heading">Your Data</h2>
        <p>Download everything we hold about your order as one file, or ask us to delete it.</p>
        {/* Side by side and the same size; the export is its own form. */}
        <div className="actions actions-even">
          <DataExportButton action="/order-status/export" />
          {view.deletionRequested || view.confirmDeletion ? null : (
            <Link to="/order-status?confirm=delete" className="button">
              Request deletion of my data
            </Link>
          )}
        </div>
        {view.deletionRequested ? (
          <p>You've asked us to delete your data. We'll e-mail you when it's done.</p>
        ) : view.confirmDeletion ? (
          <Form method="post">
            <FormKey />
            <p role="alert">
              <strong>Are you sure?</strong> We'll permanently delete your intake details and uploads. This cannot be
              undone.
            </p>
            <div className="actions">
              <button
                type="submit"
                name="intent"
                value={ORDER_INTENTS.requestDeletion}
                className="button button-danger"
              >
                Yes, delete my data
              </button>
              <Link to="/order-status" className="button">
                Cancel
              </Link>
            </div>
            <SendStatus />
          </Form>
        ) : null}
      </section>
    </div>
  );
}
