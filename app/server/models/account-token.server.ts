import mongoose from "mongoose";

/**
 * A single-use link e-mailed to an account holder: a password reset or an
 * e-mail confirmation. `_id` is the SHA-256 of the token in the link, so the
 * database never holds a working link and the lookup is by `_id`. Using a link
 * is claimed once (a once-key), so two clicks at once use it once. Expired ones
 * are purged by the cron route.
 */
const AccountTokenSchema = new mongoose.Schema(
  {
    _id: { type: String, required: true },
    purpose: { type: String, enum: ["reset", "verify"], required: true },
    user_id: { type: String, required: true },
    email: { type: String, required: true },
    expires_at: { type: Date, required: true },
    used_at: { type: Date, default: null },
  },
  { collection: "account_tokens", timestamps: { createdAt: "created_at", updatedAt: false } as const },
);

AccountTokenSchema.index({ expires_at: 1 });
AccountTokenSchema.index({ user_id: 1, purpose: 1 });

export const AccountToken = mongoose.model("AccountToken", AccountTokenSchema);
