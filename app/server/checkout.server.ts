import { randomBytes, randomUUID } from "node:crypto";
import { createCookie } from "@remix-run/node";
import { AUTH_MESSAGES } from "~/domain/account";
import { CHECKOUT_MESSAGES } from "~/domain/checkout";
import { COUPON_MESSAGES, provedAddress, quote, type Quote } from "~/domain/pricing";
import { releaseCouponUse, reserveCouponUse, validateCoupon } from "./coupons.server";
import { absoluteUrl } from "./env.server";
import { cookieOptions, readCookie } from "./cookies.server";
import { notePrivateRead } from "./private-response.server";
import { abandonCheckout, intakeTokenFor, settlePayment } from "./fulfilment.server";
import { errorMessage, log } from "./log.server";
import { Fulfilment, Order } from "./models/index.server";
import { getStripe, paymentIntentIdOf, sessionPaid } from "./stripe.server";
import { SUBSCRIPTION_MESSAGES } from "~/domain/subscriptions";
import {
  holdPlanCheckout,
  maintenanceLineItem,
  notePlanSession,
  planRefusal,
  type PlanHold,
} from "./subscriptions.server";

/**
 * Session ids we make ourselves: the offline test checkout, and orders a coupon
 * made free. Random and stored on the order (never derived from the order id,
 * which appears in logs and upload URLs), so knowing an order does not open it.
 */
export const OFFLINE_SESSION = "offline_";
export const FREE_SESSION = "free_";
const ownSessionId = (prefix: string) => `${prefix}${randomBytes(24).toString("base64url")}`;

export type CheckoutRequest = {
  email: string;
  addOnIds: string[];
  couponCode?: string | null;
  packageId?: string | null;
  /** The signed-in buyer, if any: the order joins their account. */
  user?: { id: string; email: string; emailVerified: boolean } | null;
  /**
   * A package "With Maintenance": one Checkout charges the package and starts the plan (signed-in buyers with a
   * confirmed address and no live plan only: planRefusal).
   */
  withMaintenance?: boolean;
};
export type CheckoutResult =
  /** `linksByEmailOnly`: the browser is not given the order's links (see provedAddress). */
  | { kind: "started"; redirectTo: string; orderId: string; linksByEmailOnly: boolean }
  /** The coupon can't be used: said at the code box, nothing created. */
  | { kind: "couponError"; message: string }
  /** Not for this buyer as things stand (a plan they may not start yet): said on the form, nothing created. */
  | { kind: "refused"; message: string }
  | { kind: "error"; message: string };

/**
 * Turns a checkout into a pending order and a payment session. The server
 * prices everything from ids; a coupon's use is reserved before the buyer pays,
 * so nobody pays for a coupon that was used up meanwhile.
 */
export async function startCheckout(input: CheckoutRequest): Promise<CheckoutResult> {
  const orderId = randomUUID();
  let hold: PlanHold | null = null;
  if (input.withMaintenance) {
    if (!input.user) return { kind: "refused", message: AUTH_MESSAGES.signInToSubscribe.title };
    const refusal = await planRefusal(input.user, SUBSCRIPTION_MESSAGES.alreadyWithPackage);
    if (refusal) return { kind: "refused", message: refusal };
    // One plan checkout open per account: a plan started at the same moment elsewhere refuses this one.
    const held = await holdPlanCheckout(input.user.id, `package:${orderId}`);
    if ("error" in held) return { kind: "refused", message: held.error };
    hold = held;
  }
  let coupon = null;
  if (input.couponCode) {
    const check = await validateCoupon(input.couponCode, input.email);
    if (!check.ok) return { kind: "couponError", message: check.message };
    coupon = check.coupon;
    if (!(await reserveCouponUse({ couponId: coupon.id, maxUses: coupon.maxUses, orderId }))) {
      return { kind: "couponError", message: COUPON_MESSAGES.usedUp };
    }
  }
  const linksByEmailOnly = Boolean(coupon?.restricted) && !provedAddress(input.email, input.user);
  const priced = quote({
    packageId: input.packageId,
    addOnIds: input.addOnIds,
    coupon,
    withMaintenance: input.withMaintenance,
  });

  try {
    await Order.create({
      _id: orderId,
      email: input.email,
      user_id: linksByEmailOnly ? undefined : (input.user?.id ?? undefined),
      links_by_email_only: linksByEmailOnly,
      product_id: priced.product.id,
      product_name: priced.product.name,
      add_ons: priced.addOns.map(({ id, name, price }) => ({ id, name, price })),
      maintenance_plan: priced.maintenance?.planId,
      amount_total: priced.total,
      discount: priced.discount,
      coupon_code: coupon?.code,
    });
  } catch (error) {
    await releaseCouponUse(orderId);
    throw error;
  }
  log("info", "checkout.started", { order_id: orderId, total: priced.total, coupon: coupon?.code ?? null });

  if (priced.total === 0) {
    const sessionId = ownSessionId(FREE_SESSION);
    await Order.updateOne({ _id: orderId }, { $set: { stripe_session_id: sessionId } });
    await settlePayment({ orderId, sessionId, amountPaid: 0 });
    return { kind: "started", redirectTo: `/order-success?session_id=${sessionId}`, orderId, linksByEmailOnly };
  }

  const stripe = getStripe();
  if (!stripe) {
    const sessionId = ownSessionId(OFFLINE_SESSION);
    await Order.updateOne({ _id: orderId }, { $set: { stripe_session_id: sessionId } });
    return { kind: "started", redirectTo: `/checkout/offline?session_id=${sessionId}`, orderId, linksByEmailOnly };
  }

  try {
    const session = await createStripeSession(orderId, input.email, priced, input.user?.id ?? null);
    if (hold && !(await notePlanSession(hold, session.id))) {
      await abandonCheckout(orderId, "failed");
      return { kind: "refused", message: SUBSCRIPTION_MESSAGES.checkoutOpen };
    }
    return { kind: "started", redirectTo: session.url, orderId, linksByEmailOnly };
  } catch (error) {
    log("error", "checkout.stripe_failed", { order_id: orderId, reason: errorMessage(error) });
    await abandonCheckout(orderId, "failed");
    return { kind: "error", message: CHECKOUT_MESSAGES.checkoutError };
  }
}

async function createStripeSession(
  orderId: string,
  email: string,
  priced: Quote,
  userId: string | null,
): Promise<{ id: string; url: string }> {
  const stripe = getStripe()!;
  const item = (name: string, amount: number) => ({
    quantity: 1,
    price_data: { currency: "aud", unit_amount: amount, product_data: { name } },
  });
  const discounts = [];
  if (priced.discount > 0) {
    const stripeCoupon = await stripe.coupons.create(
      {
        amount_off: priced.discount,
        currency: "aud",
        duration: "once",
        max_redemptions: 1,
        name: `Coupon ${priced.coupon?.code}`,
      },
      { idempotencyKey: `coupon:${orderId}` },
    );
    discounts.push({ coupon: stripeCoupon.id });
  }
  const oneTime = [item(priced.product.name, priced.product.price), ...priced.addOns.map((a) => item(a.name, a.price))];
  const plan = priced.maintenance ? maintenanceLineItem(priced.maintenance.planId) : null;
  // With maintenance, one subscription-mode session charges the package once (one-time lines on the
  // first invoice) and starts the plan; its subscription events carry the buyer's account.
  const mode = plan
    ? {
        mode: "subscription" as const,
        line_items: [...oneTime, plan],
        subscription_data: {
          metadata: { user_id: userId ?? "", plan_id: priced.maintenance!.planId, order_id: orderId },
        },
      }
    : { mode: "payment" as const, line_items: oneTime, payment_intent_data: { metadata: { order_id: orderId } } };
  const session = await stripe.checkout.sessions.create(
    {
      ...mode,
      customer_email: email,
      client_reference_id: orderId,
      metadata: { order_id: orderId },
      discounts,
      success_url: absoluteUrl("/order-success?session_id={CHECKOUT_SESSION_ID}"),
      cancel_url: absoluteUrl("/checkout"),
      // An abandoned session expires in an hour, freeing its coupon use (checkout.session.expired).
      expires_at: Math.floor(Date.now() / 1000) + 60 * 60,
    },
    { idempotencyKey: `checkout:${orderId}` },
  );
  if (!session.url) throw new Error("Stripe returned no checkout URL");
  await Order.updateOne({ _id: orderId }, { $set: { stripe_session_id: session.id } });
  return { id: session.id, url: session.url };
}

export type Confirmation =
  | { state: "paid"; token: string; orderId: string; linksByEmailOnly: boolean }
  | { state: "processing" }
  | { state: "unknown" };

/** A paid order's confirmation: its intake token, and whether its links go by e-mail only. */
async function paid(orderId: string, token?: string): Promise<Confirmation> {
  const order = await Order.findById(orderId, { links_by_email_only: 1 }).lean();
  return {
    state: "paid",
    orderId,
    token: token ?? (await intakeTokenFor(orderId)),
    linksByEmailOnly: Boolean(order?.links_by_email_only),
  };
}

/**
 * For the success page: is this checkout paid? Fulfils it when Stripe says it is
 * and the webhook has not arrived yet (fulfilment is idempotent).
 */
export async function confirmCheckout(sessionId: string): Promise<Confirmation> {
  notePrivateRead(); // a payment looked up by the session id in the address
  const done = await Fulfilment.findOne({ stripe_session_id: sessionId }).lean();
  if (done) return paid(done.order_id);
  if (sessionId.startsWith(OFFLINE_SESSION) || sessionId.startsWith(FREE_SESSION)) return { state: "unknown" };

  const stripe = getStripe();
  if (!stripe || !/^cs_[A-Za-z0-9_]+$/.test(sessionId)) return { state: "unknown" };
  const session = await stripe.checkout.sessions.retrieve(sessionId);
  const orderId = session.metadata?.order_id ?? session.client_reference_id;
  if (!orderId || !(await Order.exists({ _id: orderId, stripe_session_id: sessionId }))) return { state: "unknown" };
  if (sessionPaid(session)) {
    const settled = await settlePayment({
      orderId,
      sessionId,
      amountPaid: session.amount_total ?? 0,
      paymentIntentId: paymentIntentIdOf(session),
    });
    return settled.state === "paid" ? paid(orderId, settled.token) : { state: "unknown" };
  }
  return { state: "processing" };
}

/**
 * The browser that started a checkout carries a signed cookie naming its
 * orders (the last few), so the success page can give the intake link to that
 * browser only; anyone else with the success URL is told it was e-mailed.
 */
const STARTED_MAX = 5;
let startedCookie: ReturnType<typeof createCookie> | undefined;
function checkoutCookie() {
  startedCookie ??= createCookie("__checkout", cookieOptions("__checkout", { maxAge: 60 * 60 * 24 }));
  return startedCookie;
}

async function startedOrders(request: Request): Promise<string[]> {
  const value = await readCookie(checkoutCookie(), request);
  return Array.isArray(value) ? value.filter((id): id is string => typeof id === "string").slice(-STARTED_MAX) : [];
}

/** The Set-Cookie header that marks `orderId` as started by this browser. */
export async function rememberCheckout(request: Request, orderId: string): Promise<string> {
  const orders = (await startedOrders(request)).filter((id) => id !== orderId);
  return checkoutCookie().serialize([...orders, orderId].slice(-STARTED_MAX));
}

/** Whether this browser started the checkout of `orderId`. */
export async function startedHere(request: Request, orderId: string): Promise<boolean> {
  return (await startedOrders(request)).includes(orderId);
}

/** The order behind an offline test checkout session, or null. */
export async function findOfflineOrder(sessionId: string | null) {
  if (!sessionId?.startsWith(OFFLINE_SESSION)) return null;
  return Order.findOne({ stripe_session_id: sessionId }).lean();
}
