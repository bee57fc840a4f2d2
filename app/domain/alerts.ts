import { HOUR_MS, sydneyDateInput } from "./dates";

/**
 * Alerts to the business: something needs a person. Each is raised once per cause (its key, an insert
 * under a unique index: app/server/alerts.server.ts) and goes by e-mail to BUSINESS_EMAIL and, when
 * ALERT_WEBHOOK_URL is set, as a JSON post there. These are the rules that name a cause, on plain values.
 */

/** The cron job runs hourly; two hours without a run means it stopped (a timer off, a secret wrong). */
export const CRON_SILENT_AFTER_MS = 2 * HOUR_MS;

/** A message that has failed this many attempts in a row means mail keeps failing, not a blip. */
export const MAIL_FAILING_ATTEMPTS = 3;

/** How often each app instance looks for a silent cron job and failing mail. */
export const ALERT_CHECK_MS = 5 * 60_000;

/**
 * The cause of a cron-silence alert, or null while the job runs. One cause per silence: the last run it
 * follows names it, so the job stopping again after it came back is a new alert. A job that never ran is
 * measured from when the watch started (the first app start on this database).
 */
export function cronSilence(input: { lastRunAt: Date | null; watchedSince: Date; now: Date }): string | null {
  const since = input.lastRunAt ?? input.watchedSince;
  if (input.now.getTime() - since.getTime() < CRON_SILENT_AFTER_MS) return null;
  return `cron-silent:${input.lastRunAt ? input.lastRunAt.toISOString() : "never"}`;
}

/** The cause of a failing-mail alert: at most one a day (Sydney), however many messages fail that day. */
export const mailFailingCause = (now: Date) => `mail-failing:${sydneyDateInput(now)}`;

/** The cause of a held-payment alert: one per payment issue. */
export const paymentHeldCause = (issueId: string) => `payment-held:${issueId}`;
