import { afterAll, describe, expect, it } from "vitest";
import { REMINDER_MESSAGES, REMINDER_RULES } from "~/domain/reminders";
import { action, loader } from "~/routes/api.cron.reminders";
import { DELETED_EMAIL, deleteOrderData } from "~/server/data-deletion.server";
import { fulfilOrder } from "~/server/fulfilment.server";
import { deliverDueMail, retryFailedMail } from "~/server/mail/outbox.server";
import { smtpTransport } from "~/server/mail/transport.server";
import { IntakeSubmission, IntakeToken, Order, OutboxMessage, ReminderLog } from "~/server/models/index.server";
import { runReminders, sendReminder, sendReminders } from "~/server/reminders.server";
import { BULK_MESSAGES } from "~/domain/admin/bulk";
import { checkToken } from "~/server/tokens.server";
import { useTestDatabase } from "../support/db";
import { messageText, messagesTo, privateMailpit, uniqueAddress, waitForMessages } from "../support/mailpit";

process.env.CRON_SECRET ??= "test-cron-secret";
useTestDatabase();

const H = 3_600_000;
const hoursAgo = (h: number) => new Date(Date.now() - h * H);
const hoursAhead = (h: number) => new Date(Date.now() + h * H);

function cronRequest(init: { method?: string; authorization?: string | null } = {}) {
  const headers = new Headers();
  const auth = init.authorization === undefined ? `Bearer ${process.env.CRON_SECRET}` : init.authorization;
  if (auth !== null) headers.set("Authorization", auth);
  return new Request("http://localhost/api/cron/reminders", { method: init.method ?? "POST", headers });
}
async function callCron(init: Parameters<typeof cronRequest>[0] = {}) {
  const request = cronRequest(init);
  const response = request.method === "GET" ? loader() : await action({ request, params: {}, context: {} });
  return response;
}

/** A paid order, fulfilled as the webhook does, paid `paidHoursAgo` hours ago. */
async function paidOrder(paidHoursAgo: number, fields: Record<string, unknown> = {}) {
  const email = uniqueAddress("cron");
  const order = await Order.create({ email, amount_total: 30_000, ...fields });
  await fulfilOrder({ orderId: order._id, sessionId: `cs_${order._id}`, amountPaid: 30_000 });
  await Order.updateOne({ _id: order._id }, { $set: { paid_at: hoursAgo(paidHoursAgo) } });
  return { orderId: order._id, email };
}

/** The customer's intake draft, last saved `savedHoursAgo` hours ago (submitted when asked). */
async function intake(
  orderId: string,
  savedHoursAgo: number,
  options: { submitted?: boolean; furthestStep?: number } = {},
) {
  await IntakeSubmission.create({ order_id: orderId, business_name: "Acme", furthest_step: options.furthestStep ?? 3 });
  const set: Record<string, unknown> = { updated_at: hoursAgo(savedHoursAgo) };
  if (options.submitted) Object.assign(set, { status: "submitted", submitted_at: hoursAgo(savedHoursAgo) });
  await IntakeSubmission.collection.updateOne({ order_id: orderId }, { $set: set });
  if (options.submitted)
    await IntakeToken.updateMany({ order_id: orderId, purpose: "intake" }, { $set: { used: true } });
}

const remindersFor = (orderId: string) => ReminderLog.find({ order_id: orderId }).sort({ sent_at: 1 }).lean();
const queuedTo = (email: string) =>
  OutboxMessage.find({ to: email, key: /^reminder:/ })
    .sort({ created_at: 1 })
    .lean();

/** The intake link in a reminder's text, and what the token behind it is now. */
async function linkState(text: string) {
  const token = /intake-form\?token=([A-Za-z0-9_-]+)/.exec(text)?.[1];
  return token ? (await checkToken(token, "intake")).state : "no link";
}

describe("POST /api/cron/reminders: who may call it", () => {
  it.each([
    ["no Authorization header", null],
    ["a wrong secret", "Bearer not-the-secret"],
    ["the secret with a different case", `Bearer ${"test-cron-secret".toUpperCase()}`],
    ["an empty bearer token", "Bearer "],
    ["the secret as Basic auth", `Basic ${Buffer.from(`cron:${process.env.CRON_SECRET}`).toString("base64")}`],
    ["the bare secret", String(process.env.CRON_SECRET)],
  ])("refuses %s with 401 and no detail", async (_, authorization) => {
    const response = await callCron({ authorization });
    expect(response.status).toBe(401);
    expect(await response.text()).toBe("Unauthorized");
  });

  it("answers other methods with 405", async () => {
    for (const method of ["GET", "PUT", "DELETE", "PATCH"]) {
      const response = await callCron({ method });
      expect(response.status, method).toBe(405);
      expect(response.headers.get("Allow")).toBe("POST");
    }
  });

  it("runs with the secret and answers a JSON summary", async () => {
    const response = await callCron();
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({
      ok: true,
      reminders: {
        sent: {
          intake_not_started: expect.any(Number),
          intake_incomplete: expect.any(Number),
          link_expiring: expect.any(Number),
          revision_available: expect.any(Number),
        },
      },
      retention: { deleted: expect.any(Number) },
      purged: {
        sessions: expect.any(Number),
        accountLinks: expect.any(Number),
        rateLimitHits: expect.any(Number),
        couponReservations: expect.any(Number),
        deliveredMail: expect.any(Number),
      },
      outbox: { pending: expect.any(Number), sent: expect.any(Number), failed: expect.any(Number) },
    });
  });
});

describe("smart reminders", () => {
  it("intake not started: one per window, with a working link, and none once the intake is submitted", async () => {
    const fresh = await paidOrder(REMINDER_RULES.intakeNotStartedAfterHours - 1);
    const due = await paidOrder(REMINDER_RULES.intakeNotStartedAfterHours + 1);
    expect((await callCron()).status).toBe(200);
    expect(await remindersFor(fresh.orderId)).toHaveLength(0);
    const [first] = await queuedTo(due.email);
    expect(first.subject).toBe("Your website is waiting for your details");
    expect(first.text).toContain("about 10 minutes");
    expect(await linkState(first.text)).toBe("valid");

    // Calling again at once: the gap holds, nothing more is sent.
    await callCron();
    expect(await queuedTo(due.email)).toHaveLength(1);

    // The next window opens after the minimum gap.
    await runReminders(hoursAhead(REMINDER_RULES.minGapHours));
    expect((await remindersFor(due.orderId)).map((r) => [r.kind, r.slot, r.source])).toEqual([
      ["intake_not_started", 1, "cron"],
      ["intake_not_started", 2, "cron"],
    ]);

    // The customer submits: nothing more, however much later.
    await intake(due.orderId, 0, { submitted: true });
    await runReminders(hoursAhead(REMINDER_RULES.minGapHours * 10));
    expect(await remindersFor(due.orderId)).toHaveLength(2);
  });

  it(`never sends more than ${REMINDER_RULES.maxPerKind} of a kind`, async () => {
    const { orderId } = await paidOrder(REMINDER_RULES.intakeNotStartedAfterHours + 1);
    for (let i = 0; i <= REMINDER_RULES.maxPerKind + 1; i++)
      await runReminders(hoursAhead(REMINDER_RULES.minGapHours * i));
    expect((await remindersFor(orderId)).filter((r) => r.kind === "intake_not_started")).toHaveLength(
      REMINDER_RULES.maxPerKind,
    );
  });

  it("intake started but incomplete: says what is left and how long it takes", async () => {
    const { orderId, email } = await paidOrder(200);
    await intake(orderId, REMINDER_RULES.intakeIncompleteAfterHours + 1, { furthestStep: 12 });
    await runReminders();
    const [mail] = await queuedTo(email);
    expect(mail.subject).toBe("Nearly there: finish your intake form");
    expect(mail.text).toContain('3 steps are left, starting with "Privacy & Consent": about 2 minutes');
    expect(await linkState(mail.text)).toBe("valid");
    await IntakeSubmission.collection.updateOne(
      { order_id: orderId },
      { $set: { submitted_at: new Date(), status: "submitted" } },
    );
    await runReminders(hoursAhead(REMINDER_RULES.minGapHours * 5));
    expect(await remindersFor(orderId)).toHaveLength(1);
  });

  it("access link expiring: offers a renewed link", async () => {
    const { orderId, email } = await paidOrder(50);
    await intake(orderId, 1); // working on it: the incomplete reminder is not due
    await IntakeToken.updateMany({ order_id: orderId, purpose: "intake" }, { $set: { expires_at: hoursAhead(48) } });
    await runReminders();
    const [mail] = await queuedTo(email);
    expect(mail.subject).toBe("Your intake form link expires soon");
    expect(mail.text).toContain("We've renewed your access");
    expect(await linkState(mail.text)).toBe("valid");
    expect((await remindersFor(orderId)).map((r) => r.kind)).toEqual(["link_expiring"]);
  });

  it("revision round available: due after the round has been open a while, and stops once feedback is in", async () => {
    const { orderId, email } = await paidOrder(300, { draft_url: "https://draft.example.test/acme" });
    await intake(orderId, 200, { submitted: true });
    await Order.updateOne({ _id: orderId }, { $set: { revision_1_enabled: true } });
    await runReminders(); // first sight of the open round: not due yet
    expect(await remindersFor(orderId)).toHaveLength(0);
    await runReminders(hoursAhead(REMINDER_RULES.revisionAvailableAfterHours));
    const [mail] = await queuedTo(email);
    expect(mail.subject).toBe("Your draft is ready for round 1 feedback");
    expect(mail.text).toContain("See your draft: https://draft.example.test/acme");
    const status = /order-status\?access_token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
    // The link opens the order status page; it does not reopen the submitted intake form.
    expect((await checkToken(status!, "status")).state).toBe("valid");
    expect((await checkToken(status!, "intake")).state).toBe("invalid");

    await Order.updateOne(
      { _id: orderId },
      { $set: { revision_1_submitted_at: new Date(), revision_1_feedback: "Bigger logo" } },
    );
    await runReminders(hoursAhead(REMINDER_RULES.revisionAvailableAfterHours * 5));
    expect(await remindersFor(orderId)).toHaveLength(1);
  });

  it("two cron calls at once send each reminder once", async () => {
    const orders = await Promise.all(
      Array.from({ length: 4 }, () => paidOrder(REMINDER_RULES.intakeNotStartedAfterHours + 2)),
    );
    const responses = await Promise.all(Array.from({ length: 2 }, () => callCron()));
    expect(responses.map((r) => r.status)).toEqual([200, 200]);
    const bodies = await Promise.all(responses.map((r) => r.json()));
    for (const { orderId, email } of orders) {
      expect(await remindersFor(orderId)).toHaveLength(1);
      expect(await queuedTo(email)).toHaveLength(1);
    }
    expect(bodies.reduce((sum, b) => sum + b.reminders.sent.intake_not_started, 0)).toBeGreaterThanOrEqual(
      orders.length,
    );
  });

  it("an admin's click and the cron racing send one reminder; the spec's messages answer the admin", async () => {
    const { orderId } = await paidOrder(1);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => sendReminder({ orderId, source: "admin", actor: "admin@example.test" })),
    );
    expect(results.filter((r) => r.sent)).toHaveLength(1);
    expect(results.find((r) => r.sent)).toMatchObject({
      title: "Reminder Sent",
      message: "Intake form reminder sent to customer.",
    });
    expect(results.find((r) => !r.sent)).toMatchObject({
      title: "Notice",
      message: "Reminder not sent (limit reached or sent recently)",
    });
    await runReminders(hoursAhead(1));
    expect((await remindersFor(orderId)).map((r) => [r.source, r.actor])).toEqual([["admin", "admin@example.test"]]);
  });

  it("the bulk 'Send reminders' counts the orders actually reminded", async () => {
    const waiting = await Promise.all([paidOrder(2), paidOrder(30)]);
    const done = await paidOrder(100);
    await intake(done.orderId, 10, { submitted: true });
    const { sent, skipped } = await sendReminders({
      orderIds: [...waiting, done].map((o) => o.orderId),
      actor: "admin@example.test",
    });
    expect(sent).toHaveLength(2);
    expect(REMINDER_MESSAGES.bulkSent(sent.length)).toBe("Sent reminders for 2 orders");
    // The other order is named as skipped, with why.
    expect(skipped).toEqual([{ orderId: done.orderId, reason: "this customer has no step waiting on them" }]);
    expect(BULK_MESSAGES.done("send_reminders", sent.length, [{ reason: skipped[0].reason, count: 1 }])).toBe(
      "Sent reminders for 2 orders. 1 order skipped: this customer has no step waiting on them.",
    );
    const again = await sendReminders({ orderIds: waiting.map((o) => o.orderId), actor: "admin@example.test" });
    expect(again.sent).toEqual([]);
    expect(again.skipped.map((s) => s.reason)).toEqual(Array(2).fill("limit reached or sent recently"));
  });

  it("tells the admin when the customer has nothing waiting on them", async () => {
    const { orderId } = await paidOrder(100);
    await intake(orderId, 10, { submitted: true });
    expect(await sendReminder({ orderId, source: "admin" })).toMatchObject({ sent: false, title: "Notice" });
    expect(await sendReminder({ orderId: "not-an-order", source: "admin" })).toMatchObject({ sent: false });
  });

  it("never reminds a customer whose data was deleted: the order is only a financial record now", async () => {
    const { orderId, email } = await paidOrder(100);
    await deleteOrderData({ orderId, reason: "Customer request" });
    await runReminders();
    expect(await sendReminder({ orderId, source: "admin", actor: "admin@example.test" })).toMatchObject({
      sent: false,
      title: "Notice",
    });
    expect(await remindersFor(orderId)).toHaveLength(0);
    expect(await queuedTo(email)).toHaveLength(0);
    expect(await OutboxMessage.countDocuments({ to: DELETED_EMAIL })).toBe(0);
  });

  describe("with the SMTP server stopped during a run", () => {
    const mailpit = privateMailpit(27000);
    afterAll(() => mailpit.stop());

    it("keeps every reminder and delivers each exactly once when the server is back", async () => {
      const transport = smtpTransport(mailpit.smtpUrl);
      // Earlier tests' mail (never delivered here) would fill the worker's batch; this test is about its own.
      await OutboxMessage.deleteMany({ status: "pending" });
      const orders = await Promise.all(
        Array.from({ length: 3 }, () => paidOrder(REMINDER_RULES.intakeNotStartedAfterHours + 3)),
      );
      expect((await callCron()).status).toBe(200);
      await deliverDueMail(transport); // the server is down: every attempt fails, nothing is lost
      for (const { email } of orders)
        expect((await queuedTo(email))[0]).toMatchObject({ status: "pending", attempts: 1 });

      await mailpit.start();
      await new Promise((r) => setTimeout(r, 1000)); // past the back-off
      await Promise.all([deliverDueMail(transport), deliverDueMail(transport)]);
      await deliverDueMail(transport);
      for (const { email } of orders) {
        // The order confirmation and the reminder, each once.
        expect((await mailpit.subjectsTo(email)).sort()).toEqual([
          "Your 24-Hour Website order: next, tell us about your business",
          "Your website is waiting for your details",
        ]);
      }
    });
  });
});

describe("the outbox's Retry", () => {
  it("sends a failed message again, and never a delivered one", async () => {
    const { email } = await paidOrder(1);
    const [paid] = await OutboxMessage.find({ to: email }).lean();
    await OutboxMessage.updateOne(
      { _id: paid._id },
      { $set: { status: "failed", attempts: 20, last_error: "550 mailbox unavailable" } },
    );
    expect(await retryFailedMail(String(paid._id))).toBe(true);
    await deliverDueMail(smtpTransport(process.env.SMTP_URL!));
    const [message] = await waitForMessages(email);
    expect((await messageText(message.ID)).Subject).toContain("order");
    expect(await OutboxMessage.findById(paid._id).lean()).toMatchObject({ status: "sent", attempts: 21 });
    expect(await retryFailedMail(String(paid._id))).toBe(false);
    await deliverDueMail(smtpTransport(process.env.SMTP_URL!));
    expect(await messagesTo(email)).toHaveLength(1);
  });
});
