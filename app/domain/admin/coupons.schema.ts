import { normalizeCouponCode } from "../pricing";
import * as z from "../zod";
import { COUPON_FORM_MESSAGES, splitList } from "./coupons";

/**
 * The admin coupon form, parsed by the server; the browser checks the rules `formRules` derives
 * from it (its own module, so Zod stays out of the page). The rule across fields
 * (a percentage from 1 to 100, a fixed amount of at least 1) is the server's alone.
 */
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
