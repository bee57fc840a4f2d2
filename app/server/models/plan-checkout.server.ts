import mongoose from "mongoose";

/**
 * The plan checkout an account has open (one live plan per account). One row per account, keyed by
 * the account's id, so of two checkouts started at once for different plans only one inserts it; the other is
 * refused with a message. A later checkout for another plan takes it over only after closing this one's Stripe
 * session (sessions.expire), so two open sessions can never both be paid. `purpose` is what the checkout starts
 * (`subscribe:essentials`, or `package:{orderId}`); `token` names the request that holds the row.
 */
const PlanCheckoutSchema = new mongoose.Schema(
  {
    _id: { type: String, required: true },
    purpose: { type: String, required: true },
    token: { type: String, required: true },
    session_id: { type: String, default: null },
  },
  { collection: "plan_checkouts", timestamps: { createdAt: "created_at", updatedAt: false } as const },
);

export const PlanCheckout = mongoose.model("PlanCheckout", PlanCheckoutSchema);
