import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { adminLinks, AdminHeader } from "~/components/admin/AdminTabs";
import { Pager } from "~/components/admin/Pager";
import { useIsPending } from "~/components/hooks";
import { PAYMENT_ISSUE_TEXT, PAYMENT_MESSAGES, RESOLVED_PAGE_PARAM } from "~/domain/admin/payments";
import { PaymentIssueFormSchema } from "~/domain/admin/payments.schema";
import { ORDER_NOT_FOUND } from "~/domain/admin/order-detail";
import { formatDateTime } from "~/domain/dates";
import { cursorParam } from "~/domain/paging";
import { listPaymentIssues, resolvePaymentIssue, type PaymentIssueRow } from "~/server/admin/payments.server";
import { requireAdmin } from "~/server/auth.server";
import { readForm } from "~/server/forms.server";
import { redirectWithFlash } from "~/server/flash.server";

export const links = adminLinks;

export const meta: MetaFunction = () => [{ title: "Payments | Admin" }, { name: "robots", content: "noindex" }];

const INTENT = { accept: "accept", resolve: "resolve" } as const;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  return listPaymentIssues({
    openCursor: cursorParam(params),
    resolvedCursor: cursorParam(params, RESOLVED_PAGE_PARAM),
  });
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent !== INTENT.accept && intent !== INTENT.resolve) return new Response("Unknown intent", { status: 400 });
  const parsed = PaymentIssueFormSchema.safeParse({ issueId: form.get("issueId") ?? undefined });
  if (!parsed.success) return new Response(parsed.error.issues[0].message, { status: 400 });
  const result = await resolvePaymentIssue({
    issueId: parsed.data.issueId,
    how: intent === INTENT.accept ? "accepted" : "resolved",
    actor: admin,
  });
  const flash = (kind: "success" | "error" | "info", m: { title: string; description?: string }) =>
    // Back to the page the admin was on (the form posts to this URL, cursors included).
    redirectWithFlash(
      request,
      `/admin/payments${new URL(request.url).search}`,
      { kind, title: m.title, description: m.description },
      { status: 303 },
    );
  switch (result) {
    case "accepted":
      return flash("success", PAYMENT_MESSAGES.accepted);
    case "resolved":
      return flash("success", PAYMENT_MESSAGES.resolved);
    case "already-resolved":
      return flash("info", PAYMENT_MESSAGES.alreadyResolved);
    case "not-acceptable":
      return flash("error", PAYMENT_MESSAGES.notAcceptable);
    case "not-found":
      return flash("error", PAYMENT_MESSAGES.notFound);
  }
}

function IssueFacts({ issue }: { issue: PaymentIssueRow }) {
  return (
    <dl className="facts">
      <dt>Order</dt>
      <dd>
        <Link to={`/admin/orders/${issue.orderId}`} className="mono" aria-label={`Order ${issue.shortId}`}>
          #{issue.shortId}
        </Link>
      </dd>
      <dt>Email</dt>
      <dd>{issue.email ?? ORDER_NOT_FOUND}</dd>
      <dt>Quoted</dt>
      <dd>{issue.expected}</dd>
      <dt>Paid</dt>
      <dd>{issue.paid}</dd>
      <dt>Coupon</dt>
      <dd className={issue.couponCode ? "mono" : undefined}>{issue.couponCode ?? "None"}</dd>
      <dt>When</dt>
      <dd>{formatDateTime(issue.createdAt)}</dd>
    </dl>
  );
}

export default function AdminPayments() {
  const { open: openPage, resolved: resolvedPage } = useLoaderData<typeof loader>();
  const [open, resolved] = [openPage.rows, resolvedPage.rows];
  const busy = useIsPending();
  return (
    <>
      <AdminHeader title="Admin Panel" current="payments" />
      <div className="wrap section admin-page">
        <h2 id="open-heading">Needs a look</h2>
        {open.length === 0 ? (
          <p className="empty card">{PAYMENT_MESSAGES.empty}</p>
        ) : (
          <ul className="issue-list" aria-labelledby="open-heading">
            {open.map((issue) => (
              <li key={issue.id} className="card issue">
                <h3>{PAYMENT_ISSUE_TEXT[issue.kind].label}</h3>
                <p className="hint">{PAYMENT_ISSUE_TEXT[issue.kind].help}</p>
                <IssueFacts issue={issue} />
                <Form method="post" className="actions">
                  <input type="hidden" name="issueId" value={issue.id} />
                  {issue.kind === "amount_mismatch" ? (
                    <button
                      type="submit"
                      name="intent"
                      value={INTENT.accept}
                      className="button button-small button-primary"
                      disabled={busy}
                    >
                      Accept payment and fulfil
                    </button>
                  ) : null}
                  <button
                    type="submit"
                    name="intent"
                    value={INTENT.resolve}
                    className="button button-small"
                    disabled={busy}
                  >
                    Mark resolved
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        )}
        <Pager page={openPage} noun="open issues" one="open issue" />

        <h2 id="resolved-heading">Recently resolved</h2>
        {resolved.length === 0 ? (
          <p className="empty card">{PAYMENT_MESSAGES.emptyResolved}</p>
        ) : (
          <div className="table-scroll">
            <table className="data-table" aria-labelledby="resolved-heading">
              <thead>
                <tr>
                  <th scope="col">Issue</th>
                  <th scope="col">Order</th>
                  <th scope="col">Email</th>
                  <th scope="col">Quoted</th>
                  <th scope="col">Paid</th>
                  <th scope="col">Coupon</th>
                  <th scope="col">Outcome</th>
                </tr>
              </thead>
              <tbody>
                {resolved.map((issue) => (
                  <tr key={issue.id}>
                    <td>{PAYMENT_ISSUE_TEXT[issue.kind].label}</td>
                    <td>
                      <Link to={`/admin/orders/${issue.orderId}`} className="mono">
                        #{issue.shortId}
                      </Link>
                    </td>
                    <td>{issue.email ?? ORDER_NOT_FOUND}</td>
                    <td>{issue.expected}</td>
                    <td>{issue.paid}</td>
                    <td className="mono">{issue.couponCode ?? ""}</td>
                    <td>
                      {issue.resolution === "accepted" ? "Accepted and fulfilled" : "Marked resolved"}
                      {issue.resolvedAt ? ` ${formatDateTime(issue.resolvedAt)}` : ""}
                      {issue.resolvedBy ? ` by ${issue.resolvedBy}` : ""}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pager page={resolvedPage} noun="resolved issues" one="resolved issue" param={RESOLVED_PAGE_PARAM} />
      </div>
    </>
  );
}
