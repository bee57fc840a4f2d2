import mongoose from "mongoose";

/** A customer's feedback for one revision round: one per order and round, ever. */
const RevisionFeedbackSchema = new mongoose.Schema(
  {
    order_id: { type: String, required: true },
    round: { type: Number, required: true, min: 1, max: 3 },
    feedback: { type: String, required: true, maxlength: 5000 },
  },
  { collection: "revision_feedback", timestamps: { createdAt: "submitted_at", updatedAt: false } as const },
);

RevisionFeedbackSchema.index({ order_id: 1, round: 1 }, { unique: true });

export const RevisionFeedback = mongoose.model("RevisionFeedback", RevisionFeedbackSchema);
