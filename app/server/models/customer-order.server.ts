import { addressOwner, slotList } from "./slots.server";

/**
 * A customer's orders, found by `_id` (slots.server.ts): the owner is the user's id, each member
 * an order's id. The dashboard reads them instead of scanning every order anyone placed for `user_id`. The
 * Order model's hooks (order.server.ts) keep them in step with `orders.user_id`: an order is added before it
 * names its customer and removed before it stops naming them (a data deletion); the reader checks `user_id`.
 */
export const customerOrders = slotList("CustomerOrder", "customer_orders");
export const CustomerOrder = customerOrders.Slot;

/**
 * The orders bought with an e-mail address, found by `_id` the same way, so the guest-order claim at sign-in
 * and confirmation reads that address's orders only, never every order. The owner is the address's SHA-256
 * (`emailOwner`), not the address, so a data deletion leaves no address behind in an emptied slot. Kept in step
 * with `orders.email` by the Order model's hooks like the customer's list; the reader checks `email`.
 */
export const emailOrders = slotList("EmailOrder", "email_orders");
export const EmailOrder = emailOrders.Slot;

/**
 * The owner of an address's list, or null for an address no one can prove (RFC 2606's `.invalid`, which a
 * data deletion writes in every order it clears: that list would only grow, and no account can claim it).
 */
export function emailOwner(email: string): string | null {
  const address = email.trim().toLowerCase();
  if (!address || address.endsWith(".invalid")) return null;
  return addressOwner(address);
}
