import { randomUUID } from "node:crypto";
import mongoose from "mongoose";

export const AUDIT_ACTIONS = ["ai_processing", "consent_given", "consent_withdrawn", "data_deletion"] as const;

/** privacy_audit_log. `key` makes an entry written by a retried request appear once. */
const PrivacyAuditLogSchema = new mongoose.Schema(
  {
    key: { type: String, required: true, unique: true, default: () => randomUUID() },
    timestamp: { type: Date, required: true, default: () => new Date() },
    action: { type: String, enum: AUDIT_ACTIONS, required: true },
    privacy_level: { type: String, default: "standard" },
    order_id: { type: String, default: null },
    ai_provider: { type: String, default: null },
    reason: { type: String, default: null }, // why, for a data_deletion
  },
  { collection: "privacy_audit_log" },
);

PrivacyAuditLogSchema.index({ timestamp: -1 });
PrivacyAuditLogSchema.index({ action: 1, timestamp: -1 });

export const PrivacyAuditLog = mongoose.model("PrivacyAuditLog", PrivacyAuditLogSchema);
