import { randomUUID } from "node:crypto";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import mongoose from "mongoose";
import { beforeAll, describe, expect, it } from "vitest";
import { FORM_KEY_FIELD } from "~/domain/form-key";
import * as privacy from "~/routes/admin.privacy._index";
import * as deletion from "~/routes/admin.privacy.delete.$orderId";
import { action as checkoutAction } from "~/routes/checkout";
import { action as statusAction } from "~/routes/order-status";
import type Stripe from "stripe";
import { saveDraftUrl } from "~/server/admin/order-detail.server";
import { receiveContactMessage } from "~/server/contact.server";
import { listOrders } from "~/server/admin/orders.server";
import { restartClock, sendClockAlerts } from "~/server/delivery-clock.server";
import { DELETED_EMAIL, deleteOrderData } from "~/server/data-deletion.server";
import { getEnv } from "~/server/env.server";
import { newFormKey } from "~/server/form-keys.server";
import { statusTokenFor } from "~/server/fulfilment.server";
import { loadSubmission, saveStep, submitIntake } from "~/server/intake/draft.server";
import { queueMail } from "~/server/mail/outbox.server";
import {
  AdminAuditLog,
  FormReceipt,
  IntakeSubmission,
  IntakeToken,
  OnceKey,
  Order,
  OrderEvent,
  OutboxMessage,
  PrivacyAuditLog,
  RevisionFeedback,
} from "~/server/models/index.server";
import { recordStripeRefund } from "~/server/refunds.server";
import { runReminders } from "~/server/reminders.server";
import { setRevisionEnabled } from "~/server/revisions.server";
import { getStorage } from "~/server/storage.server";
import { renewToken } from "~/server/tokens.server";
import { flashOf, get, paidOrderWithSession, post } from "../support/admin";
import { tokenCookie } from "../support/app-data";
import { signedInUser } from "../support/auth";
import { useTestDatabase } from "../support/db";

useTestDatabase();

const s3 = () =>
  new S3Client({
    region: process.env.S3_REGION,
    endpoint: process.env.S3_ENDPOINT,
    forcePathStyle: true,
    credentials: { accessKeyId: process.env.S3_ACCESS_KEY_ID!, secretAccessKey: process.env.S3_SECRET_ACCESS_KEY! },
  });

async function objectsUnder(prefix: string): Promise<string[]> {
  const page = await s3().send(new ListObjectsV2Command({ Bucket: process.env.S3_BUCKET, Prefix: prefix }));
  return (page.Contents ?? []).map((o) => o.Key!);
}

/** An order with everything deletion must remove: uploads in S3, a submission, tokens, mail, feedback. */
async function customerWithData() {
  const email = `del-${randomUUID()}@example.test`;
  const contact = `owner-${randomUUID()}@example.test`;
  const { orderId } = await paidOrderWithSession(email);
  const storage = getStorage();
  const logo = `logos/${orderId}/logo.png`;
  const photo = `photos/${orderId}/van.png`;
  const thumb = `thumbnails/${orderId}/van-400.webp`;
  for (const key of [logo, photo, thumb]) await storage.put(key, new Uint8Array([1, 2, 3]), "image/png");
  await IntakeSubmission.create({
    order_id: orderId,
    status: "submitted",
    business_name: "Delete Me Pty Ltd",
    contact_email: contact,
    logo_key: logo,
    photo_metadata: [{ key: photo, thumbnail_key: thumb, url: "u", altText: "van" }],
    data_deletion_requested: true,
    data_deletion_date: new Date(),
  });
  await RevisionFeedback.create({ order_id: orderId, round: 1, feedback: "Please change my phone to 0400 000 111" });
  await Order.updateOne(
    { _id: orderId },
    { $set: { revision_1_feedback: "Please change my phone", draft_url: "https://draft.example" } },
  );
  await queueMail({
    key: `something-later:${orderId}`,
    to: contact,
    about: { orderId },
    subject: "s",
    text: "t",
    html: "h",
  });
  return { orderId, email, contact };
}

let cookie: string;
beforeAll(async () => {
  cookie = (await signedInUser({ admin: true })).cookie;
});

describe("Confirm Data Deletion", () => {
  it("lists the request, then removes the submission, uploads, tokens, feedback and mail, keeping an anonymised order", async () => {
    const { orderId, email, contact } = await customerWithData();
    const requests = (await get(privacy.loader, "/admin/privacy?tab=deletions", cookie)).data as Awaited<
      ReturnType<typeof privacy.loader>
    >;
    expect(requests.requests?.rows.map((r) => r.orderId)).toContain(orderId);

    const page = await get(deletion.loader, `/admin/privacy/delete/${orderId}`, cookie, { orderId });
    expect(page.data).toMatchObject({ businessName: "Delete Me Pty Ltd", alreadyDeleted: false });

    const answer = await post(
      deletion.action,
      `/admin/privacy/delete/${orderId}`,
      cookie,
      { intent: "delete" },
      { orderId },
    );
    expect(answer.status).toBe(303);
    expect((await flashOf(answer))?.title).toBe("Data Deleted");

    for (const prefix of ["logos", "photos", "thumbnails"])
      expect(await objectsUnder(`${prefix}/${orderId}/`)).toEqual([]);
    expect(await IntakeSubmission.countDocuments({ order_id: orderId })).toBe(0);
    expect(await IntakeToken.countDocuments({ order_id: orderId })).toBe(0);
    expect(await RevisionFeedback.countDocuments({ order_id: orderId })).toBe(0);
    const mail = await OutboxMessage.find({
      $or: [{ to: mongoose.trusted({ $in: [email, contact] }) }, { key: mongoose.trusted({ $regex: orderId }) }],
    }).lean();
    // Only the e-mail the request promised ("We'll e-mail you when it's done"), to the address it came from, queued
    // before that address was erased; it is about no order, so the deletion leaves it to be sent.
    expect(mail.map((m) => [m.key, m.to, m.subject, m.order_id])).toEqual([
      [`data-deleted:${orderId}`, email, "Your data has been deleted", null],
    ]);

    const order = (await Order.findById(orderId).lean())!;
    expect(order).toMatchObject({
      email: DELETED_EMAIL,
      user_id: null,
      draft_url: null,
      revision_1_feedback: null,
      status: "paid",
      amount_paid: 30_000,
    });
    expect(order.data_deleted_at).toBeInstanceOf(Date);
    const audit = await PrivacyAuditLog.find({ order_id: orderId, action: "data_deletion" }).lean();
    expect(audit).toHaveLength(1);
    expect(audit[0].reason).toBe("Admin-initiated deletion");
    expect(await AdminAuditLog.countDocuments({ target_id: orderId, action: "data.deleted" })).toBe(1);
  });

  it("is harmless to run twice, or five times at once", async () => {
    const { orderId } = await customerWithData();
    const runs = await Promise.all(
      Array.from({ length: 5 }, () => deleteOrderData({ orderId, reason: "Retention period ended" })),
    );
    expect(runs.every((r) => r.deleted)).toBe(true);
    const again = await post(
      deletion.action,
      `/admin/privacy/delete/${orderId}`,
      cookie,
      { intent: "delete" },
      { orderId },
    );
    expect((await flashOf(again))?.title).toBe("Data Deleted");
    expect(await PrivacyAuditLog.countDocuments({ order_id: orderId, action: "data_deletion" })).toBe(1);
    expect(await IntakeSubmission.countDocuments({ order_id: orderId })).toBe(0);
    expect(await OutboxMessage.countDocuments({ key: `data-deleted:${orderId}` })).toBe(1);
  });

  it("ends the order: its clock stops (no alert, no restart), no reminder, and the orders list marks it", async () => {
    const admin = await signedInUser({ admin: true });
    const actor = { id: admin.user.id, email: admin.email };
    const order = await paidOrderWithSession(`end-${randomUUID()}@example.test`);
    await IntakeSubmission.create({ order_id: order.orderId, business_name: "End Co", contact_email: "e@e.test" });
    await submitIntake({ orderId: order.orderId, tokenId: order.tokenId });
    await deleteOrderData({ orderId: order.orderId, reason: "test", actor });

    const overdue = new Date(Date.now() + 72 * 3_600_000);
    await sendClockAlerts(overdue);
    expect(await OrderEvent.countDocuments({ order_id: order.orderId, kind: "alert" })).toBe(0);
    expect(await restartClock({ orderId: order.orderId, missing: "photos", seenRestarts: 0, actor })).toBe(
      "not-started",
    );
    await runReminders(overdue);
    expect(await OutboxMessage.countDocuments({ order_id: order.orderId })).toBe(0);
    const { page } = await listOrders({ clock: "overdue" }, { now: overdue });
    expect(page.rows.map((r) => r.id)).not.toContain(order.orderId);
    const row = (await listOrders({ q: order.orderId.slice(0, 8) }, { now: overdue })).page.rows[0];
    expect(row).toMatchObject({ id: order.orderId, dataDeleted: true, clock: null });
  });

  it("leaves another customer's data alone", async () => {
    const mine = await customerWithData();
    const theirs = await customerWithData();
    await deleteOrderData({ orderId: mine.orderId, reason: "test" });
    expect(await IntakeSubmission.countDocuments({ order_id: theirs.orderId })).toBe(1);
    expect(await objectsUnder(`logos/${theirs.orderId}/`)).toHaveLength(1);
    expect(await OutboxMessage.countDocuments({ to: theirs.contact })).toBe(1);
  });

  it("deletes only the order's own mail: another order typing the same contact address, and the business, keep theirs", async () => {
    const shared = `shared-${randomUUID()}@example.test`;
    await receiveContactMessage({ name: "Neighbour", email: shared, message: "Do you build sites for plumbers?" });
    await receiveContactMessage({ name: "Someone", email: `x-${randomUUID()}@example.test`, message: "Hello there" });
    // Two orders whose intake names the same contact address, and one naming the business's own.
    const orders: Awaited<ReturnType<typeof paidOrderWithSession>>[] = [];
    for (const contact of [shared, shared, getEnv().BUSINESS_EMAIL]) {
      const order = await paidOrderWithSession(`buyer-${randomUUID()}@example.test`);
      await IntakeSubmission.create({ order_id: order.orderId, business_name: "Shared Co", contact_email: contact });
      await submitIntake({ orderId: order.orderId, tokenId: order.tokenId });
      orders.push(order);
    }
    // Delivered, as the business's notices and the enquiries are by now.
    const all = await OutboxMessage.find({}, { key: 1 }).lean();
    await OutboxMessage.updateMany(
      { _id: mongoose.trusted({ $in: all.map((m) => m._id) }) },
      { $set: { status: "sent", sent_at: new Date() } },
    );
    const [first, other, business] = orders;
    const ofOrder = (o: (typeof orders)[number], key: string) => key.includes(o.orderId) || key.includes(o.tokenId);
    const expected = all.filter((m) => !ofOrder(first, m.key) && !ofOrder(business, m.key)).map((m) => m.key);
    expect(expected.filter((k) => k.startsWith("contact:"))).toHaveLength(2);
    expect(expected.filter((k) => ofOrder(other, k))).toHaveLength(5); // paid, paid notice, 2 confirmations, intake notice

    await deleteOrderData({ orderId: first.orderId, reason: "test" });
    await deleteOrderData({ orderId: business.orderId, reason: "test" });
    const left = (await OutboxMessage.find({}, { key: 1 }).lean()).map((m) => m.key);
    expect(left.sort()).toEqual(expected.sort());
  });

  it("removes the records that made the order's forms and effects exactly-once, and only the order's", async () => {
    /** An order whose customer renewed the link, submitted the intake, sent feedback and asked for deletion. */
    async function activeOrder() {
      const order = await paidOrderWithSession(`once-${randomUUID()}@example.test`);
      expect(await renewToken(order.tokenId, new Date(Date.now() + 365 * 86_400_000))).toBe(true);
      await IntakeSubmission.create({ order_id: order.orderId, business_name: "Once Co", contact_email: "o@o.test" });
      // A step's save takes the draft's next revision by a once-key (its turn), and the logo's write the next files version.
      const draft = await loadSubmission(order.orderId);
      await saveStep(order.orderId, 1, { businessName: "Once Co" }, 1, draft, { revision: 1, logo_key: null });
      await submitIntake({ orderId: order.orderId, tokenId: order.tokenId });
      await setRevisionEnabled(order.orderId, 1, true);
      await runReminders(); // notes when round 1 was first seen open
      const status = await tokenCookie(await statusTokenFor(order.orderId), "status");
      const feedback = await post(statusAction, "/order-status", status, {
        intent: "feedback",
        formId: "f",
        round: "1",
        feedback: "Please make the heading bigger on every page.",
        [FORM_KEY_FIELD]: newFormKey(),
      });
      const request = await post(statusAction, "/order-status", status, {
        intent: "request-deletion",
        [FORM_KEY_FIELD]: newFormKey(),
      });
      expect([feedback.status, request.status]).toEqual([303, 303]);
      return order;
    }
    const ofOrder = async ({ orderId, tokenId }: { orderId: string; tokenId: string }) => ({
      onceKeys: (await OnceKey.find({}, { _id: 1 }).lean())
        .map((k) => String(k._id))
        .filter((id) => id.includes(orderId) || id.includes(tokenId))
        .sort(),
      receipts: (await FormReceipt.find({}, { _id: 1 }).lean())
        .map((r) => String(r._id))
        .filter((id) => id.includes(orderId))
        .sort(),
    });
    const mine = await activeOrder();
    const theirs = await activeOrder();
    const before = await ofOrder(mine);
    // Its first submission, its link's submission and renewal, round 1 seen open, its draft's two turns (revision,
    // files); feedback and deletion request.
    expect(before.onceKeys).toHaveLength(6);
    expect(before.receipts).toHaveLength(2);
    const theirsBefore = await ofOrder(theirs);
    expect(theirsBefore.onceKeys).toHaveLength(6);

    // A checkout's receipt holds the order it made and the payment page it was sent to.
    const email = `checkout-${randomUUID()}@example.test`;
    const checkout = await post(checkoutAction, "/checkout", "", {
      intent: "pay",
      email,
      terms: "on",
      [FORM_KEY_FIELD]: newFormKey(),
    });
    expect(checkout.status).toBe(303);
    const bought = (await Order.findOne({ email }).lean())!;
    expect(await FormReceipt.countDocuments({ "answer.orderId": bought._id })).toBe(1);

    await deleteOrderData({ orderId: mine.orderId, reason: "test" });
    await deleteOrderData({ orderId: bought._id, reason: "test" });
    expect(await ofOrder(mine)).toEqual({ onceKeys: [], receipts: [] });
    expect(await FormReceipt.countDocuments({ "answer.orderId": bought._id })).toBe(0);
    expect(await ofOrder(theirs)).toEqual(theirsBefore);
  });

  it("keeps the order's history and audit entries as its financial record, without what was written about its site", async () => {
    const admin = await signedInUser({ admin: true });
    const actor = { id: admin.user.id, email: admin.email };
    /** An order whose clock was restarted for missing materials, whose draft was delivered, then refunded. */
    async function deliveredOrder() {
      const order = await paidOrderWithSession(`hist-${randomUUID()}@example.test`);
      await IntakeSubmission.create({ order_id: order.orderId, business_name: "Hist Co", contact_email: "h@h.test" });
      await submitIntake({ orderId: order.orderId, tokenId: order.tokenId });
      const missing = `The photos of Jo's van at 12 Example St, order ${order.orderId}`;
      expect(await restartClock({ orderId: order.orderId, missing, seenRestarts: 0, actor })).not.toBe("raced");
      const url = `https://draft.example/jo-${order.orderId}`;
      await saveDraftUrl({ orderId: order.orderId, url, actor });
      const charge = {
        id: `ch_${randomUUID()}`,
        metadata: { order_id: order.orderId },
        refunded: true,
        amount_refunded: 30_000,
        refunds: { data: [{ id: `re_${randomUUID()}` }] },
      } as unknown as Stripe.Charge;
      expect(await recordStripeRefund(charge)).toBe("processed");
      return { ...order, missing, url };
    }
    const written = async (o: Awaited<ReturnType<typeof deliveredOrder>>) => {
      const stored = JSON.stringify([
        await OrderEvent.find({ order_id: o.orderId }).lean(),
        await AdminAuditLog.find({ target_id: o.orderId }).lean(),
      ]);
      return ["draft.example", "12 Example St", "Refunded in Stripe's dashboard"].filter((s) => stored.includes(s));
    };
    const mine = await deliveredOrder();
    const theirs = await deliveredOrder();
    expect(await written(mine)).toHaveLength(3);

    await deleteOrderData({ orderId: mine.orderId, reason: "test", actor });
    await deleteOrderData({ orderId: mine.orderId, reason: "test", actor }); // a second run keeps the deletion's entry
    expect(await written(mine)).toEqual([]);
    const events = await OrderEvent.find({ order_id: mine.orderId }).lean();
    expect(events.map((e) => e.kind).sort()).toEqual(["delivered", "refunded", "restarted", "started"]);
    expect(events.find((e) => e.kind === "refunded")).toMatchObject({ amount: 30_000, source: "stripe" });
    expect(events.find((e) => e.kind === "restarted")?.deadline).toBeInstanceOf(Date);
    const deleted = await AdminAuditLog.findOne({ target_id: mine.orderId, action: "data.deleted" }).lean();
    expect(deleted?.details).toMatchObject({ reason: "test" });
    expect(await AdminAuditLog.countDocuments({ target_id: mine.orderId, action: "order.draft_url" })).toBe(1);
    // The other order's history is as it was.
    expect(await written(theirs)).toHaveLength(3);
  });

  it("is a 404 for an unknown order, and a 400 for an unknown intent", async () => {
    const missing = randomUUID();
    expect(
      (
        await post(
          deletion.action,
          `/admin/privacy/delete/${missing}`,
          cookie,
          { intent: "delete" },
          { orderId: missing },
        )
      ).status,
    ).toBe(404);
    expect((await get(deletion.loader, "/admin/privacy/delete/nope", cookie, { orderId: "nope" })).status).toBe(404);
    const { orderId } = await customerWithData();
    expect(
      (await post(deletion.action, `/admin/privacy/delete/${orderId}`, cookie, { intent: "oops" }, { orderId })).status,
    ).toBe(400);
  });
});

describe("privacy page", () => {
  it("counts consents, AI consent, deletion requests and AI processing in the last 24 hours", async () => {
    await PrivacyAuditLog.create({ action: "ai_processing", order_id: randomUUID(), ai_provider: "test" });
    await PrivacyAuditLog.create({
      action: "ai_processing",
      order_id: randomUUID(),
      timestamp: new Date(Date.now() - 2 * 86_400_000),
    });
    const before = (await get(privacy.loader, "/admin/privacy", cookie)).data as Awaited<
      ReturnType<typeof privacy.loader>
    >;
    expect(before.tab).toBe("audit");
    expect(before.counters.ai24h).toBe(
      await PrivacyAuditLog.countDocuments({
        action: "ai_processing",
        timestamp: mongoose.trusted({ $gte: new Date(Date.now() - 86_400_000) }),
      }),
    );
    expect(before.audit!.rows.length).toBeLessThanOrEqual(50);
    expect(before.audit!.rows[0].action).toBeDefined();
  });
});
