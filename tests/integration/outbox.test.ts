import { afterAll, describe, expect, it } from "vitest";
import { layout } from "~/server/mail/templates.server";
import { deliverDueMail, queueMail, requeueStrandedMail } from "~/server/mail/outbox.server";
import { smtpTransport } from "~/server/mail/transport.server";
import { OutboxDue, OutboxMessage } from "~/server/models/index.server";
import { useTestDatabase } from "../support/db";
import { messageText, messagesTo, privateMailpit, uniqueAddress, waitForMessages } from "../support/mailpit";

useTestDatabase();

const mail = (to: string, key: string) => ({
  key,
  to,
  about: {},
  ...layout("Your intake link", ["Hello & welcome", { link: "http://x/intake", label: "Open the form" }]),
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("the mail outbox", () => {
  it("delivers a queued e-mail through SMTP, read back from Mailpit", async () => {
    const to = uniqueAddress("outbox");
    expect(await queueMail({ ...mail(to, `k-${to}`), replyTo: "sender@example.test" })).toBe(true);
    await deliverDueMail(smtpTransport(process.env.SMTP_URL!));
    const [message] = await waitForMessages(to);
    expect(message.Subject).toBe("Your intake link");
    const body = await messageText(message.ID);
    expect(body.Text).toContain("Open the form: http://x/intake");
    expect(body.HTML).toContain("Hello &amp; welcome");
    expect(body.ReplyTo[0].Address).toBe("sender@example.test");
  });

  it("queues one message for one key, however many requests race, and workers racing send it once", async () => {
    const to = uniqueAddress("race");
    const queued = await Promise.all(Array.from({ length: 20 }, () => queueMail(mail(to, `race-${to}`))));
    expect(queued.filter(Boolean)).toHaveLength(1);
    const transport = smtpTransport(process.env.SMTP_URL!);
    await Promise.all(Array.from({ length: 5 }, () => deliverDueMail(transport)));
    await sleep(500);
    expect(await waitForMessages(to)).toHaveLength(1);
    expect(await OutboxMessage.countDocuments({ key: `race-${to}`, status: "sent" })).toBe(1);
  });

  describe("with the SMTP server down", () => {
    const mailpit = privateMailpit(12000);
    afterAll(() => mailpit.stop());

    it("keeps the message, retries with back-off, and delivers it exactly once when the server is back", async () => {
      const transport = smtpTransport(mailpit.smtpUrl);
      const to = uniqueAddress("down");
      await queueMail(mail(to, `down-${to}`));

      // Server down: two attempts fail; the message stays pending with its error and a later retry time.
      await deliverDueMail(transport);
      await sleep(300);
      await deliverDueMail(transport);
      const pending = await OutboxMessage.findOne({ key: `down-${to}` }).lean();
      expect(pending?.status).toBe("pending");
      expect(pending?.attempts).toBe(2);
      expect(pending?.last_error).toBeTruthy();
      expect(pending!.next_attempt_at.getTime()).toBeGreaterThan(Date.now());

      await mailpit.start();
      await sleep(1000); // past the back-off
      await Promise.all([deliverDueMail(transport), deliverDueMail(transport)]);
      await deliverDueMail(transport);

      expect(await mailpit.subjectsTo(to)).toHaveLength(1);
      expect((await OutboxMessage.findOne({ key: `down-${to}` }).lean())?.status).toBe("sent");
    });
  });

  it("marks a message failed for the admin to see after the last attempt, never drops it", async () => {
    const to = uniqueAddress("failing");
    await queueMail(mail(to, `fail-${to}`));
    const broken = {
      kind: "smtp" as const,
      send: async () => Promise.reject(new Error("550 mailbox unavailable")),
      verify: async () => {},
    };
    const max = Number(process.env.OUTBOX_MAX_ATTEMPTS ?? 20);
    await OutboxMessage.updateOne({ key: `fail-${to}` }, { $set: { attempts: max - 1 } });
    await deliverDueMail(broken);
    const failed = await OutboxMessage.findOne({ key: `fail-${to}` }).lean();
    expect(failed?.status).toBe("failed");
    expect(failed?.last_error).toContain("550");
    expect(await messagesTo(to)).toHaveLength(0);
  });

  it("keeps its queue to what waits, and puts back a message stranded without its queue entry", async () => {
    const to = uniqueAddress("stranded");
    await queueMail(mail(to, `stranded-${to}`));
    const stored = await OutboxMessage.findOne({ key: `stranded-${to}` }).lean();
    expect(await OutboxDue.exists({ _id: stored!._id })).toBeTruthy();
    // The app stopped between queueMail's two writes: the message waits without an entry, and no run sends it.
    await OutboxDue.deleteOne({ _id: stored!._id });
    const transport = smtpTransport(process.env.SMTP_URL!);
    await deliverDueMail(transport);
    expect((await OutboxMessage.findById(stored!._id).lean())?.status).toBe("pending");

    expect(await requeueStrandedMail()).toBe(1);
    expect(await requeueStrandedMail()).toBe(0);
    await deliverDueMail(transport);
    expect(await waitForMessages(to)).toHaveLength(1);
    expect((await OutboxMessage.findById(stored!._id).lean())?.status).toBe("sent");
    // Sent: its entry is gone, so the worker's poll never reads it again.
    expect(await OutboxDue.exists({ _id: stored!._id })).toBeNull();
  });
});
