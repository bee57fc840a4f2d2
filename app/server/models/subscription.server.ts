import mongoose from "mongoose";

/**
 * What we learned about a maintenance-plan subscription, one row per fact: a
 * Stripe event (keyed by its event id, so a replay adds nothing) or an offline
 * test checkout. Rows are only ever inserted; the current state of a
 * subscription is derived from its rows (newest `observed_at` wins, cancelled is
 * final), so events arriving late, twice or at once can't move it backwards.
 */
const SubscriptionSchema = new mongoose.Schema(
  {
    _id: { type: String, required: true },
    stripe_subscription_id: { type: String, required: true },
    user_id: { type: String, required: true },
    stripe_customer_id: { type: String, default: null },
    plan_id: { type: String, default: null },
    product_id: { type: String, default: null },
    status: { type: String, required: true },
    current_period_end: { type: Date, default: null },
    cancel_at_period_end: { type: Boolean, default: false },
    observed_at: { type: Date, required: true },
  },
  { collection: "subscriptions", timestamps: { createdAt: "created_at", updatedAt: false } as const },
);

SubscriptionSchema.index({ user_id: 1, observed_at: -1 });
SubscriptionSchema.index({ stripe_subscription_id: 1, observed_at: -1 });

export const Subscription = mongoose.model("Subscription", SubscriptionSchema);
