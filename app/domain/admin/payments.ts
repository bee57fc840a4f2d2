/** What can be wrong with a payment that the Payments tab lists. */
export const PAYMENT_ISSUE_KINDS = ["amount_mismatch", "coupon_over_redeemed"] as const;
export type PaymentIssueKind = (typeof PAYMENT_ISSUE_KINDS)[number];

/** Each kind of payment issue in plain words, as the Payments tab names it. */
export const PAYMENT_ISSUE_TEXT: Record<PaymentIssueKind, { label: string; help: string }> = {
  amount_mismatch: {
    label: "Paid amount differs from the quote",
    help: "The order was held, not fulfilled. Accept the payment to fulfil it, or refund it in Stripe and mark it resolved.",
  },
  coupon_over_redeemed: {
    label: "Coupon used more often than allowed",
    help: "The payment was honoured and the order fulfilled; the coupon has one use more than its limit.",
  },
};

/** How an admin closed an issue. */
export const PAYMENT_RESOLUTIONS = ["accepted", "resolved"] as const;
export type PaymentResolution = (typeof PAYMENT_RESOLUTIONS)[number];

export const PAYMENT_MESSAGES = {
  accepted: {
    title: "Payment Accepted",
    description: "The order is fulfilled and the customer was e-mailed their links.",
  },
  resolved: { title: "Marked Resolved" },
  alreadyResolved: {
    title: "Already Resolved",
    description: "Another admin resolved this issue first; nothing was changed.",
  },
  notFound: { title: "Issue Not Found", description: "That payment issue does not exist." },
  notAcceptable: {
    title: "Cannot Accept",
    description: "Only a paid amount that differs from the quote can be accepted.",
  },
  empty:
    "No payments need a look. Payments whose amount differs from the quote, or that used up a coupon, appear here.",
  emptyResolved: "Nothing resolved yet.",
  banner: "This order has a payment that needs a look.",
} as const;

/** How many issues a page of each list shows; older ones are a link away. */
export const PAYMENT_LIST_LIMIT = 100;
/** The query parameter of the resolved list's cursor (the open list uses the usual `before`). */
export const RESOLVED_PAGE_PARAM = "resolvedBefore";
