import { revisionRoundsFor } from "~/content/packages";
import { ADMIN_REVISION_MESSAGES } from "~/domain/admin/order-detail";
import type { Round } from "~/domain/orders";
import { absoluteUrl } from "../env.server";
import { statusLink, statusTokenFor } from "../fulfilment.server";
import { revisionOpened } from "../mail/messages.server";
import { queueMail } from "../mail/outbox.server";
import { setRevisionEnabled } from "../revisions.server";
import { IntakeSubmission, Order } from "../models/index.server";
import { recordAdminAction, type Actor } from "./audit.server";

export class RevisionError extends Error {}

/** Where the customer gives feedback: their dashboard when they have an account, else the order status page by its token. */
async function feedbackUrl(order: { _id: string; user_id?: string | null }): Promise<string> {
  if (order.user_id) return absoluteUrl("/dashboard");
  return statusLink(await statusTokenFor(order._id));
}

/**
 * Opens or closes revision round `round` (limited by the order's package). The
 * first opening e-mails the customer (notify-customer-revision), once per round,
 * ever: the mail's key is the order and round, so a double-click, or closing and
 * re-opening the round, never sends the same e-mail twice. Returns whether a mail
 * was queued.
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

  // One writer of revision_n_enabled: the customer side's setRevisionEnabled.
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
