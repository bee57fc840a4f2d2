import mongoose from "mongoose";

/**
 * The access link's token. Only its SHA-256 hash is stored, so a copy of the
 * database cannot open anybody's intake form. The newest token per order is the
 * one in use. `issue_key` names the event that issued it (payment, a renewal),
 * so each event issues at most one token however often it runs.
 */
const IntakeTokenSchema = new mongoose.Schema(
  {
    order_id: { type: String, required: true },
    token_hash: { type: String, required: true, unique: true },
    issue_key: { type: String, required: true, unique: true },
    expires_at: { type: Date, required: true },
    used: { type: Boolean, default: false },
    used_at: { type: Date, default: null },
    last_accessed: { type: Date, default: null },
    auto_renewed_count: { type: Number, default: 0, min: 0 },
  },
  { collection: "intake_tokens", timestamps: { createdAt: "created_at", updatedAt: false } as const },
);

IntakeTokenSchema.index({ order_id: 1, created_at: -1 });

export const IntakeToken = mongoose.model("IntakeToken", IntakeTokenSchema);
