import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";
import { revisionRoundsFor } from "~/content/packages";
import { ADMIN_REVISION_MESSAGES } from "~/domain/admin/order-detail";
import { REVISION_MESSAGES, type Round } from "~/domain/orders";
import { FeedbackSchema } from "~/domain/orders.schema";
import { isPaid } from "~/domain/order-status";
import { isDuplicateKeyError } from "./db.server";
import { oncePerPost } from "./form-keys.server";
import { absoluteUrl, getEnv } from "./env.server";
import { recordAdminAction, type Actor } from "./admin/audit.server";
import { statusLink, statusTokenFor } from "./fulfilment.server";
import { redirectWithFlash } from "./flash.server";
import { log } from "./log.server";
import { revisionNotice, revisionOpened } from "./mail/messages.server";
import { queueMail } from "./mail/outbox.server";
import { IntakeSubmission, Order, RevisionFeedback } from "./models/index.server";

/**
 * Revision rounds: an admin opens round n (setRevisionRound, which e-mails the
 * customer once per round), the customer sends feedback for it once (submitFeedback). The feedback record, unique per
 * order and round, is what makes "once" hold under any race; the order's
 * revision_n_* fields mirror it for the pages and the admin.
 */

type RoundKey = `revision_${Round}_enabled`;

/** Opens or closes round n of an order (the admin's toggle; tests use it too). False when the product has no such round. */
export async function setRevisionEnabled(orderId: string, round: Round, enabled: boolean): Promise<boolean> {
  const order = await Order.findById(orderId, { product_id: 1 }).lean();
  if (!order || round > revisionRoundsFor(order.product_id)) return false;
  const field: RoundKey = `revision_${round}_enabled`;
  await Order.updateOne({ _id: orderId }, { $set: { [field]: enabled } });
  return true;
}

export class RevisionError extends Error {}

/** Where the customer gives feedback: their dashboard when they have an account, else the order status page by its token. */
async function feedbackUrl(order: { _id: string; user_id?: string | null }): Promise<string> {
  if (order.user_id) return absoluteUrl("/dashboard");
  return statusLink(await statusTokenFor(order._id));
}

/**
 * The admin's toggle: opens or closes revision round `round` (limited by the
 * order's package). The first opening e-mails the customer
 * (notify-customer-revision), once per round, ever: the mail's key is the order
 * and round, so a double-click, or closing and re-opening the round, never sends
 * the same e-mail twice. Returns whether a mail was queued.
 */
export async function setRevisionRound(input: {
  orderId: string;
  round: Round;
  enabled: boolean;
  actor: Actor;
}): Promise<{ notified: boolean }> {
  const { orderId, round, enabled, actor } = input;
  const order = await Order.findById(orderId).lean();
  if (!order || order.data_deleted_at) throw new RevisionError(ADMIN_REVISION_MESSAGES.notFound);
  const rounds = revisionRoundsFor(order.product_id);
  if (round > rounds) throw new RevisionError(ADMIN_REVISION_MESSAGES.notIncluded(rounds));

  // One writer of revision_n_enabled: setRevisionEnabled.
  if (!(await setRevisionEnabled(orderId, round, enabled)))
    throw new RevisionError(ADMIN_REVISION_MESSAGES.notIncluded(rounds));
  await recordAdminAction(actor, `revision.${round}.${enabled ? "enabled" : "disabled"}`, {
    type: "order",
    id: orderId,
  });
  if (!enabled) return { notified: false };

  const submission = await IntakeSubmission.findById(orderId, { business_name: 1 }).lean();
  const notified = await queueMail({
    key: `revision-opened:${orderId}:${round}`,
    to: order.email,
    about: { orderId },
    ...revisionOpened({
      businessName: submission?.business_name ?? "",
      round,
      draftUrl: order.draft_url ?? null,
      feedbackUrl: await feedbackUrl(order),
    }),
  });
  return { notified };
}

export type FeedbackOutcome = "submitted" | "already" | "not-open";

/**
 * Records the customer's feedback for round n of an order the caller has
 * already proven access to. Posted twice or twenty times at once, one wins; the
 * others answer "already". The business hears once, by e-mail through the outbox.
 */
export async function submitFeedback(input: {
  orderId: string;
  round: Round;
  feedback: string;
}): Promise<FeedbackOutcome> {
  const order = await Order.findById(input.orderId).lean();
  if (!order || !isPaid(order.status) || input.round > revisionRoundsFor(order.product_id)) return "not-open";
  const enabled: RoundKey = `revision_${input.round}_enabled`;
  if (!order[enabled]) return "not-open";

  let outcome: FeedbackOutcome = "submitted";
  try {
    await RevisionFeedback.create({ order_id: input.orderId, round: input.round, feedback: input.feedback });
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    outcome = "already";
  }
  // Mirror the winning record (also on "already": finishes the job if an earlier request stopped half way).
  const record = await RevisionFeedback.findOne({ order_id: input.orderId, round: input.round }).lean();
  if (!record) return outcome;
  await Order.updateOne(
    { _id: input.orderId },
    {
      $set: {
        [`revision_${input.round}_feedback`]: record.feedback,
        [`revision_${input.round}_submitted_at`]: record.submitted_at,
      },
    },
  );
  const submission = await IntakeSubmission.findOne({ order_id: input.orderId }, { business_name: 1 }).lean();
  await queueMail({
    key: `notify-admin-revision:${input.orderId}:${input.round}`,
    to: getEnv().BUSINESS_EMAIL,
    replyTo: order.email,
    about: { orderId: input.orderId },
    ...revisionNotice({
      orderId: input.orderId,
      businessName: submission?.business_name ?? order.email,
      round: input.round,
      feedback: record.feedback,
      customerEmail: order.email,
    }),
  });
  if (outcome === "submitted") log("info", "revision.feedback", { order_id: input.orderId, round: input.round });
  return outcome;
}

/**
 * The feedback form's post, for a page that has already proven access to
 * `orderId`: the same form on /dashboard and /order-status. Errors go back to
 * the form that was posted (by its formId); success is a redirect with a flash.
 */
export async function feedbackPost(request: Request, formData: FormData, orderId: string, back: string) {
  const formId = String(formData.get("formId") ?? "").slice(0, 100);
  const submission = parseWithZod(formData, { schema: FeedbackSchema });
  if (submission.status !== "success") return data({ formId, result: submission.reply() }, { status: 400 });
  // Once per post: a resend after a lost answer is answered "submitted" again, as the first was.
  const outcome = await oncePerPost(`feedback:${orderId}`, formData, async () => {
    const answer = await submitFeedback({
      orderId,
      round: submission.value.round,
      feedback: submission.value.feedback,
    });
    return { done: answer === "submitted", answer, orderId };
  });
  if (outcome === "not-open")
    return data({ formId, result: submission.reply({ formErrors: [REVISION_MESSAGES.notOpen] }) }, { status: 409 });
  if (outcome === "already")
    return redirectWithFlash(request, back, { kind: "info", title: REVISION_MESSAGES.already }, { status: 303 });
  return redirectWithFlash(request, back, { kind: "success", ...REVISION_MESSAGES.submitted }, { status: 303 });
}
