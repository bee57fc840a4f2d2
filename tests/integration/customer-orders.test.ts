import { describe, expect, it } from "vitest";
import { action as checkoutAction, loader as checkoutLoader } from "~/routes/checkout";
import { action as dashboardAction, loader as dashboardLoader } from "~/routes/dashboard";
import { action as maintenanceAction, loader as maintenanceLoader } from "~/routes/maintenance";
import { action as statusAction, loader as statusLoader } from "~/routes/order-status";
import { action as webhook } from "~/routes/webhooks.stripe";
import { startCheckout } from "~/server/checkout.server";
import { getEnv } from "~/server/env.server";
import { fulfilOrder, statusTokenFor } from "~/server/fulfilment.server";
import {
  IntakeSubmission,
  IntakeToken,
  Order,
  OutboxMessage,
  PlanCheckout,
  RevisionFeedback,
  Subscription,
  User,
} from "~/server/models/index.server";
import { setRevisionEnabled } from "~/server/revisions.server";
import { SUBSCRIPTION_MESSAGES } from "~/domain/subscriptions";
import { currentSubscription, PLAN_CHECKOUT_HOLD_MS } from "~/server/subscriptions.server";
import { flashOf } from "../support/admin";
import { signedInUser } from "../support/auth";
import { useTestDatabase } from "../support/db";
import { webhookDelivery } from "../support/stripe";

process.env.STRIPE_PRICE_ESSENTIALS ??= "price_essentials_test";
process.env.STRIPE_PRICE_PROFESSIONAL ??= "price_professional_test";
process.env.STRIPE_PRICE_ENTERPRISE ??= "price_enterprise_test";

useTestDatabase();

type Reply = Response & { init?: { status?: number }; data?: Record<string, unknown> };
type Handler = (args: {
  request: Request;
  params: Record<string, string>;
  context: Record<string, unknown>;
}) => Promise<unknown> | unknown;
async function call(
  handler: Handler,
  url: string,
  init: { cookie?: string; body?: Record<string, string> } = {},
): Promise<Reply> {
  const request = new Request(url, {
    method: init.body ? "POST" : "GET",
    body: init.body ? new URLSearchParams(init.body) : undefined,
    headers: { Cookie: init.cookie ?? "", "x-client-address": "10.9.9.9" },
  });
  try {
    return (await handler({ request, params: {}, context: {} })) as Reply;
  } catch (thrown) {
    return thrown as Reply;
  }
}
const status = (r: Reply) => r.init?.status ?? r.status;
const cookieOf = (r: Reply, name: string) =>
  (r.headers.get("Set-Cookie") ?? "")
    .split(/,(?=\s*__)/)
    .map((c) => c.trim().split(";")[0])
    .find((c) => c.startsWith(`${name}=`))!;

let n = 0;
/** A paid order (as the webhook fulfils it), owned by `userId` or a guest's, and its e-mailed tokens. */
async function paidOrder(userId: string | null, fields: Record<string, unknown> = {}) {
  const order = await Order.create({
    email: `o${Date.now()}-${++n}@example.test`,
    amount_total: 30_000,
    user_id: userId,
    ...fields,
  });
  const { token } = await fulfilOrder({ orderId: order._id, sessionId: `cs_test_${order._id}`, amountPaid: 30_000 });
  return { orderId: order._id, intakeToken: token, token: await statusTokenFor(order._id), email: order.email };
}
const feedback = (orderId: string, round = "1", text = "Please make the logo bigger and the header green.") => ({
  intent: "feedback",
  formId: `f-${orderId}`,
  orderId,
  round,
  feedback: text,
});

describe("the dashboard", () => {
  it("lists only the customer's own orders, newest first", async () => {
    const me = await signedInUser();
    const other = await signedInUser();
    const first = await paidOrder(me.user.id);
    const second = await paidOrder(me.user.id);
    await paidOrder(other.user.id);
    const view = (await call(dashboardLoader as Handler, "http://localhost/dashboard", {
      cookie: me.cookie,
    })) as unknown as { orders: { id: string; shortId: string }[] };
    expect(view.orders.map((o) => o.id)).toEqual([second.orderId, first.orderId]);
    expect(view.orders[0].shortId).toBe(second.orderId.slice(0, 8));
  });

  it("takes feedback only for an enabled round of the customer's own order", async () => {
    const me = await signedInUser();
    const other = await signedInUser();
    const mine = await paidOrder(me.user.id);
    const theirs = await paidOrder(other.user.id);
    await setRevisionEnabled(theirs.orderId, 1, true);

    // Another customer's order: not found, nothing stored.
    expect(
      status(
        await call(dashboardAction as Handler, "http://localhost/dashboard", {
          cookie: me.cookie,
          body: feedback(theirs.orderId),
        }),
      ),
    ).toBe(404);
    expect(await RevisionFeedback.exists({ order_id: theirs.orderId })).toBeNull();
    // Without a session: to sign in.
    const anon = await call(dashboardAction as Handler, "http://localhost/dashboard", { body: feedback(mine.orderId) });
    expect(anon.headers.get("Location")).toMatch(/^\/auth\?redirectTo=/);
    // A locked round.
    expect(
      status(
        await call(dashboardAction as Handler, "http://localhost/dashboard", {
          cookie: me.cookie,
          body: feedback(mine.orderId),
        }),
      ),
    ).toBe(409);
    // Too short: the spec's message, nothing stored.
    const short = await call(dashboardAction as Handler, "http://localhost/dashboard", {
      cookie: me.cookie,
      body: feedback(mine.orderId, "1", "tiny"),
    });
    expect(status(short)).toBe(400);
    expect((short.data as { result: { error: Record<string, string[]> } }).result.error.feedback).toEqual([
      "Feedback must be at least 10 characters",
    ]);
    // A round the product doesn't include cannot be enabled.
    const starter = await paidOrder(me.user.id, { product_id: "starter" });
    expect(await setRevisionEnabled(starter.orderId, 2, true)).toBe(false);
    // An unknown intent.
    expect(
      status(
        await call(dashboardAction as Handler, "http://localhost/dashboard", {
          cookie: me.cookie,
          body: { intent: "wipe" },
        }),
      ),
    ).toBe(400);
  });

  it("records each round's feedback once when it is posted 20 times at once, and tells the business once", async () => {
    const me = await signedInUser();
    const mine = await paidOrder(me.user.id);
    await setRevisionEnabled(mine.orderId, 2, true);
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(dashboardAction as Handler, "http://localhost/dashboard", {
          cookie: me.cookie,
          body: feedback(mine.orderId, "2", `Change number ${i}: swap the photos around.`),
        }),
      ),
    );
    expect(replies.every((r) => r.status === 303)).toBe(true);
    const records = await RevisionFeedback.find({ order_id: mine.orderId }).lean();
    expect(records).toHaveLength(1);
    const order = await Order.findById(mine.orderId).lean();
    expect(order?.revision_2_feedback).toBe(records[0].feedback);
    expect(order?.revision_2_submitted_at).toBeInstanceOf(Date);
    expect(
      await OutboxMessage.countDocuments({
        key: `notify-admin-revision:${mine.orderId}:2`,
        to: getEnv().BUSINESS_EMAIL,
      }),
    ).toBe(1);
  });
});

describe("the order status page", () => {
  it("needs the e-mailed token, exchanges it for a cookie and takes it out of the address bar", async () => {
    const none = (await call(statusLoader as Handler, "http://localhost/order-status")) as unknown as {
      screen: string;
    };
    expect(none.screen).toBe("token-required");
    const wrong = await call(
      statusLoader as Handler,
      "http://localhost/order-status?access_token=not-a-real-token-at-all-xx",
    );
    // A link that matches no order: the 'Order Not Found' card, no cookie and no flash.
    expect(wrong.headers.get("Location")).toBe("/order-status?link=unknown");
    expect(wrong.headers.get("Set-Cookie")).toBeNull();
    const notFound = await call(statusLoader as Handler, "http://localhost/order-status?link=unknown");
    expect(notFound).toMatchObject({ data: { screen: "not-found" }, init: { status: 404 } });

    const order = await paidOrder(null);
    // The intake link's token is not the status link's.
    const intake = await call(
      statusLoader as Handler,
      `http://localhost/order-status?access_token=${order.intakeToken}`,
    );
    expect(intake.headers.get("Set-Cookie")).toBeNull();

    const r = await call(statusLoader as Handler, `http://localhost/order-status?access_token=${order.token}`);
    expect(r.status).toBe(302);
    expect(r.headers.get("Location")).toBe("/order-status");
    const cookie = cookieOf(r, "__status");
    expect(cookie).not.toContain(order.token);
    const view = (await call(statusLoader as Handler, "http://localhost/order-status", { cookie })) as unknown as {
      screen: string;
      order: { id: string; email: string };
    };
    expect(view.screen).toBe("order");
    expect(view.order.id).toBe(order.orderId);
  });

  it("acts only on the order its cookie names, whatever order id is posted", async () => {
    const mine = await paidOrder(null);
    const theirs = await paidOrder(null);
    await setRevisionEnabled(mine.orderId, 1, true);
    await setRevisionEnabled(theirs.orderId, 1, true);
    const cookie = cookieOf(
      await call(statusLoader as Handler, `http://localhost/order-status?access_token=${mine.token}`),
      "__status",
    );

    const r = await call(statusAction as Handler, "http://localhost/order-status", {
      cookie,
      body: feedback(theirs.orderId),
    });
    expect(r.status).toBe(303);
    expect(await RevisionFeedback.exists({ order_id: theirs.orderId })).toBeNull();
    expect(await RevisionFeedback.exists({ order_id: mine.orderId })).toBeTruthy();
    // Without the cookie nothing is done.
    const anon = await call(statusAction as Handler, "http://localhost/order-status", {
      body: { intent: "request-deletion" },
    });
    expect(anon.headers.get("Location")).toBe("/order-status");
    expect(await IntakeSubmission.exists({ data_deletion_requested: true })).toBeNull();
  });

  it("renews an expired link by 30 days and records a deletion request", async () => {
    const order = await paidOrder(null);
    const cookie = cookieOf(
      await call(statusLoader as Handler, `http://localhost/order-status?access_token=${order.token}`),
      "__status",
    );
    await IntakeToken.updateOne(
      { order_id: order.orderId, purpose: "intake" },
      { $set: { expires_at: new Date(Date.now() - 1000) } },
    );
    const expired = (await call(statusLoader as Handler, "http://localhost/order-status", { cookie })) as unknown as {
      access: { state: string };
    };
    expect(expired.access.state).toBe("expired");

    const r = await call(statusAction as Handler, "http://localhost/order-status", {
      cookie,
      body: { intent: "renew-access" },
    });
    expect(r.status).toBe(303);
    const token = await IntakeToken.findOne({ order_id: order.orderId, purpose: "intake" }).lean();
    expect(token!.expires_at.getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);

    await call(statusAction as Handler, "http://localhost/order-status", {
      cookie,
      body: { intent: "request-deletion" },
    });
    const submission = await IntakeSubmission.findOne({ order_id: order.orderId }).lean();
    expect(submission?.data_deletion_requested).toBe(true);
    expect(submission?.data_deletion_date).toBeInstanceOf(Date);
    expect(
      status(
        await call(statusAction as Handler, "http://localhost/order-status", { cookie, body: { intent: "nope" } }),
      ),
    ).toBe(400);

    // An expired status link shows only its own renewal, and nothing else can be done with it.
    await IntakeToken.updateOne(
      { order_id: order.orderId, purpose: "status" },
      { $set: { expires_at: new Date(Date.now() - 1000) } },
    );
    const stale = (await call(statusLoader as Handler, "http://localhost/order-status", { cookie })) as unknown as {
      screen: string;
    };
    expect(stale.screen).toBe("link-expired");
    await setRevisionEnabled(order.orderId, 1, true);
    await call(statusAction as Handler, "http://localhost/order-status", { cookie, body: feedback(order.orderId) });
    expect(await RevisionFeedback.exists({ order_id: order.orderId })).toBeNull();
    expect(
      (await call(statusAction as Handler, "http://localhost/order-status", { cookie, body: { intent: "renew-link" } }))
        .status,
    ).toBe(303);
    const renewed = (await call(statusLoader as Handler, "http://localhost/order-status", { cookie })) as unknown as {
      screen: string;
    };
    expect(renewed.screen).toBe("order");
  });
});

describe("maintenance subscriptions", () => {
  const event = (id: string, type: string, created: number, object: Record<string, unknown>) => ({
    id,
    object: "event",
    type,
    created,
    data: { object },
  });
  const subscription = (userId: string, status: string, periodEnd: number) => ({
    id: `sub_${userId}`,
    object: "subscription",
    customer: `cus_${userId}`,
    status,
    cancel_at_period_end: false,
    metadata: { user_id: userId, plan_id: "professional" },
    items: { data: [{ current_period_end: periodEnd, price: { id: "price_professional_test", product: "prod_x" } }] },
  });
  const deliver = async (e: object) =>
    (await webhook({ request: webhookDelivery(e), params: {}, context: {} })) as Response;

  it("keeps the newest state whatever order the webhooks arrive in, replays change nothing, and cancelled is final", async () => {
    const me = await signedInUser();
    const id = me.user.id;
    const t = Math.floor(Date.now() / 1000);
    const created = event(
      `evt_c_${id}`,
      "customer.subscription.created",
      t,
      subscription(id, "active", t + 30 * 86400),
    );
    const failed = event(`evt_f_${id}`, "invoice.payment_failed", t + 10, {
      id: "in_1",
      object: "invoice",
      customer: `cus_${id}`,
      parent: {
        subscription_details: { subscription: `sub_${id}`, metadata: { user_id: id, plan_id: "professional" } },
      },
      lines: { data: [{ period: { end: t + 30 * 86400 } }] },
    });
    const paid = event(`evt_p_${id}`, "invoice.paid", t + 20, { ...failed.data.object, id: "in_2" });
    // Out of order: the newest (paid) first, the older failure last; last-write-wins would say past_due.
    for (const e of [paid, created, failed]) expect((await deliver(e)).status).toBe(200);
    expect((await currentSubscription(id))?.status).toBe("active");
    expect((await currentSubscription(id))?.planId).toBe("professional");
    // Replays: nothing new is stored.
    const before = await Subscription.countDocuments({ user_id: id });
    for (const e of [paid, failed, created, paid]) await deliver(e);
    expect(await Subscription.countDocuments({ user_id: id })).toBe(before);

    const deleted = event(
      `evt_d_${id}`,
      "customer.subscription.deleted",
      t + 30,
      subscription(id, "canceled", t + 30 * 86400),
    );
    const lateUpdate = event(
      `evt_u_${id}`,
      "customer.subscription.updated",
      t + 40,
      subscription(id, "active", t + 60 * 86400),
    );
    await Promise.all([deliver(lateUpdate), deliver(deleted), deliver(deleted)]);
    expect(await currentSubscription(id)).toBeNull();

    // Another customer sees none of it.
    const other = await signedInUser();
    const view = (await call(maintenanceLoader as Handler, "http://localhost/maintenance", {
      cookie: other.cookie,
    })) as unknown as { current: unknown };
    expect(view.current).toBeNull();
  });

  it("starts Stripe Checkout in subscription mode and opens the Customer Portal, for a signed-in customer only", async () => {
    const anon = await call(maintenanceAction as Handler, "http://localhost/maintenance", {
      body: { intent: "subscribe", plan: "essentials" },
    });
    expect(anon.headers.get("Location")).toBe("/auth?redirectTo=%2Fmaintenance");

    const me = await signedInUser();
    const r = await call(maintenanceAction as Handler, "http://localhost/maintenance", {
      cookie: me.cookie,
      body: { intent: "subscribe", plan: "essentials" },
    });
    expect(r.status).toBe(303);
    expect(r.headers.get("Location")).toMatch(/^https:\/\/checkout\.stripe\.com\//);

    // No plan yet: nothing to manage.
    expect(
      status(
        await call(maintenanceAction as Handler, "http://localhost/maintenance", {
          cookie: me.cookie,
          body: { intent: "manage" },
        }),
      ),
    ).toBe(409);
    const t = Math.floor(Date.now() / 1000);
    await deliver(
      event(
        `evt_portal_${me.user.id}`,
        "customer.subscription.created",
        t,
        subscription(me.user.id, "active", t + 86400),
      ),
    );
    const portal = await call(maintenanceAction as Handler, "http://localhost/maintenance", {
      cookie: me.cookie,
      body: { intent: "manage" },
    });
    expect(portal.status).toBe(303);
    expect(portal.headers.get("Location")).toMatch(/^https:\/\//);
    // Subscribed already: no second plan.
    expect(
      status(
        await call(maintenanceAction as Handler, "http://localhost/maintenance", {
          cookie: me.cookie,
          body: { intent: "subscribe", plan: "enterprise" },
        }),
      ),
    ).toBe(409);
    expect(
      status(
        await call(maintenanceAction as Handler, "http://localhost/maintenance", {
          cookie: me.cookie,
          body: { intent: "other" },
        }),
      ),
    ).toBe(400);
  });

  it("sends a signed-out buyer of a package with maintenance to sign in, with the spec's message, and back", async () => {
    const r = await call(checkoutAction as Handler, "http://localhost/checkout", {
      body: {
        intent: "pay",
        email: "signed-out@example.test",
        terms: "on",
        package: "starter",
        maintenance: "1",
      },
    });
    expect(status(r)).toBe(303);
    expect(r.headers.get("Location")).toBe(
      `/auth?redirectTo=${encodeURIComponent("/checkout?package=starter&maintenance=1")}`,
    );
    expect((await flashOf({ status: 303, location: null, headers: r.headers, data: null }))?.title).toBe(
      "Please sign in to subscribe",
    );
    expect(await Order.countDocuments({ email: "signed-out@example.test" })).toBe(0);
  });

  it("sells a package with maintenance in one subscription-mode Checkout, to a signed-in buyer only", async () => {
    const guest = await startCheckout({
      email: "guest-maint@example.test",
      addOnIds: [],
      packageId: "starter",
      withMaintenance: true,
    });
    expect(guest).toEqual({ kind: "refused", message: "Please sign in to subscribe" });
    const me = await signedInUser();
    const result = await startCheckout({
      email: me.email,
      addOnIds: [],
      packageId: "starter",
      withMaintenance: true,
      user: me.user,
    });
    expect(result.kind === "started" && result.redirectTo).toMatch(/^https:\/\/checkout\.stripe\.com\//);
    const order = await Order.findOne({ email: me.email }).lean();
    expect(order).toMatchObject({
      product_id: "starter",
      maintenance_plan: "essentials",
      amount_total: 84_700 + 4_900,
      user_id: me.user.id,
    });
  });
});

describe("accounts whose address is not confirmed yet, and one plan per account", () => {
  const pay = (pkg: string, email: string) => ({
    intent: "pay",
    email,
    terms: "on",
    package: pkg,
    maintenance: "1",
  });

  it("may buy a website like a guest, but not start or manage a plan, nor buy a package with maintenance; the pages say how to confirm", async () => {
    const me = await signedInUser({ confirmed: false });
    // A website without a plan: bought as a guest would, and the order is the account's.
    const plain = await call(checkoutAction as Handler, "http://localhost/checkout", {
      cookie: me.cookie,
      body: { intent: "pay", email: me.email, terms: "on" },
    });
    expect(status(plain)).toBe(303);
    expect(await Order.countDocuments({ email: me.email, user_id: me.user.id })).toBe(1);

    // A package with maintenance: refused on the form with the reason, no order made.
    const withPlan = await call(checkoutAction as Handler, "http://localhost/checkout", {
      cookie: me.cookie,
      body: pay("starter", me.email),
    });
    expect(status(withPlan)).toBe(409);
    expect(JSON.stringify(withPlan.data)).toContain(SUBSCRIPTION_MESSAGES.confirmFirst);
    expect(await Order.countDocuments({ email: me.email })).toBe(1);
    const page = (await call(checkoutLoader as Handler, "http://localhost/checkout?package=starter&maintenance=1", {
      cookie: me.cookie,
    })) as unknown as { planNotice: { reason: string; unconfirmed: boolean } };
    expect(page.planNotice).toEqual({ reason: SUBSCRIPTION_MESSAGES.confirmFirst, unconfirmed: true });

    // A plan on its own, and Manage Subscription: refused with the reason.
    for (const body of [{ intent: "subscribe", plan: "essentials" }, { intent: "manage" }] as Record<
      string,
      string
    >[]) {
      const r = await call(maintenanceAction as Handler, "http://localhost/maintenance", { cookie: me.cookie, body });
      expect(status(r)).toBe(409);
      expect(r.data).toEqual({ error: SUBSCRIPTION_MESSAGES.confirmFirst });
    }
    const view = (await call(maintenanceLoader as Handler, "http://localhost/maintenance", {
      cookie: me.cookie,
    })) as unknown as { unconfirmedEmail: string | null };
    expect(view.unconfirmedEmail).toBe(me.email);
    expect(await Subscription.countDocuments({ user_id: me.user.id })).toBe(0);

    // Confirmed, the same account may start a plan.
    await User.updateOne({ _id: me.user.id }, { $set: { email_verified_at: new Date() } });
    const ok = await call(maintenanceAction as Handler, "http://localhost/maintenance", {
      cookie: me.cookie,
      body: { intent: "subscribe", plan: "essentials" },
    });
    expect(ok.status).toBe(303);
    expect(
      (
        (await call(maintenanceLoader as Handler, "http://localhost/maintenance", {
          cookie: me.cookie,
        })) as unknown as {
          unconfirmedEmail: string | null;
        }
      ).unconfirmedEmail,
    ).toBeNull();
  });

  it("refuses a second plan while one is live, on its own or with a package, with a message", async () => {
    const me = await signedInUser();
    const t = Math.floor(Date.now() / 1000);
    await Subscription.create({
      _id: `evt_live_${me.user.id}`,
      stripe_subscription_id: `sub_live_${me.user.id}`,
      user_id: me.user.id,
      stripe_customer_id: `cus_${me.user.id}`,
      plan_id: "professional",
      status: "active",
      current_period_end: new Date((t + 86400) * 1000),
      observed_at: new Date(),
    });
    const second = await call(maintenanceAction as Handler, "http://localhost/maintenance", {
      cookie: me.cookie,
      body: { intent: "subscribe", plan: "enterprise" },
    });
    expect(status(second)).toBe(409);
    expect(second.data).toEqual({ error: SUBSCRIPTION_MESSAGES.already });
    const withPackage = await call(checkoutAction as Handler, "http://localhost/checkout", {
      cookie: me.cookie,
      body: pay("professional", me.email),
    });
    expect(status(withPackage)).toBe(409);
    expect(JSON.stringify(withPackage.data)).toContain(SUBSCRIPTION_MESSAGES.alreadyWithPackage);
    expect(await Order.countDocuments({ email: me.email })).toBe(0);
    // Switching goes through the portal.
    const manage = await call(maintenanceAction as Handler, "http://localhost/maintenance", {
      cookie: me.cookie,
      body: { intent: "manage" },
    });
    expect(manage.status).toBe(303);
  });
});

describe("plan checkouts started at once for different plans (stripe-mock)", () => {
  const subscribe = (cookie: string, plan: string) =>
    call(maintenanceAction as Handler, "http://localhost/maintenance", {
      cookie,
      body: { intent: "subscribe", plan },
    });
  const toStripe = (r: Reply) =>
    r.status === 303 && /^https:\/\/checkout\.stripe\.com\//.test(r.headers.get("Location") ?? "");

  it("open one Stripe session for one plan and refuse every other plan with a message", async () => {
    const me = await signedInUser();
    const plans = ["essentials", "professional", "enterprise", "professional", "essentials", "enterprise"];
    const answers = await Promise.all(plans.map((plan) => subscribe(me.cookie, plan)));
    const held = await PlanCheckout.findById(me.user.id).lean();
    const winner = held!.purpose.replace("subscribe:", "");
    // Every checkout that reached Stripe is for the one plan that holds the account (a double click on it shares
    // the hold, and Stripe's idempotency key gives it the same session); every other plan was told why.
    plans.forEach((plan, i) => {
      if (plan === winner) expect(toStripe(answers[i]), plan).toBe(true);
      else {
        expect(status(answers[i]), plan).toBe(409);
        expect(answers[i].data).toEqual({ error: SUBSCRIPTION_MESSAGES.checkoutOpen });
      }
    });
    expect(held!.session_id).toMatch(/^cs_/);
  });

  it("refuse a package with maintenance started at the same moment as a plan on its own, either way round", async () => {
    const me = await signedInUser();
    const [plan, pkg] = await Promise.all([
      subscribe(me.cookie, "professional"),
      startCheckout({
        email: me.email,
        addOnIds: [],
        packageId: "starter",
        withMaintenance: true,
        user: me.user,
      }),
    ]);
    const outcomes = [toStripe(plan), pkg.kind === "started"];
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    if (pkg.kind === "started") expect(plan.data).toEqual({ error: SUBSCRIPTION_MESSAGES.checkoutOpen });
    else expect(pkg).toEqual({ kind: "refused", message: SUBSCRIPTION_MESSAGES.checkoutOpen });
  });

  it(`let another plan be chosen ${PLAN_CHECKOUT_HOLD_MS / 1000} s later, closing the first session at Stripe first`, async () => {
    const me = await signedInUser();
    expect(toStripe(await subscribe(me.cookie, "essentials"))).toBe(true);
    const first = await PlanCheckout.findById(me.user.id).lean();
    expect(status(await subscribe(me.cookie, "enterprise"))).toBe(409);
    // Half a minute on (the hold's start moved back rather than waiting), the customer changed their mind.
    await PlanCheckout.collection.updateOne(
      { _id: me.user.id as never },
      { $set: { created_at: new Date(Date.now() - PLAN_CHECKOUT_HOLD_MS - 1_000) } },
    );
    expect(toStripe(await subscribe(me.cookie, "enterprise"))).toBe(true);
    const now = await PlanCheckout.findById(me.user.id).lean();
    expect(now).toMatchObject({ purpose: "subscribe:enterprise" });
    expect(now!.token).not.toBe(first!.token);
    expect(now!.session_id).toMatch(/^cs_/);
  });
});
