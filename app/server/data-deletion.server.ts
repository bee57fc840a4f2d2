import mongoose from "mongoose";
import { connectDb, isDuplicateKeyError } from "./db.server";
import { log } from "./log.server";
import { IntakeSubmission, IntakeToken, Order, OutboxMessage, PrivacyAuditLog, RevisionFeedback } from "./models/index.server";
import { getStorage } from "./storage.server";

/** What an order's e-mail becomes once its customer's data is deleted: the order stays as a financial record. */
export function anonymisedEmail(orderId: string): string {
  return `deleted-${orderId.slice(0, 8)}@deleted.invalid`;
}

/** The storage keys an intake submission points at: the logo, the photos and their small copies. */
function uploadKeys(submission: { logo_key?: string | null; logo_thumb_key?: string | null; photo_metadata?: unknown[] } | null): string[] {
  if (!submission) return [];
  const photos = (submission.photo_metadata ?? []).flatMap((p) => [(p as { key?: unknown }).key, (p as { thumbKey?: unknown }).thumbKey]);
  return [submission.logo_key, submission.logo_thumb_key, ...photos].filter((k): k is string => typeof k === "string" && k.length > 0);
}

/**
 * Deletes a customer's data for one order (spec 2: delete-user-data): the
 * uploads in storage, every e-mail to their addresses (queued or sent: the
 * bodies hold their details and links), the access tokens, the
 * revision feedback and the intake submission. The order stays, anonymised, as
 * the financial record (amounts, dates, Stripe ids). A `data_deletion` audit
 * entry records the reason. Every step is idempotent, so running it twice, or
 * again after a failure part-way, is harmless and finishes the job.
 */
export async function deleteOrderData(input: { orderId: string; reason: string; actor: string }): Promise<{ deleted: boolean }> {
  await connectDb();
  const order = await Order.findById(input.orderId).lean();
  if (!order) return { deleted: false };
  const submission = await IntakeSubmission.findOne({ order_id: input.orderId }).lean();

  const storage = getStorage();
  for (const key of uploadKeys(submission)) await storage.delete(key);
  // Anything else stored under the order's folders (files replaced along the way, thumbnails).
  for (const folder of ["logos", "photos"]) await storage.deletePrefix(`${folder}/${input.orderId}/`);

  const anonymous = anonymisedEmail(input.orderId);
  const addresses = [...new Set([order.email, submission?.contact_email].filter((a): a is string => Boolean(a) && a !== anonymous))];
  if (addresses.length) await OutboxMessage.deleteMany({ to: mongoose.trusted({ $in: addresses }) });
  await IntakeToken.deleteMany({ order_id: input.orderId });
  await RevisionFeedback.deleteMany({ order_id: input.orderId });
  await Order.updateOne(
    { _id: input.orderId },
    {
      $set: {
        email: anonymous,
        revision_1_feedback: null,
        revision_2_feedback: null,
        revision_3_feedback: null,
      },
    },
  );

  try {
    await PrivacyAuditLog.create({
      key: `data_deletion:${input.orderId}`,
      action: "data_deletion",
      order_id: input.orderId,
      privacy_level: submission?.privacy_level ?? "standard",
      reason: input.reason,
    });
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
  }
  // Last, so a failure above leaves the submission for the next attempt to find.
  await IntakeSubmission.deleteOne({ order_id: input.orderId });
  log("info", "privacy.data_deleted", { order_id: input.orderId, reason: input.reason, actor: input.actor });
  return { deleted: true };
}
