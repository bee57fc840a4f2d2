import { describe, expect, it } from "vitest";
import { startCheckout } from "~/server/checkout.server";
import { abandonCheckout, settlePayment } from "~/server/fulfilment.server";
import { Coupon, CouponRedemption, Fulfilment, IntakeToken, Order, PaymentIssue } from "~/server/models/index.server";
import { action as webhook } from "~/routes/webhooks.stripe";
import { useTestDatabase } from "../support/db";
import { uniqueAddress } from "../support/mailpit";
import { sessionEvent, webhookRequest } from "../support/stripe-events";

useTestDatabase();

let n = 0;
const unique = (p: string) => `${p}${Date.now()}${++n}`;

async function couponOnce() {
  const coupon = await Coupon.create({
    code: unique("ONE"),
    discount_type: "fixed",
    discount_value: 1000,
    max_uses: 1,
  });
  return { id: String(coupon._id), code: coupon.code };
}

async function pendingOrder(couponCode?: string) {
  const email = uniqueAddress("pay");
  const result = await startCheckout({ email, addOnIds: [], couponCode });
  expect(result).toHaveProperty("redirectTo");
  return (await Order.findOne({ email }).lean())!;
}

const payment = (
  order: { _id: string; stripe_session_id?: string | null; amount_total: number },
  amountPaid = order.amount_total,
) => ({
  orderId: order._id,
  sessionId: order.stripe_session_id!,
  amountPaid,
});

const delivery = (event: object, timestamp?: number) => webhookRequest(event, { timestamp });
const completed = (order: { _id: string; stripe_session_id?: string | null }, amount: number) =>
  sessionEvent("checkout.session.completed", { id: order.stripe_session_id!, orderId: order._id, amount });

describe("a paid order always holds its coupon use", () => {
  it("a pay and a cancel of the same checkout sent at once never leave a paid order without its use (10 trials)", async () => {
    for (let trial = 0; trial < 10; trial++) {
      const coupon = await couponOnce();
      const order = await pendingOrder(coupon.code);
      // Alternate who starts first; both run at once.
      const runs =
        trial % 2
          ? [settlePayment(payment(order)), abandonCheckout(order._id, "cancelled")]
          : [abandonCheckout(order._id, "cancelled"), settlePayment(payment(order))];
      await Promise.all(runs);
      const after = (await Order.findById(order._id).lean())!;
      expect(after.status, `trial ${trial}`).toBe("paid");
      expect(await CouponRedemption.find({ coupon_id: coupon.id }).lean(), `trial ${trial}`).toMatchObject([
        { order_id: order._id, status: "used" },
      ]);
    }
  });

  it("records no over-redemption when 10 payments race 10 cancels of one checkout (5 trials): only real ones", async () => {
    for (let trial = 0; trial < 5; trial++) {
      const coupon = await couponOnce();
      const order = await pendingOrder(coupon.code);
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          i % 2 ? abandonCheckout(order._id, "cancelled") : settlePayment(payment(order)),
        ),
      );
      expect((await Order.findById(order._id).lean())?.status, `trial ${trial}`).toBe("paid");
      expect(await CouponRedemption.find({ coupon_id: coupon.id }).lean(), `trial ${trial}`).toMatchObject([
        { order_id: order._id, status: "used" },
      ]);
      expect(await PaymentIssue.find({ order_id: order._id }).lean(), `trial ${trial}`).toEqual([]);
    }
  });

  it("takes a freed use again when a cancelled checkout is paid after all", async () => {
    const coupon = await couponOnce();
    const order = await pendingOrder(coupon.code);
    await abandonCheckout(order._id, "cancelled");
    expect(await CouponRedemption.countDocuments({ coupon_id: coupon.id })).toBe(0);

    expect(await settlePayment(payment(order))).toMatchObject({ state: "paid" });
    expect((await Order.findById(order._id).lean())?.status).toBe("paid");
    expect(await CouponRedemption.find({ coupon_id: coupon.id }).lean()).toMatchObject([
      { order_id: order._id, status: "used" },
    ]);
    expect(await PaymentIssue.countDocuments({ order_id: order._id })).toBe(0);
  });

  it("honours the payment and records the over-redemption when another order took the use meanwhile", async () => {
    const coupon = await couponOnce();
    const first = await pendingOrder(coupon.code);
    await abandonCheckout(first._id, "cancelled");
    const second = await pendingOrder(coupon.code); // takes the freed use

    expect(await settlePayment(payment(first))).toMatchObject({ state: "paid" });
    expect((await Order.findById(first._id).lean())?.status).toBe("paid");
    expect(await CouponRedemption.find({ coupon_id: coupon.id }).lean()).toMatchObject([{ order_id: second._id }]);
    const issues = await PaymentIssue.find({ order_id: first._id }).lean();
    expect(issues).toMatchObject([
      { kind: "coupon_over_redeemed", coupon_code: coupon.code, paid_cents: first.amount_total },
    ]);

    // A retry of the same payment records nothing new.
    await settlePayment(payment(first));
    expect(await PaymentIssue.countDocuments({ order_id: first._id })).toBe(1);
  });
});

describe("a payment whose amount differs from the quote", () => {
  it("is held for the admin, not fulfilled, when the webhook reports 1 cent less", async () => {
    const order = await pendingOrder();
    const res = await webhook({ request: delivery(completed(order, order.amount_total - 1)), params: {}, context: {} });
    expect(res.status).toBe(200);
    expect((await Order.findById(order._id).lean())?.status).toBe("pending");
    expect(await Fulfilment.countDocuments({ order_id: order._id })).toBe(0);
    expect(await IntakeToken.countDocuments({ order_id: order._id })).toBe(0);
    expect(await PaymentIssue.find({ order_id: order._id }).lean()).toMatchObject([
      {
        kind: "amount_mismatch",
        expected_cents: order.amount_total,
        paid_cents: order.amount_total - 1,
        stripe_session_id: order.stripe_session_id,
      },
    ]);
  });

  it("is held the same way when the success page confirms it", async () => {
    const order = await pendingOrder();
    expect(await settlePayment(payment(order, order.amount_total + 1))).toEqual({ state: "review" });
    expect(await Fulfilment.countDocuments({ order_id: order._id })).toBe(0);
  });
});

describe("webhook signature timestamps", () => {
  it("refuses a validly signed event dated an hour in the future", async () => {
    const order = await pendingOrder();
    const res = await webhook({
      request: delivery(completed(order, order.amount_total), Math.floor(Date.now() / 1000) + 3600),
      params: {},
      context: {},
    });
    expect(res.status).toBe(400);
    expect((await Order.findById(order._id).lean())?.status).toBe("pending");
  });

  it("refuses one dated an hour ago, and accepts one signed now", async () => {
    const order = await pendingOrder();
    const old = await webhook({
      request: delivery(completed(order, order.amount_total), Math.floor(Date.now() / 1000) - 3600),
      params: {},
      context: {},
    });
    expect(old.status).toBe(400);
    const now = await webhook({ request: delivery(completed(order, order.amount_total)), params: {}, context: {} });
    expect(now.status).toBe(200);
    expect((await Order.findById(order._id).lean())?.status).toBe("paid");
  });
});
