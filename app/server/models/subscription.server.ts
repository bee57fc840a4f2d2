import mongoose from "mongoose";
import { slotList } from "./slots.server";

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

// MongoDB's path to a user's facts (FerretDB's is user_subscriptions, below).
SubscriptionSchema.index({ user_id: 1, observed_at: -1 });
SubscriptionSchema.index({ stripe_subscription_id: 1, observed_at: -1 });

/**
 * A user's plan facts, found by `_id` (slots.server.ts): the owner is the user's id, each member a
 * fact's `_id`, added before the fact is stored, so the dashboard's plan card reads this user's facts only,
 * never every subscriber's. A replayed event is the same fact's `_id` again, so it lists nothing twice; a member
 * whose insert failed names no fact, and the reader skips it.
 */
export const userSubscriptions = slotList("UserSubscription", "user_subscriptions");

/**
 * A Stripe subscription's facts, found by `_id` the same way (the owner is the subscription's id): an invoice event
 * reads what is known of its subscription (its user, plan, period) from these, never by scanning every fact.
 */
export const subscriptionFacts = slotList("SubscriptionFactSlot", "subscription_facts");

type NewFact = { _id?: unknown; user_id?: unknown; stripe_subscription_id?: unknown };
const listFact = (doc: NewFact) =>
  Promise.all([
    userSubscriptions.add(String(doc.user_id), String(doc._id)),
    subscriptionFacts.add(String(doc.stripe_subscription_id), String(doc._id)),
  ]);
SubscriptionSchema.pre("save", async function () {
  if (this.isNew) await listFact(this);
});
SubscriptionSchema.pre("insertMany", async function (docs: unknown) {
  await Promise.all(([] as NewFact[]).concat(docs as NewFact[]).map(listFact));
});

export const Subscription = mongoose.model("Subscription", SubscriptionSchema);
