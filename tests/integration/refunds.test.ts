import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import * as refund from "~/routes/admin.orders.$orderId_.refund";
import * as restart from "~/routes/admin.orders.$orderId_.restart-clock";
import { action as webhook } from "~/routes/webhooks.stripe";
import { orderFigures } from "~/server/admin/orders.server";
import { startClock } from "~/server/delivery-clock.server";
import { fulfilOrder } from "~/server/fulfilment.server";
import { AdminAuditLog, IntakeToken, Order, OrderEvent, OutboxMessage } from "~/server/models/index.server";
import { flashOf, get, people, post } from "../support/admin";
import { signedInUser } from "../support/auth";
import { useTestDatabase } from "../support/db";
import type Stripe from "stripe";
import { customerDueLine } from "~/domain/delivery-clock";
import { revisionRounds } from "~/domain/orders";
import { loader as intakeEntry } from "~/routes/intake-form";
import { recordStripeRefund } from "~/server/refunds.server";
import { setRevisionEnabled, submitFeedback } from "~/server/revisions.server";
import { hashToken, renewToken } from "~/server/tokens.server";
import { paidOrder, tokenCookie } from "../support/app-data";
import { sessionEvent, uniqueId, webhookRequest } from "../support/stripe-events";

useTestDatabase();

const H = 3_600_000;
let cookie: string;
beforeAll(async () => {
  cookie = (await signedInUser({ admin: true })).cookie;
});

/** A paid order whose clock ran out: paid by card through Stripe (a payment intent of its own). */
async function overdueOrder() {
  const email = `refund-${randomUUID()}@example.test`;
  const order = await Order.create({ email, amount_total: 30_000 });
  const paymentIntent = uniqueId("pi");
  await fulfilOrder({
    orderId: order._id,
    sessionId: `cs_${order._id}`,
    amountPaid: 30_000,
    paymentIntentId: paymentIntent,
  });
  await startClock(order._id, new Date(Date.now() - 30 * H));
  return { orderId: order._id, email, paymentIntent };
}

const refundPost = (orderId: string, body: Record<string, string> = { intent: "refund", reason: "Missed" }) =>
  post(refund.action, `/admin/orders/${orderId}/refund`, cookie, body, { orderId });

function chargeRefunded(
  o: { orderId: string; paymentIntent: string },
  options: { id?: string; full?: boolean; withMetadata?: boolean } = {},
) {
  return {
    id: options.id ?? uniqueId("evt"),
    object: "event",
    type: "charge.refunded",
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: uniqueId("ch"),
        object: "charge",
        amount: 30_000,
        amount_refunded: options.full === false ? 10_000 : 30_000,
        refunded: options.full !== false,
        payment_intent: o.paymentIntent,
        metadata: options.withMetadata === false ? {} : { order_id: o.orderId },
        refunds: { object: "list", data: [{ id: uniqueId("re"), object: "refund", amount: 30_000 }] },
      },
    },
  };
}

async function expectOneRefund(orderId: string, email: string) {
  const order = (await Order.findById(orderId).lean())!;
  expect(order.status).toBe("refunded");
  expect(order.amount_refunded).toBe(30_000);
  expect(await OrderEvent.countDocuments({ order_id: orderId, kind: "refunded" })).toBe(1);
  expect(await AdminAuditLog.countDocuments({ target_id: orderId, action: "order.refunded" })).toBe(1);
  const mails = await OutboxMessage.find({ to: email, key: `refund:${orderId}` }).lean();
  expect(mails).toHaveLength(1);
  expect(mails[0].subject).toBe(`Your refund for order #${orderId.slice(0, 8)}`);
  expect(mails[0].text).toContain("We've refunded $300.00");
}

describe("the admin's refund (Stripe's Refunds API on stripe-mock)", () => {
  it("shows the confirmation with Refund due and the full amount", async () => {
    const o = await overdueOrder();
    const page = (await get(refund.loader, `/admin/orders/${o.orderId}/refund`, cookie, { orderId: o.orderId }))
      .data as Awaited<ReturnType<typeof refund.loader>>;
    expect(page).toMatchObject({ refundable: true, refundDue: true, amount: "$300.00", offline: false });
    expect(page.clock).toMatch(/^Overdue by 6 h/);
  });

  it("needs a reason, kept on the form", async () => {
    const o = await overdueOrder();
    const r = await refundPost(o.orderId, { intent: "refund", reason: "  " });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.data)).toContain("Give a reason for the refund");
    expect((await Order.findById(o.orderId).lean())!.status).toBe("paid");
  });

  it("twenty racing posts give one refund, one status change, one audit entry and one e-mail", async () => {
    const o = await overdueOrder();
    const answers = await Promise.all(Array.from({ length: 20 }, () => refundPost(o.orderId)));
    expect(answers.every((a) => a.status === 303)).toBe(true);
    const titles = await Promise.all(answers.map(async (a) => (await flashOf(a))?.title));
    expect(titles.filter((t) => t === "Refunded")).toHaveLength(1);
    expect(titles.filter((t) => t !== "Refunded").every((t) => t === "This order was refunded already")).toBe(true);
    await expectOneRefund(o.orderId, o.email);
    expect((await OrderEvent.findById(`refund:${o.orderId}`).lean())!).toMatchObject({
      source: "admin",
      note: "Missed",
    });
  });

  it("closes the order's intake link and revision rounds, and says so to the customer", async () => {
    const o = await paidOrder();
    const intakeCookie = await tokenCookie(o.token);
    await setRevisionEnabled(o.orderId, 1, true);
    const charge = {
      id: uniqueId("ch"),
      metadata: { order_id: o.orderId },
      refunded: true,
      amount_refunded: 30_000,
      refunds: { data: [{ id: uniqueId("re") }] },
    } as unknown as Stripe.Charge;
    expect(await recordStripeRefund(charge)).toBe("processed");
    const token = (await IntakeToken.findById(hashToken(o.token)).lean())!;
    expect(token.used).toBe(true);
    expect(await renewToken(token._id)).toBe(false);
    const page = await intakeEntry({
      request: new Request("http://localhost/intake-form", { headers: { Cookie: intakeCookie } }),
      params: {},
      context: {},
    });
    expect(page).toEqual({ screen: "refunded" });
    const order = (await Order.findById(o.orderId).lean())!;
    expect(revisionRounds(order).map((r) => [r.state, r.note])).toEqual(
      [1, 2, 3].map(() => ["locked", "Your order was refunded in full, so no more rounds will open."]),
    );
    expect(await submitFeedback({ orderId: o.orderId, round: 1, feedback: "Please change the colours." })).toBe(
      "not-open",
    );
    expect(customerDueLine(order, new Date())).toBe("Your order was refunded in full.");
  });

  it("its webhook echo, delivered twice, changes nothing more", async () => {
    const o = await overdueOrder();
    expect((await refundPost(o.orderId)).status).toBe(303);
    const event = chargeRefunded(o);
    for (const r of await Promise.all(
      [webhook, webhook].map((w) => w({ request: webhookRequest(event), params: {}, context: {} })),
    ))
      expect(r.status).toBe(200);
    await expectOneRefund(o.orderId, o.email);
  });

  it("refuses an unpaid order and an unknown one", async () => {
    const unpaid = await Order.create({ email: `u-${randomUUID()}@example.test`, amount_total: 30_000 });
    expect((await refundPost(unpaid._id)).status).toBe(409);
    expect((await Order.findById(unpaid._id).lean())!.status).toBe("pending");
    const missing = randomUUID();
    expect((await get(refund.loader, "/", cookie, { orderId: missing })).status).toBe(404);
    expect((await get(refund.loader, "/", cookie, { orderId: "../x" })).status).toBe(404);
    expect((await refundPost(missing)).status).toBe(409);
  });

  it("a goodwill refund of an order delivered on time is possible, with its reason", async () => {
    const o = await overdueOrder();
    await Order.updateOne({ _id: o.orderId }, { $set: { draft_delivered_at: new Date(Date.now() - 20 * H) } });
    const page = (await get(refund.loader, "/", cookie, { orderId: o.orderId })).data as { refundDue: boolean };
    expect(page.refundDue).toBe(false);
    expect((await refundPost(o.orderId, { intent: "refund", reason: "Goodwill: customer moved away" })).status).toBe(
      303,
    );
    await expectOneRefund(o.orderId, o.email);
  });

  it("refunded revenue leaves the revenue card", async () => {
    const revenue = async () => (await orderFigures()).cards.find((c) => c.label === "Total Revenue")!.value;
    const o = await overdueOrder();
    const before = await revenue();
    await refundPost(o.orderId);
    const after = await revenue();
    const cents = (v: string) => Math.round(Number(v.replace(/[$,]/g, "")) * 100);
    expect(cents(before) - cents(after)).toBe(30_000);
  });
});

describe("charge.refunded: a refund made in Stripe's dashboard", () => {
  it("is recorded once however often and in whatever order its events arrive", async () => {
    const o = await overdueOrder();
    const first = chargeRefunded(o);
    const deliveries = [first, first, chargeRefunded(o), chargeRefunded(o, { withMetadata: false }), first];
    const answers = await Promise.all(
      deliveries.map((e) => webhook({ request: webhookRequest(e), params: {}, context: {} })),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    await expectOneRefund(o.orderId, o.email);
    expect((await OrderEvent.findById(`refund:${o.orderId}`).lean())!.source).toBe("stripe");
    // An admin's Refund afterwards finds it refunded.
    expect(await flashOf(await refundPost(o.orderId))).toMatchObject({ title: "This order was refunded already" });
  });

  it("before the payment's own event (out of order): the late payment does not undo the refund", async () => {
    const email = `ooo-${randomUUID()}@example.test`;
    const order = await Order.create({ email, amount_total: 30_000 });
    const o = { orderId: order._id, paymentIntent: uniqueId("pi") };
    await webhook({ request: webhookRequest(chargeRefunded(o)), params: {}, context: {} });
    const paid = sessionEvent("checkout.session.completed", {
      id: `cs_${order._id}`,
      orderId: order._id,
      amount: 30_000,
    });
    expect((await webhook({ request: webhookRequest(paid), params: {}, context: {} })).status).toBe(200);
    const after = (await Order.findById(order._id).lean())!;
    expect(after.status).toBe("refunded");
    expect(await OrderEvent.countDocuments({ order_id: order._id, kind: "refunded" })).toBe(1);
  });

  it("a partial refund is logged, the order left as it is", async () => {
    const o = await overdueOrder();
    await webhook({ request: webhookRequest(chargeRefunded(o, { full: false })), params: {}, context: {} });
    expect((await Order.findById(o.orderId).lean())!.status).toBe("paid");
  });
});

describe("authorization matrix", () => {
  it("only an admin reaches the refund and restart pages or posts to them", async () => {
    const who = await people();
    const o = await overdueOrder();
    const routes: { mod: typeof refund | typeof restart; body: Record<string, string> }[] = [
      { mod: refund, body: { intent: "refund", reason: "x" } },
      { mod: restart, body: { intent: "restart", missing: "x", restarts: "0" } },
    ];
    for (const { mod, body } of routes) {
      for (const [name, person] of Object.entries(who)) {
        const before = (await Order.findById(o.orderId).lean())!;
        const page = await get(mod.loader, "/", person.cookie, { orderId: o.orderId });
        const sent = await post(mod.action, "/", person.cookie, body, { orderId: o.orderId });
        if (name === "admin") {
          expect(page.status, name).toBe(200);
        } else {
          const expected = name === "customer" ? "/dashboard" : "/auth";
          expect([302, 303], name).toContain(page.status);
          expect(page.location, name).toMatch(new RegExp(`^${expected}`));
          expect([302, 303], name).toContain(sent.status);
          expect(sent.location, name).toMatch(new RegExp(`^${expected}`));
          const order = (await Order.findById(o.orderId).lean())!;
          expect(order.status, name).toBe(before.status);
          expect(order.clock_restarts, name).toBe(before.clock_restarts);
        }
      }
    }
  });
});
