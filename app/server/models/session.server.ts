import mongoose from "mongoose";

/**
 * Server-side sign-in sessions: the cookie holds only this document's random id,
 * so a session can be revoked by deleting it. `expires_at` is the absolute end
 * (fixed at sign-in); `last_seen_at` drives the idle timeout. Found by `_id` on
 * every request; expired ones are purged by the cron route.
 */
const SessionSchema = new mongoose.Schema(
  {
    _id: { type: String, required: true },
    data: { type: mongoose.Schema.Types.Mixed, default: {} },
    user_id: { type: String, default: null },
    // A session with admin rights: 12 hours at most, 30 minutes idle (session.server.ts).
    admin: { type: Boolean, default: false },
    expires_at: { type: Date, default: null },
    last_seen_at: { type: Date, default: () => new Date() },
  },
  {
    collection: "sessions",
    timestamps: { createdAt: "created_at", updatedAt: "updated_at" } as const,
    minimize: false,
  },
);

SessionSchema.index({ user_id: 1 });
SessionSchema.index({ expires_at: 1 });
SessionSchema.index({ last_seen_at: 1 });

export const Session = mongoose.model("Session", SessionSchema);
