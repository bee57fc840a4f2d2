import mongoose from "mongoose";

/**
 * One document per paid order: inserting it is the act of fulfilment. The
 * webhook and the success page may both try, many times at once; the unique
 * indexes let exactly one insert win.
 */
const FulfilmentSchema = new mongoose.Schema(
  {
    order_id: { type: String, required: true, unique: true },
    stripe_session_id: { type: String, required: true, unique: true },
    amount_paid: { type: Number, required: true, min: 0 },
    stripe_payment_intent_id: { type: String, default: null },
  },
  { collection: "fulfilments", timestamps: { createdAt: "created_at", updatedAt: false } as const },
);

export const Fulfilment = mongoose.model("Fulfilment", FulfilmentSchema);
