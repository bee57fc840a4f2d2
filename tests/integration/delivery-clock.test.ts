import { randomUUID } from "node:crypto";
import mongoose from "mongoose";
import { beforeAll, describe, expect, it } from "vitest";
import { alertKey, CLOCK_MESSAGES } from "~/domain/delivery-clock";
import { compareByDeadline } from "~/domain/admin/order-filters";
import { parseCursor, type PageCursor } from "~/domain/paging";
import * as detail from "~/routes/admin.orders.$orderId";
import * as restart from "~/routes/admin.orders.$orderId_.restart-clock";
import { listOrders } from "~/server/admin/orders.server";
import { runCron } from "~/server/cron.server";
import { recordDelivery, sendClockAlerts, startClock } from "~/server/delivery-clock.server";
import { getEnv } from "~/server/env.server";
import { submitIntake } from "~/server/intake/draft.server";
import { AdminAuditLog, IntakeSubmission, Order, OrderEvent, OutboxMessage } from "~/server/models/index.server";
import { flashOf, get, paidOrderWithSession, post } from "../support/admin";
import { signedInUser } from "../support/auth";
import { useTestDatabase } from "../support/db";

useTestDatabase();

const H = 3_600_000;
let cookie: string;
beforeAll(async () => {
  cookie = (await signedInUser({ admin: true })).cookie;
});

const mailKeys = (prefix: string) => OutboxMessage.find({ key: mongoose.trusted({ $regex: `^${prefix}` }) }).lean();

/** A paid order with its intake ready to submit. */
async function ordered(fields: Record<string, unknown> = {}) {
  const c = await paidOrderWithSession(`clock-${randomUUID()}@example.test`, fields);
  await IntakeSubmission.create({ order_id: c.orderId, business_name: "Acme Plumbing", furthest_step: 14 });
  return c;
}

describe("the clock starts at the intake's first submission", () => {
  it("stores start and deadline once; a later update of the form does not move them", async () => {
    const c = await ordered();
    const before = Date.now();
    await Promise.all(Array.from({ length: 5 }, () => submitIntake({ orderId: c.orderId, tokenId: c.tokenId })));
    const order = (await Order.findById(c.orderId).lean())!;
    expect(order.clock_started_at!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(order.clock_deadline!.getTime() - order.clock_started_at!.getTime()).toBe(24 * H);
    expect(order.clock_window_hours).toBe(24);
    expect(await OrderEvent.countDocuments({ order_id: c.orderId, kind: "started" })).toBe(1);

    // A later submission (the customer updates the form) leaves the clock where it was.
    await new Promise((r) => setTimeout(r, 20));
    await IntakeSubmission.updateOne({ _id: c.orderId }, { $set: { submitted_at: new Date() } });
    await submitIntake({ orderId: c.orderId, tokenId: c.tokenId });
    const later = (await Order.findById(c.orderId).lean())!;
    expect(later.clock_deadline).toEqual(order.clock_deadline);
  });

  it("takes its window from what was bought", async () => {
    const cases = [
      [{}, 24],
      [{ add_ons: [{ id: "priority-12hr", name: "Priority 12-Hour Delivery", price: 20_000 }] }, 12],
      [{ product_id: "starter" }, 48],
      [{ product_id: "enterprise" }, 12],
    ] as const;
    for (const [fields, hours] of cases) {
      const c = await ordered(fields);
      const deadline = await startClock(c.orderId, new Date("2025-11-24T04:00:00Z"));
      expect(deadline!.getTime() - Date.parse("2025-11-24T04:00:00Z")).toBe(hours * H);
    }
  });

  it("tells the business the deadline when the intake comes in, and once when the order was paid", async () => {
    const c = await ordered();
    await submitIntake({ orderId: c.orderId, tokenId: c.tokenId });
    const notice = await OutboxMessage.findOne({ key: `intake-notice:${c.tokenId}:0` }).lean();
    expect(notice!.to).toBe(getEnv().BUSINESS_EMAIL);
    expect(notice!.text).toMatch(/The first draft is due by \w{3} \d{1,2} \w+, \d{1,2}:\d{2} [ap]m \(Sydney time\)/);
    expect(notice!.text).toContain(`/admin/orders/${c.orderId}`);
    const paid = await OutboxMessage.find({ key: `order-paid-notice:${c.orderId}` }).lean();
    expect(paid).toHaveLength(1);
    expect(paid[0].to).toBe(getEnv().BUSINESS_EMAIL);
    expect(paid[0].subject).toBe(`New order #${c.orderId.slice(0, 8)}: 24-Hour Website, $300.00`);
    expect(paid[0].text).toContain(`/admin/orders/${c.orderId}`);
  });
});

describe("delivery", () => {
  it("the first draft URL saved while the clock runs delivers once: one time, one e-mail", async () => {
    const c = await ordered();
    const started = new Date(Date.now() - 19 * H);
    await startClock(c.orderId, started);
    const saves = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        post(
          detail.action,
          `/admin/orders/${c.orderId}`,
          cookie,
          {
            intent: "save-draft-url",
            draftUrl: `https://drafts.example/acme-${i}`,
          },
          { orderId: c.orderId },
        ),
      ),
    );
    expect(saves.every((s) => s.status === 303)).toBe(true);
    const order = (await Order.findById(c.orderId).lean())!;
    expect(order.delivery_hours).toBeCloseTo(19, 0);
    expect(await OrderEvent.countDocuments({ order_id: c.orderId, kind: "delivered" })).toBe(1);
    const mails = await mailKeys(`clock:${c.orderId}:delivered`);
    expect(mails).toHaveLength(1);
    expect(mails[0].to).toBe(order.email);
    expect(mails[0].text).toMatch(/View your draft: https:\/\/drafts\.example\/acme-\d/);

    await post(
      detail.action,
      `/admin/orders/${c.orderId}`,
      cookie,
      { intent: "save-draft-url", draftUrl: "https://v2.example" },
      { orderId: c.orderId },
    );
    const again = (await Order.findById(c.orderId).lean())!;
    expect(again.draft_url).toBe("https://v2.example");
    expect(again.draft_delivered_at).toEqual(order.draft_delivered_at);
    expect(await mailKeys(`clock:${c.orderId}:delivered`)).toHaveLength(1);
  });

  it("a draft URL saved before the clock runs is not a delivery", async () => {
    const c = await ordered();
    expect(await recordDelivery({ orderId: c.orderId, draftUrl: "https://early.example" })).toBe(false);
    expect((await Order.findById(c.orderId).lean())!.draft_delivered_at).toBeNull();
  });
});

describe("alerts", () => {
  it("warns the business once at a quarter left and once when overdue, however many cron runs race", async () => {
    const c = await ordered();
    const start = new Date("2025-11-24T04:00:00Z");
    await startClock(c.orderId, start);
    const deadline = new Date(start.getTime() + 24 * H);
    const runAt = (h: number) => new Date(start.getTime() + h * H);

    await Promise.all([sendClockAlerts(runAt(10)), sendClockAlerts(runAt(10))]);
    expect(await OrderEvent.countDocuments({ order_id: c.orderId, kind: "alert" })).toBe(0);

    const [a, b] = await Promise.all([runCron(runAt(19)), runCron(runAt(19))]);
    expect(a.ok && b.ok).toBe(true);
    await Promise.all([sendClockAlerts(runAt(20)), sendClockAlerts(runAt(21))]);
    expect(await OutboxMessage.countDocuments({ key: alertKey(c.orderId, "quarter-left", deadline) })).toBe(1);

    await Promise.all([sendClockAlerts(runAt(25)), sendClockAlerts(runAt(25)), sendClockAlerts(runAt(30))]);
    const overdue = await OutboxMessage.find({ key: alertKey(c.orderId, "overdue", deadline) }).lean();
    expect(overdue).toHaveLength(1);
    expect(overdue[0].to).toBe(getEnv().BUSINESS_EMAIL);
    expect(overdue[0].subject).toBe(
      `Overdue: order #${c.orderId.slice(0, 8)}'s first draft was due Tue 25 Nov, 3:00 pm`,
    );
    expect(await OrderEvent.countDocuments({ order_id: c.orderId, kind: "alert" })).toBe(2);
  });

  it("sends nothing for a delivered order", async () => {
    const c = await ordered();
    await startClock(c.orderId, new Date(Date.now() - 30 * H));
    await recordDelivery({ orderId: c.orderId, draftUrl: "https://late.example" });
    await sendClockAlerts(new Date());
    expect(await OrderEvent.countDocuments({ order_id: c.orderId, kind: "alert" })).toBe(0);
  });
});

describe("restarting the clock", () => {
  /** The restart page's post: what is missing, and the restarts the page was rendered with. */
  const restartPost = (orderId: string, missing: string, restarts: number) =>
    post(restart.action, "/", cookie, { intent: "restart", missing, restarts: String(restarts) }, { orderId });

  it("a new deadline, the customer told what is missing, audited, once per page however often the press is resent", async () => {
    const c = await ordered();
    await startClock(c.orderId, new Date(Date.now() - 20 * H));
    const page = (await get(restart.loader, `/admin/orders/${c.orderId}/restart-clock`, cookie, { orderId: c.orderId }))
      .data as Awaited<ReturnType<typeof restart.loader>>;
    expect(page).toMatchObject({ runs: true, restarts: 0, windowHours: 24 });

    const blank = await restartPost(c.orderId, " ", 0);
    expect(blank.status).toBe(400);

    const posts = await Promise.all(Array.from({ length: 5 }, () => restartPost(c.orderId, "Your logo file", 0)));
    // The same press sent five times (answers lost on the way): each is answered as the first, one restart made.
    expect(posts.map((p) => p.status)).toEqual([303, 303, 303, 303, 303]);
    for (const p of posts) expect(await flashOf(p)).toMatchObject({ title: "Clock restarted" });
    const order = (await Order.findById(c.orderId).lean())!;
    expect(order.clock_restarts).toBe(1);
    expect(Math.abs(order.clock_deadline!.getTime() - (Date.now() + 24 * H))).toBeLessThan(60_000);
    expect(await AdminAuditLog.countDocuments({ target_id: c.orderId, action: "clock.restarted" })).toBe(1);
    const mail = await mailKeys(`clock:${c.orderId}:restart:1`);
    expect(mail).toHaveLength(1);
    expect(mail[0].text).toContain("Your logo file");
    expect(mail[0].text).toMatch(/Your first draft is now due by/);

    // Other words from the same old page are not that press: the clock was restarted meanwhile.
    const other = await restartPost(c.orderId, "Your photos", 0);
    expect(other.status).toBe(409);
    expect((other.data as { error: Record<string, string[]> }).error[""]).toEqual([CLOCK_MESSAGES.restartRaced]);
    expect((await Order.findById(c.orderId).lean())!.clock_restarts).toBe(1);

    // A second restart from the newer page is a second restart.
    const second = await restartPost(c.orderId, "Photos", 1);
    expect(second.status).toBe(303);
    expect((await Order.findById(c.orderId).lean())!.clock_restarts).toBe(2);
  });

  it("refuses an order whose clock has not started", async () => {
    const c = await ordered();
    const r = await restartPost(c.orderId, "Logo", 0);
    expect(r.status).toBe(409);
  });
});

describe("the admin list's delivery filters and sort", () => {
  it("shows time left, filters due within 6 hours and overdue, sorts by deadline soonest first", async () => {
    const now = new Date();
    const made: Record<string, string> = {};
    for (const [name, hoursAgo] of [
      ["due-soon", 20],
      ["overdue", 26],
      ["later", 2],
      ["overdue-more", 30],
    ] as const) {
      const c = await ordered();
      await startClock(c.orderId, new Date(now.getTime() - hoursAgo * H));
      made[name] = c.orderId;
    }
    const ids = async (filters: Record<string, string>) =>
      (await listOrders(filters as never, { now, pageSize: 100 })).page.rows
        .map((r) => r.id)
        .filter((id) => Object.values(made).includes(id));
    expect(await ids({ clock: "due-soon" })).toEqual([made["due-soon"]]);
    expect((await ids({ clock: "overdue" })).sort()).toEqual([made.overdue, made["overdue-more"]].sort());
    expect(await ids({ sort: "deadline" })).toEqual([made["overdue-more"], made.overdue, made["due-soon"], made.later]);
    const rows = (await listOrders({ sort: "deadline" } as never, { now, pageSize: 100 })).page.rows;
    expect(rows.find((r) => r.id === made["due-soon"])!.clock).toBe("4 h left");
    expect(rows.find((r) => r.id === made.overdue)!.clock).toBe("Overdue by 2 h");
  });
});

describe("the admin list sorted by deadline", () => {
  it("keeps every order (paid without a clock, pending, delivered, refunded) after those with a deadline, on every page size", async () => {
    const now = new Date();
    const prefix = `dsort-${randomUUID().slice(0, 8)}`;
    const email = (name: string) => `${prefix}-${name}@example.test`;
    const running = async (name: string, hoursAgo: number) => {
      const c = await paidOrderWithSession(email(name));
      await startClock(c.orderId, new Date(now.getTime() - hoursAgo * H));
      return c.orderId;
    };
    const made = {
      overdue: await running("overdue", 30),
      soon: await running("soon", 20),
      later: await running("later", 2),
      paid: (await paidOrderWithSession(email("paid"))).orderId,
      pending: (await Order.create({ email: email("pending"), amount_total: 30_000 }))._id,
      delivered: await running("delivered", 5),
      refunded: await running("refunded", 3),
    };
    await Order.updateOne({ _id: made.delivered }, { $set: { draft_delivered_at: now } });
    await Order.updateOne({ _id: made.refunded }, { $set: { refunded_at: now, status: "refunded" } });

    const mine = (await Order.find({ _id: mongoose.trusted({ $in: Object.values(made) }) }).lean()).map((o) => ({
      _id: o._id,
      created_at: o.created_at as Date,
      clock_deadline: o.clock_deadline,
      draft_delivered_at: o.draft_delivered_at,
      refunded_at: o.refunded_at,
    }));
    const expected = mine.sort(compareByDeadline).map((o) => o._id);
    expect(expected.slice(0, 3)).toEqual([made.overdue, made.soon, made.later]);
    expect(expected).toHaveLength(7);

    const filters = { q: prefix, sort: "deadline" } as const;
    const unsorted = await listOrders({ q: prefix }, { now, pageSize: 100 });
    expect(unsorted.page.rows).toHaveLength(7);
    for (const pageSize of [1, 2, 3, 4, 7, 100]) {
      const walked: string[] = [];
      let cursor: PageCursor | null = null;
      let pages = 0;
      do {
        const { page, total } = await listOrders(filters, { now, pageSize, cursor });
        expect(total).toBe(7);
        walked.push(...page.rows.map((r) => r.id));
        cursor = page.next ? parseCursor(page.next) : null;
        pages++;
      } while (cursor && pages < 20);
      expect(walked, `pages of ${pageSize}`).toEqual(expected);
    }
  });
});
