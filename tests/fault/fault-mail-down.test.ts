import { afterAll, expect, it } from "vitest";
import { Order, OutboxMessage } from "~/server/models/index.server";
import { postForm, startAppProcess, type AppProcess } from "../support/app-process";
import { useTestDatabase } from "../support/db";
import { privateMailpit, uniqueAddress } from "../support/mailpit";
import { privatePort } from "../support/processes";
import { sessionEvent, signedDelivery } from "../support/stripe-events";

// The built app in production mode with its own Mailpit, which is down while customers pay and write in.
useTestDatabase();
const mailpit = privateMailpit(17000);
let app: AppProcess | undefined;
afterAll(async () => {
  await app?.stop();
  await mailpit.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it(
  "keeps every e-mail of payments and contact messages while the mail server is down, and delivers each exactly once when it is back",
  { timeout: 120_000 },
  async () => {
    const business = uniqueAddress("business");
    app = await startAppProcess({
      port: privatePort(18000),
      env: {
        MONGODB_URI: process.env.MONGODB_URI!,
        SMTP_URL: mailpit.smtpUrl,
        BUSINESS_EMAIL: business,
        OUTBOX_POLL_MS: "200",
        OUTBOX_BACKOFF_MS: "200",
      },
    });

    // The mail server is not running: 10 contact messages and 10 payments (each webhook sent twice).
    const senders = Array.from({ length: 10 }, (_, i) => uniqueAddress(`writer${i}`));
    const buyers = Array.from({ length: 10 }, (_, i) => uniqueAddress(`payer${i}`));
    const contacts = await Promise.all(
      senders.map((email, i) =>
        postForm(`${app!.url}/contact`, {
          name: `Writer ${i}`,
          email,
          message: "Please call me about a website for my shop.",
        }),
      ),
    );
    expect(contacts.map((r) => r.status)).toEqual(Array(10).fill(303));
    for (const email of buyers)
      expect((await postForm(`${app.url}/checkout`, { email, terms: "on", intent: "pay" })).status).toBe(303);
    for (const email of buyers) {
      const o = (await Order.findOne({ email }).lean())!;
      const event = sessionEvent("checkout.session.completed", {
        id: o.stripe_session_id!,
        orderId: o._id,
        amount: o.amount_total,
      });
      const twice = await Promise.all([0, 1].map(() => fetch(`${app!.url}/webhooks/stripe`, signedDelivery(event))));
      expect(twice.map((r) => r.status)).toEqual([200, 200]);
    }

    // A few seconds of failed attempts: everything is still queued, with its error, none lost or failed for good.
    await sleep(3_000);
    const queued = await OutboxMessage.find().lean();
    expect(queued).toHaveLength(30); // each payment: the buyer's e-mail and the business's notice
    expect(queued.every((m) => m.status === "pending" && m.attempts >= 1 && m.last_error)).toBe(true);

    // The process answers; it is not ready, and says which part is down.
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
    const notReady = await fetch(`${app.url}/readyz`);
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toEqual({ ok: false, db: "up", mail: "down", storage: "up" });

    await mailpit.start();

    // The back-off doubles from 200 ms, so within 30 s every message is due again and sent.
    for (let i = 0; i < 150 && (await OutboxMessage.countDocuments({ status: "sent" })) < 30; i++) await sleep(200);
    await sleep(2_000); // any duplicate would arrive now
    const mail = await mailpit.messages();
    expect(mail).toHaveLength(30);
    expect(new Set(mail.map((m) => m.MessageID)).size).toBe(30);
    // Made under the sending domain (MAIL_FROM's), which signs the mail, not a name of our own.
    for (const m of mail) expect(m.MessageID).toMatch(/^[0-9a-f]{32}@northernriverswebsites\.com\.au$/);
    // Ready again once the mail server answers (a check is reused for 5 s).
    let ready = await fetch(`${app.url}/readyz`);
    for (let i = 0; i < 50 && ready.status !== 200; i++) {
      await sleep(200);
      ready = await fetch(`${app.url}/readyz`);
    }
    expect(await ready.json()).toEqual({ ok: true, db: "up", mail: "up", storage: "up" });
    for (const email of buyers)
      expect(
        mail.filter((m) => m.To[0].Address === email),
        email,
      ).toHaveLength(1);
    for (const email of [...senders, ...buyers])
      expect(
        mail.filter((m) => m.To[0].Address === business && m.ReplyTo[0]?.Address === email),
        email,
      ).toHaveLength(1);
    expect(await OutboxMessage.countDocuments({ status: "sent" })).toBe(30);
  },
);
