import mongoose from "mongoose";
import { TOKEN_PURPOSES } from "~/domain/tokens";

/**
 * An e-mailed link's access token (intake_tokens), for one purpose: the intake
 * form or the order-status page. Its `_id` is the SHA-256 of the token, so every
 * request finds it by `_id` (ARCHITECTURE rule 7) and a copy of the database
 * cannot open anybody's form. The newest token per order and purpose is the one
 * in use. `issue_key` names the event that issued it (a payment, a reminder), so
 * each event issues at most one token per purpose however often it runs.
 */
const IntakeTokenSchema = new mongoose.Schema(
  {
    _id: { type: String, required: true }, // sha256(token), hex
    order_id: { type: String, required: true },
    purpose: { type: String, enum: TOKEN_PURPOSES, required: true },
    issue_key: { type: String, required: true },
    expires_at: { type: Date, required: true },
    used: { type: Boolean, default: false },
    used_at: { type: Date, default: null },
    last_accessed: { type: Date, default: null },
    auto_renewed_count: { type: Number, default: 0, min: 0 },
    // How often an admin reopened the link after a submission: each opening submits once (server/intake/draft.server.ts).
    reopened: { type: Number, default: 0, min: 0 },
  },
  { collection: "intake_tokens", timestamps: { createdAt: "created_at", updatedAt: false } as const },
);

IntakeTokenSchema.index({ order_id: 1, purpose: 1, created_at: -1 });
IntakeTokenSchema.index({ issue_key: 1, purpose: 1 }, { unique: true });

export const IntakeToken = mongoose.model("IntakeToken", IntakeTokenSchema);
