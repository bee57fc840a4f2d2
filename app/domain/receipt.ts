import { MAINTENANCE_PLANS } from "~/content/maintenance";
import { ADD_ONS } from "~/content/offer";
import { formatDate } from "./dates";
import { formatCents } from "./money";
import { shortId } from "./orders";

/*
 * What an order sold, as stored on it when it was paid: the product, each add-on
 * at the price charged, the coupon and its discount, the maintenance plan's first
 * month, and the total. One reading for the builder (the admin's order page, the
 * list, the CSV) and the customer (the receipt).
 */

/** What the receipt reads of a stored order (prices as charged, in cents). */
export type SoldOrder = {
  _id: string;
  product_name: string;
  add_ons?: { id: string; name: string; price: number }[] | null;
  coupon_code?: string | null;
  discount?: number | null;
  maintenance_plan?: string | null;
  amount_total: number;
  amount_paid: number;
  paid_at?: Date | null;
  created_at?: Date | null;
};

export type ReceiptLine = { name: string; amount: number };

export type Receipt = {
  /** When it was paid (or placed, before payment). */
  date: Date;
  orderNumber: string;
  /** The product first, then each add-on, then a maintenance plan's first month. */
  items: ReceiptLine[];
  couponCode: string | null;
  discount: number;
  /** What was paid, in cents AUD. */
  total: number;
};

/** The first month of the plan a package "With Maintenance" started (in amount_total, never discounted). */
function maintenanceLine(planId: string | null | undefined): ReceiptLine | null {
  const plan = MAINTENANCE_PLANS.find((p) => p.id === planId);
  return plan ? { name: `${plan.name} maintenance, first month`, amount: plan.price } : null;
}

export function orderReceipt(order: SoldOrder): Receipt {
  const addOns = (order.add_ons ?? []).map((a) => ({ name: a.name, amount: a.price }));
  const maintenance = maintenanceLine(order.maintenance_plan);
  const discount = order.discount ?? 0;
  // The product's price as charged: the quote's total less what else it held (pricing.ts `quote`).
  const product =
    order.amount_total + discount - addOns.reduce((sum, a) => sum + a.amount, 0) - (maintenance?.amount ?? 0);
  return {
    date: order.paid_at ?? order.created_at ?? new Date(0),
    orderNumber: shortId(order._id),
    items: [{ name: order.product_name, amount: product }, ...addOns, ...(maintenance ? [maintenance] : [])],
    couponCode: order.coupon_code ?? null,
    discount,
    total: order.amount_paid,
  };
}

/** Who sold it, from configuration (BUSINESS_NAME, BUSINESS_ABN). */
export type Seller = { name: string; abn: string };

/** The customer's receipt as it reads, the same on the payment e-mail, the dashboard and the order status page. */
export type ReceiptView = {
  title: string;
  seller: string;
  /** "ABN 51 824 753 556" */
  abn: string;
  date: string;
  orderNumber: string;
  /** The items, then the coupon and its discount. */
  rows: { label: string; amount: string }[];
  total: { label: string; amount: string };
};

/** An ABN as the ATO writes it: 11 digits in groups of 2, 3, 3 and 3. */
export const formatAbn = (abn: string) =>
  abn.replace(/\D/g, "").replace(/^(\d{2})(\d{3})(\d{3})(\d{3})$/, "$1 $2 $3 $4");

export function receiptView(receipt: Receipt, seller: Seller): ReceiptView {
  const coupon =
    receipt.couponCode || receipt.discount
      ? [
          {
            label: receipt.couponCode ? `Coupon ${receipt.couponCode}` : "Discount",
            amount: `-${formatCents(receipt.discount)}`,
          },
        ]
      : [];
  return {
    title: "Receipt",
    seller: seller.name,
    abn: `ABN ${formatAbn(seller.abn)}`,
    date: formatDate(receipt.date),
    orderNumber: `#${receipt.orderNumber}`,
    rows: [...receipt.items.map((i) => ({ label: i.name, amount: formatCents(i.amount) })), ...coupon],
    total: { label: "Total paid (AUD)", amount: formatCents(receipt.total) },
  };
}

/** Each add-on's short name, for a list row or a CSV cell ("Priority, Logo, +2 Pages"); "" when none. */
export function addOnsInShort(addOns: readonly { id: string; name: string }[]): string {
  return addOns.map((a) => ADD_ONS.find((o) => o.id === a.id)?.short ?? a.name).join(", ");
}
