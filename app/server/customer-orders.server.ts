import { customerOrders, emailOrders, emailOwner } from "./models/customer-order.server";
import { Order } from "./models/index.server";

/**
 * A signed-in customer's orders: every query here is scoped to the user, so a
 * route cannot reach another customer's order by passing its id.
 */

export const DASHBOARD_ORDER_LIMIT = 50;

const FIELDS = {
  _id: 1,
  email: 1,
  status: 1,
  product_id: 1,
  product_name: 1,
  add_ons: 1,
  amount_total: 1,
  amount_paid: 1,
  coupon_code: 1,
  discount: 1,
  maintenance_plan: 1,
  paid_at: 1,
  created_at: 1,
  draft_url: 1,
  intake_progress: 1,
  intake_submitted_at: 1,
  revision_1_enabled: 1,
  revision_1_feedback: 1,
  revision_1_submitted_at: 1,
  revision_2_enabled: 1,
  revision_2_feedback: 1,
  revision_2_submitted_at: 1,
  revision_3_enabled: 1,
  revision_3_feedback: 1,
  revision_3_submitted_at: 1,
  clock_started_at: 1,
  clock_deadline: 1,
  draft_delivered_at: 1,
  refunded_at: 1,
  data_deleted_at: 1,
} as const;

/**
 * The user's orders, newest first (spec 2: read orders by user_id newest first). Found through the user's
 * slots and each order by `_id` (models/customer-order.server.ts), so the time grows with this customer's
 * orders only, never with everyone's; an order that no longer names the user is left out.
 */
export async function listOrdersForUser(userId: string) {
  const orders = await Promise.all(
    (await customerOrders.members(userId)).map((orderId) => Order.findById(orderId, { ...FIELDS, user_id: 1 }).lean()),
  );
  return orders
    .flatMap((order) => (order?.user_id === userId ? [order] : []))
    .sort((a, b) => b.created_at.getTime() - a.created_at.getTime())
    .slice(0, DASHBOARD_ORDER_LIMIT);
}

/** One order, only when it belongs to the user; null otherwise (never says which). */
export async function getOrderForUser(input: { orderId: string; userId: string }) {
  const order = await Order.findById(input.orderId, { ...FIELDS, user_id: 1 }).lean();
  return order && order.user_id === input.userId ? order : null;
}

/**
 * Guest orders (bought with this e-mail while signed out) join the account,
 * but only once the account has proven the address. Idempotent. Found through the address's list and each
 * order by `_id` (models/customer-order.server.ts), so a sign-in reads that address's orders only.
 */
export async function claimGuestOrders(user: { _id: unknown; email: string; email_verified_at?: Date | null }) {
  if (!user.email_verified_at) return;
  const owner = emailOwner(user.email);
  if (!owner) return;
  const email = user.email.trim().toLowerCase();
  const listed = await Promise.all(
    (await emailOrders.members(owner)).map((orderId) => Order.findById(orderId, { email: 1, user_id: 1 }).lean()),
  );
  for (const order of listed)
    if (order?.email === email && !order.user_id)
      await Order.updateOne({ _id: order._id, user_id: null }, { $set: { user_id: String(user._id) } });
}
