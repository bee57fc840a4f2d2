import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ReminderHistory } from "~/components/admin/ReminderHistory";
import { PageHero } from "~/components/PageHero";
import { formatDateTime } from "~/domain/time";
import { requireAdmin } from "~/server/auth.server";
import { reminderHistory } from "~/server/reminders.server";

export const meta: MetaFunction = () => [{ title: "Order | Admin" }, { name: "robots", content: "noindex" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const orderId = params.orderId ?? "";
  const reminders = await reminderHistory(orderId);
  return { orderId, reminders: reminders.map((r) => ({ ...r, when: formatDateTime(r.sentAt) })) };
}

export default function AdminOrder() {
  const { orderId, reminders } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHero title={`Order #${orderId.slice(0, 8)}`} />
      <div className="wrap section">
        <ReminderHistory rows={reminders} />
      </div>
    </>
  );
}
