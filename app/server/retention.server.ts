import mongoose from "mongoose";
import { purgeBefore, PURGE_AFTER, RETENTION_DELETION_REASON, retentionCutoffs } from "~/domain/retention";
import { deleteOrderData } from "./data-deletion.server";
import { abandonCheckout } from "./fulfilment.server";
import { errorMessage, log } from "./log.server";
import {
  AccountToken,
  CouponRedemption,
  IntakeSubmission,
  FormReceipt,
  KeptPost,
  OrderChange,
  OrderChangeMark,
  OutboxClaim,
  OutboxMessage,
  RateLimitHit,
  Session,
} from "./models/index.server";
import { GENERATION_MARK } from "./models/order-change.server";
import { SESSION_IDLE_MS } from "./session.server";

/** How many submissions one cron run deletes at most; the next run carries on. */
const RETENTION_BATCH = 100;

export type RetentionSummary = { deleted: number; failed: number };

/**
 * Deletes intake data whose chosen retention has ended (30 days or 1 year after
 * its last change; 'permanent' never), the same way an admin's deletion does,
 * with 'Retention period ended' as the audit entry's reason.
 */
export async function deleteExpiredIntakeData(now = new Date()): Promise<RetentionSummary> {
  const summary: RetentionSummary = { deleted: 0, failed: 0 };
  for (const { period, changedBefore } of retentionCutoffs(now)) {
    const due = await IntakeSubmission.find(
      { data_retention_period: period, updated_at: mongoose.trusted({ $lt: changedBefore }) },
      { order_id: 1 },
    )
      .sort({ updated_at: 1 })
      .limit(RETENTION_BATCH)
      .lean();
    for (const { order_id } of due) {
      try {
        if ((await deleteOrderData({ orderId: order_id, reason: RETENTION_DELETION_REASON })).deleted)
          summary.deleted++;
      } catch (error) {
        summary.failed++;
        log("error", "retention.delete_failed", {
          order_id,
          reason: errorMessage(error),
        });
      }
    }
  }
  return summary;
}

export type PurgeSummary = {
  sessions: number;
  accountLinks: number;
  rateLimitHits: number;
  couponReservations: number;
  deliveredMail: number;
  outboxClaims: number;
  formReceipts: number;
  keptPosts: number;
  orderChanges: number;
};

/**
 * Housekeeping nothing else does (there are no TTL indexes): sign-in sessions
 * past their absolute end or idle timeout, expired password-reset and e-mail
 * confirmation links, old rate-limit hits, coupon uses reserved for checkouts never paid
 * (the checkout is abandoned the way Stripe's 'expired' event does it, which
 * frees the slot), delivered e-mails past their keeping age, old form receipts, and admin posts kept past their hour.
 */
export async function purgeExpiredRecords(now = new Date()): Promise<PurgeSummary> {
  const lt = (date: Date) => mongoose.trusted({ $lt: date });

  const ended = await Session.deleteMany({ expires_at: lt(now) });
  const idle = await Session.deleteMany({ last_seen_at: lt(purgeBefore(now, SESSION_IDLE_MS)) });
  const accountLinks = await AccountToken.deleteMany({ expires_at: lt(now) });
  const hits = await RateLimitHit.deleteMany({ at: lt(purgeBefore(now, PURGE_AFTER.rateLimitHitsMs)) });

  const stale = await CouponRedemption.find(
    { status: "reserved", created_at: lt(purgeBefore(now, PURGE_AFTER.couponReservationMs)) },
    { order_id: 1 },
  )
    .limit(500)
    .lean();
  let couponReservations = 0;
  for (const { order_id } of stale) {
    await abandonCheckout(order_id, "cancelled");
    if (!(await CouponRedemption.exists({ order_id, status: "reserved" }))) couponReservations++;
  }

  const mailBefore = purgeBefore(now, PURGE_AFTER.deliveredMailMs);
  const mail = await OutboxMessage.deleteMany({ status: "sent", sent_at: lt(mailBefore) });
  const claims = await OutboxClaim.deleteMany({ claimed_at: lt(mailBefore) });
  const receipts = await FormReceipt.deleteMany({ created_at: lt(purgeBefore(now, PURGE_AFTER.formReceiptsMs)) });
  const kept = await KeptPost.deleteMany({ expires_at: lt(now) });

  const changes = await OrderChange.deleteMany({ at: lt(purgeBefore(now, PURGE_AFTER.orderChangesMs)) });
  await OrderChangeMark.deleteMany({
    _id: mongoose.trusted({ $ne: GENERATION_MARK }),
    at: lt(purgeBefore(now, PURGE_AFTER.orderChangeMarksMs)),
  });

  return {
    sessions: ended.deletedCount + idle.deletedCount,
    accountLinks: accountLinks.deletedCount,
    rateLimitHits: hits.deletedCount,
    couponReservations,
    deliveredMail: mail.deletedCount,
    outboxClaims: claims.deletedCount,
    formReceipts: receipts.deletedCount,
    keptPosts: kept.deletedCount,
    orderChanges: changes.deletedCount,
  };
}
