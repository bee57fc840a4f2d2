import mongoose from "mongoose";

/**
 * The events of an order's delivery clock and money (order_events), each under
 * its own idempotency key (`_id`), so each happens once however many requests,
 * cron runs or webhooks race for it (ARCHITECTURE.md rule 7):
 *   clock:{order}:start            the intake's first submission started the clock
 *   clock:{order}:restart:{n}      an admin's nth restart (materials were missing)
 *   clock:{order}:delivered        the first draft URL saved while the clock ran
 *   clock:{order}:alert:{kind}:{deadline}  a warning to the business (app/domain/delivery-clock.ts)
 *   refund:{order}                 the full refund (admin or Stripe's dashboard)
 * The order keeps a copy of the current values (clock_started_at, clock_deadline,
 * draft_delivered_at, refunded_at ...), written from the winning event.
 */
const OrderEventSchema = new mongoose.Schema(
  {
    _id: { type: String, required: true },
    order_id: { type: String, required: true },
    kind: { type: String, enum: ["started", "restarted", "delivered", "alert", "refunded"], required: true },
    at: { type: Date, required: true },
    started_at: { type: Date, default: undefined },
    deadline: { type: Date, default: undefined },
    window_hours: { type: Number, default: undefined },
    alert: { type: String, default: undefined }, // quarter-left | overdue
    note: { type: String, default: undefined }, // what was missing (restart), the reason (refund)
    actor_email: { type: String, default: undefined },
    draft_url: { type: String, default: undefined },
    amount: { type: Number, default: undefined }, // cents refunded
    refund_id: { type: String, default: undefined },
    source: { type: String, default: undefined }, // refund: admin | stripe
  },
  { collection: "order_events" },
);

// One order's history, oldest first.
OrderEventSchema.index({ order_id: 1, at: 1 });

export const OrderEvent = mongoose.model("OrderEvent", OrderEventSchema);
