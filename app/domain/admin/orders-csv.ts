import { formatDateTime } from "../dates";

/** The admin orders list as CSV (one line per order, the columns below); cells safe to open in a spreadsheet. */

export const CSV_COLUMNS = [
  "order_id",
  "status",
  "guest",
  "email",
  "amount_paid",
  "currency",
  "created_at",
  "payment_intent_id",
  "product",
  // The readable twin of created_at (UTC ISO, for machines): the date a person reads, Sydney time.
  "created_sydney",
  // What was sold beside the product (the package): each add-on's name, the coupon and its discount.
  "add_ons",
  "coupon",
  "discount",
  // The customer's data was deleted: the order has ended.
  "data_deleted",
] as const;
export type CsvRow = {
  id: string;
  status: string;
  user_id: string | null;
  email: string;
  amount_paid: number;
  currency: string;
  created_at: Date;
  stripe_payment_intent_id: string | null;
  product_name: string;
  add_ons: readonly { name: string }[];
  coupon_code: string | null;
  discount: number;
  data_deleted: boolean;
};

/** One CSV cell: quoted when needed, and a leading = + - @ neutralised so a spreadsheet never runs it as a formula. */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvLine(row: CsvRow): string {
  return [
    row.id,
    row.status,
    row.user_id ? "no" : "yes",
    row.email,
    (row.amount_paid / 100).toFixed(2),
    row.currency.toUpperCase(),
    row.created_at.toISOString(),
    row.stripe_payment_intent_id ?? "",
    row.product_name,
    formatDateTime(row.created_at),
    row.add_ons.map((a) => a.name).join("; "),
    row.coupon_code ?? "",
    (row.discount / 100).toFixed(2),
    row.data_deleted ? "yes" : "no",
  ]
    .map(csvCell)
    .join(",");
}
