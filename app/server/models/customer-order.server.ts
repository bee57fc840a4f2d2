import { slotList } from "./slots.server";

/**
 * A customer's orders, found by `_id` (slots.server.ts): the owner is the user's id, each member
 * an order's id. The dashboard reads them instead of scanning every order anyone placed for `user_id`. The
 * Order model's hooks (order.server.ts) keep them in step with `orders.user_id`: an order is added before it
 * names its customer and removed before it stops naming them (a data deletion); the reader checks `user_id`.
 */
export const customerOrders = slotList("CustomerOrder", "customer_orders");
export const CustomerOrder = customerOrders.Slot;
