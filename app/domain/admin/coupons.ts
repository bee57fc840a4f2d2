import * as z from "../zod";
import { endOfSydneyDay, sydneyDateInput } from "../dates";
import { normalizeCouponCode } from "../pricing";

/** The admin coupon form (spec 2 section 5), shared by the browser and the server. Messages are the spec's. */
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

const blank = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const number = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? Number(v.trim()) : blank(v));

export const CouponFormSchema = z
  .object({
    code: z.preprocess(
      blank,
      z.pipe(
        z.pipe(z.string({ error: COUPON_FORM_MESSAGES.required }), z.transform(normalizeCouponCode)),
        z.string().check(z.regex(/^[A-Z0-9_-]{1,40}$/, COUPON_FORM_MESSAGES.code)),
      ),
    ),
    discount_type: z.enum(["percentage", "fixed"], { error: COUPON_FORM_MESSAGES.required }),
    /** A percentage, or whole dollars for a fixed discount. */
    discount_value: z.preprocess(
      number,
      // The minimum of 1 for a fixed discount is checked below, after the type is known, so a 0%
      // coupon hears the percentage rule (spec: 'Percentage must be between 1 and 100').
      z.number({ error: COUPON_FORM_MESSAGES.required }).check(z.lte(100_000)),
    ),
    max_uses: z.preprocess(
      number,
      z.optional(
        z.int({ error: COUPON_FORM_MESSAGES.maxUses }).check(z.gte(1, COUPON_FORM_MESSAGES.maxUses), z.lte(1_000_000)),
      ),
    ),
    valid_until: z.preprocess(
      blank,
      z.optional(
        z.string().check(
          z.regex(/^\d{4}-\d{2}-\d{2}$/, COUPON_FORM_MESSAGES.date),
          z.refine((s) => !Number.isNaN(Date.parse(s)), COUPON_FORM_MESSAGES.date),
        ),
      ),
    ),
    active: z.preprocess((v) => v === "on" || v === "true", z.boolean()),
    allowed_emails: z.preprocess(
      splitList,
      z
        .array(z.email(COUPON_FORM_MESSAGES.email).check(z.maxLength(255)))
        .check(z.maxLength(100, COUPON_FORM_MESSAGES.list)),
    ),
    allowed_domains: z.preprocess(
      (v) => splitList(v).map((d) => d.replace(/^@/, "")),
      z
        .array(z.string().check(z.regex(/^([a-z0-9-]+\.)+[a-z]{2,}$/, COUPON_FORM_MESSAGES.domain), z.maxLength(253)))
        .check(z.maxLength(100, COUPON_FORM_MESSAGES.list)),
    ),
  })
  .check(
    z.superRefine((v, ctx) => {
      if (
        v.discount_type === "percentage" &&
        (v.discount_value < 1 || v.discount_value > 100 || !Number.isInteger(v.discount_value))
      ) {
        ctx.addIssue({ code: "custom", path: ["discount_value"], message: COUPON_FORM_MESSAGES.percentage });
      } else if (v.discount_type === "fixed" && v.discount_value < 1) {
        ctx.addIssue({ code: "custom", path: ["discount_value"], message: COUPON_FORM_MESSAGES.valueMin });
      }
    }),
  );

export type CouponFormValue = z.infer<typeof CouponFormSchema>;

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
