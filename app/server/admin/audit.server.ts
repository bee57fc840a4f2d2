import type { AuthUser } from "../auth.server";
import { connectDb } from "../db.server";
import { AdminAuditLog } from "../models/index.server";

export type Actor = Pick<AuthUser, "id" | "email">;
type Target = "order" | "coupon" | "submission";

/** Records one admin change: who, what, when (the insert's time) and which record. */
export async function recordAdminAction(actor: Actor, action: string, target: { type: Target; id: string }, details: Record<string, unknown> = {}) {
  await connectDb();
  await AdminAuditLog.create({ actor_id: actor.id, actor_email: actor.email, action, target_type: target.type, target_id: target.id, details });
}

/** The same change to many records (a bulk action): one entry per record, in one insert. */
export async function recordAdminActions(actor: Actor, action: string, type: Target, ids: string[], details: Record<string, unknown> = {}) {
  if (ids.length === 0) return;
  await connectDb();
  await AdminAuditLog.insertMany(ids.map((id) => ({ actor_id: actor.id, actor_email: actor.email, action, target_type: type, target_id: id, details })));
}

/** A record's admin history, newest first. */
export async function adminHistory(targetId: string, limit = 20) {
  await connectDb();
  const rows = await AdminAuditLog.find({ target_id: targetId }).sort({ at: -1 }).limit(limit).lean();
  return rows.map((r) => ({ id: String(r._id), at: r.at as Date, action: r.action, actor: r.actor_email, details: r.details as Record<string, unknown> }));
}
