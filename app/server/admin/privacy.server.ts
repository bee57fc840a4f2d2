import mongoose from "mongoose";
import { connectDb } from "../db.server";
import { IntakeSubmission, PrivacyAuditLog } from "../models/index.server";

export const AUDIT_LOG_LIMIT = 50;
export const DELETION_REQUEST_LIMIT = 100;
const DAY_MS = 86_400_000;

/** The four counters (spec 2 section 2): four counts, each on an indexed or small shape. */
export async function privacyCounters(now = new Date()) {
  await connectDb();
  const [consents, aiEnabled, deletionRequests, ai24h] = await Promise.all([
    IntakeSubmission.countDocuments({ privacy_consent: mongoose.trusted({ $ne: null }) }),
    IntakeSubmission.countDocuments({ ai_processing_consent: true }),
    IntakeSubmission.countDocuments({ data_deletion_requested: true }),
    PrivacyAuditLog.countDocuments({ action: "ai_processing", timestamp: mongoose.trusted({ $gte: new Date(now.getTime() - DAY_MS) }) }),
  ]);
  return { consents, aiEnabled, deletionRequests, ai24h };
}

/** The latest 50 privacy audit entries, newest first. */
export async function privacyAuditLog() {
  await connectDb();
  const rows = await PrivacyAuditLog.find().sort({ timestamp: -1 }).limit(AUDIT_LOG_LIMIT).lean();
  return rows.map((r) => ({
    id: String(r._id),
    timestamp: r.timestamp.toISOString(),
    action: r.action,
    privacyLevel: r.privacy_level,
    orderId: r.order_id ?? null,
    aiProvider: r.ai_provider ?? null,
  }));
}

/** Submissions whose customer asked for their data to be deleted, newest request first. */
export async function deletionRequests() {
  await connectDb();
  const rows = await IntakeSubmission.find(
    { data_deletion_requested: true },
    { business_name: 1, contact_email: 1, order_id: 1, data_deletion_date: 1 },
  )
    .sort({ data_deletion_date: -1 })
    .limit(DELETION_REQUEST_LIMIT)
    .lean();
  return rows.map((r) => ({
    orderId: r.order_id,
    businessName: r.business_name ?? null,
    email: r.contact_email ?? null,
    requestedAt: r.data_deletion_date ? r.data_deletion_date.toISOString() : null,
  }));
}
