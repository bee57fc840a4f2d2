import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { AdminErrorBoundary } from "~/components/admin/AdminErrorBoundary";
import { AdminHistory } from "~/components/admin/AdminHistory";
import { BriefPrintPage } from "~/components/admin/BriefTab";
import { adminLinks, AdminHeader } from "~/components/admin/AdminTabs";
import { CustomerFilesCard } from "~/components/admin/CustomerFilesCard";
import { DeliveryClockCard } from "~/components/admin/DeliveryClockCard";
import { IntakeAccessCard } from "~/components/admin/IntakeAccessCard";
import { OrderDataTabs, type OrderDataReply } from "~/components/admin/OrderDataTabs";
import { OrderInformationCard } from "~/components/admin/OrderInformationCard";
import { ReminderHistory } from "~/components/admin/ReminderHistory";
import { RevisionWorkflowCard, type DraftUrlReply } from "~/components/admin/RevisionWorkflowCard";
import { EDIT_MESSAGES, editFormValues, readEdit } from "~/domain/admin/edit-data";
import { EditDataSchema } from "~/domain/admin/edit-data.schema";
import {
  ADMIN_REVISION_MESSAGES,
  AI_OPT_OUT_MESSAGE,
  DATA_TAB_HINTS,
  DETAIL_MESSAGES,
  draftUrlToast,
  ORDER_INTENT,
  orderIdParam,
  parseDetailTab,
  revisionTab,
  type DetailTab,
} from "~/domain/admin/order-detail";
import type * as z from "~/domain/zod";
import { DraftUrlSchema, RevisionRoundSchema, RevisionToggleSchema } from "~/domain/admin/order-detail.schema";
import { PAYMENT_MESSAGES } from "~/domain/admin/payments";
import { RevisionPromptSchema } from "~/domain/ai-prompt.schema";
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
  orderBrief,
} from "~/server/admin/order-detail.server";
import { requireAdmin } from "~/server/auth.server";
import { redirectWithFlash, type FlashKind } from "~/server/flash.server";
import { formRules, parseWithZod } from "~/server/form-rules.server";
import { readForm } from "~/server/forms.server";
import { oncePerPost } from "~/server/form-keys.server";
import { errorMessage, log } from "~/server/log.server";
import { sendReminder } from "~/server/reminders.server";
import { RevisionError, setRevisionRound } from "~/server/revisions.server";

export const links = adminLinks;

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [
  { title: d ? `Order #${d.order.shortId} | Admin` : "Order | Admin" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const orderId = orderIdParam(params);
  const query = new URL(request.url).searchParams;
  const detail = await loadOrderDetail(orderId, { historyCursor: cursorParam(query, HISTORY_PAGE_PARAM) });
  if (!detail) throw new Response(DETAIL_MESSAGES.notFound, { status: 404 });
  const tab = parseDetailTab(query.get("tab"));
  const { submission, ...rest } = detail;
  return {
    ...rest,
    historyParam: HISTORY_PAGE_PARAM,
    tab,
    // The Brief alone, for printing (?tab=brief&print=1): no admin chrome, works without JavaScript.
    printBrief: tab === "brief" && query.get("print") === "1",
    brief: tab === "brief" ? orderBrief(submission, rest.order) : null,
    hasSubmission: submission?.status === "submitted",
    editValues: submission?.status === "submitted" ? editFormValues(submission) : null,
    // The data tabs' rules for the browser's own check (the schemas stay on the server).
    rules: { edit: formRules(EditDataSchema), notes: formRules(RevisionPromptSchema) },
    hints: DATA_TAB_HINTS,
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
  // Each refusal as Zod's issue, so the toast-or-field choice reads its path and code, never its words.
  const submission = parseWithZod(form, {
    schema: DraftUrlSchema,
    formatError: (issues: z.core.$ZodIssue[]) => issues,
  });
  if (submission.status !== "success") {
    const issue = Object.values(submission.error ?? {}).flat()[0];
    if (!issue) throw new Response("Bad draft URL form", { status: 400 });
    const toast = draftUrlToast(issue);
    if (toast) return flash("error", toast.title, toast.description);
    const value = String(form.get("draftUrl") ?? "").slice(0, 2000);
    return data<DraftUrlReply>({ intent: ORDER_INTENT.saveDraftUrl, value, error: issue.message }, { status: 400 });
  }
  // A $set (a resent press sets it again); the first-draft e-mail is keyed per order, so the answer says
  // when it linked another URL than the one now saved.
  const { emailedOther } = await saveDraftUrl({ orderId, url: submission.value.draftUrl, actor: admin });
  return flash(
    "success",
    DETAIL_MESSAGES.draftSaved.title,
    emailedOther ? DETAIL_MESSAGES.draftEmailedOther(emailedOther) : undefined,
  );
}

async function toggleRevisionAction({ form, orderId, admin, flash }: IntentArgs) {
  const parsed = parseWithZod(form, { schema: RevisionToggleSchema });
  if (parsed.status !== "success") throw new Response("Bad revision round", { status: 400 });
  const { round, enabled } = parsed.value;
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
async function sendReminderAction({ form, orderId, admin, flash }: IntentArgs) {
  // A resent press (its answer lost) is answered as the first was: "sent", not "not sent" because it was.
  const result = await oncePerPost(`reminder:${orderId}`, form, async () => {
    const answer = await sendReminder({ orderId, source: "admin", actor: admin.email });
    return { done: answer.sent, answer, orderId };
  });
  return flash(result.sent ? "success" : "info", result.title, result.message);
}

async function saveDataAction({ form, orderId, admin, flash }: IntentArgs) {
  const submission = parseWithZod(form, { schema: EditDataSchema });
  if (submission.status !== "success")
    return data<OrderDataReply>({ intent: ORDER_INTENT.saveData, result: submission.reply() }, { status: 400 });
  // spec 2: a JSON edit that does not parse is ignored, not the whole save refused.
  const { set, ignored } = readEdit(submission.value);
  const saved = await saveSubmissionData({ orderId, values: set, photos: submission.value.photos, actor: admin });
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
  const parsedRound = parseWithZod(form, { schema: RevisionRoundSchema });
  if (parsedRound.status !== "success") throw new Response("Bad revision round", { status: 400 });
  const { round } = parsedRound.value;
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

export default function AdminOrder() {
  const d = useLoaderData<typeof loader>();
  const { order, revisions } = d;
  const actionReply = useActionData<typeof action>();
  const draftReply = actionReply?.intent === ORDER_INTENT.saveDraftUrl ? actionReply : null;
  const reply = actionReply?.intent === ORDER_INTENT.saveDraftUrl ? undefined : actionReply;

  if (d.printBrief && d.brief) return <BriefPrintPage brief={d.brief} order={order} />;

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
      <div className={`wrap section admin-page${d.tab === "brief" ? " printing-brief" : ""}`}>
        {d.paymentIssueOpen ? (
          <p className="banner" role="status">
            {PAYMENT_MESSAGES.banner} <Link to="/admin/payments">Open the Payments tab</Link>
          </p>
        ) : null}
        <div className="detail-grid">
          <OrderInformationCard order={order} sold={d.sold} />
          <DeliveryClockCard orderId={order.id} clock={d.clock} />
          <IntakeAccessCard token={d.token} progress={order.intakeProgress} dataDeleted={order.dataDeleted} />
          <RevisionWorkflowCard draftUrl={order.draftUrl} draftReply={draftReply} revisions={revisions} />
        </div>

        <CustomerFilesCard files={d.files} />

        <ReminderHistory rows={d.reminders} />

        <OrderDataTabs
          orderId={order.id}
          tab={d.tab}
          brief={d.brief}
          prompt={d.prompt}
          editValues={d.editValues}
          photos={d.files.photos}
          revisions={revisions}
          reply={reply}
          rules={d.rules}
          hints={d.hints}
        />

        <AdminHistory history={d.history} param={d.historyParam} />
      </div>
    </>
  );
}

export function ErrorBoundary() {
  return <AdminErrorBoundary notFound={DETAIL_MESSAGES.notFound} back={{ to: "/admin", label: "Back to orders" }} />;
}
