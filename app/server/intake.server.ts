import { intakeProgress, storedFields, type IntakeValues, type StoredSubmission } from "~/domain/intake/data";
import { aiSafeData, privacySummary } from "~/domain/privacy";
import { claimOnce, isDuplicateKeyError } from "./db.server";
import { getEnv } from "./env.server";
import { log } from "./log.server";
import { intakeConfirmation, intakeNotice } from "./mail/messages.server";
import { queueMail } from "./mail/outbox.server";
import { startClock } from "./delivery-clock.server";
import { IntakeSubmission, Order, PrivacyAuditLog } from "./models/index.server";
import { markTokenUsed, type TokenAccess } from "./tokens.server";

/*
 * The intake submission of an order (rapid_website_submissions), keyed by the
 * order id: every read and save on a step post goes by `_id`.
 */

/** A submission as read from the database (its `_id` is the order id). */
export type Submission = StoredSubmission & { _id: string };

export async function loadSubmission(orderId: string): Promise<Submission | null> {
  return IntakeSubmission.findById(orderId).lean<Submission>();
}

/**
 * Applies an update to the order's submission, creating the draft on the first
 * save, in one round trip. Two first saves that race both try to insert: the
 * loser's E11000 is retried as an update.
 */
async function upsertSubmission(orderId: string, update: Record<string, unknown>): Promise<void> {
  const write = () =>
    IntakeSubmission.updateOne({ _id: orderId }, { ...update, $setOnInsert: { order_id: orderId } }, { upsert: true });
  try {
    await write();
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    await write();
  }
}

/**
 * Saves one step's fields (and `extra` stored fields) to the order's draft and
 * returns the draft as saved, worked out from `before` (the draft this request
 * read) rather than read back. `reached` raises the furthest step. The order's
 * intake_progress is written beside it, and only when the save changes it: a
 * step post is then three round trips (the link, the draft, this save).
 */
export async function saveStep(
  orderId: string,
  step: number,
  values: IntakeValues,
  reached: number,
  before: Submission | null,
  extra: Record<string, unknown> = {},
): Promise<Submission> {
  const set = { ...storedFields(step, values), ...extra };
  const doc: Submission = {
    // A first save inserts the draft with the model's defaults (no round trip to build them).
    ...(before ?? new IntakeSubmission({ _id: orderId, order_id: orderId }).toObject<Submission>()),
    // mongoose leaves a field that is undefined in an update as it was stored.
    ...Object.fromEntries(Object.entries(set).filter(([, value]) => value !== undefined)),
    furthest_step: Math.max(Number(before?.furthest_step ?? 0), reached),
    updated_at: new Date(),
  };
  const progress = intakeProgress(doc);
  await Promise.all([
    upsertSubmission(orderId, { $set: set, $max: { furthest_step: reached } }),
    before && progress === intakeProgress(before)
      ? null
      : Order.updateOne({ _id: orderId }, { $set: { intake_progress: progress } }),
  ]);
  return doc;
}

/** Saves only these stored fields (files that arrived with a post refused for its other fields). */
export async function saveFields(orderId: string, set: Record<string, unknown>): Promise<void> {
  await upsertSubmission(orderId, { $set: set });
}

/* Submit */

/** The once-keys of a submission: one per link that submitted, and the order's first (data deletion removes them). */
export const intakeSubmitKey = (tokenId: string) => `intake-submit:${tokenId}`;
export const intakeCreatedKey = (orderId: string) => `intake-created:${orderId}`;

/**
 * Submits the intake: stores what AI may see and the consent, marks the token
 * used, writes the consent audit entry and queues the e-mails. Posted twice, or
 * twenty times at once, it has one effect: the effects belong to the one request
 * that claims this token's submission (an insert under a unique key), and only the
 * request that made the order's first submission answers "submitted"; every other
 * answers "updated" (spec: 'Form Submitted!' / 'Form Updated!').
 */
export async function submitIntake(access: TokenAccess): Promise<"submitted" | "updated"> {
  const doc = await loadSubmission(access.orderId);
  if (!doc) throw new Error("Nothing to submit");
  const submittedAt = doc.submitted_at ?? new Date();
  // The submitted data first (an idempotent $set), so no claim below can lose it.
  await IntakeSubmission.updateOne(
    { _id: access.orderId },
    {
      $set: {
        status: "submitted",
        submitted_at: submittedAt,
        // A customer who opted out of AI (step 12) has nothing prepared for it: the site is built by hand.
        ai_safe_data: doc.ai_processing_consent ? aiSafeData(doc) : null,
        privacy_summary: privacySummary(doc),
      },
      $max: { furthest_step: 15 },
    },
  );
  // The order says its intake is finished (the dashboard reads only orders); set once, never moved.
  await Order.updateOne(
    { _id: access.orderId, intake_submitted_at: null },
    { $set: { intake_submitted_at: submittedAt } },
  );
  // The materials are in: the delivery clock starts (once; a later update does not move it).
  const deadline = await startClock(access.orderId, submittedAt);
  if (!(await claimOnce(intakeSubmitKey(access.tokenId)))) return "updated"; // a repeat of a submit already done
  const created = await claimOnce(intakeCreatedKey(access.orderId));
  await markTokenUsed(access.tokenId);
  try {
    await PrivacyAuditLog.create({
      key: `consent:${access.tokenId}`,
      action: "consent_given",
      order_id: access.orderId,
      privacy_level: typeof doc.privacy_level === "string" ? doc.privacy_level : "standard",
    });
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
  }

  // The confirmation goes to the buyer, and to the step-1 contact address as well when it differs.
  const buyer = (await Order.findById(access.orderId, { email: 1 }).lean())?.email;
  const contact = typeof doc.contact_email === "string" ? doc.contact_email : undefined;
  const recipients = [...new Set([buyer, contact].filter((a): a is string => Boolean(a)).map((a) => a.toLowerCase()))];
  const businessName = (doc.business_name as string | null) ?? "your business";
  const message = intakeConfirmation({ businessName, updated: !created });
  for (const [i, to] of recipients.entries()) {
    await queueMail({
      key: `intake-confirmation:${access.tokenId}${i ? `:${i}` : ""}`,
      to,
      about: { orderId: access.orderId },
      ...message,
    });
  }
  await queueMail({
    key: `intake-notice:${access.tokenId}`,
    to: getEnv().BUSINESS_EMAIL,
    replyTo: contact ?? buyer,
    about: { orderId: access.orderId },
    ...intakeNotice({
      businessName,
      orderId: access.orderId,
      updated: !created,
      deadline,
      adminUrl: `${getEnv().APP_URL}/admin/orders/${access.orderId}`,
    }),
  });
  log("info", "intake.submitted", { order_id: access.orderId, updated: !created });
  return created ? "submitted" : "updated";
}

/** The e-mail the order was paid with (prefills the intake's contact e-mail). */
export async function orderEmail(orderId: string): Promise<string | undefined> {
  return (await Order.findById(orderId, { email: 1 }).lean())?.email;
}
