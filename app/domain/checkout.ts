/** The checkout form's submit buttons (one form, several actions). */
export const CHECKOUT_INTENTS = {
  applyCoupon: "apply-coupon",
  removeCoupon: "remove-coupon",
  update: "update",
  pay: "pay",
} as const;

/** The alert when paying without an e-mail address or the terms ticked (the spec's sentence). */
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
  linksByEmailOnly:
    "Your coupon is for particular e-mail addresses, so your intake form and order status links go only to the address you entered: open them from that e-mail.",
  tooMany: "Too many attempts from your connection. Please wait a while and try again, or contact us.",
  unknownAction: "Unknown action. Please use the buttons on the form.",
  verification: "Verification Error: There was an issue verifying your payment. Please contact support.",
} as const;

/**
 * Stripe's longest Checkout Session life (its default, and the most `expires_at` may ask for): an unpaid
 * order older than this can no longer be paid through its session, whatever the checkout asked for.
 */
export const CHECKOUT_SESSION_LONGEST_MS = 24 * 3_600_000;
