import mongoose from "mongoose";
import { DAY_MS } from "~/domain/dates";
import { AUDIT_ACTION_LABELS, type AuditAction } from "~/domain/privacy";
import type { PageCursor } from "~/domain/paging";
import type { Submission } from "~/server/intake/draft.server";
import { IntakeSubmission, PrivacyAuditLog } from "../models/index.server";
import { keysetPage } from "../paging.server";

/** A page of each privacy list; the audit log's first page is the spec's "latest 50". */
export const AUDIT_LOG_LIMIT = 50;
export const DELETION_REQUEST_LIMIT = 100;

/**
 * The spec's four counters (spec 2 section 2), and the customers who declined AI for a by-hand build:
 * their answer is no consent, so Total Consents leaves them out.
 */
export async function privacyCounters(now = new Date()) {
  const [consents, aiDeclined, aiEnabled, deletionRequests, ai24h] = await Promise.all([
    IntakeSubmission.countDocuments({
      privacy_consent: mongoose.trusted({ $ne: null }),
      "privacy_consent.aiOptOut": mongoose.trusted({ $ne: true }),
    }),
    IntakeSubmission.countDocuments({ "privacy_consent.aiOptOut": true }),
    IntakeSubmission.countDocuments({ ai_processing_consent: true }),
    IntakeSubmission.countDocuments({ data_deletion_requested: true }),
    PrivacyAuditLog.countDocuments({
      action: "ai_processing",
      timestamp: mongoose.trusted({ $gte: new Date(now.getTime() - DAY_MS) }),
    }),
  ]);
  return { consents, aiDeclined, aiEnabled, deletionRequests, ai24h };
}

type AuditDoc = {
  _id: unknown;
  timestamp: Date;
  action: string;
  privacy_level: string;
  order_id?: string | null;
  ai_provider?: string | null;
};

/** A page of the privacy audit log after `cursor`, newest first (the first page: the spec's latest 50). */
export async function privacyAuditLog(input: { cursor?: PageCursor | null; pageSize?: number } = {}) {
  const page = await keysetPage<AuditDoc>(PrivacyAuditLog, {
    field: "timestamp",
    cursor: input.cursor ?? null,
    pageSize: input.pageSize ?? AUDIT_LOG_LIMIT,
  });
  return {
    ...page,
    rows: page.rows.map((r) => ({
      id: String(r._id),
      timestamp: r.timestamp.toISOString(),
      // In words: "AI declined (by-hand build)", not ai_declined.
      action: AUDIT_ACTION_LABELS[r.action as AuditAction] ?? r.action,
      privacyLevel: r.privacy_level,
      orderId: r.order_id ?? null,
      aiProvider: r.ai_provider ?? null,
    })),
  };
}

/** A deletion request's row: the stored fields it reads (StoredSubmission's names, so a renamed field fails `tsc`). */
type DeletionDoc = Pick<Submission, "_id" | "business_name" | "contact_email" | "data_deletion_date"> & {
  order_id: string;
};

/** A page of the submissions whose customer asked for their data to be deleted, newest request first. */
export async function deletionRequests(input: { cursor?: PageCursor | null; pageSize?: number } = {}) {
  const page = await keysetPage<DeletionDoc>(IntakeSubmission, {
    filter: { data_deletion_requested: true },
    field: "data_deletion_date",
    cursor: input.cursor ?? null,
    pageSize: input.pageSize ?? DELETION_REQUEST_LIMIT,
    projection: { business_name: 1, contact_email: 1, order_id: 1, data_deletion_date: 1 },
  });
  return {
    ...page,
    rows: page.rows.map((r) => ({
      orderId: r.order_id,
      businessName: r.business_name ?? null,
      email: r.contact_email ?? null,
      requestedAt: r.data_deletion_date ? r.data_deletion_date.toISOString() : null,
    })),
  };
}
