import mongoose from "mongoose";

/**
 * Server-side sessions: the cookie holds only this document's random id, so a
 * session can be revoked by deleting it. Expired ones are purged by the cron route.
 */
const SessionSchema = new mongoose.Schema(
  {
    _id: { type: String, required: true },
    data: { type: mongoose.Schema.Types.Mixed, default: {} },
    user_id: { type: String, default: null },
    expires_at: { type: Date, default: null },
  },
  { collection: "sessions", timestamps: { createdAt: "created_at", updatedAt: "updated_at" } as const, minimize: false },
);

SessionSchema.index({ user_id: 1 });
SessionSchema.index({ expires_at: 1 });

export const Session = mongoose.model("Session", SessionSchema);
