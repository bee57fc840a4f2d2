import { REMINDER_MESSAGES } from "../reminders";
import { countOf } from "../words";

/**
 * The admin orders list's bulk actions: a discriminated choice of action, the
 * ticked orders or "all matching the filters", each checked by the server.
 */

/** The most orders one bulk action touches; "Select all" beyond this asks for narrower filters. */
export const BULK_MAX = 500;

export const BULK_ACTIONS = ["completed", "in_progress", "enable_revision_1", "send_reminders"] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];
export const BULK_ACTION_LABELS: Record<BulkAction, string> = {
  completed: "Mark as completed",
  in_progress: "Mark as in progress",
  enable_revision_1: "Enable revision 1",
  send_reminders: "Send reminders",
};

export const BULK_MESSAGES = {
  noAction: "Please choose a bulk action",
  invalid: "Invalid action selected",
  noneSelected: "Please select at least one order",
  tooMany: `Select at most ${BULK_MAX} orders at once: narrow the filters first`,
  failed: "Failed to perform bulk action",
  /** The spec's message with how many orders changed, then how many were skipped and why. */
  done(action: BulkAction, n: number, skipped: { reason: string; count: number }[] = []): string {
    const orders = countOf(n, "order");
    const main = {
      completed: `Updated ${orders} to completed`,
      in_progress: `Updated ${orders} to in progress`,
      enable_revision_1: `Enabled revision 1 for ${orders}`,
      send_reminders: REMINDER_MESSAGES.bulkSent(n),
    }[action];
    const why = skipped.filter((s) => s.count > 0).map((s) => `${countOf(s.count, "order")} skipped: ${s.reason}`);
    return [main, ...why].join(". ") + (why.length ? "." : "");
  },
  /** Why a ticked order was left alone by a status change or revision 1. */
  notPaid: "not paid (pending, failed or cancelled)",
} as const;

/** Bulk status changes need fresh proof (a code from the last 10 minutes): they rewrite many orders at once. */
export const needsFreshProof = (action: BulkAction) => action === "completed" || action === "in_progress";

/** At most this many ticked orders travel in the return address (one page of the list holds fewer). */
export const BULK_KEEP_MAX = 100;

/**
 * The orders list's query that brings the bulk form back as it was posted (the
 * filters, the page, the action and the ticked orders), for the return from the
 * code page; `keptBulk` reads it back.
 */
export function bulkReturnQuery(
  filtersQuery: string,
  kept: { action: BulkAction; orderIds: string[]; all: boolean; before?: string | null },
): string {
  const params = new URLSearchParams(filtersQuery.replace(/^\?/, ""));
  if (kept.before) params.set("before", kept.before);
  params.set("bulk", kept.action);
  if (kept.all) params.set("all", "on");
  for (const id of kept.orderIds.slice(0, BULK_KEEP_MAX)) params.append("selected", id);
  return `?${params.toString()}`;
}

export function isBulkAction(v: unknown): v is BulkAction {
  return typeof v === "string" && (BULK_ACTIONS as readonly string[]).includes(v);
}
