import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import { ReminderHistory } from "~/components/admin/ReminderHistory";
import { PageHero } from "~/components/PageHero";
import { formatDateTime } from "~/domain/time";
import { requireAdmin } from "~/server/auth.server";
import { redirectWithFlash } from "~/server/flash.server";
import { readForm } from "~/server/forms.server";
import { reminderHistory, sendReminder } from "~/server/reminders.server";

export const meta: MetaFunction = () => [{ title: "Order | Admin" }, { name: "robots", content: "noindex" }];

const INTENTS = { sendReminder: "send-reminder" } as const;

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const orderId = params.orderId ?? "";
  const reminders = await reminderHistory(orderId);
  return { orderId, reminders: reminders.map((r) => ({ ...r, when: formatDateTime(r.sentAt) })) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const orderId = params.orderId ?? "";
  const form = await readForm(request);
  switch (form.get("intent")) {
    case INTENTS.sendReminder: {
      // spec 2: send-smart-reminder, through the same rules as the cron.
      const result = await sendReminder({ orderId, source: "admin", actor: admin.email });
      return redirectWithFlash(request, `/admin/orders/${orderId}`, { kind: result.sent ? "success" : "info", title: result.title, description: result.message }, { status: 303 });
    }
    default:
      throw new Response("Bad Request: unknown action", { status: 400 });
  }
}

export default function AdminOrder() {
  const { orderId, reminders } = useLoaderData<typeof loader>();
  const sending = useNavigation().formData?.get("intent") === INTENTS.sendReminder;
  return (
    <>
      <PageHero title={`Order #${orderId.slice(0, 8)}`} />
      <div className="wrap section">
        <Form method="post" className="actions">
          <button type="submit" name="intent" value={INTENTS.sendReminder} className="button" disabled={sending}>
            {sending ? "Sending…" : "Send Reminder"}
          </button>
        </Form>
        <ReminderHistory rows={reminders} />
      </div>
    </>
  );
}
