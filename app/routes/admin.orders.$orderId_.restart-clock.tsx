import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AdminErrorBoundary } from "~/components/admin/AdminErrorBoundary";
import { adminLinks } from "~/components/admin/AdminTabs";
import { ConfirmActions, ConfirmPage } from "~/components/admin/ConfirmPage";
import { Field, FormAlert } from "~/components/forms";
import { getFormProps, getTextareaProps, useForm } from "~/components/useForm";
import { ORDER_NOT_FOUND, orderIdParam } from "~/domain/admin/order-detail";
import { CLOCK_MESSAGES } from "~/domain/delivery-clock";
import { RestartClockSchema } from "~/domain/delivery-clock.schema";
import { formatDateTime } from "~/domain/dates";
import { requireAdmin } from "~/server/auth.server";
import { restartClock, restartPage } from "~/server/delivery-clock.server";
import { redirectWithFlash } from "~/server/flash.server";
import { formRules, parseWithZod } from "~/server/form-rules.server";
import { readForm } from "~/server/forms.server";

/**
 * /admin/orders/:orderId/restart-clock: restarts the delivery clock when
 * materials turn out to be missing. The customer is e-mailed what is missing and
 * the new deadline; the restart is audited and listed in the order's history.
 */

export const links = adminLinks;

export const meta: MetaFunction = () => [
  { title: "Restart the delivery clock | Admin" },
  { name: "robots", content: "noindex" },
];

const INTENT = { restart: "restart" } as const;

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const page = await restartPage(orderIdParam(params));
  if (!page) throw new Response(ORDER_NOT_FOUND, { status: 404 });
  return { ...page, rules: formRules(RestartClockSchema) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const orderId = orderIdParam(params);
  const form = await readForm(request);
  if (form.get("intent") !== INTENT.restart) return new Response("Unknown intent", { status: 400 });
  const submission = parseWithZod(form, { schema: RestartClockSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const outcome = await restartClock({
    orderId,
    missing: submission.value.missing,
    seenRestarts: submission.value.restarts,
    actor: admin,
  });
  if (outcome === "restarted")
    return redirectWithFlash(
      request,
      `/admin/orders/${orderId}`,
      { kind: "success", ...CLOCK_MESSAGES.restarted },
      { status: 303 },
    );
  const message = outcome === "raced" ? CLOCK_MESSAGES.restartRaced : CLOCK_MESSAGES.notRunning;
  return data(submission.reply({ formErrors: [message] }), { status: 409 });
}

export default function RestartClock() {
  const d = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult,
    rules: d.rules,
    shouldRevalidate: "onInput",
    intent: INTENT.restart,
  });
  return (
    <ConfirmPage
      current="orders"
      back={{ to: `/admin/orders/${d.orderId}`, label: `Back to order #${d.shortId}` }}
      heading={`Restart the delivery clock of order #${d.shortId}`}
    >
      <p>
        Delivery clock: {d.clock}
        {d.deadline ? ` (due ${formatDateTime(d.deadline)})` : ""}.
      </p>
      {d.runs ? (
        <>
          <p>
            Restarting gives a new {d.windowHours}-hour window from now. {d.email} is e-mailed what you write below and
            the new deadline.
          </p>
          <Form method="post" {...getFormProps(form)} noValidate>
            <FormAlert message={form.errors?.[0] ?? fields.missing.errors?.[0]} />
            <input type="hidden" name={fields.restarts.name} value={d.restarts} />
            <Field
              id={fields.missing.id}
              label="What is missing (sent to the customer)"
              errors={fields.missing.errors}
              errorId={fields.missing.errorId}
            >
              <textarea {...getTextareaProps(fields.missing)} rows={4} maxLength={1000} />
            </Field>
            <ConfirmActions
              cancelTo={`/admin/orders/${d.orderId}`}
              intent={INTENT.restart}
              label="Restart the clock"
              pendingLabel="Restarting..."
              danger={false}
            />
          </Form>
        </>
      ) : (
        <p className="banner">The clock is not running, so there is nothing to restart.</p>
      )}
    </ConfirmPage>
  );
}

export function ErrorBoundary() {
  return <AdminErrorBoundary notFound={ORDER_NOT_FOUND} back={{ to: "/admin", label: "Back to orders" }} />;
}
