import type { PageCursor } from "~/domain/paging";
import type { AuthUser } from "../auth.server";
import { AdminAuditLog } from "../models/index.server";
import { keysetPage } from "../paging.server";

export type Actor = Pick<AuthUser, "id" | "email">;
type Target = "order" | "coupon" | "submission" | "user";

/** Records one admin change: who, what, when (the insert's time) and which record. */
export async function recordAdminAction(
  actor: Actor,
  action: string,
  target: { type: Target; id: string },
  details: Record<string, unknown> = {},
) {
  await AdminAuditLog.create({
    actor_id: actor.id,
    actor_email: actor.email,
    action,
    target_type: target.type,
    target_id: target.id,
    details,
  });
}

/** The same change to many records (a bulk action): one entry per record, in one insert. */
export async function recordAdminActions(
  actor: Actor,
  action: string,
  type: Target,
  ids: string[],
  details: Record<string, unknown> = {},
) {
  if (ids.length === 0) return;
  await AdminAuditLog.insertMany(
    ids.map((id) => ({
      actor_id: actor.id,
      actor_email: actor.email,
      action,
      target_type: type,
      target_id: id,
      details,
    })),
  );
}

/** The order page's query parameter for older history entries (its own, beside ?tab=). */
export const HISTORY_PAGE_PARAM = "historyBefore";
export const HISTORY_PAGE_SIZE = 20;

type HistoryDoc = { _id: unknown; at: Date; action: string; actor_email: string; details?: Record<string, unknown> };

/** A page of a record's admin history after `cursor`, newest first (by { target_id, at, _id }). */
export async function adminHistory(targetId: string, input: { cursor?: PageCursor | null; pageSize?: number } = {}) {
  const page = await keysetPage<HistoryDoc>(AdminAuditLog, {
    filter: { target_id: targetId },
    field: "at",
    cursor: input.cursor ?? null,
    pageSize: input.pageSize ?? HISTORY_PAGE_SIZE,
  });
  return {
    ...page,
    rows: page.rows.map((r) => ({
      id: String(r._id),
      at: r.at,
      action: r.action,
      actor: r.actor_email,
      details: r.details ?? {},
    })),
  };
}
