import { revisionRoundsFor } from "~/content/packages";
import { BRIEF_WORDS } from "~/domain/intake/labels";
import { briefView } from "~/domain/admin/brief";
import { shortId } from "~/domain/orders";
import { formatCents } from "~/domain/money";
import { formatDateTime } from "~/domain/dates";
import { EDIT_FIELDS } from "~/domain/admin/edit-data";
import { historySentence } from "~/domain/admin/order-detail";
import { adminTokenState, linkTimeLeft } from "~/domain/tokens";
import { buildRevisionPrompt, promptFor, promptView } from "~/domain/ai-prompt";
import { intakeProgress } from "~/domain/completeness";
import { aiSafeData, privacySummary } from "~/domain/privacy";
import type { Round } from "~/domain/orders";
import type { StoredPhoto } from "~/domain/intake/data";
import type { PageCursor } from "~/domain/paging";
import { statusText } from "~/domain/order-status";
import { orderIncludes } from "~/domain/order-includes";
import { clockView, deliveredDraftUrl, recordDelivery } from "../delivery-clock.server";
import { intakeLink } from "../fulfilment.server";
import { loadSubmission, type Submission } from "~/server/intake/draft.server";
import { IntakeSubmission, Order, PrivacyAuditLog } from "../models/index.server";
import { adminRenewToken, linkToken, newestToken } from "../tokens.server";
import { adminHistory, recordAdminAction, type Actor } from "./audit.server";
import { reminderHistory } from "../reminders.server";
import { orderFilesView } from "./order-files.server";
import { customerReceipt } from "../receipt.server";
import { hasOpenPaymentIssue } from "./payments.server";

/** Everything the order detail page shows, as plain values. Null when the order does not exist. */
export async function loadOrderDetail(
  orderId: string,
  options: { historyCursor?: PageCursor | null; historyPageSize?: number; now?: Date } = {},
) {
  const now = options.now ?? new Date();
  const order = await Order.findById(orderId).lean();
  if (!order) return null;
  const [newest, submission, history, paymentIssueOpen, clock, reminders] = await Promise.all([
    newestToken(orderId, "intake"),
    loadSubmission(orderId),
    adminHistory(orderId, { cursor: options.historyCursor, pageSize: options.historyPageSize }),
    hasOpenPaymentIssue(orderId),
    clockView(order, now),
    reminderHistory(orderId),
  ]);
  const token = newest?.token;
  const link = token ? linkToken(token) : null;
  const rounds = revisionRoundsFor(order.product_id);
  return {
    order: {
      id: order._id,
      shortId: shortId(order._id),
      email: order.email,
      guest: !order.user_id,
      status: order.status,
      statusText: statusText(order.status),
      amount: formatCents(order.amount_paid),
      createdAt: (order.created_at as Date).toISOString(),
      productName: order.product_name,
      paymentIntentId: order.stripe_payment_intent_id ?? null,
      intakeProgress: order.intake_progress,
      draftUrl: order.draft_url ?? null,
      dataDeleted: Boolean(order.data_deleted_at),
    },
    token: token
      ? {
          state: adminTokenState(token.expires_at, now),
          used: token.used,
          expiresAt: token.expires_at.toISOString(),
          timeLeft: linkTimeLeft(token.expires_at, now),
          // The link as the customer has it (derived again from its event; viewing writes nothing), for 'View Intake Form'.
          intakeUrl: link ? intakeLink(link) : null,
        }
      : null,
    paymentIssueOpen,
    // What was sold (the package, each add-on at its price, the coupon and discount, the total paid).
    sold: customerReceipt(order),
    clock,
    revisions: ([1, 2, 3] as const).map((n) => ({
      round: n,
      included: n <= rounds,
      enabled: Boolean(order[`revision_${n}_enabled`]),
      feedback: order[`revision_${n}_feedback`] ?? null,
      submittedAt: order[`revision_${n}_submitted_at`]
        ? (order[`revision_${n}_submitted_at`] as Date).toISOString()
        : null,
    })),
    reminders: reminders.map((r) => ({ ...r, when: formatDateTime(r.sentAt) })),
    files: orderFilesView(orderId, submission),
    submission,
    prompt: promptView(submission),
    history: {
      ...history,
      rows: history.rows.map((h) => ({
        id: h.id,
        at: h.at.toISOString(),
        what: historySentence(h.action, h.details),
        actor: h.actor,
      })),
    },
  };
}

/**
 * Saves the draft URL. The first save while the delivery clock runs delivers the
 * first draft: its time is stored once and the customer e-mailed the link once.
 * Returns the URL that e-mail linked when it is not this one (a later correction,
 * or a resend of a press whose answer was lost carrying the corrected URL), so the
 * answer can say so rather than let the admin think the customer has the new link.
 */
export async function saveDraftUrl(input: {
  orderId: string;
  url: string;
  actor: Actor;
  now?: Date;
}): Promise<{ emailedOther: string | null }> {
  await Order.updateOne({ _id: input.orderId }, { $set: { draft_url: input.url } });
  await recordDelivery({ orderId: input.orderId, draftUrl: input.url, now: input.now });
  await recordAdminAction(input.actor, "order.draft_url", { type: "order", id: input.orderId }, { url: input.url });
  const emailed = await deliveredDraftUrl(input.orderId);
  return { emailedOther: emailed !== null && emailed !== input.url ? emailed : null };
}

/**
 * Extends the order's intake link by 30 days from now (not counted against the
 * customer's own renewals). Returns the new expiry, or null without a link.
 */
export async function renewTokenAsAdmin(input: { orderId: string; actor: Actor; now?: Date }): Promise<Date | null> {
  const newest = await newestToken(input.orderId, "intake");
  if (!newest) return null;
  const expires = await adminRenewToken(newest.token._id, input.now);
  if (expires)
    await recordAdminAction(
      input.actor,
      "token.renewed",
      { type: "order", id: input.orderId },
      { expires_at: expires.toISOString() },
    );
  return expires;
}

type PhotoDetails = Pick<StoredPhoto, "id" | "placement" | "crop" | "priority"> & { altText?: string };

/** Saves the Edit Data tab's parsed values; keeps intake progress and the AI-safe view in step. */
export async function saveSubmissionData(input: {
  orderId: string;
  values: Record<string, unknown>;
  /** The photos' details by id: only those four change; the files and their keys stay the server's. */
  photos?: PhotoDetails[];
  actor: Actor;
}): Promise<boolean> {
  // Only the fields given: an ignored JSON edit is absent, so what was stored before stays.
  const set: Record<string, unknown> = Object.fromEntries(
    EDIT_FIELDS.filter((f) => f.name in input.values).map((f) => [f.name, input.values[f.name] ?? null]),
  );
  if (input.photos?.length) {
    const stored = (await loadSubmission(input.orderId))?.photo_metadata ?? [];
    const posted = new Map(input.photos.map((p) => [p.id, p]));
    set.photo_metadata = stored.map((p) => {
      const edit = posted.get(p.id);
      return edit
        ? { ...p, altText: edit.altText ?? "", placement: edit.placement, crop: edit.crop, priority: edit.priority }
        : p;
    });
  }
  const doc = await IntakeSubmission.findOneAndUpdate(
    { _id: input.orderId, status: "submitted" },
    { $set: set },
    { returnDocument: "after" },
  ).lean<Submission>();
  if (!doc) return false;
  await IntakeSubmission.updateOne(
    { _id: doc._id },
    { $set: { ai_safe_data: aiSafeData(doc), privacy_summary: privacySummary(doc) } },
  );
  await Order.updateOne({ _id: input.orderId }, { $set: { intake_progress: intakeProgress(doc) } });
  await recordAdminAction(
    input.actor,
    "submission.edited",
    { type: "order", id: input.orderId },
    { fields: Object.keys(set).length },
  );
  return true;
}

/** Writes the ai_processing privacy audit entry for one prompt generation. */
async function auditAiProcessing(orderId: string, submission: Submission) {
  await PrivacyAuditLog.create({
    action: "ai_processing",
    order_id: orderId,
    privacy_level: String(submission.privacy_level ?? "standard"),
    ai_provider: "admin copy (external AI)",
  });
}

/** The AI prompt for an order whose customer allowed AI processing, with its audit entry; null otherwise. */
export async function generatePrompt(input: { orderId: string; actor: Actor }): Promise<string | null> {
  const [order, submission] = await Promise.all([
    Order.findById(input.orderId, { product_id: 1, product_name: 1, add_ons: 1 }).lean(),
    loadSubmission(input.orderId),
  ]);
  const prompt = promptFor(submission, orderIncludes(order ?? {}));
  if (!prompt || !submission) return null;
  await auditAiProcessing(input.orderId, submission);
  await recordAdminAction(input.actor, "ai_prompt.generated", { type: "order", id: input.orderId });
  return prompt;
}

/** A revision round's prompt from the admin's notes; null when there is no submission or no AI consent. */
export async function generateRevisionPrompt(input: {
  orderId: string;
  round: Round;
  notes: string;
  actor: Actor;
}): Promise<string | null> {
  const [order, submission] = await Promise.all([Order.findById(input.orderId).lean(), loadSubmission(input.orderId)]);
  if (!order || promptView(submission).state !== "ready" || !submission) return null;
  await auditAiProcessing(input.orderId, submission);
  await recordAdminAction(
    input.actor,
    "revision_prompt.generated",
    { type: "order", id: input.orderId },
    { round: input.round },
  );
  return buildRevisionPrompt({
    safe: aiSafeData(submission),
    round: input.round,
    draftUrl: order.draft_url ?? null,
    feedback: order[`revision_${input.round}_feedback`] ?? null,
    notes: input.notes,
  });
}

/**
 * The Brief tab's view of an order's intake, in the form's own words (the labels stay on the server: the page's
 * script never needs them, and the admin's order page is held to the JS budget).
 */
export const orderBrief = (submission: Parameters<typeof briefView>[0], order: Parameters<typeof briefView>[1]) =>
  briefView(submission, order, BRIEF_WORDS);
