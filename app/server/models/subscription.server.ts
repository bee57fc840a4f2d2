import mongoose from "mongoose";

/** A maintenance-plan subscription, mirrored from Stripe. */
const SubscriptionSchema = new mongoose.Schema(
  {
    user_id: { type: String, required: true },
    stripe_customer_id: { type: String, required: true },
    stripe_subscription_id: { type: String, required: true, unique: true },
    product_id: { type: String, required: true },
    status: { type: String, required: true },
    current_period_end: { type: Date, default: null },
  },
  { collection: "subscriptions", timestamps: { createdAt: "created_at", updatedAt: "updated_at" } as const },
);

SubscriptionSchema.index({ user_id: 1, updated_at: -1 });

export const Subscription = mongoose.model("Subscription", SubscriptionSchema);
