import { CHECKOUT_FIELD_MESSAGES, CHECKOUT_INTENTS, CHECKOUT_MESSAGES } from "./checkout";
import { EMPTY_COUPON_MESSAGE } from "./pricing";
import { EmailSchema } from "./schemas";
import * as z from "./zod";

const optionalText = (max: number) =>
  z.optional(z.string().check(z.trim(), z.maxLength(max, `Must be ${max} characters or fewer`)));

/**
 * The checkout form, parsed on the server (the browser checks the rules `formRules` derives from it).
 * The server recomputes every price from the chosen ids; nothing here carries an amount.
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
        ctx.addIssue({ code: "custom", path: [], message: CHECKOUT_MESSAGES.missing });
        if (!value.email) ctx.addIssue({ code: "custom", path: ["email"], message: CHECKOUT_FIELD_MESSAGES.email });
        if (!value.terms) ctx.addIssue({ code: "custom", path: ["terms"], message: CHECKOUT_FIELD_MESSAGES.terms });
      }
      if (value.intent === CHECKOUT_INTENTS.applyCoupon && !value.couponCode) {
        ctx.addIssue({ code: "custom", path: ["couponCode"], message: EMPTY_COUPON_MESSAGE });
      }
    }),
  );
