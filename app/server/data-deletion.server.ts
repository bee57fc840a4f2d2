import mongoose from "mongoose";
import { ROUNDS } from "~/domain/orders";
import { MAX_SELF_RENEWALS } from "~/domain/tokens";
import { isDuplicateKeyError } from "./db.server";
import { log } from "./log.server";
import { dataDeleted } from "./mail/messages.server";
import { queueMail } from "./mail/outbox.server";
import {
  AdminAuditLog,
  FormReceipt,
  IntakeSubmission,
  IntakeToken,
  OnceKey,
  Order,
  OrderEvent,
  OutboxMessage,
  PrivacyAuditLog,
  ReminderLog,
  RevisionFeedback,
} from "./models/index.server";
import { intakeCreatedKey, intakeSubmitKey, loadSubmission, type Submission } from "~/server/intake/draft.server";
import { intakeTurnKeys } from "~/server/intake/turns.server";
import { revisionOpenKey } from "./reminders.server";
import { renewalKey } from "./tokens.server";
import { getStorage } from "./storage.server";
import { recordAdminAction, type Actor } from "./admin/audit.server";

/** What the admin's Confirm Data Deletion page names: the order's address and business; null when there is no order. */
export async function deletionPreview(orderId: string) {
  const [order, submission] = await Promise.all([
    Order.findById(orderId, { email: 1, data_deleted_at: 1 }).lean(),
    IntakeSubmission.findOne({ order_id: orderId }, { business_name: 1 }).lean(),
  ]);
  if (!order) return null;
  return {
    email: order.email,
    businessName: submission?.business_name ?? null,
    alreadyDeleted: Boolean(order.data_deleted_at),
  };
}

/** The anonymised address an order keeps once its customer's data is gone. */
export const DELETED_EMAIL = "deleted@deleted.invalid";

/** Where an order's uploads live (app/server/intake/uploads.server.ts): one folder per kind and order. */
export const UPLOAD_PREFIXES = ["logos", "photos"] as const;

/**
 * Every storage key a submission names: the logo and its thumbnail, each photo and its thumbnail.
 * Read by name ending (`*_key`, `*key`), not field by field: a record saved in an older shape
 * (a photo's `thumbnail_key`) is deleted as surely as one in today's.
 */
function submissionKeys(submission: Submission | null): string[] {
  if (!submission) return [];
  const keys: unknown[] = Object.entries(submission)
    .filter(([name]) => name.endsWith("_key"))
    .map(([, value]) => value);
  for (const photo of submission.photo_metadata ?? []) {
    for (const [name, value] of Object.entries(photo ?? {})) if (/key$/i.test(name)) keys.push(value);
  }
  return keys.filter((k): k is string => typeof k === "string" && k.length > 0);
}

/**
 * The once-keys the order's effects claimed (ARCHITECTURE.md rule 7): its first submission, its draft's write turns, when each revision
 * round was first seen open, and per link each opening's submission and its customer's renewals. They hold no more than
 * the order's or a link's id and a time, but they say what this customer did and when.
 */
function orderOnceKeys(
  orderId: string,
  tokens: { id: string; openings: number }[],
  submission: Submission | null,
): string[] {
  const slots = Array.from({ length: MAX_SELF_RENEWALS }, (_, i) => i + 1);
  return [
    intakeCreatedKey(orderId),
    ...intakeTurnKeys(orderId, submission),
    ...ROUNDS.map((round) => revisionOpenKey(orderId, round)),
    ...tokens.flatMap(({ id, openings }) => [
      ...Array.from({ length: openings }, (_, opening) => intakeSubmitKey(id, opening)),
      ...slots.map((slot) => renewalKey(id, slot)),
    ]),
  ];
}

/**
 * delete-user-data (spec 2 section 7): removes an order's personal data for good:
 * the intake submission, its uploads (by the keys it names, then everything under
 * the order's upload folders), its tokens, revision feedback, reminders, the mail
 * queued or kept for it, and the records that made its forms exactly-once (once-keys
 * and form receipts: the order's and its links' ids, a checkout's payment page), and
 * what its history and the admin audit log say about the customer's site (the draft's
 * address, what was missing at a clock restart, a refund's reason); keeps an anonymised financial record of the order
 * (amounts, dates, status, payment ids) and writes a data_deletion audit entry with
 * the reason. Every step is idempotent, so running it twice (or after a crash
 * half-way) is harmless. Called by the admin's Confirm Data Deletion (with the
 * admin as `actor`, for the admin audit log) and by the retention cron (no actor).
 */
export async function deleteOrderData(input: {
  orderId: string;
  reason: string;
  actor?: Actor;
}): Promise<{ deleted: boolean }> {
  const { orderId } = input;
  const order = await Order.findById(orderId).lean();
  if (!order) return { deleted: false };
  const submission = await loadSubmission(orderId);

  // The customer who asked (from the order-status link, e-mailed to the order's address) was promised an e-mail
  // when it is done: queued first, while the address is still known, about no order (so this deletion keeps it).
  if (submission?.data_deletion_requested && order.email !== DELETED_EMAIL)
    await queueMail({ key: `data-deleted:${orderId}`, to: order.email, about: {}, ...dataDeleted({ orderId }) });

  // Uploads first: the submission names the keys, so it is removed only after them.
  const storage = getStorage();
  for (const key of submissionKeys(submission)) await storage.delete(key);
  for (const prefix of UPLOAD_PREFIXES) await storage.deletePrefix(`${prefix}/${orderId}/`);

  // Mail: every message recorded as being about this order when it was queued (to the customer, to the
  // contact address they typed, the business's notices of it), whatever its state. Never by address: another
  // order, or the business, may share the address the customer typed.
  await OutboxMessage.deleteMany({ order_id: orderId });

  // The once-keys before the links: the links' ids name some of them (a run that stops here finds them again).
  const tokens = (await IntakeToken.find({ order_id: orderId }, { _id: 1, reopened: 1 }).lean()).map((t) => ({
    id: String(t._id),
    openings: (t.reopened ?? 0) + 1,
  }));
  await Promise.all([
    OnceKey.deleteMany({ _id: mongoose.trusted({ $in: orderOnceKeys(orderId, tokens, submission) }) }),
    FormReceipt.deleteMany({ order_id: orderId }),
  ]);

  await Promise.all([
    IntakeToken.deleteMany({ order_id: orderId }),
    RevisionFeedback.deleteMany({ order_id: orderId }),
    ReminderLog.deleteMany({ order_id: orderId }),
  ]);

  // The order's history and its admin audit entries keep what happened, when and for how much (the financial record)
  // but not what was written about the customer's site: the draft's address (the order's own is cleared below),
  // what materials were missing at a restart, why it was refunded. The deletion's own entry keeps its reason.
  await Promise.all([
    OrderEvent.updateMany({ order_id: orderId }, { $unset: { draft_url: 1, note: 1 } }),
    AdminAuditLog.updateMany(
      { target_type: "order", target_id: orderId, action: mongoose.trusted({ $ne: "data.deleted" }) },
      { $unset: { "details.url": 1, "details.reason": 1 } },
    ),
  ]);

  await Order.updateOne(
    { _id: orderId },
    {
      $set: {
        email: DELETED_EMAIL,
        user_id: null,
        draft_url: null,
        intake_progress: 0,
        revision_1_feedback: null,
        revision_2_feedback: null,
        revision_3_feedback: null,
      },
    },
  );
  // When the data went: set by the first run only.
  const firstTime =
    (await Order.updateOne({ _id: orderId, data_deleted_at: null }, { $set: { data_deleted_at: new Date() } }))
      .modifiedCount > 0;

  try {
    await PrivacyAuditLog.create({
      key: `data_deletion:${orderId}`,
      action: "data_deletion",
      order_id: orderId,
      privacy_level: String(submission?.privacy_level ?? "standard"),
      reason: input.reason,
    });
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
  }
  // Last, so a failure above leaves the submission for the next attempt (the retention run's walk) to find.
  await IntakeSubmission.deleteMany({ order_id: orderId });
  if (input.actor && firstTime)
    await recordAdminAction(input.actor, "data.deleted", { type: "order", id: orderId }, { reason: input.reason });
  log("info", "privacy.data_deleted", {
    order_id: orderId,
    reason: input.reason,
    by: input.actor ? "admin" : "retention",
    first_time: firstTime,
  });
  return { deleted: true };
}
