import { BUSINESS_TIME_ZONE } from "~/domain/dates";
import { connectDb, isDuplicateKeyError } from "./db.server";
import { intakeLink } from "./fulfilment.server";
import { log } from "./log.server";
import { intakeReminder } from "./mail/messages.server";
import { queueMail } from "./mail/outbox.server";
import { IntakeSubmission, Order, ReminderLog } from "./models/index.server";
import { issueToken, newestToken } from "./tokens.server";

export const REMINDER_MESSAGES = {
  sent: { title: "Reminder Sent", description: "Intake form reminder sent to customer." },
  notSent: { title: "Notice", description: "Reminder not sent (limit reached or sent recently)" },
  failed: "Failed to send reminder. Please try again.",
} as const;

const REMINDABLE = ["paid", "in_progress"];

/** The day in New South Wales, yyyy-mm-dd: the once-a-day window. */
function businessDay(now: Date): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: BUSINESS_TIME_ZONE }).format(now);
}

/**
 * The intake-link reminder, at most once per order per day: the ReminderLog
 * insert under its unique key is the send, so a double-click, a bulk action and
 * the cron racing send one e-mail. Paid orders whose intake is not submitted only.
 * (The cron developer owns the full reminder rules; the signature stays.)
 */
export async function sendReminder(input: { orderId: string; source: "admin" | "cron"; actor?: { id: string; email: string }; now?: Date }): Promise<{ sent: boolean; message: string }> {
  const now = input.now ?? new Date();
  const notSent = { sent: false, message: REMINDER_MESSAGES.notSent.description };
  await connectDb();
  const order = await Order.findById(input.orderId).lean();
  if (!order || !REMINDABLE.includes(order.status) || order.data_deleted_at) return notSent;
  const submission = await IntakeSubmission.findById(input.orderId, { status: 1 }).lean();
  if (submission?.status === "submitted") return { sent: false, message: "The intake form is already submitted." };

  const key = `${input.source}:${input.orderId}:${businessDay(now)}`;
  let log_id: unknown;
  try {
    log_id = (await ReminderLog.create({ key, order_id: input.orderId, kind: "intake", source: input.source }))._id;
  } catch (error) {
    if (isDuplicateKeyError(error)) return notSent;
    throw error;
  }
  try {
    // The link in use is the newest token's (issuing its event again returns the same token); without one, a new link.
    const newest = await newestToken(input.orderId, "intake");
    const issueKey = newest ? (newest.token as { issue_key?: string }).issue_key ?? `reminder:${key}` : `reminder:${key}`;
    const token = await issueToken({ orderId: input.orderId, purpose: "intake", issueKey, now });
    await queueMail({ key: `reminder:${key}`, to: order.email, ...intakeReminder({ orderId: input.orderId, intakeUrl: intakeLink(token) }) });
  } catch (error) {
    // Not sent after all: free today's slot so a retry can send it.
    await ReminderLog.deleteOne({ _id: log_id });
    throw error;
  }
  log("info", "reminder.sent", { order_id: input.orderId, source: input.source, actor_id: input.actor?.id });
  return { sent: true, message: REMINDER_MESSAGES.sent.description };
}
