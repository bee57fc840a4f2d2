import { createHash } from "node:crypto";
import mongoose from "mongoose";
import type { PageCursor } from "~/domain/paging";
import { isDatabaseUnavailable, isDuplicateKeyError, noteDatabaseUnavailable } from "../db.server";
import { getEnv } from "../env.server";
import { errorMessage, log } from "../log.server";
import { OutboxClaim, OutboxDue, OutboxMessage } from "../models/index.server";
import { OUTBOX_STATUSES } from "../models/outbox.server";
import { keysetPage } from "../paging.server";
import { notePrivateRead } from "../private-response.server";
import type { MailContent } from "./templates.server";
import { getMailTransport, sendingDomain, type MailTransport } from "./transport.server";

/**
 * The order or account a message is about (the one whose data it carries), or `{}` for one about neither (a
 * contact enquiry). Every caller says it: exports and deletion select by it, never by the address.
 */
export type MailAbout =
  { orderId: string; userId?: undefined } | { userId: string; orderId?: undefined } | Record<string, never>;

export type QueuedMail = MailContent & { key: string; to: string; replyTo?: string | null; about: MailAbout };

/**
 * Stores an e-mail under its idempotency key, puts it in the worker's queue and wakes the worker.
 * Queuing the same key again (a retried request, a race) changes nothing. Returns true when this
 * call queued it. The message is stored before its queue entry, so an entry never points at a
 * message still to come; a failure between the two leaves a pending message without an entry,
 * which requeueStrandedMail puts back (the cron runs it, and the worker when it starts).
 */
export async function queueMail(mail: QueuedMail): Promise<boolean> {
  let message;
  try {
    message = await OutboxMessage.create({
      key: mail.key,
      to: mail.to,
      reply_to: mail.replyTo ?? undefined,
      order_id: mail.about.orderId ?? null,
      user_id: mail.about.userId ?? null,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
    });
  } catch (error) {
    if (isDuplicateKeyError(error)) return false;
    throw error;
  }
  await markDue(message._id, message.next_attempt_at);
  wakeOutbox();
  return true;
}

/**
 * Puts a message in the worker's queue, due at `at` (an insert under the message's _id; when it is
 * there already, its time is moved). Returns true when this call added it.
 */
async function markDue(id: mongoose.Types.ObjectId, at: Date): Promise<boolean> {
  try {
    await OutboxDue.create({ _id: id, next_attempt_at: at });
    return true;
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    await OutboxDue.updateOne({ _id: id }, { $set: { next_attempt_at: at } });
    return false;
  }
}

/**
 * Puts back in the worker's queue every pending message that has no entry there: one whose
 * queueMail failed between its two writes, or one queued before the queue existed. One pass over
 * the outbox (a scan on FerretDB), so it runs from the cron and once when the worker starts, never
 * per request. Returns how many it put back.
 */
export async function requeueStrandedMail(): Promise<number> {
  const pending = await OutboxMessage.find({ status: "pending" }, { next_attempt_at: 1 }).lean();
  let requeued = 0;
  for (const message of pending) {
    try {
      await OutboxDue.create({ _id: message._id, next_attempt_at: message.next_attempt_at });
      requeued++;
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
  }
  if (requeued) log("warn", "mail.requeued", { count: requeued });
  return requeued;
}

/** The newest queued e-mails, for the development mail page. They hold live links, so that page is never stored. */
export async function recentMail(limit: number) {
  notePrivateRead();
  return OutboxMessage.find().sort({ created_at: -1 }).limit(limit).lean();
}

/** Growing back-off: base, 2x, 4x ... capped at 5 minutes. */
export function backoffMs(attempts: number, base = getEnv().OUTBOX_BACKOFF_MS): number {
  return Math.min(base * 2 ** Math.max(0, attempts - 1), 5 * 60_000);
}

const STALE_CLAIM_MS = 10 * 60_000;
/** Attempts per run at most; the next run (or the wake-up a new message brings) carries on. */
const ATTEMPTS_PER_RUN = 25;
/** Queue entries read per run at most: entries whose message is gone are dropped without counting as attempts. */
const ENTRIES_PER_RUN = 1000;

/**
 * Sends every message that is due. The worker reads its queue (OutboxDue: only what waits), then
 * each message by _id; the message says whether it still waits. Each attempt is claimed by an
 * insert under a unique (message, attempt) index first, so two workers never send the same
 * attempt. Returns how many were sent.
 */
export async function deliverDueMail(transport: MailTransport = getMailTransport(), now = new Date()): Promise<number> {
  const env = getEnv();
  const due = await OutboxDue.find({ next_attempt_at: mongoose.trusted({ $lte: now }) })
    .sort({ next_attempt_at: 1 })
    .limit(ENTRIES_PER_RUN)
    .lean();
  let sent = 0;
  let attempted = 0;
  for (const entry of due) {
    if (attempted >= ATTEMPTS_PER_RUN) break;
    const message = await OutboxMessage.findById(entry._id).lean();
    if (!message || message.status !== "pending") {
      // Sent or failed for good by another worker, or deleted with its order's data: nothing to send.
      await OutboxDue.deleteOne({ _id: entry._id });
      continue;
    }
    if (message.next_attempt_at.getTime() > now.getTime()) {
      // The entry lags its message (a worker stopped between the two writes): follow the message.
      await OutboxDue.updateOne({ _id: entry._id }, { $set: { next_attempt_at: message.next_attempt_at } });
      continue;
    }
    attempted++;
    const id = String(message._id);
    const attempt = message.attempts;
    try {
      await OutboxClaim.create({ message_id: id, attempt });
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      // Another worker holds this attempt. If it died holding it, move past that attempt.
      const claim = await OutboxClaim.findOne({ message_id: id, attempt }).lean();
      if (claim && now.getTime() - new Date(claim.claimed_at as Date).getTime() > STALE_CLAIM_MS) {
        await OutboxMessage.updateOne({ _id: id, attempts: attempt }, { $set: { attempts: attempt + 1 } });
      }
      continue;
    }
    try {
      await transport.send({
        messageId: `<${createHash("sha256").update(message.key).digest("hex").slice(0, 32)}@${sendingDomain()}>`,
        to: message.to,
        replyTo: message.reply_to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
      await OutboxMessage.updateOne(
        { _id: id },
        { $set: { status: "sent", sent_at: new Date(), attempts: attempt + 1, last_error: null } },
      );
      await OutboxDue.deleteOne({ _id: message._id });
      sent++;
    } catch (error) {
      const attempts = attempt + 1;
      const failed = attempts >= env.OUTBOX_MAX_ATTEMPTS;
      const reason = errorMessage(error);
      const nextAttemptAt = new Date(Date.now() + backoffMs(attempts));
      await OutboxMessage.updateOne(
        { _id: id },
        {
          $set: {
            attempts,
            status: failed ? "failed" : "pending",
            last_error: reason.slice(0, 500),
            next_attempt_at: nextAttemptAt,
          },
        },
      );
      if (failed) await OutboxDue.deleteOne({ _id: message._id });
      else await OutboxDue.updateOne({ _id: message._id }, { $set: { next_attempt_at: nextAttemptAt } });
      log(failed ? "error" : "warn", "mail.send_failed", {
        outbox_id: id,
        attempts,
        failed,
        reason: reason.slice(0, 200),
      });
    }
  }
  return sent;
}

/* The worker: one per process, polling, woken early when mail is queued. */

let timer: NodeJS.Timeout | undefined;
let running: Promise<unknown> | undefined;
let again = false;
let requeuedAtStart = false;

/** One run of the worker; its first run puts stranded messages back in the queue. */
async function work() {
  if (!requeuedAtStart) {
    await requeueStrandedMail();
    requeuedAtStart = true;
  }
  await deliverDueMail();
}

function runOnce() {
  if (running) {
    again = true;
    return;
  }
  running = work()
    .catch((error) => {
      // The worker polls even when no page is asked for, so it keeps the database watch going too.
      if (isDatabaseUnavailable(error)) noteDatabaseUnavailable();
      log("error", "mail.worker_failed", { reason: errorMessage(error) });
    })
    .finally(() => {
      running = undefined;
      if (again) {
        again = false;
        runOnce();
      }
    });
}

/** Starts the polling worker (idempotent). Called once by the server entry. */
export function startOutboxWorker() {
  if (timer) return;
  timer = setInterval(runOnce, getEnv().OUTBOX_POLL_MS);
  timer.unref();
  runOnce();
}

/** Asks the worker to look now rather than at its next tick (no-op when it is not started). */
export function wakeOutbox() {
  if (timer) runOnce();
}

/* The admin's view of the outbox */

export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];
export type OutboxCounts = Record<OutboxStatus, number>;

/** How many messages are queued, sent and failed (one count per status: one accumulator per query). */
export async function outboxCounts(): Promise<OutboxCounts> {
  const [pending, sent, failed] = await Promise.all(
    OUTBOX_STATUSES.map((status) => OutboxMessage.countDocuments({ status })),
  );
  return { pending, sent, failed };
}

export const OUTBOX_PAGE_SIZE = 50;

type OutboxRowDoc = {
  _id: unknown;
  to: string;
  subject: string;
  status: string;
  attempts: number;
  last_error?: string | null;
  created_at: Date;
  sent_at?: Date | null;
  next_attempt_at: Date;
};

/** One page of messages after `cursor`, newest first, optionally of one status. */
export async function listOutbox(input: { status?: OutboxStatus; cursor?: PageCursor | null; pageSize?: number }) {
  const page = await keysetPage<OutboxRowDoc>(OutboxMessage, {
    filter: input.status ? { status: input.status } : {},
    field: "created_at",
    cursor: input.cursor ?? null,
    pageSize: input.pageSize ?? OUTBOX_PAGE_SIZE,
    projection: {
      to: 1,
      subject: 1,
      status: 1,
      attempts: 1,
      last_error: 1,
      created_at: 1,
      sent_at: 1,
      next_attempt_at: 1,
    },
  });
  return {
    ...page,
    rows: page.rows.map((m) => ({
      id: String(m._id),
      to: m.to,
      subject: m.subject,
      status: m.status as OutboxStatus,
      attempts: m.attempts,
      lastError: m.last_error ?? null,
      createdAt: new Date(m.created_at).toISOString(),
      sentAt: m.sent_at ? m.sent_at.toISOString() : null,
      nextAttemptAt: m.status === "pending" ? m.next_attempt_at.toISOString() : null,
    })),
  };
}

/**
 * Puts a failed message back in the queue for one more attempt now. Only a
 * failed message qualifies, so nothing delivered is ever sent again; the
 * attempt is claimed like any other, so two clicks send it once.
 */
export async function retryFailedMail(id: string): Promise<boolean> {
  const now = new Date();
  const result = await OutboxMessage.updateOne(
    { _id: id, status: "failed" },
    { $set: { status: "pending", next_attempt_at: now } },
  );
  if (result.matchedCount === 0) return false;
  await markDue(new mongoose.Types.ObjectId(id), now);
  log("info", "mail.retry", { outbox_id: id });
  wakeOutbox();
  return true;
}
