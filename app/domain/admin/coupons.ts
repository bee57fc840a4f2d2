import type { CouponFormValue } from "./coupons.schema";
import { endOfSydneyDay, sydneyDateInput } from "../dates";

/** The admin coupon form (spec 2 section 5): its messages (the spec's); its schema is in coupons.schema.ts (server only). */
export const COUPON_FORM_MESSAGES = {
  required: "Please fill in all required fields",
  percentage: "Percentage must be between 1 and 100",
  valueMin: "Value must be at least 1",
  maxUses: "Max uses must be at least 1",
  code: "Codes use letters, digits, dashes and underscores (up to 40)",
  date: "Enter a date such as 2026-12-31",
  list: "Keep each list under 100 entries",
  email: "One of the allowed emails is not an email address",
  domain: "One of the allowed domains is not a domain such as example.com.au",
  created: { title: "Coupon Created" },
  updated: { title: "Updated" },
  deleted: { title: "Deleted" },
  deactivated: {
    title: "Deleted",
    description: "This coupon has been used, so it was deactivated and its redemption history kept.",
  },
  codeTaken: "A coupon with this code already exists",
  notFound: "Coupon not found",
  confirmDelete: "Are you sure you want to delete this coupon?",
} as const;

/** Comma-separated list: trimmed, lower-cased, empties dropped, duplicates removed. */
export function splitList(value: unknown): string[] {
  if (typeof value !== "string") return [];
  return [
    ...new Set(
      value
        .split(",")
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
}

/** The form's value as the stored coupon: a fixed discount is stored in cents; valid until the end of that day in NSW. */
export function couponRecord(v: CouponFormValue) {
  return {
    code: v.code,
    discount_type: v.discount_type,
    discount_value: v.discount_type === "fixed" ? Math.round(v.discount_value * 100) : v.discount_value,
    max_uses: v.max_uses ?? null,
    valid_until: v.valid_until ? endOfSydneyDay(v.valid_until) : null,
    active: v.active,
    allowed_emails: v.allowed_emails,
    allowed_domains: v.allowed_domains,
  };
}

/** A stored coupon as the form's default values. An older document may lack a field: read as its default. */
export function couponFormDefaults(c: {
  code: string;
  discount_type: string;
  discount_value: number;
  max_uses?: number | null;
  valid_until?: Date | string | null;
  active?: boolean | null;
  allowed_emails?: string[] | null;
  allowed_domains?: string[] | null;
}) {
  return {
    code: c.code,
    discount_type: c.discount_type,
    discount_value: String(c.discount_type === "fixed" ? c.discount_value / 100 : c.discount_value),
    max_uses: c.max_uses == null ? "" : String(c.max_uses),
    valid_until: c.valid_until ? sydneyDateInput(c.valid_until) : "",
    active: c.active !== false ? "on" : "",
    allowed_emails: (c.allowed_emails ?? []).join(", "),
    allowed_domains: (c.allowed_domains ?? []).join(", "),
  };
}
