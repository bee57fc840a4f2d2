import { loadSubmission, saveFields } from "~/server/intake/draft.server";
import { Order } from "./models/index.server";
import { newestToken, renewToken, tokenSession } from "./tokens.server";

/**
 * Access to /order-status, through the token module's "status" purpose: the
 * e-mailed link is exchanged (exchangeToken) for a cookie naming that one order,
 * and every loader and action of the page starts with orderStatusAccess(request).
 * The order always comes from the cookie, never from a posted field.
 */

export type OrderStatusAccess = { orderId: string; tokenId: string; state: "valid" | "expired" };

/** The order this browser's status link opens, or null (no link opened, or an unknown one). */
export async function orderStatusAccess(request: Request): Promise<OrderStatusAccess | null> {
  const session = await tokenSession(request, "status");
  if (!session || session.state === "invalid") return null;
  return {
    orderId: session.token.order_id,
    tokenId: session.token._id,
    state: session.state === "expired" ? "expired" : "valid",
  };
}

/** The order, its intake link and its submission, for the page. Null when the order is gone. */
export async function loadOrderStatus(orderId: string) {
  const order = await Order.findById(orderId).lean();
  if (!order) return null;
  const [intakeLink, submission] = await Promise.all([newestToken(orderId, "intake"), loadSubmission(orderId)]);
  return { order, intakeLink: intakeLink?.token ?? null, submission };
}

/** Renews the order's intake link by 30 days (spec: renew-token by the customer); false when it can't be. */
export async function renewIntakeAccess(orderId: string): Promise<boolean> {
  const link = await newestToken(orderId, "intake");
  return link ? renewToken(link.token._id) : false;
}

/** Records the customer's request to delete their data (the admin's privacy tab lists it), dated once. */
export async function requestDataDeletion(orderId: string, now = new Date()) {
  if ((await loadSubmission(orderId))?.data_deletion_requested) return;
  await saveFields(orderId, { data_deletion_requested: true, data_deletion_date: now });
}
