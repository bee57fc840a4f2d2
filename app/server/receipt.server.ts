import { orderReceipt, receiptView, type SoldOrder } from "~/domain/receipt";
import { getEnv } from "./env.server";

/**
 * The customer's receipt for a paid order, sold by the business named in configuration
 * (BUSINESS_NAME, BUSINESS_ABN): one reading for the payment e-mail, the dashboard and the order status page.
 */
export function customerReceipt(order: SoldOrder) {
  const { BUSINESS_NAME, BUSINESS_ABN } = getEnv();
  return receiptView(orderReceipt(order), { name: BUSINESS_NAME, abn: BUSINESS_ABN });
}
