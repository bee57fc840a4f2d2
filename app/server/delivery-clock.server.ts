import mongoose from "mongoose";
import { shortId } from "~/domain/orders";
import {
  ALERT_KINDS,
  alertKey,
  clockRuns,
  clockState,
  clockSummary,
  deadlineFor,
  deliveryHoursBetween,
  deliveryWindowHours,
  dueAlerts,
  refundable,
  refundDue,
  refundNotDue,
  type AlertKind,
  type ClockFacts,
} from "~/domain/delivery-clock";
import { isDuplicateKeyError } from "./db.server";
import { getEnv } from "./env.server";
import { statusLink, statusTokenFor } from "./fulfilment.server";
import { log } from "./log.server";
import { clockAlert, clockRestarted, draftDelivered } from "./mail/messages.server";
import { queueMail } from "./mail/outbox.server";
import { Order, OrderEvent } from "./models/index.server";
import { recordAdminAction, type Actor } from "./admin/audit.server";
import { raiseAlert } from "./alerts.server";
import { HOUR_MS } from "~/domain/dates";

/**
 * The delivery clock's effects (the rules are app/domain/delivery-clock.ts).
 * Each is an insert under its key in order_events; only then is the order's copy
 * written, from the stored event, so racing requests, cron runs and retries
 * leave one start, one delivery, one alert of each kind per deadline.
 */

type OrderClockDoc = {
  _id: string;
  email: string;
  product_id?: string | null;
  add_ons?: { id: string }[];
  clock_started_at?: Date | null;
  clock_deadline?: Date | null;
  clock_window_hours?: number | null;
  clock_restarts?: number | null;
  draft_delivered_at?: Date | null;
  refunded_at?: Date | null;
  data_deleted_at?: Date | null;
};

/** The clock's facts as stored on an order. */
export function clockFactsOf(order: OrderClockDoc): ClockFacts {
  return {
    startedAt: order.clock_started_at ?? null,
    deadline: order.clock_deadline ?? null,
    windowHours: order.clock_window_hours ?? null,
    deliveredAt: order.draft_delivered_at ?? null,
    refundedAt: order.refunded_at ?? null,
    dataDeletedAt: order.data_deleted_at ?? null,
  };
}

/** Inserts an event under its key; true when this call made it, false when it was there already. */
async function insertEvent(doc: Record<string, unknown> & { _id: string }): Promise<boolean> {
  try {
    await OrderEvent.create(doc);
    return true;
  } catch (error) {
    if (isDuplicateKeyError(error)) return false;
    throw error;
  }
}

const businessOrderLink = (orderId: string) => `${getEnv().APP_URL}/admin/orders/${orderId}`;

/**
 * Starts an order's clock at its intake's first submission. Called on every
 * submission: the start is the one stored event, so a later update of the form
 * does not move it. Returns the deadline (null for an order that is not found).
 */
export async function startClock(orderId: string, submittedAt: Date): Promise<Date | null> {
  const order = (await Order.findById(orderId).lean()) as OrderClockDoc | null;
  if (!order) return null;
  const windowHours = deliveryWindowHours({
    productId: order.product_id,
    addOnIds: (order.add_ons ?? []).map((a) => a.id),
  });
  const made = await insertEvent({
    _id: `clock:${orderId}:start`,
    order_id: orderId,
    kind: "started",
    at: submittedAt,
    started_at: submittedAt,
    deadline: deadlineFor(submittedAt, windowHours),
    window_hours: windowHours,
  });
  const start = (await OrderEvent.findById(`clock:${orderId}:start`).lean())!;
  // The copy on the order: written from the stored start, and only while no start (or restart) is there.
  await Order.updateOne(
    { _id: orderId, clock_started_at: null },
    {
      $set: {
        clock_started_at: start.started_at,
        clock_deadline: start.deadline,
        clock_window_hours: start.window_hours,
      },
    },
  );
  if (made) log("info", "clock.started", { order_id: orderId, window_hours: windowHours });
  const current = (await Order.findById(orderId, { clock_deadline: 1 }).lean()) as OrderClockDoc | null;
  return current?.clock_deadline ?? start.deadline ?? null;
}

type RestartEvent = NonNullable<Awaited<ReturnType<typeof findRestart>>>;
const findRestart = (key: string) => OrderEvent.findById(key).lean();

export type RestartOutcome = "restarted" | "raced" | "not-started";

/**
 * An admin restarts a running (or overdue) clock: materials turned out to be missing. `seenRestarts`
 * is the restart count the page was rendered with, so the restart is slot
 * seenRestarts + 1: two admins (or a resent post) restarting from the same page
 * restart once. The customer is e-mailed what is missing and the new deadline;
 * the restart is in the admin audit log and the order's history.
 */
export async function restartClock(input: {
  orderId: string;
  missing: string;
  seenRestarts: number;
  actor: Actor;
  now?: Date;
}): Promise<RestartOutcome> {
  const now = input.now ?? new Date();
  const order = (await Order.findById(input.orderId).lean()) as OrderClockDoc | null;
  if (!order || !clockRuns(clockFactsOf(order)) || !order.clock_window_hours) return "not-started";
  const slot = input.seenRestarts + 1;
  const key = `clock:${input.orderId}:restart:${slot}`;
  const made =
    (order.clock_restarts ?? 0) === input.seenRestarts &&
    (await insertEvent({
      _id: key,
      order_id: input.orderId,
      kind: "restarted",
      at: now,
      started_at: now,
      deadline: deadlineFor(now, order.clock_window_hours),
      window_hours: order.clock_window_hours,
      note: input.missing,
      actor_email: input.actor.email,
    }));
  const event = await findRestart(key);
  if (!made || !event) {
    // The restart this page asked for exists. Made by this press (its answer was lost and the same admin sent
    // the same words again), it is answered as the first was, its steps finished and none made twice;
    // otherwise someone else restarted the clock meanwhile.
    const resent = event && event.actor_email === input.actor.email && event.note === input.missing;
    if (!resent) return "raced";
    await settleRestart(order, slot, event);
    return "restarted";
  }
  await settleRestart(order, slot, event);
  await recordAdminAction(
    input.actor,
    "clock.restarted",
    { type: "order", id: input.orderId },
    { restart: slot, deadline: event.deadline!.toISOString() },
  );
  log("info", "clock.restarted", { order_id: input.orderId, restart: slot });
  return "restarted";
}

/**
 * What a restart changes once its event is stored: the order's clock (never moved back to an older restart)
 * and the customer's e-mail (queued once under the event's key). Safe to run again for the same restart.
 */
async function settleRestart(order: OrderClockDoc, slot: number, event: RestartEvent) {
  if ((order.clock_restarts ?? 0) < slot)
    await Order.updateOne(
      { _id: order._id },
      { $set: { clock_started_at: event.started_at, clock_deadline: event.deadline, clock_restarts: slot } },
    );
  await queueMail({
    key: event._id,
    to: order.email,
    about: { orderId: order._id },
    ...clockRestarted({
      missing: event.note ?? "",
      deadline: event.deadline!,
      statusUrl: await statusUrlOf(order._id),
    }),
  });
}

const statusUrlOf = async (orderId: string) => statusLink(await statusTokenFor(orderId));

/**
 * Records the first draft's delivery when a draft URL is saved while the clock
 * runs: the time once, the customer's e-mail with the draft link once, however
 * often (or however concurrently) the URL is saved. True when this save delivered it.
 */
const deliveredKey = (orderId: string) => `clock:${orderId}:delivered`;

/** The draft URL the first-draft e-mail linked (the first save's while the clock ran), or null. */
export async function deliveredDraftUrl(orderId: string): Promise<string | null> {
  return (await OrderEvent.findById(deliveredKey(orderId)).lean())?.draft_url ?? null;
}

export async function recordDelivery(input: { orderId: string; draftUrl: string; now?: Date }): Promise<boolean> {
  const now = input.now ?? new Date();
  const order = (await Order.findById(input.orderId).lean()) as OrderClockDoc | null;
  if (!order || !clockRuns(clockFactsOf(order))) return false;
  const key = deliveredKey(input.orderId);
  const made = await insertEvent({
    _id: key,
    order_id: input.orderId,
    kind: "delivered",
    at: now,
    started_at: order.clock_started_at!,
    deadline: order.clock_deadline!,
    draft_url: input.draftUrl,
  });
  const event = (await OrderEvent.findById(key).lean())!;
  await Order.updateOne(
    { _id: input.orderId },
    {
      $set: {
        draft_delivered_at: event.at,
        delivery_hours: deliveryHoursBetween(event.started_at!, event.at),
      },
    },
  );
  await queueMail({
    key,
    to: order.email,
    about: { orderId: input.orderId },
    ...draftDelivered({ draftUrl: event.draft_url!, statusUrl: await statusUrlOf(input.orderId) }),
  });
  if (made) log("info", "clock.delivered", { order_id: input.orderId });
  return made;
}

/**
 * The cron's part: warns the business once when an undelivered order has a
 * quarter of its window left and once when it is overdue, per order and
 * deadline. Two runs at once send each alert once (the event's key). Returns
 * how many alerts of each kind this run sent.
 */
export async function sendClockAlerts(now = new Date()): Promise<Record<AlertKind, number>> {
  const sent: Record<AlertKind, number> = { "quarter-left": 0, overdue: 0 };
  const running = (await Order.find(
    {
      draft_delivered_at: null,
      clock_deadline: mongoose.trusted({ $ne: null, $lte: new Date(now.getTime() + 48 * HOUR_MS) }),
      refunded_at: null,
      data_deleted_at: null,
    },
    { email: 1, clock_started_at: 1, clock_deadline: 1, clock_window_hours: 1, draft_delivered_at: 1, refunded_at: 1 },
  )
    .sort({ clock_deadline: 1 })
    .lean()) as OrderClockDoc[];
  for (const order of running) {
    for (const kind of dueAlerts(clockFactsOf(order), now)) {
      const key = alertKey(order._id, kind, order.clock_deadline!);
      const made = await insertEvent({
        _id: key,
        order_id: order._id,
        kind: "alert",
        alert: kind,
        at: now,
        deadline: order.clock_deadline!,
      });
      // Raised under the same key by every run: a run that died after the insert is finished by the next.
      await raiseAlert({
        key,
        about: { orderId: order._id },
        content: clockAlert({
          kind,
          orderId: order._id,
          deadline: order.clock_deadline!,
          adminUrl: businessOrderLink(order._id),
          now,
        }),
      });
      if (made) sent[kind] += 1;
    }
  }
  return sent;
}

/** The order's clock and refund history, oldest first (a few events per order). */
export async function orderEvents(orderId: string) {
  const events = await OrderEvent.find({ order_id: orderId }).sort({ at: 1 }).limit(200).lean();
  return events.map((e) => ({
    id: e._id,
    kind: e.kind,
    at: e.at.toISOString(),
    startedAt: e.started_at?.toISOString() ?? null,
    deadline: e.deadline?.toISOString() ?? null,
    alert: (ALERT_KINDS as readonly string[]).includes(e.alert ?? "") ? (e.alert as AlertKind) : null,
    note: e.note ?? null,
    actorEmail: e.actor_email ?? null,
    draftUrl: e.draft_url ?? null,
    amount: e.amount ?? null,
    source: e.source ?? null,
  }));
}

/** What the restart page shows, or null for an order that does not exist. */
export async function restartPage(orderId: string, now = new Date()) {
  const order = (await Order.findById(orderId).lean()) as OrderClockDoc | null;
  if (!order) return null;
  const facts = clockFactsOf(order);
  return {
    orderId,
    shortId: shortId(orderId),
    email: order.email,
    runs: clockRuns(facts),
    clock: clockSummary(clockState(facts, now)),
    deadline: facts.deadline?.toISOString() ?? null,
    windowHours: facts.windowHours,
    restarts: order.clock_restarts ?? 0,
  };
}

/** The order page's Delivery Clock card: the clock now, what the admin may do, and its history. */
export async function clockView(
  order: OrderClockDoc & { status: string; amount_paid: number; amount_refunded?: number | null },
  now = new Date(),
) {
  const facts = clockFactsOf(order);
  const state = clockState(facts, now);
  return {
    kind: state.kind,
    summary: clockSummary(state),
    startedAt: facts.startedAt?.toISOString() ?? null,
    deadline: facts.deadline?.toISOString() ?? null,
    windowHours: facts.windowHours,
    deliveredAt: facts.deliveredAt?.toISOString() ?? null,
    refundedAt: facts.refundedAt?.toISOString() ?? null,
    amountRefunded: order.amount_refunded ?? 0,
    runs: clockRuns(facts),
    refundDue: refundDue(state),
    refundNotDue: refundNotDue(state),
    refundable: refundable(order),
    events: await orderEvents(order._id),
  };
}
