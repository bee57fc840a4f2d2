import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { PURGE_AFTER, RETENTION_DELETION_REASON } from "~/domain/retention";
import { DELETED_EMAIL } from "~/server/data-deletion.server";
import { fulfilOrder } from "~/server/fulfilment.server";
import {
  AccountToken,
  CouponRedemption,
  IntakeSubmission,
  IntakeToken,
  Order,
  OrderChange,
  OrderChangeMark,
  OutboxMessage,
  PrivacyAuditLog,
  RateLimitHit,
  RevisionFeedback,
  Session,
} from "~/server/models/index.server";
import { deleteExpiredIntakeData, purgeExpiredRecords } from "~/server/retention.server";
import { SESSION_IDLE_MS } from "~/server/session.server";
import { getStorage } from "~/server/storage.server";
import { useTestDatabase } from "../support/db";
import { uniqueAddress } from "../support/mailpit";

useTestDatabase();

const DAY = 86_400_000;
const daysAgo = (d: number) => new Date(Date.now() - d * DAY);
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
const objectKey = (folder: string, orderId: string) => `${folder}/${orderId}/${randomBytes(12).toString("hex")}.png`;

/** A paid order with a submission (logo and a photo in S3) last changed `changedDaysAgo` days ago. */
async function customerData(period: "30days" | "1year" | "permanent", changedDaysAgo: number) {
  const email = uniqueAddress("retention");
  const order = await Order.create({ email, amount_total: 30_000 });
  const orderId = order._id;
  await fulfilOrder({ orderId, sessionId: `cs_${orderId}`, amountPaid: 30_000 });
  const logo = objectKey("logos", orderId);
  const photo = objectKey("photos", orderId);
  const stray = objectKey("photos", orderId); // a file replaced along the way: only the folder knows it
  for (const key of [logo, photo, stray]) await getStorage().put(key, PNG, "image/png");
  await IntakeSubmission.create({
    order_id: orderId,
    business_name: "Acme",
    contact_email: `contact-${email}`,
    logo_key: logo,
    photo_metadata: [{ key: photo, url: `/uploads/${photo}` }],
    data_retention_period: period,
  });
  await IntakeSubmission.collection.updateOne({ order_id: orderId }, { $set: { updated_at: daysAgo(changedDaysAgo) } });
  await RevisionFeedback.create({ order_id: orderId, round: 1, feedback: "Make the logo bigger" });
  await Order.updateOne({ _id: orderId }, { $set: { revision_1_feedback: "Make the logo bigger" } });
  return { orderId, email, keys: [logo, photo, stray] };
}

async function stored(keys: string[]) {
  return Promise.all(keys.map(async (k) => (await getStorage().get(k)) !== null));
}

describe("retention", () => {
  it("deletes exactly the submissions past their chosen retention, with their S3 objects, mail and tokens", async () => {
    const expired30 = await customerData("30days", 31);
    const kept30 = await customerData("30days", 29);
    const expired1y = await customerData("1year", 366);
    const kept1y = await customerData("1year", 300);
    const permanent = await customerData("permanent", 3000);

    expect(await deleteExpiredIntakeData()).toEqual({ deleted: 2, failed: 0 });

    for (const gone of [expired30, expired1y]) {
      expect(await IntakeSubmission.exists({ order_id: gone.orderId })).toBeNull();
      expect(await stored(gone.keys)).toEqual([false, false, false]);
      expect(await OutboxMessage.countDocuments({ to: gone.email })).toBe(0);
      expect(await IntakeToken.countDocuments({ order_id: gone.orderId })).toBe(0);
      expect(await RevisionFeedback.countDocuments({ order_id: gone.orderId })).toBe(0);
      // The financial record stays, without the person in it.
      expect(await Order.findById(gone.orderId).lean()).toMatchObject({
        email: DELETED_EMAIL,
        data_deleted_at: expect.any(Date),
        amount_paid: 30_000,
        status: "paid",
        stripe_session_id: `cs_${gone.orderId}`,
        revision_1_feedback: null,
      });
      const audit = await PrivacyAuditLog.find({ order_id: gone.orderId }).lean();
      expect(audit.map((a) => [a.action, a.reason])).toContainEqual(["data_deletion", RETENTION_DELETION_REASON]);
    }
    for (const kept of [kept30, kept1y, permanent]) {
      expect(await IntakeSubmission.exists({ order_id: kept.orderId })).not.toBeNull();
      expect(await stored(kept.keys)).toEqual([true, true, true]);
      expect((await Order.findById(kept.orderId).lean())?.email).toBe(kept.email);
      expect(await PrivacyAuditLog.countDocuments({ order_id: kept.orderId, action: "data_deletion" })).toBe(0);
    }

    // A second run finds nothing more to do.
    expect(await deleteExpiredIntakeData()).toEqual({ deleted: 0, failed: 0 });
  });
});

describe("purges", () => {
  it("removes expired and idle sessions, expired account links, old rate-limit hits, stale coupon reservations and old delivered mail, and nothing else", async () => {
    const now = new Date();
    await Session.create([
      { _id: "expired-session", user_id: "u1", expires_at: new Date(now.getTime() - 1000) },
      {
        _id: "idle-session",
        user_id: "u1",
        expires_at: new Date(now.getTime() + DAY),
        last_seen_at: new Date(now.getTime() - SESSION_IDLE_MS - 1000),
      },
      { _id: "live-session", user_id: "u1", expires_at: new Date(now.getTime() + DAY) },
    ]);
    // A reset link and a confirmation link past their time, and a reset link still working.
    await AccountToken.create([
      {
        _id: "expired-reset",
        purpose: "reset",
        user_id: "u1",
        email: "a@example.test",
        expires_at: new Date(now.getTime() - 1000),
      },
      {
        _id: "expired-verify",
        purpose: "verify",
        user_id: "u1",
        email: "a@example.test",
        expires_at: new Date(now.getTime() - DAY),
      },
      {
        _id: "live-reset",
        purpose: "reset",
        user_id: "u1",
        email: "a@example.test",
        expires_at: new Date(now.getTime() + 60_000),
      },
    ]);
    await RateLimitHit.create([
      { _id: "contact:old:1", key: "contact:old", at: new Date(now.getTime() - PURGE_AFTER.rateLimitHitsMs - 1000) },
      { _id: "contact:new:1", key: "contact:new", at: new Date(now.getTime() - 60_000) },
    ]);

    // Two unpaid checkouts holding a coupon slot: one abandoned days ago, one still in progress.
    const stale = await Order.create({ email: uniqueAddress("stale"), amount_total: 27_000, coupon_code: "TEN" });
    const fresh = await Order.create({ email: uniqueAddress("fresh"), amount_total: 27_000, coupon_code: "TEN" });
    await CouponRedemption.create([
      { coupon_id: "c1", slot: "1", order_id: stale._id },
      { coupon_id: "c1", slot: "2", order_id: fresh._id },
    ]);
    await CouponRedemption.collection.updateOne(
      { order_id: stale._id },
      { $set: { created_at: new Date(now.getTime() - PURGE_AFTER.couponReservationMs - 1000) } },
    );

    const old = new Date(now.getTime() - PURGE_AFTER.deliveredMailMs - 1000);
    await OutboxMessage.create([
      { key: "old-sent", to: "a@example.test", subject: "s", text: "t", html: "h", status: "sent", sent_at: old },
      { key: "new-sent", to: "a@example.test", subject: "s", text: "t", html: "h", status: "sent", sent_at: now },
      { key: "old-failed", to: "a@example.test", subject: "s", text: "t", html: "h", status: "failed" },
    ]);
    await OutboxMessage.collection.updateOne({ key: "old-failed" }, { $set: { created_at: old } });

    expect(await purgeExpiredRecords(now)).toMatchObject({
      sessions: 2,
      accountLinks: 2,
      rateLimitHits: 1,
      couponReservations: 1,
      deliveredMail: 1,
    });
    expect((await Session.find().lean()).map((s) => s._id)).toEqual(["live-session"]);
    expect((await AccountToken.find().lean()).map((t) => t._id)).toEqual(["live-reset"]);
    expect((await RateLimitHit.find().lean()).map((h) => h.key)).toEqual(["contact:new"]);
    expect((await CouponRedemption.find().lean()).map((r) => r.order_id)).toEqual([fresh._id]);
    expect((await Order.findById(stale._id).lean())?.status).toBe("cancelled");
    expect((await Order.findById(fresh._id).lean())?.status).toBe("pending");
    // A failed message stays for the admin to see and retry, however old.
    expect((await OutboxMessage.find({ to: "a@example.test" }).sort({ key: 1 }).lean()).map((m) => m.key)).toEqual([
      "new-sent",
      "old-failed",
    ]);

    expect(await purgeExpiredRecords(now)).toMatchObject({
      sessions: 0,
      accountLinks: 0,
      rateLimitHits: 0,
      couponReservations: 0,
      deliveredMail: 0,
    });
  });

  it("never frees the coupon use of a paid order", async () => {
    const order = await Order.create({ email: uniqueAddress("paid"), amount_total: 27_000, coupon_code: "TEN" });
    await CouponRedemption.create({ coupon_id: "c2", slot: "1", order_id: order._id });
    await CouponRedemption.collection.updateOne({ order_id: order._id }, { $set: { created_at: daysAgo(5) } });
    // Paid, but the confirmation of the coupon use has not run yet (a crash between the two steps).
    await fulfilOrder({ orderId: order._id, sessionId: `cs_${order._id}`, amountPaid: 27_000 }).catch(() => {});
    await CouponRedemption.updateOne({ order_id: order._id }, { $set: { status: "reserved" } });
    await purgeExpiredRecords();
    expect(await CouponRedemption.exists({ order_id: order._id })).not.toBeNull();
    expect((await Order.findById(order._id).lean())?.status).toBe("paid");
  });

  it("removes the orders' change log after a day and the marks of processes silent for a week, never the log's name", async () => {
    const tag = randomBytes(4).toString("hex");
    await OrderChange.create([
      { _id: `old-${tag}:1`, ids: ["a"], at: daysAgo(2) },
      { _id: `new-${tag}:1`, ids: ["b"], at: new Date() },
    ]);
    await OrderChangeMark.create([
      { _id: `old-${tag}`, seq: 1, at: daysAgo(8) },
      { _id: `new-${tag}`, seq: 1, at: daysAgo(6) },
    ]);
    await OrderChangeMark.updateOne(
      { _id: "generation" },
      { $set: { generation: tag, at: daysAgo(30) } },
      { upsert: true },
    );
    expect((await purgeExpiredRecords()).orderChanges).toBeGreaterThanOrEqual(1);
    expect(await OrderChange.exists({ _id: `old-${tag}:1` })).toBeNull();
    expect(await OrderChange.exists({ _id: `new-${tag}:1` })).not.toBeNull();
    expect(await OrderChangeMark.exists({ _id: `old-${tag}` })).toBeNull();
    expect(await OrderChangeMark.exists({ _id: `new-${tag}` })).not.toBeNull();
    expect(await OrderChangeMark.exists({ _id: "generation" })).not.toBeNull();
  });
});
