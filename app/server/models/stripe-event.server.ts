import mongoose from "mongoose";

/** Each Stripe webhook event is recorded once, under its own id. */
const StripeEventSchema = new mongoose.Schema(
  {
    _id: { type: String, required: true }, // evt_...
    type: { type: String, required: true },
    processed_at: { type: Date, default: null },
  },
  { collection: "stripe_events", timestamps: { createdAt: "received_at", updatedAt: false } as const },
);

export const StripeEvent = mongoose.model("StripeEvent", StripeEventSchema);
