import mongoose from "mongoose";
import { PAYMENT_ISSUE_KINDS } from "~/domain/admin/payments";

/**
 * A payment the admin must look at, recorded once (its _id is `kind:session`)
 * and never lost:
 * - amount_mismatch: Stripe reports a paid amount that differs from the order's
 *   quoted total. The order is not fulfilled (it stays as it was, usually
 *   pending); the admin refunds, or fulfils by hand after checking.
 * - coupon_over_redeemed: a paid order's coupon use had been freed (a cancel
 *   raced the payment) and every slot was taken again meanwhile. The payment is
 *   honoured and the order fulfilled; the coupon has one use more than its limit.
 */
const PaymentIssueSchema = new mongoose.Schema(
  {
    _id: { type: String, required: true },
    kind: { type: String, enum: PAYMENT_ISSUE_KINDS, required: true },
    order_id: { type: String, required: true },
    stripe_session_id: { type: String, required: true },
    expected_cents: { type: Number, required: true }, // the order's quoted total
    paid_cents: { type: Number, required: true }, // what the payment provider reported
    coupon_code: { type: String, default: null },
    resolved_at: { type: Date, default: null }, // set by an admin
    resolution: { type: String, enum: ["accepted", "resolved", null], default: null }, // accepted: fulfilled with the amount paid
    resolved_by: { type: String, default: null }, // the admin's e-mail
  },
  { collection: "payment_issues", timestamps: { createdAt: "created_at", updatedAt: false } as const },
);

// Admin: open issues (resolved_at null) newest first, and resolved ones by when (keyset pages, ties broken by _id); an order's issues.
PaymentIssueSchema.index({ resolved_at: 1, created_at: -1, _id: -1 });
PaymentIssueSchema.index({ resolved_at: -1, _id: -1 });
PaymentIssueSchema.index({ order_id: 1 });

export const PaymentIssue = mongoose.model("PaymentIssue", PaymentIssueSchema);
