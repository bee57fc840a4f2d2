import mongoose from "mongoose";
import { describe, expect, it } from "vitest";
import { COUPON_MESSAGES } from "~/domain/pricing";
import { startCheckout } from "~/server/checkout.server";
import { fulfilOrder } from "~/server/fulfilment.server";
import { hashToken } from "~/server/tokens.server";
import { deliverDueMail } from "~/server/mail/outbox.server";
import { smtpTransport } from "~/server/mail/transport.server";
import {
  Coupon,
  CouponRedemption,
  Fulfilment,
  IntakeToken,
  Order,
  OutboxMessage,
  StripeEvent,
} from "~/server/models/index.server";
import { action as webhook } from "~/routes/webhooks.stripe";
import { action as checkoutAction } from "~/routes/checkout";
import { loader as successLoader } from "~/routes/order-success";
import { get, post } from "../support/admin";
import { signedInUser } from "../support/auth";
import { useTestDatabase } from "../support/db";
import { messageText, uniqueAddress, waitForMessages } from "../support/mailpit";
import { sessionEvent, uniqueId, webhookRequest } from "../support/stripe-events";

useTestDatabase();

const delivery = (event: object, secret?: string) => webhookRequest(event, { secret });

async function pendingOrder(email: string, couponCode?: string) {
  const result = await startCheckout({ email, addOnIds: ["logo-design"], couponCode });
  expect(result).toMatchObject({ kind: "started" });
  return Order.findOne({ email }).sort({ created_at: -1 }).lean();
}

describe("checkout against Stripe's API mock", () => {
  it("creates a pending order priced by the server and a Checkout Session, then sends the buyer to Stripe", async () => {
    await Coupon.create({ code: "TENOFF", discount_type: "percentage", discount_value: 10 });
    const email = uniqueAddress("buyer");
    const result = await startCheckout({ email, addOnIds: ["logo-design", "not-an-add-on"], couponCode: "tenoff" });
    expect(result.kind === "started" && result.redirectTo).toMatch(/^https:\/\/checkout\.stripe\.com\//);
    const order = await Order.findOne({ email }).lean();
    expect(order).toMatchObject({ status: "pending", amount_total: 40_500, discount: 4_500, coupon_code: "TENOFF" });
    expect(order?.add_ons.map((a) => a.id)).toEqual(["logo-design"]);
    expect(order?.stripe_session_id).toMatch(/^cs_/);
    expect(await CouponRedemption.countDocuments({ order_id: order!._id, status: "reserved" })).toBe(1);
  });

  it("refuses a coupon that cannot be used, before any order exists", async () => {
    const email = uniqueAddress("nocoupon");
    expect(await startCheckout({ email, addOnIds: [], couponCode: "NOSUCH" })).toEqual({
      kind: "couponError",
      message: COUPON_MESSAGES.notValid,
    });
    expect(await Order.countDocuments({ email })).toBe(0);
  });

  it("gives a coupon's last use to exactly one of ten concurrent checkouts and tells the others before they pay", async () => {
    const coupon = await Coupon.create({ code: "LASTONE", discount_type: "fixed", discount_value: 1000, max_uses: 3 });
    await CouponRedemption.create({ coupon_id: String(coupon._id), slot: "1", order_id: "earlier-1", status: "used" });
    await CouponRedemption.create({ coupon_id: String(coupon._id), slot: "2", order_id: "earlier-2", status: "used" });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        startCheckout({ email: uniqueAddress(`race${i}`), addOnIds: [], couponCode: "LASTONE" }),
      ),
    );
    expect(results.filter((r) => r.kind === "started")).toHaveLength(1);
    expect(results.filter((r) => r.kind === "couponError" && r.message === COUPON_MESSAGES.usedUp)).toHaveLength(9);
    expect(await CouponRedemption.countDocuments({ coupon_id: String(coupon._id) })).toBe(3);
  });
});

describe("the Stripe webhook", () => {
  it("answers a bad signature with 400 and changes nothing", async () => {
    const res = await webhook({
      request: delivery(
        sessionEvent("checkout.session.completed", { id: "cs_x", orderId: "o", amount: 1 }),
        "whsec_wrong",
      ),
      params: {},
      context: {},
    });
    expect(res.status).toBe(400);
    expect(await StripeEvent.countDocuments()).toBe(0);
  });

  it("turns the same events, 20 times at once and out of order, into one paid order, one token, one coupon use and one e-mail", async () => {
    await Coupon.create({ code: "ONCE", discount_type: "fixed", discount_value: 5000, max_uses: 5 });
    const email = uniqueAddress("paid");
    const order = (await pendingOrder(email, "ONCE"))!;
    const session = { id: order.stripe_session_id!, orderId: order._id, amount: order.amount_total };
    const completed = sessionEvent("checkout.session.completed", session, uniqueId("evt_completed"));
    const succeeded = sessionEvent("checkout.session.async_payment_succeeded", session, uniqueId("evt_async"));

    const deliveries = Array.from({ length: 20 }, (_, i) => (i % 2 ? completed : succeeded));
    const responses = await Promise.all(
      deliveries.map((e) => webhook({ request: delivery(e), params: {}, context: {} })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));

    expect(await Order.findById(order._id).lean()).toMatchObject({
      status: "paid",
      amount_paid: 40_000,
      stripe_payment_intent_id: "pi_123",
    });
    expect(await Fulfilment.countDocuments({ order_id: order._id })).toBe(1);
    expect(await IntakeToken.countDocuments({ order_id: order._id, purpose: "intake" })).toBe(1);
    expect(await IntakeToken.countDocuments({ order_id: order._id, purpose: "status" })).toBe(1);
    expect(await CouponRedemption.find({ order_id: order._id }).lean()).toMatchObject([{ status: "used" }]);
    expect(await OutboxMessage.countDocuments({ to: email })).toBe(1);
    expect(await StripeEvent.countDocuments({ _id: mongoose.trusted({ $in: [completed.id, succeeded.id] }) })).toBe(2);

    await deliverDueMail(smtpTransport(process.env.SMTP_URL!));
    const mails = await waitForMessages(email);
    expect(mails).toHaveLength(1);
    const body = await messageText(mails[0].ID);
    const token = /intake-form\?token=([A-Za-z0-9_-]+)/.exec(body.Text)?.[1];
    expect(token).toBeTruthy();
    expect(await IntakeToken.exists({ _id: hashToken(token!), order_id: order._id, purpose: "intake" })).toBeTruthy();
    // The order-status link carries a token of its own.
    const statusToken = /order-status\?access_token=([A-Za-z0-9_-]+)/.exec(body.Text)?.[1];
    expect(statusToken).toBeTruthy();
    expect(statusToken).not.toBe(token);
    expect(
      await IntakeToken.exists({ _id: hashToken(statusToken!), order_id: order._id, purpose: "status" }),
    ).toBeTruthy();

    // A late redelivery of the same event is recognised and does nothing.
    const again = await webhook({ request: delivery(completed), params: {}, context: {} });
    expect(await again.json()).toMatchObject({ outcome: "duplicate" });
  });

  it("waits for a bank payment to clear: completed-but-unpaid does not fulfil; the async success does", async () => {
    const email = uniqueAddress("bank");
    const order = (await pendingOrder(email))!;
    const session = {
      id: order.stripe_session_id!,
      orderId: order._id,
      amount: order.amount_total,
      paymentStatus: "unpaid",
    };
    await webhook({ request: delivery(sessionEvent("checkout.session.completed", session)), params: {}, context: {} });
    expect((await Order.findById(order._id).lean())?.status).toBe("pending");
    await webhook({
      request: delivery(
        sessionEvent("checkout.session.async_payment_succeeded", { ...session, paymentStatus: "paid" }),
      ),
      params: {},
      context: {},
    });
    expect((await Order.findById(order._id).lean())?.status).toBe("paid");
  });

  it("makes an expired checkout cancelled once, however often Stripe resends the event", async () => {
    const coupon = await Coupon.create({ code: "ONCEONLY", discount_type: "fixed", discount_value: 100, max_uses: 1 });
    const order = (await pendingOrder(uniqueAddress("resent"), "ONCEONLY"))!;
    const session = { id: order.stripe_session_id!, orderId: order._id, amount: 0 };
    const first = sessionEvent("checkout.session.expired", session);
    // The same event resent, and other events for the same session, all at once.
    const events = [
      first,
      first,
      first,
      sessionEvent("checkout.session.expired", session),
      sessionEvent("checkout.session.expired", session),
    ];
    const answers = await Promise.all(events.map((e) => webhook({ request: delivery(e), params: {}, context: {} })));
    for (const answer of answers) expect((answer as Response).status).toBe(200);
    expect((await Order.findById(order._id).lean())?.status).toBe("cancelled");
    expect(await StripeEvent.countDocuments({ _id: first.id })).toBe(1);
    expect(await CouponRedemption.countDocuments({ coupon_id: String(coupon._id) })).toBe(0);

    // The freed use goes to the next buyer, and a late resend of the old event never frees theirs.
    const next = (await pendingOrder(uniqueAddress("resent-next"), "ONCEONLY"))!;
    await webhook({ request: delivery(sessionEvent("checkout.session.expired", session)), params: {}, context: {} });
    expect(await CouponRedemption.countDocuments({ coupon_id: String(coupon._id), order_id: next._id })).toBe(1);
    expect((await Order.findById(next._id).lean())?.status).toBe("pending");
    expect((await Order.findById(order._id).lean())?.status).toBe("cancelled");
  });

  it("frees the coupon use of a checkout that expired or failed, and never touches a paid order", async () => {
    const coupon = await Coupon.create({ code: "SINGLE", discount_type: "fixed", discount_value: 100, max_uses: 1 });
    const email = uniqueAddress("expired");
    const order = (await pendingOrder(email, "SINGLE"))!;
    await webhook({
      request: delivery(
        sessionEvent("checkout.session.expired", { id: order.stripe_session_id!, orderId: order._id, amount: 0 }),
      ),
      params: {},
      context: {},
    });
    expect((await Order.findById(order._id).lean())?.status).toBe("cancelled");
    expect(await CouponRedemption.countDocuments({ coupon_id: String(coupon._id) })).toBe(0);

    const next = (await pendingOrder(uniqueAddress("next"), "SINGLE"))!;
    await fulfilOrder({ orderId: next._id, sessionId: next.stripe_session_id!, amountPaid: next.amount_total });
    await webhook({
      request: delivery(
        sessionEvent("checkout.session.async_payment_failed", {
          id: next.stripe_session_id!,
          orderId: next._id,
          amount: 0,
        }),
      ),
      params: {},
      context: {},
    });
    expect((await Order.findById(next._id).lean())?.status).toBe("paid");
    expect(await CouponRedemption.countDocuments({ coupon_id: String(coupon._id), status: "used" })).toBe(1);
  });
});

describe("fulfilment", () => {
  it("run 20 times at once gives one fulfilment, one token and one e-mail, and the same link every time", async () => {
    const email = uniqueAddress("twenty");
    const order = (await pendingOrder(email))!;
    const runs = await Promise.all(
      Array.from({ length: 20 }, () =>
        fulfilOrder({ orderId: order._id, sessionId: order.stripe_session_id!, amountPaid: order.amount_total }),
      ),
    );
    expect(new Set(runs.map((r) => r.token)).size).toBe(1);
    expect(await Fulfilment.countDocuments({ order_id: order._id })).toBe(1);
    expect(await IntakeToken.countDocuments({ order_id: order._id, purpose: "intake" })).toBe(1);
    expect(await IntakeToken.countDocuments({ order_id: order._id, purpose: "status" })).toBe(1);
    expect(await OutboxMessage.countDocuments({ to: email })).toBe(1);
  });
});

describe("a coupon for some addresses", () => {
  /** Pays with a 100% coupon for bigcorp's addresses, typing `email`, then opens the success page as that browser. */
  async function buy(email: string, cookie = "") {
    const code = `BIG${uniqueId("c").slice(-8).toUpperCase()}`;
    await Coupon.create({
      code,
      discount_type: "percentage",
      discount_value: 100,
      allowed_domains: ["bigcorp.example"],
    });
    const answer = await post(checkoutAction, "/checkout", cookie, {
      intent: "pay",
      email,
      terms: "on",
      couponCode: code,
    });
    expect(answer.status, JSON.stringify(answer.data)).toBe(303);
    const checkoutCookie = answer.headers
      .getSetCookie()
      .find((c) => c.startsWith("__checkout="))
      ?.split(";")[0];
    const success = await get(successLoader, answer.location!, [cookie, checkoutCookie].filter(Boolean).join("; "));
    const order = await Order.findOne({ email }).sort({ created_at: -1 }).lean();
    return { checkoutCookie, page: success.data as { intakeUrl: string | null; emailOnly: boolean }, order: order! };
  }

  it("takes the order from a visitor who typed an allowed address, but gives their browser no link", async () => {
    const { checkoutCookie, page, order } = await buy(`ceo-${uniqueId("c").slice(-6)}@bigcorp.example`);
    expect(order).toMatchObject({ status: "paid", links_by_email_only: true, user_id: null });
    expect(checkoutCookie).toBeUndefined();
    expect(page).toMatchObject({ state: "paid", intakeUrl: null, emailOnly: true });
    // The links went to the address typed, by e-mail.
    expect(await OutboxMessage.countDocuments({ to: order.email })).toBeGreaterThan(0);
  });

  it("gives no link to an account that typed someone else's allowed address, nor joins the order to it", async () => {
    const other = await signedInUser();
    const { page, order } = await buy(`cfo-${uniqueId("c").slice(-6)}@bigcorp.example`, other.cookie);
    expect(order).toMatchObject({ links_by_email_only: true, user_id: null });
    expect(page.intakeUrl).toBeNull();
  });

  it("shows the link to a signed-in account that confirmed that address", async () => {
    const owner = await signedInUser({ email: `cto-${uniqueId("c").slice(-6)}@bigcorp.example` });
    const { checkoutCookie, page, order } = await buy(owner.email, owner.cookie);
    expect(order).toMatchObject({ links_by_email_only: false, user_id: owner.user.id });
    expect(checkoutCookie).toBeDefined();
    expect(page.intakeUrl).toMatch(/^\/intake-form\?token=/);
  });
});
