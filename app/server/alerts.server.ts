import mongoose from "mongoose";
import {
  ALERT_CHECK_MS,
  cronSilence,
  MAIL_FAILING_ATTEMPTS,
  mailFailingCause,
  paymentHeldCause,
} from "~/domain/alerts";
import { HOUR_MS } from "~/domain/dates";
import { PAYMENT_ISSUE_TEXT, type PaymentIssueKind } from "~/domain/admin/payments";
import { formatCents } from "~/domain/money";
import { claimOnce, isDatabaseUnavailable, isDuplicateKeyError, noteDatabaseUnavailable } from "./db.server";
import { absoluteUrl, getEnv } from "./env.server";
import { errorMessage, log } from "./log.server";
import { cronSilentAlert, mailFailingAlert, paymentHeldAlert } from "./mail/messages.server";
import { queueMail, type MailAbout } from "./mail/outbox.server";
import type { MailContent } from "./mail/templates.server";
import { Heartbeat, OutboxMessage } from "./models/index.server";

/**
 * Tells the business, once per cause: an e-mail to BUSINESS_EMAIL through the outbox (queued under the
 * alert's key, so a second raise changes nothing) and, when ALERT_WEBHOOK_URL is set, one JSON post there
 * (claimed under its own key first, so two instances or a retry post it once). Every raise logs
 * `alert.raised` (the first) for a log shipper. Returns true for the call that queued the e-mail.
 */
export async function raiseAlert(alert: { key: string; content: MailContent; about?: MailAbout }): Promise<boolean> {
  const { key, content } = alert;
  const queued = await queueMail({ key, to: getEnv().BUSINESS_EMAIL, about: alert.about ?? {}, ...content });
  if (queued) log("warn", "alert.raised", { cause: key, subject: content.subject });
  const url = getEnv().ALERT_WEBHOOK_URL;
  // Claimed after the e-mail on every raise: a process that died between the two is finished by the next raise.
  if (url && (await claimOnce(`${key}:webhook`))) await postWebhook(url, key, content);
  return queued;
}

const WEBHOOK_TIMEOUT_MS = 10_000;

/** One post, never retried (the e-mail is the record); a failure is logged as `alert.webhook_failed`. */
async function postWebhook(url: string, cause: string, content: MailContent) {
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      // `text` is what Slack's incoming webhooks show; Discord's read `content`.
      body: JSON.stringify({
        cause,
        subject: content.subject,
        text: `${content.subject}\n\n${content.text}`,
        content: content.subject,
      }),
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    });
    if (!res.ok) throw new Error(`the webhook answered ${res.status}`);
  } catch (error) {
    log("error", "alert.webhook_failed", { cause, reason: errorMessage(error) });
  }
}

/** A payment issue was recorded (a held payment, or a coupon used beyond its limit). */
export function alertPaymentIssue(issue: {
  id: string;
  kind: PaymentIssueKind;
  orderId: string;
  expectedCents: number;
  paidCents: number;
}) {
  const text = PAYMENT_ISSUE_TEXT[issue.kind];
  return raiseAlert({
    key: `alert:${paymentHeldCause(issue.id)}`,
    about: { orderId: issue.orderId },
    content: paymentHeldAlert({
      orderId: issue.orderId,
      label: text.label,
      help: text.help,
      expected: formatCents(issue.expectedCents),
      paid: formatCents(issue.paidCents),
      adminUrl: absoluteUrl("/admin/payments"),
    }),
  });
}

/** The cron job ran: its heartbeat. */
export async function noteCronRun(now: Date): Promise<void> {
  await Heartbeat.updateOne({ _id: "cron" }, { $set: { at: now } }, { upsert: true }).catch((error) => {
    if (!isDuplicateKeyError(error)) throw error; // two first runs at once: the other wrote it
  });
}

/** When the watch for the cron job began on this database (the first call wins; later ones read it). */
async function watchedSince(now: Date): Promise<Date> {
  try {
    await Heartbeat.create({ _id: "cron-watch", at: now });
    return now;
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    return (await Heartbeat.findById("cron-watch").lean())?.at ?? now;
  }
}

/**
 * Looks for what no request reports: a cron job gone silent, and mail that keeps failing. Each app
 * instance runs it every ALERT_CHECK_MS (startAlertWatch); the alerts' keys make it once per cause
 * however many instances look. Returns the causes it raised now (for tests and the log).
 */
export async function checkAlerts(now = new Date()): Promise<string[]> {
  const raised: string[] = [];
  const last = await Heartbeat.findById("cron").lean();
  const silence = cronSilence({ lastRunAt: last?.at ?? null, watchedSince: await watchedSince(now), now });
  if (
    silence &&
    (await raiseAlert({ key: `alert:${silence}`, content: cronSilentAlert({ lastRunAt: last?.at ?? null }) }))
  )
    raised.push(silence);

  // A message still being retried after several failures, or one that failed for good within two hours.
  const failing =
    (await OutboxMessage.findOne(
      { status: "pending", attempts: mongoose.trusted({ $gte: MAIL_FAILING_ATTEMPTS }) },
      { to: 1, attempts: 1, last_error: 1 },
    ).lean()) ??
    (await OutboxMessage.findOne(
      { status: "failed", updated_at: mongoose.trusted({ $gte: new Date(now.getTime() - 2 * HOUR_MS) }) },
      { to: 1, attempts: 1, last_error: 1 },
    ).lean());
  if (failing) {
    const cause = mailFailingCause(now);
    const content = mailFailingAlert({
      to: failing.to,
      attempts: failing.attempts,
      lastError: failing.last_error ?? "(no error recorded)",
      adminUrl: absoluteUrl("/admin/outbox?status=failed"),
    });
    if (await raiseAlert({ key: `alert:${cause}`, content })) raised.push(cause);
  }
  return raised;
}

let timer: NodeJS.Timeout | undefined;

/** Starts this instance's watch (idempotent); called once by the server entry. */
export function startAlertWatch() {
  if (timer) return;
  timer = setInterval(() => {
    checkAlerts().catch((error) => {
      if (isDatabaseUnavailable(error)) noteDatabaseUnavailable();
      log("error", "alert.check_failed", { reason: errorMessage(error) });
    });
  }, ALERT_CHECK_MS);
  timer.unref();
}
