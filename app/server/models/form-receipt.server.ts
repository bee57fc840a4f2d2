import mongoose from "mongoose";

/**
 * The answer given to one form post, under the post's receipt id (its form key
 * and what it carried; app/server/form-keys.server.ts). The insert under the
 * unique `_id` is the claim: a resend of the same post finds it and gets the
 * same answer instead of a second effect (ARCHITECTURE.md rule 7).
 */
const FormReceiptSchema = new mongoose.Schema(
  {
    _id: { type: String, required: true },
    /** The first answer, once the effect is done (absent while it runs). */
    answer: { type: mongoose.Schema.Types.Mixed },
    /** The order the post was about (feedback, a deletion request, a checkout): deleting its data deletes this. */
    order_id: { type: String, default: null },
  },
  { collection: "form_receipts", timestamps: { createdAt: "created_at", updatedAt: false } as const },
);
FormReceiptSchema.index({ created_at: 1 }); // the cron's purge
FormReceiptSchema.index({ order_id: 1 }); // an order's data deletion

export const FormReceipt = mongoose.model("FormReceipt", FormReceiptSchema);
