import * as z from "./zod";
import { EMPTY_COUPON_MESSAGE } from "./pricing";
import { EmailSchema } from "./schemas";

/** The checkout form's submit buttons (one form, several actions). */
export const CHECKOUT_INTENTS = {
  applyCoupon: "apply-coupon",
  removeCoupon: "remove-coupon",
  update: "update",
  pay: "pay",
} as const;

/** The message the browser checks itself; the others below stay with the server (the bundle drops what it does not use). */
const MISSING_INFORMATION = "Missing Information: Please provide your email and agree to the terms.";

/** Beside each missing field when paying (the alert keeps the spec's sentence). */
export const CHECKOUT_FIELD_MESSAGES = {
  email: "Enter the email address for your intake form link",
  terms: "Tick the box to agree to the terms",
} as const;

export const CHECKOUT_MESSAGES = {
  missing: MISSING_INFORMATION,
  checkoutError: "Checkout Error: Failed to create checkout session. Please try again.",
  couponFailed: "Error: Failed to validate coupon",
  couponRemoved: "Coupon removed",
  tooMany: "Too many attempts from your connection. Please wait a while and try again, or contact us.",
  unknownAction: "Unknown action. Please use the buttons on the form.",
  verification: "Verification Error: There was an issue verifying your payment. Please contact support.",
} as const;

const optionalText = (max: number) =>
  z.optional(z.string().check(z.trim(), z.maxLength(max, `Must be ${max} characters or fewer`)));

/**
 * The checkout form, shared by the browser and the server. The server still
 * recomputes every price from the chosen ids; nothing here carries an amount.
 */
export const CheckoutSchema = z
  .object({
    intent: z.enum(
      [CHECKOUT_INTENTS.applyCoupon, CHECKOUT_INTENTS.removeCoupon, CHECKOUT_INTENTS.update, CHECKOUT_INTENTS.pay],
      {
        error: CHECKOUT_MESSAGES.unknownAction,
      },
    ),
    email: z.optional(EmailSchema),
    couponCode: optionalText(50),
    appliedCoupon: optionalText(50),
    addOns: z._default(z.array(z.string().check(z.maxLength(50))).check(z.maxLength(10)), []),
    // A ticked box sends "on"; anything else is not an agreement.
    terms: z.optional(z.literal("on", { error: CHECKOUT_MESSAGES.missing })),
    package: optionalText(50),
    maintenance: z.optional(z.literal("1")),
  })
  .check(
    z.superRefine((value, ctx) => {
      if (value.intent === CHECKOUT_INTENTS.pay && (!value.email || !value.terms)) {
        // The spec's sentence for the form, and each missing field marked with its own message.
        ctx.addIssue({ code: "custom", path: [], message: MISSING_INFORMATION });
        if (!value.email) ctx.addIssue({ code: "custom", path: ["email"], message: CHECKOUT_FIELD_MESSAGES.email });
        if (!value.terms) ctx.addIssue({ code: "custom", path: ["terms"], message: CHECKOUT_FIELD_MESSAGES.terms });
      }
      if (value.intent === CHECKOUT_INTENTS.applyCoupon && !value.couponCode) {
        ctx.addIssue({ code: "custom", path: ["couponCode"], message: EMPTY_COUPON_MESSAGE });
      }
    }),
  );
