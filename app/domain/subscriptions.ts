/**
 * A maintenance subscription's state from what we learned about it, in any
 * order: cancelled is final (Stripe never revives a cancelled subscription),
 * otherwise the newest fact wins.
 */
export type SubscriptionFact = { stripe_subscription_id: string; status: string; observed_at: Date };

/** Statuses in which the customer has a plan (a failed renewal keeps it until Stripe gives up). */
const LIVE = new Set(["active", "trialing", "past_due"]);
const FINAL = new Set(["canceled", "incomplete_expired"]);

export const isLive = (status: string) => LIVE.has(status);

export function latestState<F extends SubscriptionFact>(facts: F[]): F | null {
  if (facts.length === 0) return null;
  const final = facts.find((f) => FINAL.has(f.status));
  if (final) return final;
  return facts.reduce((a, b) => (b.observed_at.getTime() > a.observed_at.getTime() ? b : a));
}

/** What the maintenance pages and the checkout say about a plan (spec 1: the words are requirements). */
export const SUBSCRIPTION_MESSAGES = {
  already: "You already have a maintenance plan. Use Manage Subscription to change it.",
  alreadyWithPackage:
    "You already have a maintenance plan. Choose One-Time for this package, or change your plan with Manage Subscription on the maintenance page.",
  confirmFirst: "Please confirm your e-mail address first: a maintenance plan starts once your address is confirmed.",
  checkoutOpen:
    "You started a checkout for another maintenance plan a moment ago. Please finish that one, or try again in 30 seconds to choose this one instead.",
  checkoutFailed: "Failed to create checkout session",
  portalFailed: "Failed to open customer portal",
  noSubscription: "You don't have a maintenance plan yet.",
  subscribed: { title: "Subscribed!", description: "Your maintenance plan is active. Thank you." },
  cancelled: { title: "Plan Cancelled", description: "Your maintenance plan has been cancelled." },
} as const;
