import { EmailAddress } from "~/components/EmailAddress";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AdminErrorBoundary } from "~/components/admin/AdminErrorBoundary";
import { adminLinks, AdminHeader, StatusBadge } from "~/components/admin/AdminTabs";
import { DeliveryClockCard } from "~/components/admin/DeliveryClockCard";
import { OrderDataTabs, type OrderDataReply } from "~/components/admin/OrderDataTabs";
import { Pager } from "~/components/admin/Pager";
import { ReminderHistory } from "~/components/admin/ReminderHistory";
import { FormAlert } from "~/components/forms";
import { useIsPending } from "~/components/hooks";
import { EDIT_MESSAGES, editFormValues, readEdit } from "~/domain/admin/edit-data";
import { EditDataSchema } from "~/domain/admin/edit-data.schema";
import {
  ADMIN_REVISION_MESSAGES,
  AI_OPT_OUT_MESSAGE,
  DETAIL_MESSAGES,
  draftUrlToast,
  ORDER_INTENT,
  orderIdParam,
  parseDetailTab,
  revisionTab,
  revisionToggleLabel,
  type DetailTab,
} from "~/domain/admin/order-detail";
import { DraftUrlSchema, RevisionRoundSchema, RevisionToggleSchema } from "~/domain/admin/order-detail.schema";
import { PAYMENT_MESSAGES } from "~/domain/admin/payments";
import { TOKEN_BANNERS } from "~/domain/admin/token";
import { RevisionPromptSchema } from "~/domain/ai-prompt.schema";
import { formatDateTime } from "~/domain/dates";
import { adminStatusTone } from "~/domain/order-status";
import { cursorParam } from "~/domain/paging";
import { REMINDER_MESSAGES } from "~/domain/reminders";
import { HISTORY_PAGE_PARAM, type Actor } from "~/server/admin/audit.server";
import {
  generatePrompt,
  generateRevisionPrompt,
  loadOrderDetail,
  renewTokenAsAdmin,
  saveDraftUrl,
  saveSubmissionData,
} from "~/server/admin/order-detail.server";
import { RevisionError, setRevisionRound } from "~/server/admin/revisions.server";
import { requireAdmin } from "~/server/auth.server";
import { redirectWithFlash, type FlashKind } from "~/server/flash.server";
import { formRules, parseWithZod } from "~/server/form-rules.server";
import { readForm } from "~/server/forms.server";
import { errorMessage, log } from "~/server/log.server";
import { reminderHistory, sendReminder } from "~/server/reminders.server";

export const links = adminLinks;

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [
  { title: d ? `Order #${d.order.shortId} | Admin` : "Order | Admin" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const orderId = orderIdParam(params);
  const query = new URL(request.url).searchParams;
  const [detail, reminders] = await Promise.all([
    loadOrderDetail(orderId, { historyCursor: cursorParam(query, HISTORY_PAGE_PARAM) }),
    reminderHistory(orderId),
  ]);
  if (!detail) throw new Response(DETAIL_MESSAGES.notFound, { status: 404 });
  const tab = parseDetailTab(query.get("tab"));
  const { submission, ...rest } = detail;
  return {
    ...rest,
    reminders: reminders.map((r) => ({ ...r, when: formatDateTime(r.sentAt) })),
    historyParam: HISTORY_PAGE_PARAM,
    tab,
    hasSubmission: submission?.status === "submitted",
    editValues: submission?.status === "submitted" ? editFormValues(submission) : null,
    // The data tabs' rules for the browser's own check (the schemas stay on the server).
    rules: { edit: formRules(EditDataSchema), notes: formRules(RevisionPromptSchema) },
  };
}

/** What every intent's function gets: the parsed post, the order and the admin, and a way to answer with a flash. */
type IntentArgs = {
  form: FormData;
  orderId: string;
  admin: Actor;
  flash: (kind: FlashKind, title: string, description?: string, tab?: DetailTab) => Promise<Response>;
};

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const orderId = orderIdParam(params);
  // Edit Data posts every intake field, list fields as JSON of up to 20,000 characters each.
  const form = await readForm(request, { maxBytes: 512 * 1024 });
  const flash: IntentArgs["flash"] = (kind, title, description, tab) =>
    redirectWithFlash(
      request,
      `/admin/orders/${orderId}${tab ? `?tab=${tab}` : ""}`,
      { kind, title, description },
      { status: 303 },
    );
  const args: IntentArgs = { form, orderId, admin, flash };
  const intent = form.get("intent");
  try {
    switch (intent) {
      case ORDER_INTENT.saveDraftUrl:
        return await saveDraftUrlAction(args);
      case ORDER_INTENT.toggleRevision:
        return await toggleRevisionAction(args);
      case ORDER_INTENT.renewToken:
        return await renewTokenAction(args);
      case ORDER_INTENT.sendReminder:
        return await sendReminderAction(args);
      case ORDER_INTENT.saveData:
        return await saveDataAction(args);
      case ORDER_INTENT.generatePrompt:
        return await generatePromptAction(args);
      case ORDER_INTENT.revisionPrompt:
        return await revisionPromptAction(args);
      default:
        throw new Response(`Unknown intent "${String(intent).slice(0, 40)}"`, { status: 400 });
    }
  } catch (error) {
    if (error instanceof Response) throw error;
    log("error", "admin.order_action_failed", {
      order_id: orderId,
      intent: String(intent),
      reason: errorMessage(error),
    });
    const title =
      intent === ORDER_INTENT.renewToken
        ? DETAIL_MESSAGES.renewFailed
        : intent === ORDER_INTENT.sendReminder
          ? REMINDER_MESSAGES.failed
          : DETAIL_MESSAGES.saveError;
    return flash("error", title, DETAIL_MESSAGES.nothingChanged);
  }
}

async function saveDraftUrlAction({ form, orderId, admin, flash }: IntentArgs) {
  const typed = String(form.get("draftUrl") ?? "").slice(0, 2000);
  const parsed = DraftUrlSchema.safeParse({ draftUrl: typed });
  if (!parsed.success) {
    const message = parsed.error.issues[0].message;
    const toast = draftUrlToast(message);
    if (toast) return flash("error", toast.title, toast.description);
    return data<DraftUrlReply>({ intent: ORDER_INTENT.saveDraftUrl, value: typed, error: message }, { status: 400 });
  }
  await saveDraftUrl({ orderId, url: parsed.data.draftUrl, actor: admin });
  return flash("success", DETAIL_MESSAGES.draftSaved.title);
}

async function toggleRevisionAction({ form, orderId, admin, flash }: IntentArgs) {
  const parsed = RevisionToggleSchema.safeParse({ round: form.get("round"), enabled: form.get("enabled") });
  if (!parsed.success) throw new Response("Bad revision round", { status: 400 });
  const { round, enabled } = parsed.data;
  let notified = false;
  try {
    notified = (await setRevisionRound({ orderId, round, enabled, actor: admin })).notified;
  } catch (error) {
    if (error instanceof RevisionError) return flash("error", DETAIL_MESSAGES.revisionError, error.message);
    throw error;
  }
  const m = !enabled
    ? ADMIN_REVISION_MESSAGES.disabled(round)
    : notified
      ? ADMIN_REVISION_MESSAGES.enabled(round)
      : ADMIN_REVISION_MESSAGES.alreadyNotified(round);
  return flash("success", m.title, m.description);
}

async function renewTokenAction({ orderId, admin, flash }: IntentArgs) {
  const expires = await renewTokenAsAdmin({ orderId, actor: admin });
  if (!expires) return flash("error", DETAIL_MESSAGES.renewFailed, DETAIL_MESSAGES.noToken);
  const m = DETAIL_MESSAGES.tokenRenewed(expires);
  return flash("success", m.title, m.description);
}

/** spec 2: send-smart-reminder, through the same rules as the cron; the result carries the spec's toast. */
async function sendReminderAction({ orderId, admin, flash }: IntentArgs) {
  const result = await sendReminder({ orderId, source: "admin", actor: admin.email });
  return flash(result.sent ? "success" : "info", result.title, result.message);
}

async function saveDataAction({ form, orderId, admin, flash }: IntentArgs) {
  const submission = parseWithZod(form, { schema: EditDataSchema });
  if (submission.status !== "success")
    return data<OrderDataReply>({ intent: ORDER_INTENT.saveData, result: submission.reply() }, { status: 400 });
  // spec 2: a JSON edit that does not parse is ignored, not the whole save refused.
  const { set, ignored } = readEdit(submission.value);
  const saved = await saveSubmissionData({ orderId, values: set, actor: admin });
  if (!saved) return flash("error", DETAIL_MESSAGES.editSaveError, EDIT_MESSAGES.noSubmission, "edit-data");
  if (ignored.length === 0) return flash("success", EDIT_MESSAGES.saved.title, undefined, "edit-data");
  // Answered in place: the ignored fields keep what was typed, each marked with its reason.
  return data<OrderDataReply>({
    intent: ORDER_INTENT.saveData,
    ignored: ignored.map((f) => f.label),
    result: submission.reply({ fieldErrors: Object.fromEntries(ignored.map((f) => [f.name, [f.message]])) }),
  });
}

async function generatePromptAction({ orderId, admin, flash }: IntentArgs) {
  const prompt = await generatePrompt({ orderId, actor: admin });
  if (!prompt) return flash("error", DETAIL_MESSAGES.noPrompt, AI_OPT_OUT_MESSAGE);
  return data<OrderDataReply>({ intent: ORDER_INTENT.generatePrompt, prompt });
}

async function revisionPromptAction({ form, orderId, admin, flash }: IntentArgs) {
  const parsedRound = RevisionRoundSchema.safeParse({ round: form.get("round") });
  if (!parsedRound.success) throw new Response("Bad revision round", { status: 400 });
  const { round } = parsedRound.data;
  const submission = parseWithZod(form, { schema: RevisionPromptSchema });
  if (submission.status !== "success")
    return data<OrderDataReply>(
      { intent: ORDER_INTENT.revisionPrompt, round, result: submission.reply() },
      { status: 400 },
    );
  const prompt = await generateRevisionPrompt({ orderId, round, notes: submission.value.notes, actor: admin });
  if (!prompt) return flash("error", DETAIL_MESSAGES.noPrompt, AI_OPT_OUT_MESSAGE, revisionTab(round));
  return data<OrderDataReply>({ intent: ORDER_INTENT.revisionPrompt, round, prompt, result: submission.reply() });
}

/** A draft URL refused for its form: what was typed and why, shown on the field. */
type DraftUrlReply = { intent: typeof ORDER_INTENT.saveDraftUrl; value: string; error: string };

export default function AdminOrder() {
  const d = useLoaderData<typeof loader>();
  const { order, token, revisions } = d;
  const actionReply = useActionData<typeof action>();
  const draftReply = actionReply?.intent === ORDER_INTENT.saveDraftUrl ? actionReply : null;
  const reply = actionReply?.intent === ORDER_INTENT.saveDraftUrl ? undefined : actionReply;
  const busy = useIsPending();

  return (
    <>
      <AdminHeader title={`Order #${order.shortId}`} current="orders">
        <p className="actions">
          <Link to="/admin" className="button button-small">
            Back
          </Link>
          <Link to="/admin" className="button button-small" aria-label="Close order details">
            Close
          </Link>
        </p>
      </AdminHeader>
      <div className="wrap section admin-page">
        {d.paymentIssueOpen ? (
          <p className="banner" role="status">
            {PAYMENT_MESSAGES.banner} <Link to="/admin/payments">Open the Payments tab</Link>
          </p>
        ) : null}
        <div className="detail-grid">
          <section className="card" aria-labelledby="info-heading">
            <h2 id="info-heading">Order Information</h2>
            <dl className="facts">
              <dt>Email</dt>
              <dd>
                <EmailAddress address={order.email} />
              </dd>
              <dt>Amount</dt>
              <dd>{order.amount}</dd>
              <dt>Status</dt>
              <dd>
                <StatusBadge text={order.statusText} tone={adminStatusTone(order.status)} />{" "}
                {order.guest ? <span className="badge badge-muted">Guest</span> : null}
              </dd>
              <dt>Created</dt>
              <dd>{formatDateTime(order.createdAt)}</dd>
              <dt>Product</dt>
              <dd>{order.productName}</dd>
              {order.paymentIntentId ? (
                <>
                  <dt>Payment intent</dt>
                  <dd className="mono">{order.paymentIntentId}</dd>
                </>
              ) : null}
            </dl>
            {order.dataDeleted ? (
              <p className="banner">This customer's personal data was deleted; only the financial record remains.</p>
            ) : (
              <p>
                <Link to={`/admin/privacy/delete/${order.id}`}>Delete this customer's data</Link>
              </p>
            )}
          </section>

          <section className="card" aria-labelledby="sold-heading">
            <h2 id="sold-heading">What Was Sold</h2>
            <table className="data-table sold">
              <caption className="visually-hidden">What order #{order.shortId} bought, at the prices charged</caption>
              <tbody>
                {d.sold.items.map((item) => (
                  <tr key={item.name}>
                    <th scope="row">{item.name}</th>
                    <td>{item.amount}</td>
                  </tr>
                ))}
                {d.sold.couponCode ? (
                  <tr>
                    <th scope="row">Coupon {d.sold.couponCode}</th>
                    <td>-{d.sold.discount ?? "$0.00"}</td>
                  </tr>
                ) : null}
                <tr>
                  <th scope="row">Total paid</th>
                  <td>
                    <strong>{d.sold.total}</strong>
                  </td>
                </tr>
              </tbody>
            </table>
          </section>

          <DeliveryClockCard orderId={order.id} clock={d.clock} />

          <section className="card" aria-labelledby="token-heading">
            <h2 id="token-heading">Intake Access</h2>
            {token ? (
              <>
                <p>
                  <span
                    className={`status status-${token.state === "Valid" ? "green" : token.state === "Expired" ? "red" : "yellow"}`}
                  >
                    {token.state}
                  </span>{" "}
                  <span className="badge badge-muted">{token.used ? "Used" : "Unused"}</span>
                </p>
                <p className="hint">
                  {token.timeLeft
                    ? `Expires ${formatDateTime(token.expiresAt)} (${token.timeLeft} left)`
                    : `Expired ${formatDateTime(token.expiresAt)}`}
                </p>
                {TOKEN_BANNERS[token.state] ? (
                  <p className="banner" role="status">
                    {TOKEN_BANNERS[token.state]}
                  </p>
                ) : null}
                <Form method="post">
                  <button
                    type="submit"
                    name="intent"
                    value={ORDER_INTENT.renewToken}
                    className="button button-small"
                    disabled={busy}
                  >
                    Renew Token (30 days)
                  </button>
                </Form>
              </>
            ) : (
              <p>
                <span className="status status-grey">No Token</span>
              </p>
            )}
            <Form method="post" className="actions">
              <button
                type="submit"
                name="intent"
                value={ORDER_INTENT.sendReminder}
                className="button button-small"
                disabled={busy || order.dataDeleted}
              >
                Send Reminder
              </button>
            </Form>
          </section>

          <section className="card" aria-labelledby="progress-heading">
            <h2 id="progress-heading">Intake Form Progress</h2>
            <p>
              <strong>{order.intakeProgress}%</strong> complete
            </p>
            <progress max={100} value={order.intakeProgress} aria-labelledby="progress-heading" />
            {token?.intakeUrl ? (
              <p>
                <a href={token.intakeUrl} target="_blank" rel="noreferrer noopener" className="button button-small">
                  View Intake Form
                </a>
              </p>
            ) : null}
          </section>

          <section className="card detail-wide" aria-labelledby="revisions-heading">
            <h2 id="revisions-heading">Revision Workflow</h2>
            <Form method="post" className="inline-form">
              {draftReply ? (
                <FormAlert message={`${DETAIL_MESSAGES.saveError}: Draft URL: ${draftReply.error}`} />
              ) : null}
              <label htmlFor="draftUrl">Draft URL</label>
              <div className="inline-field">
                <input
                  // Remounted with what was typed when the server refuses it, so nothing typed is lost.
                  key={draftReply ? `typed:${draftReply.value}` : "saved"}
                  id="draftUrl"
                  name="draftUrl"
                  type="text"
                  inputMode="url"
                  defaultValue={draftReply ? draftReply.value : (order.draftUrl ?? "")}
                  aria-invalid={draftReply ? true : undefined}
                  aria-describedby={draftReply ? "draftUrl-error" : undefined}
                  maxLength={2000}
                  placeholder="https://..."
                />
                <button
                  type="submit"
                  name="intent"
                  value={ORDER_INTENT.saveDraftUrl}
                  className="button button-small"
                  disabled={busy}
                >
                  Save
                </button>
              </div>
              {draftReply ? (
                <p className="field-error" id="draftUrl-error">
                  {draftReply.error}
                </p>
              ) : null}
            </Form>
            {order.draftUrl ? (
              <p>
                <a href={order.draftUrl} target="_blank" rel="noreferrer noopener">
                  View Current Draft
                </a>
              </p>
            ) : null}
            <ul className="revision-list">
              {revisions
                .filter((r) => r.included)
                .map((r) => (
                  <li key={r.round}>
                    {/* In place: the page keeps its scroll, and focus returns to this toggle (components/focus.ts). */}
                    <Form method="post" className="toggle-row" preventScrollReset>
                      <input type="hidden" name="round" value={r.round} />
                      <input type="hidden" name="enabled" value={String(!r.enabled)} />
                      <button
                        id={`revision-toggle-${r.round}`}
                        type="submit"
                        name="intent"
                        value={ORDER_INTENT.toggleRevision}
                        className="toggle"
                        aria-pressed={r.enabled}
                        disabled={busy}
                      >
                        <span className="toggle-track" aria-hidden="true" />
                        {revisionToggleLabel(r.round)}
                      </button>
                      <span className="hint">{r.enabled ? "On" : "Off"}</span>
                    </Form>
                    {r.submittedAt ? (
                      <>
                        <p className="badges">
                          <span className="badge">Submitted</span>
                          <span className="hint">{formatDateTime(r.submittedAt)}</span>
                        </p>
                        <blockquote className="feedback-sent">{r.feedback}</blockquote>
                      </>
                    ) : null}
                  </li>
                ))}
            </ul>
            {revisions.some((r) => !r.included) ? (
              <p className="hint">
                This order's package includes {revisions.filter((r) => r.included).length} revision round(s).
              </p>
            ) : null}
          </section>
        </div>

        <ReminderHistory rows={d.reminders} />

        <OrderDataTabs
          orderId={order.id}
          tab={d.tab}
          prompt={d.prompt}
          editValues={d.editValues}
          revisions={revisions}
          reply={reply}
          rules={d.rules}
        />

        {d.history.rows.length || !d.history.first ? (
          <section className="section-tight" aria-labelledby="history-heading">
            <h2 id="history-heading">Admin history</h2>
            <ul className="history">
              {d.history.rows.map((h) => (
                <li key={h.id}>
                  <span className="hint">{formatDateTime(h.at)}</span> {h.what}, by {h.actor}
                </li>
              ))}
            </ul>
            <Pager
              page={d.history}
              noun="history entries"
              one="history entry"
              param={d.historyParam}
              label="Pages of admin history"
            />
          </section>
        ) : null}
      </div>
    </>
  );
}

export function ErrorBoundary() {
  return <AdminErrorBoundary notFound={DETAIL_MESSAGES.notFound} back={{ to: "/admin", label: "Back to orders" }} />;
}
