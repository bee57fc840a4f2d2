import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { AdminErrorBoundary } from "~/components/admin/AdminErrorBoundary";
import { AdminHeader, adminLinks } from "~/components/admin/AdminTabs";
import { Pager } from "~/components/admin/Pager";
import { usePendingFormData } from "~/components/hooks";
import { OUTBOX_INTENTS, OUTBOX_MESSAGES, OUTBOX_STATUS_LABELS } from "~/domain/outbox";
import { OutboxActionSchema, OutboxFilterSchema } from "~/domain/outbox.schema";
import { formatDateTime } from "~/domain/dates";
import { cursorParam } from "~/domain/paging";
import { requireAdmin } from "~/server/auth.server";
import { redirectWithFlash } from "~/server/flash.server";
import { parseWithZod } from "~/server/form-rules.server";
import { readForm } from "~/server/forms.server";
import { log } from "~/server/log.server";
import { listOutbox, outboxCounts, retryFailedMail } from "~/server/mail/outbox.server";

export const links = adminLinks;

export const meta: MetaFunction = () => [{ title: "Outbox | Admin" }, { name: "robots", content: "noindex" }];

const when = (iso: string | null) => (iso ? formatDateTime(iso) : "");

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const filter = OutboxFilterSchema.parse({ status: url.searchParams.get("status") ?? undefined });
  const [counts, page] = await Promise.all([
    outboxCounts(),
    listOutbox({ status: filter.status, cursor: cursorParam(url.searchParams) }),
  ]);
  return {
    counts,
    status: filter.status ?? "",
    page: {
      ...page,
      rows: page.rows.map((m) => ({
        ...m,
        created: when(m.createdAt),
        sent: when(m.sentAt),
        next: when(m.nextAttemptAt),
      })),
    },
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const submission = parseWithZod(await readForm(request), { schema: OutboxActionSchema });
  if (submission.status !== "success") throw new Response("Bad Request: unknown action or message", { status: 400 });
  const back = new URL(request.url).search ? `/admin/outbox${new URL(request.url).search}` : "/admin/outbox";
  switch (submission.value.intent) {
    case OUTBOX_INTENTS.retry: {
      const retried = await retryFailedMail(submission.value.messageId);
      log("info", "admin.outbox_retry", { outbox_id: submission.value.messageId, actor: admin.email, retried });
      const flash = retried
        ? { kind: "success" as const, ...OUTBOX_MESSAGES.retried }
        : { kind: "info" as const, ...OUTBOX_MESSAGES.notFailed };
      return redirectWithFlash(request, back, flash, { status: 303 });
    }
  }
}

export default function AdminOutbox() {
  const { counts, status, page } = useLoaderData<typeof loader>();
  const messages = page.rows;
  const busyId = usePendingFormData()?.get("messageId");
  return (
    <>
      <AdminHeader
        title="Outbox"
        current="outbox"
        lead="Every e-mail the site sends: queued, sent and failed. A failed message can be sent again."
      />
      <div className="wrap section">
        <ul className="badges outbox-counts" aria-label="Message counts">
          {(Object.keys(OUTBOX_STATUS_LABELS) as (keyof typeof OUTBOX_STATUS_LABELS)[]).map((s) => (
            <li key={s} className={`badge outbox-${s}`}>
              {OUTBOX_STATUS_LABELS[s]}: {counts[s]}
            </li>
          ))}
        </ul>
        <Form method="get" className="actions outbox-filter">
          <label htmlFor="outbox-status">Status</label>
          <select id="outbox-status" name="status" defaultValue={status}>
            <option value="">All messages</option>
            {(Object.keys(OUTBOX_STATUS_LABELS) as (keyof typeof OUTBOX_STATUS_LABELS)[]).map((s) => (
              <option key={s} value={s}>
                {OUTBOX_STATUS_LABELS[s]}
              </option>
            ))}
          </select>
          <button type="submit" className="button button-small">
            Show
          </button>
        </Form>
        {messages.length === 0 ? (
          <p>
            {status
              ? `No ${OUTBOX_STATUS_LABELS[status as keyof typeof OUTBOX_STATUS_LABELS].toLowerCase()} messages.`
              : "No e-mails yet."}
          </p>
        ) : (
          // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scroll box must take focus so the table scrolls sideways on a phone by keyboard too (WCAG 2.1.1)
          <div className="table-scroll" tabIndex={0} role="region" aria-label="Messages">
            <table className="outbox-table">
              <thead>
                <tr>
                  <th scope="col">Recipient</th>
                  <th scope="col">Subject</th>
                  <th scope="col">Status</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Last error</th>
                  <th scope="col">Queued</th>
                  <th scope="col">Sent or next try</th>
                  <th scope="col">
                    <span className="visually-hidden">Action</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {messages.map((m) => (
                  <tr key={m.id}>
                    <td>{m.to}</td>
                    <td>{m.subject}</td>
                    <td>
                      <span className={`badge outbox-${m.status}`}>{OUTBOX_STATUS_LABELS[m.status]}</span>
                    </td>
                    <td>{m.attempts}</td>
                    <td className="outbox-error">{m.lastError}</td>
                    <td>{m.created}</td>
                    <td>{m.status === "sent" ? m.sent : m.next}</td>
                    <td>
                      {m.status === "failed" ? (
                        <Form method="post">
                          <input type="hidden" name="messageId" value={m.id} />
                          <button
                            type="submit"
                            name="intent"
                            value={OUTBOX_INTENTS.retry}
                            className="button button-small"
                            disabled={busyId === m.id}
                            aria-label={`Retry the message to ${m.to}: ${m.subject}`}
                          >
                            {busyId === m.id ? "Retrying…" : "Retry"}
                          </button>
                        </Form>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pager page={page} noun="messages" one="message" />
      </div>
    </>
  );
}

/** A refused Retry (an unknown message) or a failed load keeps the admin's frame and a way back. */
export function ErrorBoundary() {
  return (
    <AdminErrorBoundary notFound="Message Not Found" back={{ to: "/admin/outbox", label: "Back to the outbox" }} />
  );
}
