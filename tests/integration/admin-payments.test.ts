import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import * as order from "~/routes/admin.orders.$orderId";
import * as payments from "~/routes/admin.payments";
import { settlePayment } from "~/server/fulfilment.server";
import { AdminAuditLog, Coupon, Fulfilment, Order, OutboxMessage, PaymentIssue } from "~/server/models/index.server";
import { flashOf, get, post } from "../support/admin";
import { signedInUser } from "../support/auth";
import { useTestDatabase } from "../support/db";
import { uniqueAddress } from "../support/mailpit";

useTestDatabase();

let cookie: string;
beforeAll(async () => {
  cookie = (await signedInUser({ admin: true })).cookie;
});

/** A checkout Stripe reports as paid with `paid` cents instead of the quoted 30,000: held as an amount_mismatch. */
async function heldPayment(paid = 29_999, fields: Record<string, unknown> = {}) {
  const doc = await Order.create({
    email: uniqueAddress("held"),
    amount_total: 30_000,
    stripe_session_id: `cs_test_${randomUUID()}`,
    ...fields,
  });
  expect(await settlePayment({ orderId: doc._id, sessionId: doc.stripe_session_id!, amountPaid: paid })).toEqual({
    state: "review",
  });
  const issue = (await PaymentIssue.findOne({ order_id: doc._id }).lean())!;
  return { orderId: doc._id, email: doc.email, issueId: issue._id };
}

async function overRedeemed() {
  const coupon = await Coupon.create({
    code: `OVER${randomUUID().slice(0, 6).toUpperCase()}`,
    discount_type: "percentage",
    discount_value: 10,
  });
  const doc = await Order.create({
    email: uniqueAddress("over"),
    amount_total: 27_000,
    status: "paid",
    coupon_code: coupon.code,
  });
  const issue = await PaymentIssue.create({
    _id: `coupon_over_redeemed:cs_test_${randomUUID()}`,
    kind: "coupon_over_redeemed",
    order_id: doc._id,
    stripe_session_id: "cs_test_over",
    expected_cents: 27_000,
    paid_cents: 27_000,
    coupon_code: coupon.code,
  });
  return { orderId: doc._id, issueId: issue._id, code: coupon.code };
}

const act = (intent: string, issueId: string) => post(payments.action, "/admin/payments", cookie, { intent, issueId });
const paidMails = (orderId: string) => OutboxMessage.countDocuments({ key: `order-paid:${orderId}` });

describe("the Payments tab", () => {
  it("lists unresolved issues with the order, e-mail, quoted and paid amounts, and the coupon", async () => {
    const held = await heldPayment(25_000);
    const over = await overRedeemed();
    const answer = await get(payments.loader, "/admin/payments", cookie);
    expect(answer.status).toBe(200);
    const { open } = answer.data as Awaited<ReturnType<typeof payments.loader>>;
    expect(open.rows.find((i) => i.id === held.issueId)).toMatchObject({
      kind: "amount_mismatch",
      orderId: held.orderId,
      shortId: held.orderId.slice(0, 8),
      email: held.email,
      expected: "$300.00",
      paid: "$250.00",
      resolvedAt: null,
    });
    expect(open.rows.find((i) => i.id === over.issueId)).toMatchObject({
      kind: "coupon_over_redeemed",
      couponCode: over.code,
    });
  });

  it("accepts a held payment once: the order is fulfilled with the amount paid, one e-mail, one audit entry", async () => {
    const held = await heldPayment(29_000);
    const answers = await Promise.all(Array.from({ length: 20 }, () => act("accept", held.issueId)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(303));
    const titles = await Promise.all(answers.map(async (a) => (await flashOf(a))?.title));
    expect(titles.filter((t) => t === "Payment Accepted")).toHaveLength(1);
    expect(titles.filter((t) => t === "Already Resolved")).toHaveLength(19);
    expect(await Order.findById(held.orderId).lean()).toMatchObject({ status: "paid", amount_paid: 29_000 });
    expect(await Fulfilment.countDocuments({ order_id: held.orderId })).toBe(1);
    expect(await paidMails(held.orderId)).toBe(1);
    expect(await AdminAuditLog.countDocuments({ target_id: held.orderId, action: "payment_issue.accepted" })).toBe(1);
    expect(await PaymentIssue.findById(held.issueId).lean()).toMatchObject({
      resolution: "accepted",
      resolved_at: expect.any(Date),
    });

    const { open, resolved } = (await get(payments.loader, "/admin/payments", cookie)).data as Awaited<
      ReturnType<typeof payments.loader>
    >;
    expect(open.rows.some((i) => i.id === held.issueId)).toBe(false);
    expect(resolved.rows.find((i) => i.id === held.issueId)).toMatchObject({ resolution: "accepted" });
  });

  it("marks a held payment resolved without fulfilling it; accepting afterwards changes nothing", async () => {
    const held = await heldPayment();
    const answers = await Promise.all(Array.from({ length: 10 }, () => act("resolve", held.issueId)));
    const titles = await Promise.all(answers.map(async (a) => (await flashOf(a))?.title));
    expect(titles.filter((t) => t === "Marked Resolved")).toHaveLength(1);
    expect(await AdminAuditLog.countDocuments({ target_id: held.orderId, action: "payment_issue.resolved" })).toBe(1);
    expect((await flashOf(await act("accept", held.issueId)))?.title).toBe("Already Resolved");
    expect((await Order.findById(held.orderId).lean())?.status).toBe("pending");
    expect(await Fulfilment.countDocuments({ order_id: held.orderId })).toBe(0);
    expect(await paidMails(held.orderId)).toBe(0);
  });

  it("resolves an over-redeemed coupon but refuses to 'accept' it", async () => {
    const over = await overRedeemed();
    expect((await flashOf(await act("accept", over.issueId)))?.title).toBe("Cannot Accept");
    expect((await PaymentIssue.findById(over.issueId).lean())?.resolved_at).toBeNull();
    expect((await flashOf(await act("resolve", over.issueId)))?.title).toBe("Marked Resolved");
    expect(await AdminAuditLog.countDocuments({ target_id: over.orderId, action: "payment_issue.resolved" })).toBe(1);
  });

  it("answers unknown intents, missing and unknown issues, and hostile ids with a 4xx or a message, never a 5xx", async () => {
    const held = await heldPayment();
    expect((await act("refund", held.issueId)).status).toBe(400);
    expect((await post(payments.action, "/admin/payments", cookie, { intent: "resolve" })).status).toBe(400);
    expect((await act("resolve", "x".repeat(301))).status).toBe(400);
    expect((await flashOf(await act("resolve", "amount_mismatch:cs_nope")))?.title).toBe("Issue Not Found");
    const hostile = await post(payments.action, "/admin/payments", cookie, { intent: "resolve", "issueId[$ne]": "x" });
    expect(hostile.status).toBe(400);
    expect((await PaymentIssue.findById(held.issueId).lean())?.resolved_at).toBeNull();
  });
});

describe("the order detail banner", () => {
  it("shows while the order has an unresolved payment issue", async () => {
    const held = await heldPayment();
    const before = await get(order.loader, `/admin/orders/${held.orderId}`, cookie, { orderId: held.orderId });
    expect(before.data).toMatchObject({ paymentIssueOpen: true });
    await act("resolve", held.issueId);
    const after = await get(order.loader, `/admin/orders/${held.orderId}`, cookie, { orderId: held.orderId });
    expect(after.data).toMatchObject({ paymentIssueOpen: false });
  });
});
