import mongoose from "mongoose";

export const OUTBOX_STATUSES = ["pending", "sent", "failed"] as const;

/**
 * Every e-mail is stored here first, under its idempotency key, then sent by the
 * outbox worker with retries. A request that runs twice queues one message.
 */
const OutboxMessageSchema = new mongoose.Schema(
  {
    key: { type: String, required: true, unique: true },
    to: { type: String, required: true },
    reply_to: { type: String, default: null },
    // What the message is about, recorded when it is queued: a customer's data export and the deletion
    // of an order's data select by these, never by address (anyone can type anyone's address).
    order_id: { type: String, default: null },
    user_id: { type: String, default: null },
    subject: { type: String, required: true },
    text: { type: String, required: true },
    html: { type: String, required: true },
    status: { type: String, enum: OUTBOX_STATUSES, default: "pending" },
    attempts: { type: Number, default: 0 },
    next_attempt_at: { type: Date, default: () => new Date() },
    last_error: { type: String, default: null },
    sent_at: { type: Date, default: null },
  },
  { collection: "outbox", timestamps: { createdAt: "created_at", updatedAt: "updated_at" } as const },
);

OutboxMessageSchema.index({ status: 1, next_attempt_at: 1 });
// The admin outbox page (keyset pages, ties broken by _id), all or by status; an order's e-mails (data export and
// deletion); the cron's purge of old delivered mail.
OutboxMessageSchema.index({ created_at: -1, _id: -1 });
OutboxMessageSchema.index({ status: 1, created_at: -1, _id: -1 });
OutboxMessageSchema.index({ order_id: 1, created_at: -1 });
OutboxMessageSchema.index({ user_id: 1, created_at: -1 });
OutboxMessageSchema.index({ status: 1, sent_at: 1 });

export const OutboxMessage = mongoose.model("OutboxMessage", OutboxMessageSchema);

/**
 * The worker's queue: one small document per message still to send, under the message's own _id, inserted
 * when the message is queued and removed once it is sent or has failed for good. The worker polls this
 * collection, which holds only what is waiting, never the outbox itself: on FerretDB every query but an _id
 * lookup scans its collection (ARCHITECTURE.md rule 7), and the outbox keeps every message sent for weeks
 * (the soak's outbox grew by 5 messages a second, each poll a scan of all of them). The message stays the
 * record of its state; an entry is only a pointer to it with the time it is due.
 */
const OutboxDueSchema = new mongoose.Schema(
  {
    _id: { type: mongoose.Schema.Types.ObjectId, required: true },
    next_attempt_at: { type: Date, required: true },
  },
  { collection: "outbox_due", versionKey: false },
);

OutboxDueSchema.index({ next_attempt_at: 1 });

export const OutboxDue = mongoose.model("OutboxDue", OutboxDueSchema);

/**
 * A worker's claim on one delivery attempt. Only the worker whose insert wins
 * sends that attempt, so two app processes never send the same attempt twice.
 */
const OutboxClaimSchema = new mongoose.Schema(
  {
    message_id: { type: String, required: true },
    attempt: { type: Number, required: true },
  },
  { collection: "outbox_claims", timestamps: { createdAt: "claimed_at", updatedAt: false } as const },
);

OutboxClaimSchema.index({ message_id: 1, attempt: 1 }, { unique: true });
OutboxClaimSchema.index({ claimed_at: 1 });

export const OutboxClaim = mongoose.model("OutboxClaim", OutboxClaimSchema);
