import { findPackage } from "~/content/packages";
import { formatDeadline, HOUR_MS } from "./dates";
import { PAID_STATUSES } from "./order-status";

/**
 * The delivery clock: the promise the business sells ("first draft within 24
 * hours of receiving your details, or a full refund"), as pure rules over plain
 * values. The server stores what these compute (start, deadline, delivery,
 * alerts, refund) once each, under unique keys; see app/server/delivery-clock.server.ts.
 *
 * - The clock starts when the intake is first submitted (the materials are in).
 * - Its window comes from what was bought: the 24-Hour Website 24 h, the packages
 *   Starter 48 h, Professional 24 h, Enterprise 12 h; the Priority 12-Hour
 *   Delivery add-on makes any of them at most 12 h.
 * - An admin may restart it (materials turned out to be missing): a new start now,
 *   the same window.
 * - It stops when the first draft is delivered (the first draft URL saved while it runs).
 */

const MINUTE_MS = 60_000;

/** The 24-Hour Website's own window (spec 1 section 9). */
export const STANDARD_WINDOW_HOURS = 24;
/** The Priority 12-Hour Delivery add-on. */
export const PRIORITY_ADD_ON_ID = "priority-12hr";
export const PRIORITY_WINDOW_HOURS = 12;
/** Spec 2 section 9: each package's delivery. */
export const PACKAGE_WINDOW_HOURS: Record<"starter" | "professional" | "enterprise", number> = {
  starter: 48,
  professional: 24,
  enterprise: 12,
};
/** The admin list's "due within 6 hours" filter. */
export const DUE_SOON_HOURS = 6;
/** The business is warned when this share of the window is left. */
export const ALERT_WINDOW_SHARE_LEFT = 0.25;

/** Hours from start to deadline for what was bought. */
export function deliveryWindowHours(input: { productId: string | null | undefined; addOnIds: readonly string[] }) {
  const pkg = findPackage(input.productId);
  const base = pkg ? PACKAGE_WINDOW_HOURS[pkg.id] : STANDARD_WINDOW_HOURS;
  return input.addOnIds.includes(PRIORITY_ADD_ON_ID) ? Math.min(base, PRIORITY_WINDOW_HOURS) : base;
}

export function deadlineFor(startedAt: Date, windowHours: number): Date {
  return new Date(startedAt.getTime() + windowHours * HOUR_MS);
}

/** What the stored order holds of its clock. */
export type ClockFacts = {
  startedAt: Date | null;
  deadline: Date | null;
  windowHours: number | null;
  deliveredAt: Date | null;
  refundedAt: Date | null;
  /** When the customer's data was deleted: the order then ends, and its clock with it. */
  dataDeletedAt: Date | null;
};

export type ClockState =
  | { kind: "not-started" }
  | { kind: "running"; deadline: Date; msLeft: number; dueSoon: boolean }
  | { kind: "overdue"; deadline: Date; msOver: number }
  | { kind: "delivered"; deadline: Date; deliveredAt: Date; msTaken: number; onTime: boolean }
  | { kind: "refunded"; refundedAt: Date }
  | { kind: "data-deleted"; deletedAt: Date };

/**
 * The clock at `now`: not started, running (due soon within 6 hours), overdue, delivered (on time or not),
 * refunded, or ended by the deletion of the customer's data (no alerts, no reminders, no restart).
 */
export function clockState(facts: ClockFacts, now: Date): ClockState {
  if (facts.refundedAt) return { kind: "refunded", refundedAt: facts.refundedAt };
  if (facts.dataDeletedAt) return { kind: "data-deleted", deletedAt: facts.dataDeletedAt };
  if (!facts.startedAt || !facts.deadline) return { kind: "not-started" };
  const deadline = facts.deadline;
  if (facts.deliveredAt)
    return {
      kind: "delivered",
      deadline,
      deliveredAt: facts.deliveredAt,
      msTaken: Math.max(0, facts.deliveredAt.getTime() - facts.startedAt.getTime()),
      onTime: facts.deliveredAt.getTime() <= deadline.getTime(),
    };
  const msLeft = deadline.getTime() - now.getTime();
  if (msLeft < 0) return { kind: "overdue", deadline, msOver: -msLeft };
  return { kind: "running", deadline, msLeft, dueSoon: msLeft <= DUE_SOON_HOURS * HOUR_MS };
}

/** True while the clock runs (started, not delivered, not refunded): saving a draft URL then delivers. */
export function clockRuns(facts: ClockFacts): boolean {
  return Boolean(facts.startedAt && facts.deadline && !facts.deliveredAt && !facts.refundedAt && !facts.dataDeletedAt);
}

/** The promise was missed: overdue and undelivered, or delivered after the deadline. Not once refunded. */
export function refundDue(state: ClockState): boolean {
  return state.kind === "overdue" || (state.kind === "delivered" && !state.onTime);
}

/**
 * Why a refund is not due (the promise is not missed), in the admin's words beside the Refund button and on its
 * page, or null when it is due or the order is refunded. A refund is still allowed (the customer may ask for one).
 */
export function refundNotDue(state: ClockState): string | null {
  switch (state.kind) {
    case "not-started":
      return "Refund not due: the delivery clock has not started (it starts when the intake form is submitted)";
    case "running":
      return "Refund not due: the deadline has not passed";
    case "delivered":
      return state.onTime ? "Refund not due: the first draft was delivered on time" : null;
    case "data-deleted":
      return "Refund not due: the delivery clock stopped when the order's data was deleted";
    case "overdue":
    case "refunded":
      return null;
  }
}

/** An order can be refunded when it was paid for (a positive amount) and is not refunded yet. */
export function refundable(order: { status: string; amount_paid: number; refunded_at?: Date | null }): boolean {
  return (PAID_STATUSES as readonly string[]).includes(order.status) && order.amount_paid > 0 && !order.refunded_at;
}

/** The alerts to the business, each sent once per order and deadline. */
export const ALERT_KINDS = ["quarter-left", "overdue"] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** When each alert falls due for a clock of this deadline and window. */
export function alertTimes(deadline: Date, windowHours: number): Record<AlertKind, Date> {
  return {
    "quarter-left": new Date(deadline.getTime() - windowHours * ALERT_WINDOW_SHARE_LEFT * HOUR_MS),
    overdue: deadline,
  };
}

/**
 * The alerts due at `now` for an undelivered clock. Only the most recent one is
 * due: a clock found already overdue (the cron did not run for a while) is not
 * first warned that a quarter is left.
 */
export function dueAlerts(facts: ClockFacts, now: Date): AlertKind[] {
  if (!clockRuns(facts) || !facts.deadline || !facts.windowHours) return [];
  const times = alertTimes(facts.deadline, facts.windowHours);
  if (now.getTime() >= times.overdue.getTime()) return ["overdue"];
  if (now.getTime() >= times["quarter-left"].getTime()) return ["quarter-left"];
  return [];
}

/** The idempotency key of one alert: once per order, kind and deadline (a restart's new deadline alerts again). */
export function alertKey(orderId: string, kind: AlertKind, deadline: Date): string {
  return `clock:${orderId}:alert:${kind}:${deadline.toISOString()}`;
}

/** "19 h", "3 h 20 min", "45 min", "2 d 4 h": a span a person reads. Rounds down to the minute. */
export function formatSpan(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / MINUTE_MS);
  const days = Math.floor(minutes / (24 * 60));
  const hours = Math.floor((minutes % (24 * 60)) / 60);
  const mins = minutes % 60;
  if (days > 0) return hours ? `${days} d ${hours} h` : `${days} d`;
  if (hours > 0) return mins ? `${hours} h ${mins} min` : `${hours} h`;
  return `${mins} min`;
}

/** The admin's one-line reading of the clock, e.g. "5 h 12 min left", "Overdue by 2 h", "Delivered in 19 h". */
export function clockSummary(state: ClockState): string {
  switch (state.kind) {
    case "not-started":
      return "Starts when the intake form is submitted";
    case "running":
      return `${formatSpan(state.msLeft)} left`;
    case "overdue":
      return `Overdue by ${formatSpan(state.msOver)}`;
    case "delivered":
      return `Delivered in ${formatSpan(state.msTaken)}${state.onTime ? "" : " (after the deadline)"}`;
    case "refunded":
      return "Refunded";
    case "data-deleted":
      return "Stopped: the customer's data was deleted";
  }
}

/** What the customer reads about the clock (dashboard, order status), or null before it starts. */
export function customerClockLine(state: ClockState): string | null {
  switch (state.kind) {
    case "running":
    case "overdue":
      return `Your first draft is due by ${formatDeadline(state.deadline)}`;
    case "delivered":
      return `Draft delivered in ${formatSpan(state.msTaken)}`;
    case "refunded":
      return "Your order was refunded in full.";
    default:
      return null;
  }
}

/** The customer's line for a stored order (dashboard, order status): due by, delivered in, refunded; null before the start. */
export function customerDueLine(
  order: {
    clock_started_at?: Date | null;
    clock_deadline?: Date | null;
    draft_delivered_at?: Date | null;
    refunded_at?: Date | null;
    data_deleted_at?: Date | null;
  },
  now: Date,
): string | null {
  const facts: ClockFacts = {
    startedAt: order.clock_started_at ?? null,
    deadline: order.clock_deadline ?? null,
    windowHours: null,
    deliveredAt: order.draft_delivered_at ?? null,
    refundedAt: order.refunded_at ?? null,
    dataDeletedAt: order.data_deleted_at ?? null,
  };
  return customerClockLine(clockState(facts, now));
}

/** Hours from start to delivery, to one decimal: the Avg Delivery card's measure. */
export function deliveryHoursBetween(startedAt: Date, deliveredAt: Date): number {
  return Math.round(((deliveredAt.getTime() - startedAt.getTime()) / HOUR_MS) * 10) / 10;
}

/* The admin's forms */

export const CLOCK_MESSAGES = {
  missingRequired: "Say what is missing: the customer receives it by e-mail",
  reasonRequired: "Give a reason for the refund",
  tooLong: "At most 1000 characters",
  restarted: {
    title: "Clock restarted",
    description: "The customer was e-mailed what is missing and the new deadline.",
  },
  restartRaced: "The clock was restarted by someone else meanwhile: check its history before restarting again",
  notRunning: "The clock has not started: it starts when the intake form is submitted",
  refunded: { title: "Refunded", description: "The customer was e-mailed." },
  alreadyRefunded: "This order was refunded already",
  notRefundable: "Only a paid order can be refunded",
  refundFailed: "Stripe did not accept the refund. Nothing was changed; please try again.",
} as const;

/** The reason prefilled when the promise was missed. */
export const MISSED_PROMISE_REASON = "First draft not delivered by the deadline";
