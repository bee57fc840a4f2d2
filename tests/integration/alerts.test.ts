import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CRON_SILENT_AFTER_MS, MAIL_FAILING_ATTEMPTS } from "~/domain/alerts";
import { checkAlerts, noteCronRun } from "~/server/alerts.server";
import { getEnv } from "~/server/env.server";
import { settlePayment } from "~/server/fulfilment.server";
import { queueMail } from "~/server/mail/outbox.server";
import { Heartbeat, Order, OutboxMessage } from "~/server/models/index.server";
import { useTestDatabase } from "../support/db";
import { privatePort } from "../support/processes";

/**
 * Alerts to the business: e-mailed through the outbox and posted to ALERT_WEBHOOK_URL, once per cause
 * however many callers raise it at once (a held payment, the cron job silent, mail failing).
 */
const webhookPort = privatePort(17500);
// Read by getEnv at its first call, which comes after this line (nothing reads the environment on import).
process.env.ALERT_WEBHOOK_URL = `http://127.0.0.1:${webhookPort}/hook`;
useTestDatabase();

const posts: { cause: string; subject: string; text: string }[] = [];
let server: Server;
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      posts.push(JSON.parse(body));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(webhookPort, "127.0.0.1", resolve));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const toBusiness = (keyPrefix: string) =>
  OutboxMessage.find({ to: getEnv().BUSINESS_EMAIL, key: new RegExp(`^alert:${keyPrefix}`) }).lean();
const postsFor = (prefix: string) => posts.filter((p) => p.cause.startsWith(`alert:${prefix}`));

describe("alerts", () => {
  it("a payment held for a differing amount: one e-mail and one webhook post, however often it is reported", async () => {
    const order = await Order.create({ email: "held@example.test", amount_total: 30_000 });
    const payment = { orderId: order._id, sessionId: `cs_held_${order._id}`, amountPaid: 100 };
    const settled = await Promise.all(Array.from({ length: 10 }, () => settlePayment(payment)));
    expect(settled.every((s) => s.state === "review")).toBe(true);
    const mail = await toBusiness(`payment-held:amount_mismatch:${payment.sessionId}`);
    expect(mail).toHaveLength(1);
    expect(mail[0].subject).toBe(
      `Payment to check: order #${order._id.slice(0, 8)} (Paid amount differs from the quote)`,
    );
    expect(mail[0].text).toContain("Quoted $300.00, paid $1.00.");
    expect(postsFor(`payment-held:amount_mismatch:${payment.sessionId}`)).toHaveLength(1);
    expect(postsFor("payment-held")[0].text).toContain("Paid amount differs from the quote");
  });

  it("the cron job silent for two hours: one alert per silence, from any number of watchers", async () => {
    const start = new Date(Date.now() + 1000 * CRON_SILENT_AFTER_MS); // beyond every other test's clock
    await noteCronRun(start);
    expect(await checkAlerts(new Date(start.getTime() + CRON_SILENT_AFTER_MS - 60_000))).toEqual([]);

    const silent = new Date(start.getTime() + CRON_SILENT_AFTER_MS);
    const raised = await Promise.all(Array.from({ length: 10 }, () => checkAlerts(silent)));
    const cause = `cron-silent:${start.toISOString()}`;
    expect(raised.flat()).toEqual([cause]);
    expect(await toBusiness(cause)).toHaveLength(1);
    expect(postsFor(cause)).toHaveLength(1);
    expect((await toBusiness(cause))[0].subject).toBe("The website's scheduled job has not run for two hours");

    // Hours later, still silent: the same silence, no second alert. After the job ran again, a new silence alerts.
    expect(await checkAlerts(new Date(silent.getTime() + 5 * CRON_SILENT_AFTER_MS))).toEqual([]);
    const resumed = new Date(silent.getTime() + 6 * CRON_SILENT_AFTER_MS);
    await noteCronRun(resumed);
    expect(await checkAlerts(new Date(resumed.getTime() + CRON_SILENT_AFTER_MS))).toEqual([
      `cron-silent:${resumed.toISOString()}`,
    ]);
    expect(await Heartbeat.countDocuments()).toBe(2); // the job's beat and the watch's start
  });

  it("mail that keeps failing: one alert a day, naming the address and the error", async () => {
    await queueMail({
      key: "alert-test:failing",
      to: "bounces@example.test",
      about: {},
      subject: "s",
      text: "t",
      html: "<p>t</p>",
    });
    const now = new Date();
    expect((await checkAlerts(now)).filter((c) => c.startsWith("mail-failing"))).toEqual([]);
    await OutboxMessage.updateOne(
      { key: "alert-test:failing" },
      { $set: { attempts: MAIL_FAILING_ATTEMPTS, last_error: "421 try again later" } },
    );
    const raised = await Promise.all(Array.from({ length: 5 }, () => checkAlerts(now)));
    expect(raised.flat().filter((c) => c.startsWith("mail-failing"))).toHaveLength(1);
    const [mail] = await toBusiness("mail-failing");
    expect(mail.text).toContain(
      "A message to bounces@example.test has failed 3 attempts; the last said: 421 try again later",
    );
    expect(postsFor("mail-failing")).toHaveLength(1);
  });
});
