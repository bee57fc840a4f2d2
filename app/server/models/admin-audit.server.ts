import mongoose from "mongoose";

/**
 * One entry per change an admin makes (admin_audit_log): who, what, when and
 * which record. Separate from privacy_audit_log, whose actions are the spec's
 * four. `details` holds ids and settings, never a customer's personal data.
 */
const AdminAuditLogSchema = new mongoose.Schema(
  {
    actor_id: { type: String, required: true },
    actor_email: { type: String, required: true },
    action: { type: String, required: true }, // "order.status", "revision.enabled", "coupon.deleted", ...
    target_type: { type: String, enum: ["order", "coupon", "submission", "user"], required: true },
    target_id: { type: String, required: true },
    details: { type: mongoose.Schema.Types.Mixed, default: {} },
  },
  { collection: "admin_audit_log", timestamps: { createdAt: "at", updatedAt: false } as const },
);

// A record's history (order detail, keyset pages: ties broken by _id), and the newest entries overall.
AdminAuditLogSchema.index({ target_id: 1, at: -1, _id: -1 });
AdminAuditLogSchema.index({ at: -1 });

export const AdminAuditLog = mongoose.model("AdminAuditLog", AdminAuditLogSchema);
