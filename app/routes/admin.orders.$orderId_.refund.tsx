import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AdminErrorBoundary } from "~/components/admin/AdminErrorBoundary";
import { adminLinks } from "~/components/admin/AdminTabs";
import { ConfirmActions, ConfirmPage } from "~/components/admin/ConfirmPage";
import { Field, FormAlert } from "~/components/forms";
import { getFormProps, getTextareaProps, useForm } from "~/components/useForm";
import { ORDER_NOT_FOUND, orderIdParam } from "~/domain/admin/order-detail";
import { CLOCK_MESSAGES, MISSED_PROMISE_REASON } from "~/domain/delivery-clock";
import { RefundSchema } from "~/domain/delivery-clock.schema";
import { formatDateTime } from "~/domain/dates";
import { requireAdmin, requireFreshProof } from "~/server/auth.server";
import { redirectWithFlash } from "~/server/flash.server";
import { formRules, parseWithZod } from "~/server/form-rules.server";
import { readForm } from "~/server/forms.server";
import { refundOrder, refundPage } from "~/server/refunds.server";

/**
 * /admin/orders/:orderId/refund: the Refund action's confirmation page (a plain
 * form: it works without JavaScript). Refunds the full amount paid once, however
 * often it is posted (app/server/refunds.server.ts). A destructive action: it
 * asks for fresh proof (an admin code within the last minutes) first.
 */

export const links = adminLinks;

export const meta: MetaFunction = () => [{ title: "Refund order | Admin" }, { name: "robots", content: "noindex" }];

const INTENT = { refund: "refund" } as const;

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const page = await refundPage(orderIdParam(params));
  if (!page) throw new Response(ORDER_NOT_FOUND, { status: 404 });
  // Back from the fresh-proof step with the reason that was typed.
  const typed = new URL(request.url).searchParams.get("reason")?.slice(0, 1000) ?? null;
  return { ...page, typedReason: typed, rules: formRules(RefundSchema) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const orderId = orderIdParam(params);
  const form = await readForm(request);
  if (form.get("intent") !== INTENT.refund) return new Response("Unknown intent", { status: 400 });
  const submission = parseWithZod(form, { schema: RefundSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  // A destructive action: an admin code entered within the last minutes, else the code step and back here.
  const returnTo = `/admin/orders/${orderId}/refund?${new URLSearchParams({ reason: submission.value.reason })}`;
  await requireFreshProof(request, returnTo);
  const outcome = await refundOrder({ orderId, reason: submission.value.reason, actor: admin });
  switch (outcome) {
    case "refunded":
      return redirectWithFlash(
        request,
        `/admin/orders/${orderId}`,
        { kind: "success", ...CLOCK_MESSAGES.refunded },
        { status: 303 },
      );
    case "already-refunded":
      return redirectWithFlash(
        request,
        `/admin/orders/${orderId}`,
        { kind: "info", title: CLOCK_MESSAGES.alreadyRefunded },
        { status: 303 },
      );
    case "not-refundable":
      return data(submission.reply({ formErrors: [CLOCK_MESSAGES.notRefundable] }), { status: 409 });
    case "failed":
      return data(submission.reply({ formErrors: [CLOCK_MESSAGES.refundFailed] }), { status: 502 });
  }
}

export default function RefundOrder() {
  const d = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult,
    defaultValue: { reason: d.typedReason ?? (d.refundDue ? MISSED_PROMISE_REASON : "") },
    rules: d.rules,
    shouldRevalidate: "onInput",
    intent: INTENT.refund,
  });
  return (
    <ConfirmPage
      current="orders"
      back={{ to: `/admin/orders/${d.orderId}`, label: `Back to order #${d.shortId}` }}
      heading={`Refund order #${d.shortId}`}
    >
      {d.refundedAt ? (
        <p className="banner">This order was refunded on {formatDateTime(d.refundedAt)}.</p>
      ) : !d.refundable ? (
        <p className="banner">{CLOCK_MESSAGES.notRefundable}.</p>
      ) : (
        <>
          <p>
            {d.amount}, the full amount {d.email} paid, goes back to their card
            {d.offline ? " (offline test checkout: an offline refund, no money moves)" : " through Stripe"}. The order's
            status becomes REFUNDED and the customer is e-mailed. This cannot be undone.
          </p>
          <p>
            Delivery clock: {d.clock}.{" "}
            {d.refundDue ? (
              <strong>Refund due: the 24-hour promise was missed.</strong>
            ) : (
              `${d.refundNotDue ?? "Refund not due"}: say why you are refunding.`
            )}
          </p>
          <Form method="post" {...getFormProps(form)} noValidate>
            <FormAlert message={form.errors?.[0] ?? fields.reason.errors?.[0]} />
            <Field
              id={fields.reason.id}
              label="Reason (kept in the audit log)"
              errors={fields.reason.errors}
              errorId={fields.reason.errorId}
            >
              <textarea {...getTextareaProps(fields.reason)} rows={3} maxLength={1000} />
            </Field>
            <ConfirmActions
              cancelTo={`/admin/orders/${d.orderId}`}
              intent={INTENT.refund}
              label={`Refund ${d.amount}`}
              pendingLabel="Refunding..."
            />
          </Form>
        </>
      )}
    </ConfirmPage>
  );
}

export function ErrorBoundary() {
  return <AdminErrorBoundary notFound={ORDER_NOT_FOUND} back={{ to: "/admin", label: "Back to orders" }} />;
}
