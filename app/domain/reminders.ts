import { INTAKE_ESTIMATED_MINUTES, STEPS, TOTAL_STEPS } from "./intake/steps";
import { DAY_MS, HOUR_MS } from "./dates";

/**
 * Smart reminders: which nudge, if any, an order's customer is due. Pure: the
 * server gathers the facts, this decides, the server records and sends. The
 * cron route and the admin's 'Send Reminder' buttons both ask here.
 */

export const REMINDER_KINDS = [
  "intake_not_started",
  "intake_incomplete",
  "link_expiring",
  "revision_available",
] as const;
export type ReminderKind = (typeof REMINDER_KINDS)[number];

export const REMINDER_KIND_LABELS: Record<ReminderKind, string> = {
  intake_not_started: "Intake not started",
  intake_incomplete: "Intake incomplete",
  link_expiring: "Access link expiring",
  revision_available: "Revision round waiting",
};

/** Every timing and limit of the reminder rules, named once. */
export const REMINDER_RULES = {
  /** Intake not started this long after payment. */
  intakeNotStartedAfterHours: 24,
  /** Intake started but not submitted, this long after the customer last saved a step. */
  intakeIncompleteAfterHours: 48,
  /** The access link runs out within this many days (spec 2: the 'expiring soon' window). */
  linkExpiringWithinDays: 3,
  /** A revision round enabled and not yet submitted this long after it opened. */
  revisionAvailableAfterHours: 72,
  /** At most this many reminders per order and kind (per round, for revisions). */
  maxPerKind: 3,
  /** At least this long between two reminders of the same kind to one order. */
  minGapHours: 48,
  /** At least this long between any two reminders to one order, so a customer gets one e-mail per day at most. */
  minGapAnyHours: 20,
} as const;

/** Orders in these states are being worked on; reminders go only to them. */
export const REMINDABLE_STATUSES = ["paid", "in_progress"] as const;

export type SentReminder = { kind: ReminderKind; round: number | null; sentAt: Date };

/** What the server knows about one order, as plain values. */
export type ReminderFacts = {
  status: string;
  paidAt: Date | null;
  /** null: the customer has not saved a single step yet. */
  intake: { lastSavedAt: Date; submitted: boolean } | null;
  /** The newest access link, or null when the order has none. */
  link: { expiresAt: Date; used: boolean } | null;
  /** Rounds this order's product includes; availableSince is when the round was first seen open. */
  revisions: { round: number; enabled: boolean; submitted: boolean; availableSince: Date | null }[];
  history: SentReminder[];
};

export type ReminderSource = "cron" | "admin";

export type ReminderChoice = {
  kind: ReminderKind;
  round: number | null;
  /** 1..maxPerKind: the how-manieth reminder of this kind (and round) this is. */
  slot: number;
};

export type NoReminderReason = "nothing_pending" | "not_due" | "limit_reached" | "sent_recently";
export type ReminderDecision = ({ send: true } & ReminderChoice) | { send: false; reason: NoReminderReason };

type Candidate = { kind: ReminderKind; round: number | null; dueAt: Date };

/** The reminders that apply now (their step is not done), most useful first. */
export function pendingReminders(facts: ReminderFacts): Candidate[] {
  if (!(REMINDABLE_STATUSES as readonly string[]).includes(facts.status)) return [];
  const out: Candidate[] = [];
  if (!facts.intake?.submitted) {
    if (!facts.intake) {
      if (facts.paidAt)
        out.push({
          kind: "intake_not_started",
          round: null,
          dueAt: new Date(facts.paidAt.getTime() + REMINDER_RULES.intakeNotStartedAfterHours * HOUR_MS),
        });
    } else {
      out.push({
        kind: "intake_incomplete",
        round: null,
        dueAt: new Date(facts.intake.lastSavedAt.getTime() + REMINDER_RULES.intakeIncompleteAfterHours * HOUR_MS),
      });
    }
    if (facts.link && !facts.link.used) {
      out.push({
        kind: "link_expiring",
        round: null,
        dueAt: new Date(facts.link.expiresAt.getTime() - REMINDER_RULES.linkExpiringWithinDays * DAY_MS),
      });
    }
    return out;
  }
  for (const r of facts.revisions) {
    if (r.enabled && !r.submitted && r.availableSince) {
      out.push({
        kind: "revision_available",
        round: r.round,
        dueAt: new Date(r.availableSince.getTime() + REMINDER_RULES.revisionAvailableAfterHours * HOUR_MS),
      });
      break; // one round at a time: the earliest open one
    }
  }
  return out;
}

/** An expired link is not "expiring": the intake reminders carry a fresh link instead. */
function stillRelevant(c: Candidate, facts: ReminderFacts, now: Date): boolean {
  return c.kind !== "link_expiring" || (facts.link !== null && facts.link.expiresAt.getTime() > now.getTime());
}

/**
 * Decides the one reminder to send now, if any. The cron sends only what is
 * due; an admin may send early, but never past the limit or the gaps.
 */
export function decideReminder(facts: ReminderFacts, now: Date, source: ReminderSource): ReminderDecision {
  const candidates = pendingReminders(facts).filter((c) => stillRelevant(c, facts, now));
  if (candidates.length === 0) return { send: false, reason: "nothing_pending" };
  const since = (hours: number) => now.getTime() - hours * HOUR_MS;
  if (facts.history.some((h) => h.sentAt.getTime() > since(REMINDER_RULES.minGapAnyHours)))
    return { send: false, reason: "sent_recently" };

  const reasons: NoReminderReason[] = [];
  for (const c of candidates) {
    const sent = facts.history.filter((h) => h.kind === c.kind && h.round === c.round);
    if (sent.length >= REMINDER_RULES.maxPerKind) {
      reasons.push("limit_reached");
      continue;
    }
    if (sent.some((h) => h.sentAt.getTime() > since(REMINDER_RULES.minGapHours))) {
      reasons.push("sent_recently");
      continue;
    }
    // An admin may nudge early, except about a link that is not yet close to expiring (the e-mail would say it is).
    const early = source === "admin" && c.kind !== "link_expiring";
    if (!early && now.getTime() < c.dueAt.getTime()) {
      reasons.push("not_due");
      continue;
    }
    return { send: true, kind: c.kind, round: c.round, slot: sent.length + 1 };
  }
  const order: NoReminderReason[] = ["sent_recently", "limit_reached", "not_due"];
  return { send: false, reason: order.find((r) => reasons.includes(r))! };
}

/**
 * The reminder's idempotency key: order, kind (and round) and window (the slot).
 * Its insert is the reminder: two cron runs, or a run and an admin's click,
 * racing for the same window, send it once.
 */
export function reminderKey(orderId: string, choice: ReminderChoice): string {
  return `reminder:${orderId}:${choice.kind}${choice.round ? `:r${choice.round}` : ""}:${choice.slot}`;
}

/** Spec 2's toasts for the admin's 'Send Reminder'. */
export const REMINDER_MESSAGES = {
  sent: { title: "Reminder Sent", description: "Intake form reminder sent to customer." },
  notSent: { title: "Notice", description: "Reminder not sent (limit reached or sent recently)" },
  nothingPending: { title: "Notice", description: "Reminder not sent: this customer has no step waiting on them." },
  failed: "Failed to send reminder. Please try again.",
  bulkSent: (n: number) => `Sent reminders for ${n} order${n === 1 ? "" : "s"}`,
} as const;

/**
 * The intake steps still to do from the furthest reached, and about how many
 * minutes they take: their share of the whole form's estimate, at least 1.
 */
export function intakeRemaining(furthestStep: number): { steps: number; minutes: number; nextStepName: string } {
  const from = Math.min(Math.max(1, furthestStep), TOTAL_STEPS);
  const left = STEPS.filter((s) => s.number >= from);
  const weight = (list: typeof STEPS) => list.reduce((sum, s) => sum + s.minutes, 0);
  const minutes = Math.max(1, Math.round((INTAKE_ESTIMATED_MINUTES * weight(left)) / weight(STEPS)));
  return { steps: left.length, minutes, nextStepName: left[0].name };
}
