/** An order's status values (spec 2 section 4), and refunded (a full refund). */
export const ORDER_STATUSES = [
  "pending",
  "paid",
  "in_progress",
  "completed",
  "cancelled",
  "failed",
  "refunded",
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Orders that were paid for: what revenue, order counts and averages are computed over. */
export const PAID_STATUSES = ["paid", "in_progress", "completed"] as const satisfies readonly OrderStatus[];

const PAID = new Set<string>(PAID_STATUSES);
export const isPaid = (status: string) => PAID.has(status);

/** Orders that were paid, refunded or not: a receipt stays the record of what was paid. */
export const hasReceipt = (status: string) => PAID.has(status) || status === "refunded";

/** Status text as shown: upper-case, underscore replaced by a space. */
export function statusText(status: string): string {
  return status.replace(/_/g, " ").toUpperCase();
}

/** Admin list badge colour: paid green, pending yellow, failed red, other grey. */
export function adminStatusTone(status: string): "green" | "yellow" | "red" | "grey" {
  return status === "paid" ? "green" : status === "pending" ? "yellow" : status === "failed" ? "red" : "grey";
}
