import { DAY_MS, HOUR_MS } from "./dates";

/**
 * How long we keep things (the privacy page's promise), as plain rules the cron
 * route applies. Pure: no I/O.
 */

/** The customer's choice on intake step 12: 30 days, 1 year, or permanently (null: never deleted). */
export const RETENTION_DAYS = { "30days": 30, "1year": 365, permanent: null } as const;
export type RetentionPeriod = keyof typeof RETENTION_DAYS;

/**
 * The retention clock starts at the last change to the intake data (the
 * customer's last save or submit, or an admin's edit), so a project still being
 * worked on keeps its data. Returns when the data is due for deletion, or null.
 */
export function retentionEndsAt(period: string | null | undefined, lastChange: Date): Date | null {
  const days = RETENTION_DAYS[(period ?? "30days") as RetentionPeriod];
  if (days === undefined) return retentionEndsAt("30days", lastChange); // an unknown value gets the shortest promise
  return days === null ? null : new Date(lastChange.getTime() + days * DAY_MS);
}

/** For each period that expires, data last changed before this date is due for deletion now. */
export function retentionCutoffs(now: Date): { period: RetentionPeriod; changedBefore: Date }[] {
  return (Object.entries(RETENTION_DAYS) as [RetentionPeriod, number | null][])
    .filter((entry): entry is [RetentionPeriod, number] => entry[1] !== null)
    .map(([period, days]) => ({ period, changedBefore: new Date(now.getTime() - days * DAY_MS) }));
}

/** The reason written to the privacy audit log when the retention rule deletes data. */
export const RETENTION_DELETION_REASON = "Retention period ended";

/** How old housekeeping records get before the cron purges them. */
export const PURGE_AFTER = {
  /** Rate-limit hits: well past the longest limit window (1 hour). */
  rateLimitHitsMs: 24 * HOUR_MS,
  /** A coupon use reserved for a checkout never paid: Stripe sessions expire within 24 hours. */
  couponReservationMs: 48 * HOUR_MS,
  /** Delivered e-mails (and every delivery claim) are kept this long for the outbox page, then removed. */
  deliveredMailMs: 90 * DAY_MS,
  /** A post's receipt (its form key's answer): a resend comes within minutes; a week is plenty. */
  formReceiptsMs: 7 * DAY_MS,
  /**
   * The orders' change log: every running app reads it within a minute (the order digest), so a
   * day is plenty; a process's mark, once it has written nothing for a week (a stopped process).
   */
  orderChangesMs: 24 * HOUR_MS,
  orderChangeMarksMs: 7 * DAY_MS,
} as const;

/** The moment before which a record of that age is purged. */
export function purgeBefore(now: Date, ageMs: number): Date {
  return new Date(now.getTime() - ageMs);
}
