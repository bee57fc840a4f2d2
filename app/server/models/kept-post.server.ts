import mongoose from "mongoose";

/**
 * An admin post refused because the session had ended, kept for the admin who signs in again from that browser
 * (app/server/admin/kept-posts.server.ts): found by its random `_id`, which a short-lived cookie carries.
 * `owner_id` is the account whose session ended when its record said so, else null (the next admin to sign in).
 */
const KeptPostSchema = new mongoose.Schema(
  {
    _id: { type: String, required: true },
    owner_id: { type: String, default: null },
    /** The page the post came from (path and query), where the admin is taken back to. */
    path: { type: String, required: true },
    intent: { type: String, default: null },
    values: { type: mongoose.Schema.Types.Mixed, default: {} },
    expires_at: { type: Date, required: true },
  },
  { collection: "kept_posts", timestamps: { createdAt: "created_at", updatedAt: false } as const, minimize: false },
);
KeptPostSchema.index({ expires_at: 1 }); // the cron's purge

export const KeptPost = mongoose.model("KeptPost", KeptPostSchema);
