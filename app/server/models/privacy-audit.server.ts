import { randomUUID } from "node:crypto";
import mongoose from "mongoose";

import { AUDIT_ACTIONS } from "~/domain/privacy";

export { AUDIT_ACTIONS };

/** privacy_audit_log. `key` makes an entry written by a retried request appear once. */
const PrivacyAuditLogSchema = new mongoose.Schema(
  {
    key: { type: String, required: true, unique: true, default: () => randomUUID() },
    timestamp: { type: Date, required: true, default: () => new Date() },
    action: { type: String, enum: AUDIT_ACTIONS, required: true },
    privacy_level: { type: String, default: "standard" },
    order_id: { type: String, default: null },
    ai_provider: { type: String, default: null },
    reason: { type: String, default: null }, // why, for a data_deletion (an admin's request, the retention rule)
  },
  { collection: "privacy_audit_log" },
);

PrivacyAuditLogSchema.index({ timestamp: -1, _id: -1 }); // the admin audit log, keyset pages
PrivacyAuditLogSchema.index({ action: 1, timestamp: -1 });
// One order's entries (the customer's data export).
PrivacyAuditLogSchema.index({ order_id: 1, timestamp: 1 });

export const PrivacyAuditLog = mongoose.model("PrivacyAuditLog", PrivacyAuditLogSchema);
