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
