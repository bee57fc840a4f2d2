import { randomBytes } from "node:crypto";
import { findPlan, MAINTENANCE_PLANS, type MaintenancePlan } from "~/content/maintenance";
import { DAY_MS } from "~/domain/dates";
import { isLive, latestState, SUBSCRIPTION_MESSAGES, type SubscriptionFact } from "~/domain/subscriptions";
import { claimOnce, isDuplicateKeyError } from "./db.server";
import { absoluteUrl, getEnv, standInsAllowed } from "./env.server";
import { errorMessage, log } from "./log.server";
import { PlanCheckout, Subscription } from "./models/index.server";
import { subscriptionFacts, userSubscriptions } from "./models/subscription.server";
import { getStripe, type Stripe } from "./stripe.server";

/**
 * Maintenance-plan subscriptions (spec 2: maintenance page, check-subscription,
 * create-subscription-checkout, customer-portal). Stripe owns the subscription;
 * we keep what its webhooks tell us as insert-only facts (see the model) and
 * derive the current state from them. Without a Stripe key, an offline test
 * checkout and test portal stand in (never in production).
 */

export type CurrentSubscription = {
  subscriptionId: string;
  planId: string | null;
  productId: string | null;
  status: string;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  customerId: string | null;
};

type Fact = SubscriptionFact & {
  plan_id?: string | null;
  product_id?: string | null;
  current_period_end?: Date | null;
  cancel_at_period_end?: boolean;
  stripe_customer_id?: string | null;
};

/**
 * The facts a list names (models/subscription.server.ts), each read by `_id`, newest first: those `belongs` keeps,
 * as a member may name a fact that is missing or not the owner's.
 */
async function listedFacts(
  factIds: string[],
  belongs: (fact: Fact & { user_id: string; stripe_subscription_id: string }) => boolean,
) {
  const listed = await Promise.all(factIds.map((factId) => Subscription.findById(factId).lean()));
  return listed
    .flatMap((fact) => (fact && belongs(fact) ? [fact] : []))
    .sort((a, b) => b.observed_at.getTime() - a.observed_at.getTime());
}

/** check-subscription: the user's live plan, or null. */
export async function currentSubscription(userId: string): Promise<CurrentSubscription | null> {
  const mine = await listedFacts(await userSubscriptions.members(userId), (fact) => fact.user_id === userId);
  const facts = mine.slice(0, 100);
  const bySubscription = new Map<string, Fact[]>();
  for (const f of facts)
    bySubscription.set(f.stripe_subscription_id, [...(bySubscription.get(f.stripe_subscription_id) ?? []), f]);
  const live = [...bySubscription.values()]
    .map((list) => ({
      state: latestState(list)!,
      customerId: list.find((f) => f.stripe_customer_id)?.stripe_customer_id ?? null,
      plan: list.find((f) => f.plan_id)?.plan_id ?? null,
    }))
    .filter(({ state }) => isLive(state.status))
    .sort((a, b) => b.state.observed_at.getTime() - a.state.observed_at.getTime());
  const newest = live[0];
  if (!newest) return null;
  return {
    subscriptionId: newest.state.stripe_subscription_id,
    planId: newest.state.plan_id ?? newest.plan,
    productId: newest.state.product_id ?? null,
    status: newest.state.status,
    currentPeriodEnd: newest.state.current_period_end ?? null,
    cancelAtPeriodEnd: Boolean(newest.state.cancel_at_period_end),
    customerId: newest.customerId,
  };
}

/** The plan a subscription is for: by our product id, else by the plan recorded at checkout. */
export function planOf(subscription: CurrentSubscription | null): MaintenancePlan | undefined {
  if (!subscription) return undefined;
  return MAINTENANCE_PLANS.find((p) => p.productId === subscription.productId) ?? findPlan(subscription.planId);
}

function priceIdFor(plan: MaintenancePlan): string | undefined {
  const env = getEnv();
  return {
    essentials: env.STRIPE_PRICE_ESSENTIALS,
    professional: env.STRIPE_PRICE_PROFESSIONAL,
    enterprise: env.STRIPE_PRICE_ENTERPRISE,
  }[plan.id];
}

function planForPrice(priceId: string | null | undefined): MaintenancePlan | undefined {
  return priceId ? MAINTENANCE_PLANS.find((p) => priceIdFor(p) === priceId) : undefined;
}

/** The Checkout line that starts a plan: its recurring Stripe price. Throws when the price id is not configured. */
export function maintenanceLineItem(planId: string) {
  const plan = findPlan(planId);
  const price = plan && priceIdFor(plan);
  if (!price) throw new Error(`No Stripe price configured for the ${planId} maintenance plan`);
  return { price, quantity: 1 };
}

async function recordFact(id: string, fact: Fact & { user_id: string }) {
  try {
    await Subscription.create({ _id: id, ...fact });
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
  }
}

export type SubscribeResult = { redirectTo: string } | { error: string };

type Account = { id: string; emailVerified: boolean };

/**
 * Who may start a maintenance plan. An account whose address is not confirmed yet may buy a website
 * and fill in its intake like a guest, but a plan (on its own or with a package) bills and writes to that
 * address every month, and is managed in the account, so it waits for the confirmation. One live plan per
 * account: a change of plan goes through Manage Subscription (Stripe's portal). The reason, or null.
 */
export async function planRefusal(
  user: Account,
  already: string = SUBSCRIPTION_MESSAGES.already,
): Promise<string | null> {
  if (!user.emailVerified) return SUBSCRIPTION_MESSAGES.confirmFirst;
  if (await currentSubscription(user.id)) return already;
  return null;
}

/** Plan checkouts for one account closer together than this are "at once": the later one is refused. */
export const PLAN_CHECKOUT_HOLD_MS = 30_000;

/** The account's one open plan checkout, as held by this request (see PlanCheckout). */
export type PlanHold = { userId: string; token: string };

/**
 * Closes a plan checkout's Stripe session so it can no longer be paid: "closed" (expired now, or already),
 * "paid" (completed: a subscription is on its way) or "failed" (Stripe did not answer).
 */
async function closeCheckoutSession(sessionId: string | null): Promise<"closed" | "paid" | "failed"> {
  const stripe = getStripe();
  if (!sessionId || !stripe || !sessionId.startsWith("cs_")) return "closed";
  try {
    const session = await stripe.checkout.sessions.retrieve(sessionId);
    if (session.status === "complete") return "paid";
    if (session.status === "open") await stripe.checkout.sessions.expire(sessionId);
    return "closed";
  } catch (error) {
    log("error", "subscription.close_failed", { session: sessionId, reason: errorMessage(error) });
    return "failed";
  }
}

/**
 * Holds the account's one plan checkout for `purpose` (`subscribe:essentials`, `package:{orderId}`), so that an
 * account never has two plan checkouts open that could both be paid (one live plan per account). The
 * row is an insert under the account's id: of checkouts started at once, one holds it; a repeat of the same
 * purpose (a double click) shares its hold, and any other is refused with a message. A hold older than
 * PLAN_CHECKOUT_HOLD_MS is taken over once its Stripe session is closed; if that session was paid, the account
 * has its plan and is refused.
 */
export async function holdPlanCheckout(userId: string, purpose: string): Promise<PlanHold | { error: string }> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const token = randomBytes(12).toString("base64url");
    try {
      await PlanCheckout.create({ _id: userId, purpose, token });
      return { userId, token };
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
    const held = await PlanCheckout.findById(userId).lean();
    if (!held) continue; // taken over and closed meanwhile
    const recent = Date.now() - held.created_at.getTime() < PLAN_CHECKOUT_HOLD_MS;
    if (recent)
      return held.purpose === purpose ? { userId, token: held.token } : { error: SUBSCRIPTION_MESSAGES.checkoutOpen };
    const closed = await closeCheckoutSession(held.session_id ?? null);
    if (closed === "paid") return { error: SUBSCRIPTION_MESSAGES.already };
    if (closed === "failed") return { error: SUBSCRIPTION_MESSAGES.checkoutFailed };
    await PlanCheckout.deleteOne({ _id: userId, token: held.token });
  }
  return { error: SUBSCRIPTION_MESSAGES.checkoutOpen };
}

/**
 * Records the Stripe session a held plan checkout made. False when another checkout took the hold over while this
 * session was being made: the session is closed at once (it must never be paid) and the buyer is told.
 */
export async function notePlanSession(hold: PlanHold, sessionId: string): Promise<boolean> {
  const { matchedCount } = await PlanCheckout.updateOne(
    { _id: hold.userId, token: hold.token },
    { $set: { session_id: sessionId } },
  );
  if (matchedCount > 0) return true;
  await closeCheckoutSession(sessionId);
  return false;
}

/** create-subscription-checkout: a Stripe Checkout session in subscription mode, or the offline test checkout. */
export async function startSubscription(
  user: Account & { email: string },
  plan: MaintenancePlan,
): Promise<SubscribeResult> {
  const refusal = await planRefusal(user);
  if (refusal) return { error: refusal };
  const hold = await holdPlanCheckout(user.id, `subscribe:${plan.id}`);
  if ("error" in hold) return hold;
  const stripe = getStripe();
  if (!stripe) return { redirectTo: `/maintenance/test-checkout?plan=${plan.id}` };
  const priceId = priceIdFor(plan);
  if (!priceId) {
    log("error", "subscription.no_price", { plan: plan.id });
    return { error: SUBSCRIPTION_MESSAGES.checkoutFailed };
  }
  try {
    // A double click shares the hold, and so the same session.
    const session = await stripe.checkout.sessions.create(
      {
        mode: "subscription",
        line_items: [{ price: priceId, quantity: 1 }],
        client_reference_id: user.id,
        customer_email: user.email,
        metadata: { kind: "maintenance", user_id: user.id, plan_id: plan.id },
        subscription_data: { metadata: { user_id: user.id, plan_id: plan.id } },
        success_url: absoluteUrl("/maintenance?subscribed=1"),
        cancel_url: absoluteUrl("/maintenance"),
      },
      { idempotencyKey: `subscribe:${user.id}:${plan.id}:${hold.token}` },
    );
    if (!session.url) throw new Error("Stripe returned no checkout URL");
    if (!(await notePlanSession(hold, session.id))) return { error: SUBSCRIPTION_MESSAGES.checkoutOpen };
    return { redirectTo: session.url };
  } catch (error) {
    log("error", "subscription.checkout_failed", {
      plan: plan.id,
      reason: errorMessage(error),
    });
    return { error: SUBSCRIPTION_MESSAGES.checkoutFailed };
  }
}

/** customer-portal: Stripe's Customer Portal for the user's subscription, or the offline test portal. */
export async function openPortal(user: Account): Promise<SubscribeResult> {
  if (!user.emailVerified) return { error: SUBSCRIPTION_MESSAGES.confirmFirst };
  const current = await currentSubscription(user.id);
  if (!current) return { error: SUBSCRIPTION_MESSAGES.noSubscription };
  const stripe = getStripe();
  if (!stripe) return { redirectTo: "/maintenance/test-portal" };
  if (!current.customerId) return { error: SUBSCRIPTION_MESSAGES.portalFailed };
  try {
    const portal = await stripe.billingPortal.sessions.create({
      customer: current.customerId,
      return_url: absoluteUrl("/maintenance"),
    });
    return { redirectTo: portal.url };
  } catch (error) {
    log("error", "subscription.portal_failed", { reason: errorMessage(error) });
    return { error: SUBSCRIPTION_MESSAGES.portalFailed };
  }
}

/* Webhooks: customer.subscription.* and invoice.* */

type Loose = Record<string, unknown> & { id?: string };
const str = (v: unknown): string | null =>
  typeof v === "string" ? v : v && typeof v === "object" && "id" in v ? String((v as Loose).id) : null;
const date = (seconds: unknown) => (typeof seconds === "number" ? new Date(seconds * 1000) : null);

/** Records a customer.subscription.created / updated / deleted event. */
export async function recordSubscriptionEvent(event: Stripe.Event): Promise<"processed" | "ignored"> {
  const sub = event.data.object as unknown as Loose;
  const metadata = (sub.metadata ?? {}) as Record<string, string>;
  if (!metadata.user_id) {
    log("warn", "subscription.without_user", { event_id: event.id });
    return "ignored";
  }
  const item = ((sub.items as { data?: Loose[] } | undefined)?.data ?? [])[0] ?? {};
  const price = (item.price ?? {}) as Loose;
  const plan = planForPrice(str(price)) ?? findPlan(metadata.plan_id);
  await recordFact(event.id, {
    stripe_subscription_id: String(sub.id),
    user_id: metadata.user_id,
    stripe_customer_id: str(sub.customer),
    plan_id: plan?.id ?? null,
    product_id: plan?.productId ?? str(price.product),
    status: event.type === "customer.subscription.deleted" ? "canceled" : String(sub.status ?? "active"),
    current_period_end: date(item.current_period_end ?? sub.current_period_end),
    cancel_at_period_end: Boolean(sub.cancel_at_period_end),
    observed_at: new Date(event.created * 1000),
  });
  return "processed";
}

/** What was last learned of a subscription: the newest of its facts, through its list. */
async function newestFact(subscriptionId: string) {
  const facts = await listedFacts(
    await subscriptionFacts.members(subscriptionId),
    (fact) => fact.stripe_subscription_id === subscriptionId,
  );
  return facts[0] ?? null;
}

/** Records invoice.paid (the plan is paid up to the invoice's period end) and invoice.payment_failed (past due). */
export async function recordInvoiceEvent(event: Stripe.Event): Promise<"processed" | "ignored"> {
  const invoice = event.data.object as unknown as Loose;
  const details = ((invoice.parent as Loose | undefined)?.subscription_details ??
    invoice.subscription_details ??
    {}) as Loose;
  const subscriptionId = str(details.subscription) ?? str(invoice.subscription);
  if (!subscriptionId) return "ignored";
  const metadata = (details.metadata ?? {}) as Record<string, string>;
  const known = await newestFact(subscriptionId);
  const userId = metadata.user_id ?? known?.user_id;
  if (!userId) {
    log("warn", "subscription.invoice_without_user", { event_id: event.id });
    return "ignored";
  }
  const line = ((invoice.lines as { data?: Loose[] } | undefined)?.data ?? [])[0] ?? {};
  await recordFact(event.id, {
    stripe_subscription_id: subscriptionId,
    user_id: userId,
    stripe_customer_id: str(invoice.customer),
    plan_id: known?.plan_id ?? findPlan(metadata.plan_id)?.id ?? null,
    product_id: known?.product_id ?? null,
    status: event.type === "invoice.paid" ? "active" : "past_due",
    current_period_end: date((line.period as Loose | undefined)?.end) ?? known?.current_period_end ?? null,
    cancel_at_period_end: known?.cancel_at_period_end ?? false,
    observed_at: new Date(event.created * 1000),
  });
  return "processed";
}

/* The offline test checkout and portal (development, tests and the local run; no Stripe key) */

export function assertOfflineBilling() {
  if (!standInsAllowed() || getStripe()) throw new Response("Not Found", { status: 404 });
}

/** A fresh one-use key for the offline checkout page, so a double-submitted form subscribes once. */
export const offlineCheckoutKey = () => randomBytes(16).toString("base64url");

/** Completes an offline test subscription (once per page key): null when it started, else why not. */
export async function completeOfflineSubscription(
  user: Account,
  plan: MaintenancePlan,
  pageKey: string,
): Promise<string | null> {
  assertOfflineBilling();
  const refusal = await planRefusal(user);
  if (refusal) return refusal;
  if (!(await claimOnce(`offline-subscribe:${user.id}:${pageKey}`))) return SUBSCRIPTION_MESSAGES.already;
  await recordOfflineStart(`offline_sub_${randomBytes(12).toString("hex")}`, user.id, plan);
  return null;
}

/** An offline test checkout of a package "With Maintenance" starts its plan, once per order. */
export async function startOfflinePlanForOrder(order: {
  _id: string;
  user_id?: string | null;
  maintenance_plan?: string | null;
}) {
  assertOfflineBilling();
  const plan = findPlan(order.maintenance_plan);
  if (!plan || !order.user_id) return;
  await recordOfflineStart(`offline_sub_order_${order._id}`, order.user_id, plan);
}

/** An offline test subscription starts: active for a month (recorded once per id). */
async function recordOfflineStart(subscriptionId: string, userId: string, plan: MaintenancePlan) {
  await recordFact(`${subscriptionId}:created`, {
    stripe_subscription_id: subscriptionId,
    user_id: userId,
    stripe_customer_id: `offline_cus_${userId}`,
    plan_id: plan.id,
    product_id: plan.productId,
    status: "active",
    current_period_end: new Date(Date.now() + 30 * DAY_MS),
    observed_at: new Date(),
  });
}

/** Cancels the user's offline test subscription (the offline portal's one action). */
export async function cancelOfflineSubscription(userId: string): Promise<boolean> {
  assertOfflineBilling();
  const current = await currentSubscription(userId);
  if (!current) return false;
  await recordFact(`${current.subscriptionId}:canceled`, {
    stripe_subscription_id: current.subscriptionId,
    user_id: userId,
    plan_id: current.planId,
    product_id: current.productId,
    status: "canceled",
    observed_at: new Date(),
  });
  return true;
}
