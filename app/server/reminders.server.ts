import mongoose from "mongoose";
import { revisionRoundsFor } from "~/content/packages";
import {
  decideReminder,
  intakeRemaining,
  REMINDABLE_STATUSES,
  REMINDER_KINDS,
  REMINDER_MESSAGES,
  reminderKey,
  type ReminderChoice,
  type ReminderFacts,
  type ReminderKind,
  type ReminderSource,
} from "~/domain/reminders";
import { ORDER_NOT_FOUND } from "~/domain/admin/order-detail";
import { addDays, TOKEN_VALID_DAYS } from "~/domain/tokens";
import { orderIncludes } from "~/domain/order-includes";
import { ROUNDS } from "~/domain/orders";
import { isDuplicateKeyError } from "./db.server";
import { intakeLink, statusLink } from "./fulfilment.server";
import { errorMessage, log } from "./log.server";
import {
  intakeIncompleteReminder,
  intakeNotStartedReminder,
  linkExpiringReminder,
  revisionAvailableReminder,
} from "./mail/messages.server";
import { queueMail } from "./mail/outbox.server";
import { IntakeSubmission, IntakeToken, OnceKey, Order, ReminderLog } from "./models/index.server";
import { issueToken } from "./tokens.server";

/**
 * Sends smart reminders (spec 2: send-smart-reminder). The rules are in
 * domain/reminders; this module gathers each order's facts, asks the rules, and
 * sends: a ReminderLog insert under the reminder's key (the exactly-once step),
 * then the e-mail through the outbox under the same key.
 */

const BATCH = 500;

type OrderRow = {
  _id: string;
  email: string;
  status: string;
  product_id?: string | null;
  add_ons?: { id: string }[] | null;
  paid_at?: Date | null;
  created_at?: Date;
  draft_url?: string | null;
  revision_1_enabled?: boolean;
  revision_1_submitted_at?: Date | null;
  revision_2_enabled?: boolean;
  revision_2_submitted_at?: Date | null;
  revision_3_enabled?: boolean;
  revision_3_submitted_at?: Date | null;
  data_deleted_at?: Date | null;
};

const ORDER_FIELDS = {
  email: 1,
  status: 1,
  product_id: 1,
  add_ons: 1,
  paid_at: 1,
  created_at: 1,
  draft_url: 1,
  revision_1_enabled: 1,
  revision_1_submitted_at: 1,
  revision_2_enabled: 1,
  revision_2_submitted_at: 1,
  revision_3_enabled: 1,
  revision_3_submitted_at: 1,
  data_deleted_at: 1,
} as const;

type Gathered = { order: OrderRow; facts: ReminderFacts; furthestStep: number };

const revisionField = (order: OrderRow, n: 1 | 2 | 3) =>
  ({
    enabled: Boolean(order[`revision_${n}_enabled`]),
    submitted: Boolean(order[`revision_${n}_submitted_at`]),
  }) as const;

/** The once-key whose creation time says when a revision round was first seen open (data deletion removes it). */
export const revisionOpenKey = (orderId: string, round: number) => `revision-open:${orderId}:${round}`;

/** True when every failure of an insertMany was a duplicate key (another run claimed it first). */
function onlyDuplicates(error: unknown): boolean {
  const writeErrors = (error as { writeErrors?: { code?: number }[] }).writeErrors;
  return isDuplicateKeyError(error) || (Array.isArray(writeErrors) && writeErrors.every((e) => e.code === 11000));
}

/**
 * When each open revision round was first seen open: the first look claims a
 * key whose creation time is the answer (the order keeps no enabled-at time of
 * its own). Two queries and at most one insert for a whole batch.
 */
async function revisionOpenSince(keys: string[]): Promise<Map<string, Date>> {
  const seen = new Map<string, Date>();
  if (keys.length === 0) return seen;
  const read = async (ids: string[]) => {
    for (const k of await OnceKey.find({ _id: mongoose.trusted({ $in: ids }) }).lean())
      seen.set(k._id, k.created_at as Date);
  };
  await read(keys);
  const missing = keys.filter((k) => !seen.has(k));
  if (missing.length) {
    try {
      await OnceKey.insertMany(
        missing.map((_id) => ({ _id })),
        { ordered: false },
      );
    } catch (error) {
      if (!onlyDuplicates(error)) throw error;
    }
    await read(missing);
  }
  return seen;
}

/** Every order's facts for the rules, in a handful of queries for the whole batch. */
async function gather(orders: OrderRow[]): Promise<Gathered[]> {
  const ids = orders.map((o) => o._id);
  const inIds = mongoose.trusted({ $in: ids });
  const [tokens, submissions, logs] = await Promise.all([
    IntakeToken.find({ order_id: inIds, purpose: "intake" }, { order_id: 1, expires_at: 1, used: 1, created_at: 1 })
      .sort({ created_at: -1 })
      .lean(),
    IntakeSubmission.find(
      { order_id: inIds },
      { order_id: 1, submitted_at: 1, updated_at: 1, furthest_step: 1 },
    ).lean(),
    ReminderLog.find({ order_id: inIds }, { order_id: 1, kind: 1, round: 1, sent_at: 1 }).lean(),
  ]);
  const submitted = new Set(submissions.filter((s) => s.submitted_at).map((s) => s.order_id));
  const isOpen = (order: OrderRow, round: 1 | 2 | 3) => {
    const r = revisionField(order, round);
    return r.enabled && !r.submitted && submitted.has(order._id) && round <= revisionRoundsFor(order.product_id);
  };
  const openSince = await revisionOpenSince(
    orders.flatMap((o) => ROUNDS.filter((round) => isOpen(o, round)).map((round) => revisionOpenKey(o._id, round))),
  );
  const out: Gathered[] = [];
  for (const order of orders) {
    const token = tokens.find((t) => t.order_id === order._id); // newest first
    const submission = submissions.find((s) => s.order_id === order._id);
    const revisions = ROUNDS.filter((round) => round <= revisionRoundsFor(order.product_id)).map((round) => ({
      round,
      ...revisionField(order, round),
      availableSince: openSince.get(revisionOpenKey(order._id, round)) ?? null,
    }));
    out.push({
      order,
      furthestStep: submission?.furthest_step ?? 1,
      facts: {
        status: order.status,
        paidAt: order.paid_at ?? null,
        intake: submission
          ? { lastSavedAt: submission.updated_at as Date, submitted: Boolean(submission.submitted_at) }
          : null,
        link: token ? { expiresAt: token.expires_at, used: token.used } : null,
        revisions,
        history: logs
          .filter((l) => l.order_id === order._id)
          .map((l) => ({ kind: l.kind as ReminderKind, round: l.round ?? null, sentAt: l.sent_at as Date })),
      },
    });
  }
  return out;
}

/**
 * The e-mail for a reminder, with a fresh link: only token hashes are stored, so
 * a link is a new token, issued under the reminder's key (a retry gets the same
 * one). Intake reminders open the intake form; a revision reminder opens the
 * order-status page, where feedback is given (a status token never opens the form).
 */
async function reminderMail(g: Gathered, choice: ReminderChoice, key: string, now: Date) {
  if (choice.kind === "revision_available") {
    const status = await issueToken({ orderId: g.order._id, purpose: "status", issueKey: key, now });
    const statusUrl = statusLink(status);
    return revisionAvailableReminder({ round: choice.round ?? 1, statusUrl, draftUrl: g.order.draft_url ?? null });
  }
  const token = await issueToken({ orderId: g.order._id, purpose: "intake", issueKey: key, now });
  const intakeUrl = intakeLink(token);
  const linkExpiresAt = addDays(now, TOKEN_VALID_DAYS.intake);
  const remaining = intakeRemaining(g.furthestStep);
  switch (choice.kind) {
    case "intake_not_started":
      return intakeNotStartedReminder({
        orderId: g.order._id,
        intakeUrl,
        linkExpiresAt,
        minutes: remaining.minutes,
        includes: orderIncludes(g.order),
      });
    case "intake_incomplete":
      return intakeIncompleteReminder({
        intakeUrl,
        linkExpiresAt,
        stepsLeft: remaining.steps,
        minutes: remaining.minutes,
        nextStepName: remaining.nextStepName,
        includes: orderIncludes(g.order),
      });
    case "link_expiring":
      return linkExpiringReminder({
        intakeUrl,
        expiresAt: g.facts.link!.expiresAt,
        renewedUntil: linkExpiresAt,
        minutes: remaining.minutes,
      });
  }
}

/** Records and queues one reminder. False when another caller already sent this window's reminder. */
async function deliver(
  g: Gathered,
  choice: ReminderChoice,
  source: ReminderSource,
  actor: string | null,
  now: Date,
): Promise<boolean> {
  const key = reminderKey(g.order._id, choice);
  const mail = await reminderMail(g, choice, key, now);
  try {
    await ReminderLog.create({
      key,
      order_id: g.order._id,
      kind: choice.kind,
      round: choice.round,
      slot: choice.slot,
      source,
      actor,
    });
  } catch (error) {
    if (isDuplicateKeyError(error)) return false;
    throw error;
  }
  try {
    await queueMail({ key, to: g.order.email, about: { orderId: g.order._id }, ...mail });
  } catch (error) {
    // Not queued: free the window so the next run tries again, rather than record a reminder nobody got.
    await ReminderLog.deleteOne({ key });
    throw error;
  }
  log("info", "reminder.sent", {
    order_id: g.order._id,
    kind: choice.kind,
    round: choice.round,
    slot: choice.slot,
    source,
  });
  return true;
}

export type ReminderResult = { sent: boolean; kind?: ReminderKind; title: string; message: string };

/**
 * One order's reminder, for the admin's 'Send Reminder' (and each order of the
 * bulk action): the same rules as the cron, except that an admin may send
 * before a reminder is due. Answers with spec 2's toast.
 */
export async function sendReminder(input: {
  orderId: string;
  source: ReminderSource;
  actor?: string | null;
  now?: Date;
}): Promise<ReminderResult> {
  const now = input.now ?? new Date();
  const order = await Order.findById(input.orderId, ORDER_FIELDS).lean<OrderRow>();
  const notSent = {
    sent: false,
    title: REMINDER_MESSAGES.notSent.title,
    message: REMINDER_MESSAGES.notSent.description,
  };
  if (!order) return { ...notSent, message: ORDER_NOT_FOUND };
  // The customer's data is gone (deleted on request or by retention): nothing to remind them of, nowhere to send it.
  if (order.data_deleted_at) return { ...notSent, message: REMINDER_MESSAGES.nothingPending.description };
  const [g] = await gather([order]);
  const decision = decideReminder(g.facts, now, input.source);
  if (!decision.send) {
    return decision.reason === "nothing_pending"
      ? { ...notSent, message: REMINDER_MESSAGES.nothingPending.description }
      : notSent;
  }
  if (!(await deliver(g, decision, input.source, input.actor ?? null, now))) return notSent;
  return {
    sent: true,
    kind: decision.kind,
    title: REMINDER_MESSAGES.sent.title,
    message: REMINDER_MESSAGES.sent.description,
  };
}

/**
 * The bulk 'Send reminders': the orders that were sent one (their count makes 'Sent reminders for N orders')
 * and the others, each with why not (the single 'Send Reminder' answer's words, without "Reminder not sent").
 */
export async function sendReminders(input: {
  orderIds: string[];
  actor: string;
  now?: Date;
}): Promise<{ sent: string[]; skipped: { orderId: string; reason: string }[] }> {
  const sent: string[] = [];
  const skipped: { orderId: string; reason: string }[] = [];
  for (const orderId of input.orderIds) {
    const result = await sendReminder({ orderId, source: "admin", actor: input.actor, now: input.now });
    if (result.sent) sent.push(orderId);
    else skipped.push({ orderId, reason: skipReason(result.message) });
  }
  return { sent, skipped };
}

/** "Reminder not sent (limit reached or sent recently)" → "limit reached or sent recently". */
const skipReason = (message: string) =>
  message.replace(/^Reminder not sent(: | \()?/, "").replace(/[.)]$/, "") || message;

export type ReminderRunSummary = { checked: number; sent: Record<ReminderKind, number>; failed: number };

/**
 * The cron's pass over every order being worked on: each gets at most one
 * reminder, and only when one is due. Safe to run twice at once.
 */
export async function runReminders(now = new Date()): Promise<ReminderRunSummary> {
  const summary: ReminderRunSummary = {
    checked: 0,
    failed: 0,
    sent: Object.fromEntries(REMINDER_KINDS.map((k) => [k, 0])) as Record<ReminderKind, number>,
  };
  let after = "";
  for (;;) {
    const orders = await Order.find(
      {
        status: mongoose.trusted({ $in: [...REMINDABLE_STATUSES] }),
        data_deleted_at: null,
        _id: mongoose.trusted({ $gt: after }),
      },
      ORDER_FIELDS,
    )
      .sort({ _id: 1 })
      .limit(BATCH)
      .lean<OrderRow[]>();
    if (orders.length === 0) break;
    after = orders[orders.length - 1]._id;
    summary.checked += orders.length;
    for (const g of await gather(orders)) {
      const decision = decideReminder(g.facts, now, "cron");
      if (!decision.send) continue;
      try {
        if (await deliver(g, decision, "cron", null, now)) summary.sent[decision.kind]++;
      } catch (error) {
        summary.failed++;
        log("error", "reminder.failed", {
          order_id: g.order._id,
          kind: decision.kind,
          reason: errorMessage(error),
        });
      }
    }
    if (orders.length < BATCH) break;
  }
  return summary;
}

export type ReminderHistoryEntry = {
  sentAt: string;
  kind: ReminderKind;
  round: number | null;
  source: ReminderSource;
  actor: string | null;
};

/** The order detail's reminder history, newest first. */
export async function reminderHistory(orderId: string): Promise<ReminderHistoryEntry[]> {
  const logs = await ReminderLog.find({ order_id: orderId }).sort({ sent_at: -1 }).limit(50).lean();
  return logs.map((l) => ({
    sentAt: new Date(l.sent_at as Date).toISOString(),
    kind: l.kind as ReminderKind,
    round: l.round ?? null,
    source: l.source as ReminderSource,
    actor: l.actor ?? null,
  }));
}
