import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { formatDateTime } from "~/domain/dates";
import { adminLinks, AdminHeader, StatusBadge, SubTabs } from "~/components/admin/AdminTabs";
import { CopyableText } from "~/components/admin/CopyableText";
import { Pager } from "~/components/admin/Pager";
import { ReminderHistory } from "~/components/admin/ReminderHistory";
import { FormAlert } from "~/components/forms";
import { EDIT_FIELDS, EDIT_MESSAGES, EditDataSchema, editFormValues } from "~/domain/admin/edit-data";
import {
  DETAIL_TABS,
  DraftUrlSchema,
  ORDER_ID,
  parseDetailTab,
  RevisionRoundSchema,
  RevisionToggleSchema,
  revisionToggleLabel,
  type DetailTab,
} from "~/domain/admin/order-detail";
import { PAYMENT_MESSAGES } from "~/domain/admin/payments";
import { TOKEN_BANNERS } from "~/domain/admin/token";
import { cursorParam } from "~/domain/paging";
import { AI_OPT_OUT_MESSAGE, REVISION_NOTES_MAX, RevisionPromptSchema } from "~/domain/ai-prompt";
import { adminStatusTone } from "~/domain/order-status";
import { REMINDER_MESSAGES } from "~/domain/reminders";
import {
  DETAIL_MESSAGES,
  generatePrompt,
  generateRevisionPrompt,
  loadOrderDetail,
  renewTokenAsAdmin,
  saveDraftUrl,
  saveSubmissionData,
} from "~/server/admin/order-detail.server";
import { HISTORY_PAGE_PARAM } from "~/server/admin/audit.server";
import { RevisionError, REVISION_MESSAGES, setRevisionRound } from "~/server/admin/revisions.server";
import { requireAdmin } from "~/server/auth.server";
import { readForm } from "~/server/forms.server";
import { redirectWithFlash } from "~/server/flash.server";
import { log } from "~/server/log.server";
import { reminderHistory, sendReminder } from "~/server/reminders.server";

export const links = adminLinks;

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [
  { title: d ? `Order #${d.order.shortId} | Admin` : "Order | Admin" },
  { name: "robots", content: "noindex" },
];

const INTENT = {
  saveDraftUrl: "save-draft-url",
  toggleRevision: "toggle-revision",
  renewToken: "renew-token",
  sendReminder: "send-reminder",
  saveData: "save-data",
  generatePrompt: "generate-prompt",
  revisionPrompt: "revision-prompt",
} as const;

function orderIdFrom(params: { orderId?: string }): string {
  const id = params.orderId ?? "";
  if (!ORDER_ID.test(id)) throw new Response("Order not found", { status: 404 });
  return id;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const orderId = orderIdFrom(params);
  const query = new URL(request.url).searchParams;
  const [detail, reminders] = await Promise.all([
    loadOrderDetail(orderId, { historyCursor: cursorParam(query, HISTORY_PAGE_PARAM) }),
    reminderHistory(orderId),
  ]);
  if (!detail) throw new Response("Order not found", { status: 404 });
  const tab = parseDetailTab(query.get("tab"));
  const { submission, ...rest } = detail;
  return {
    ...rest,
    reminders: reminders.map((r) => ({ ...r, when: formatDateTime(r.sentAt) })),
    historyParam: HISTORY_PAGE_PARAM,
    tab,
    hasSubmission: submission?.status === "submitted",
    editValues: submission?.status === "submitted" ? editFormValues(submission) : null,
  };
}

type Reply = SubmissionResult<string[]>;
type ActionReply =
  | { intent: typeof INTENT.generatePrompt; prompt: string }
  | { intent: typeof INTENT.revisionPrompt; round: number; prompt?: string; result?: Reply }
  | { intent: typeof INTENT.saveData; result: Reply };

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdmin(request);
  const orderId = orderIdFrom(params);
  // Edit Data posts every intake field, list fields as JSON of up to 20,000 characters each.
  const form = await readForm(request, { maxBytes: 512 * 1024 });
  const here = (tab?: DetailTab) => `/admin/orders/${orderId}${tab ? `?tab=${tab}` : ""}`;
  const flash = (kind: "success" | "error" | "info", title: string, description?: string, tab?: DetailTab) =>
    redirectWithFlash(request, here(tab), { kind, title, description }, { status: 303 });

  try {
    switch (form.get("intent")) {
      case INTENT.saveDraftUrl: {
        const parsed = DraftUrlSchema.safeParse({ draftUrl: form.get("draftUrl") ?? "" });
        if (!parsed.success) {
          const message = parsed.error.issues[0].message;
          return flash(
            "error",
            message === DETAIL_MESSAGES.urlRequired.description ? DETAIL_MESSAGES.urlRequired.title : "Save Error",
            message,
          );
        }
        await saveDraftUrl({ orderId, url: parsed.data.draftUrl, actor: admin });
        return flash("success", DETAIL_MESSAGES.draftSaved.title);
      }
      case INTENT.toggleRevision: {
        const parsed = RevisionToggleSchema.safeParse({ round: form.get("round"), enabled: form.get("enabled") });
        if (!parsed.success) return new Response("Bad revision round", { status: 400 });
        const { round, enabled } = parsed.data;
        await setRevisionRound({ orderId, round: round as 1 | 2 | 3, enabled, actor: admin });
        const m = enabled ? REVISION_MESSAGES.enabled(round) : REVISION_MESSAGES.disabled(round);
        return flash("success", m.title, m.description);
      }
      case INTENT.renewToken: {
        const expires = await renewTokenAsAdmin({ orderId, actor: admin });
        if (!expires) return flash("error", DETAIL_MESSAGES.renewFailed, DETAIL_MESSAGES.noToken);
        const m = DETAIL_MESSAGES.tokenRenewed(expires);
        return flash("success", m.title, m.description);
      }
      case INTENT.sendReminder: {
        // spec 2: send-smart-reminder, through the same rules as the cron; the result carries the spec's toast.
        const result = await sendReminder({ orderId, source: "admin", actor: admin.email });
        return flash(result.sent ? "success" : "info", result.title, result.message);
      }
      case INTENT.saveData: {
        const submission = parseWithZod(form, { schema: EditDataSchema });
        if (submission.status !== "success")
          return data<ActionReply>({ intent: INTENT.saveData, result: submission.reply() }, { status: 400 });
        const saved = await saveSubmissionData({ orderId, values: submission.value, actor: admin });
        if (!saved) return flash("error", "Error Saving", EDIT_MESSAGES.noSubmission, "edit-data");
        return flash("success", EDIT_MESSAGES.saved.title, undefined, "edit-data");
      }
      case INTENT.generatePrompt: {
        const prompt = await generatePrompt({ orderId, actor: admin });
        if (!prompt) return flash("error", "No prompt", AI_OPT_OUT_MESSAGE);
        return data<ActionReply>({ intent: INTENT.generatePrompt, prompt });
      }
      case INTENT.revisionPrompt: {
        const round = RevisionRoundSchema.safeParse({ round: form.get("round") });
        if (!round.success) return new Response("Bad revision round", { status: 400 });
        const submission = parseWithZod(form, { schema: RevisionPromptSchema });
        if (submission.status !== "success")
          return data<ActionReply>(
            { intent: INTENT.revisionPrompt, round: round.data.round, result: submission.reply() },
            { status: 400 },
          );
        const prompt = await generateRevisionPrompt({
          orderId,
          round: round.data.round as 1 | 2 | 3,
          notes: submission.value.notes,
          actor: admin,
        });
        if (!prompt)
          return flash("error", "No prompt", AI_OPT_OUT_MESSAGE, `revision-${round.data.round}` as DetailTab);
        return data<ActionReply>({
          intent: INTENT.revisionPrompt,
          round: round.data.round,
          prompt,
          result: submission.reply(),
        });
      }
      default:
        return new Response("Unknown intent", { status: 400 });
    }
  } catch (error) {
    if (error instanceof RevisionError) return flash("error", "Error", error.message);
    const intent = String(form.get("intent"));
    log("error", "admin.order_action_failed", {
      order_id: orderId,
      intent,
      reason: error instanceof Error ? error.message : String(error),
    });
    const title =
      intent === INTENT.renewToken
        ? DETAIL_MESSAGES.renewFailed
        : intent === INTENT.sendReminder
          ? REMINDER_MESSAGES.failed
          : "Save Error";
    return flash("error", title, "Nothing was changed. Please try again.");
  }
}

export default function AdminOrder() {
  const d = useLoaderData<typeof loader>();
  const { order, token, revisions } = d;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const base = `/admin/orders/${order.id}`;

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
              <dd>{order.email}</dd>
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
                <p className="hint">Expires {formatDateTime(token.expiresAt)}</p>
                {TOKEN_BANNERS[token.state] ? (
                  <p className="banner" role="status">
                    {TOKEN_BANNERS[token.state]}
                  </p>
                ) : null}
                <Form method="post">
                  <button
                    type="submit"
                    name="intent"
                    value={INTENT.renewToken}
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
                value={INTENT.sendReminder}
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

          <section className="card" aria-labelledby="revisions-heading">
            <h2 id="revisions-heading">Revision Workflow</h2>
            <Form method="post" className="inline-form">
              <label htmlFor="draftUrl">Draft URL</label>
              <div className="inline-field">
                <input
                  id="draftUrl"
                  name="draftUrl"
                  type="text"
                  inputMode="url"
                  defaultValue={order.draftUrl ?? ""}
                  maxLength={2000}
                  placeholder="https://..."
                />
                <button
                  type="submit"
                  name="intent"
                  value={INTENT.saveDraftUrl}
                  className="button button-small"
                  disabled={busy}
                >
                  Save
                </button>
              </div>
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
                    <Form method="post" className="toggle-row">
                      <input type="hidden" name="round" value={r.round} />
                      <input type="hidden" name="enabled" value={String(!r.enabled)} />
                      <button
                        type="submit"
                        name="intent"
                        value={INTENT.toggleRevision}
                        className="toggle"
                        aria-pressed={r.enabled}
                        disabled={busy}
                      >
                        <span className="toggle-track" aria-hidden="true" />
                        {revisionToggleLabel(r.round)}
                      </button>
                      <span className="hint">{r.enabled ? "On" : "Off"}</span>
                      {r.submittedAt ? <span className="badge">Submitted</span> : null}
                    </Form>
                    {r.submittedAt ? (
                      <div className="feedback">
                        <p className="hint">Submitted {formatDateTime(r.submittedAt)}</p>
                        <blockquote>{r.feedback}</blockquote>
                      </div>
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

        <SubTabs
          label="Order data"
          current={d.tab}
          tabs={DETAIL_TABS.map((t) => ({ id: t.id, label: t.label, href: `${base}?tab=${t.id}` }))}
        />
        <section className="card tab-panel" aria-label={DETAIL_TABS.find((t) => t.id === d.tab)?.label}>
          {d.tab === "ai-prompt" ? (
            <AiPromptTab />
          ) : d.tab === "edit-data" ? (
            <EditDataTab />
          ) : (
            <RevisionTab round={Number(d.tab.slice(-1))} />
          )}
        </section>

        {d.history.rows.length || !d.history.first ? (
          <section className="section-tight" aria-labelledby="history-heading">
            <h2 id="history-heading">Admin history</h2>
            <ul className="history">
              {d.history.rows.map((h) => (
                <li key={h.id}>
                  <span className="hint">{formatDateTime(h.at)}</span> {h.action} by {h.actor}
                </li>
              ))}
            </ul>
            <Pager page={d.history} noun="history entries" param={d.historyParam} label="Pages of admin history" />
          </section>
        ) : null}
      </div>
    </>
  );
}

function NoSubmission() {
  return <p className="empty">Customer hasn't completed the intake form yet</p>;
}

function AiPromptTab() {
  const { prompt } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const generated = reply && reply.intent === INTENT.generatePrompt ? reply.prompt : null;
  if (prompt.state === "no-submission") return <NoSubmission />;
  if (prompt.state === "opted-out") return <p className="banner">{AI_OPT_OUT_MESSAGE}</p>;
  return (
    <>
      <h2>AI Prompt</h2>
      <p>
        Completeness <span className={`status status-${prompt.tone}`}>{prompt.completeness}%</span>
      </p>
      {prompt.warnings.length ? (
        <ul className="warnings" aria-label="Warnings">
          {prompt.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      ) : null}
      <p className="hint">
        The prompt holds only what the customer agreed AI may see: no contact details, staff, reviews or tracking ids.
        Each generation is recorded in the privacy audit log.
      </p>
      {generated ? (
        <CopyableText id="ai-prompt" label="Generated prompt" text={generated} />
      ) : (
        <Form method="post">
          <button type="submit" name="intent" value={INTENT.generatePrompt} className="button button-primary">
            Generate AI Prompt
          </button>
        </Form>
      )}
    </>
  );
}

function EditDataTab() {
  const { editValues } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const lastResult = reply && reply.intent === INTENT.saveData ? reply.result : undefined;
  const [form, fields] = useForm({
    lastResult,
    defaultValue: editValues ?? {},
    onValidate: ({ formData }) => parseWithZod(formData, { schema: EditDataSchema }),
    shouldValidate: "onSubmit",
  });
  if (!editValues) return <NoSubmission />;
  const firstError = EDIT_FIELDS.map((f) => fields[f.name]?.errors?.[0]).find(Boolean);
  return (
    <Form method="post" {...getFormProps(form)} noValidate>
      <h2>Edit Data</h2>
      <FormAlert message={firstError} />
      <p className="hint">
        Lists are JSON: a change is saved only when its text is valid JSON. Uploads and the customer's consent are not
        edited here.
      </p>
      <div className="edit-grid">
        {EDIT_FIELDS.map((f) => {
          const meta = fields[f.name];
          const value = String(meta?.initialValue ?? "");
          const errors = meta?.errors;
          const common = {
            id: meta.id,
            name: f.name,
            "aria-invalid": errors ? true : undefined,
            "aria-describedby": errors ? meta.errorId : undefined,
          };
          return (
            <div
              key={f.name}
              className={`field${f.kind === "list" || f.kind === "object" || f.kind === "textarea" ? " field-wide" : ""}`}
            >
              <label htmlFor={meta.id}>{f.label}</label>
              {f.kind === "flag" ? (
                <select {...common} defaultValue={value}>
                  <option value="">Not answered</option>
                  <option value="yes">Yes</option>
                  <option value="no">No</option>
                </select>
              ) : f.kind === "text" ? (
                <input {...common} type="text" defaultValue={value} />
              ) : (
                <textarea
                  {...common}
                  defaultValue={value}
                  rows={f.kind === "textarea" ? 4 : 5}
                  className={f.kind === "textarea" ? undefined : "mono"}
                />
              )}
              <p className="field-error" id={meta.errorId}>
                {errors?.[0]}
              </p>
            </div>
          );
        })}
      </div>
      <button type="submit" name="intent" value={INTENT.saveData} className="button button-primary">
        Save Changes
      </button>
    </Form>
  );
}

function RevisionTab({ round }: { round: number }) {
  const { revisions, prompt } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const mine = reply && reply.intent === INTENT.revisionPrompt && reply.round === round ? reply : undefined;
  const [form, fields] = useForm({
    id: `revision-prompt-${round}`,
    lastResult: mine?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RevisionPromptSchema }),
    shouldValidate: "onSubmit",
  });
  const r = revisions[round - 1];
  if (!r.included) return <p>This order's package does not include revision round {round}.</p>;
  return (
    <>
      <h2>Revision {round}</h2>
      <p>
        {r.submittedAt ? (
          <>
            <span className="badge">Submitted</span> {formatDateTime(r.submittedAt)}
          </>
        ) : r.enabled ? (
          "Open: waiting for the customer's feedback."
        ) : (
          "Locked: enable the round in the revision workflow above."
        )}
      </p>
      {r.feedback ? <blockquote className="feedback">{r.feedback}</blockquote> : null}
      <h3>Revision prompt generator</h3>
      {prompt.state === "ready" ? (
        <Form method="post" {...getFormProps(form)} noValidate>
          <input type="hidden" name="round" value={round} />
          <FormAlert message={fields.notes.errors?.[0]} />
          <div className="field">
            <label htmlFor={fields.notes.id}>Revision notes</label>
            <textarea
              id={fields.notes.id}
              name={fields.notes.name}
              defaultValue={String(fields.notes.initialValue ?? "")}
              rows={5}
              maxLength={REVISION_NOTES_MAX}
              aria-invalid={fields.notes.errors ? true : undefined}
              aria-describedby={fields.notes.errors ? fields.notes.errorId : undefined}
            />
            <p className="field-error" id={fields.notes.errorId}>
              {fields.notes.errors?.[0]}
            </p>
          </div>
          <button type="submit" name="intent" value={INTENT.revisionPrompt} className="button button-small">
            Generate Revision Prompt
          </button>
        </Form>
      ) : prompt.state === "opted-out" ? (
        <p className="banner">{AI_OPT_OUT_MESSAGE}</p>
      ) : (
        <NoSubmission />
      )}
      {mine?.prompt ? (
        <CopyableText id={`revision-prompt-text-${round}`} label="Revision prompt" text={mine.prompt} rows={12} />
      ) : null}
    </>
  );
}
