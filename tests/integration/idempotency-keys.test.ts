import { describe, expect, it } from "vitest";
import { isDuplicateKeyError } from "~/server/db.server";
import {
  CouponRedemption,
  FormReceipt,
  Fulfilment,
  IntakeSubmission,
  IntakeToken,
  OutboxMessage,
  PrivacyAuditLog,
  ReminderLog,
  RevisionFeedback,
  StripeEvent,
  User,
} from "~/server/models/index.server";
import { useTestDatabase } from "../support/db";

useTestDatabase();

/** Runs `insert` 20 times at once and counts winners and duplicate-key losers. */
async function race(insert: (i: number) => Promise<unknown>) {
  const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => insert(i)));
  const won = results.filter((r) => r.status === "fulfilled").length;
  const duplicates = results.filter((r) => r.status === "rejected" && isDuplicateKeyError(r.reason)).length;
  const other = results.filter((r) => r.status === "rejected" && !isDuplicateKeyError(r.reason));
  return { won, duplicates, other: other.map((r) => String((r as PromiseRejectedResult).reason)) };
}

const soon = new Date(Date.now() + 7 * 86_400_000);

// Each exactly-once effect of ARCHITECTURE.md rule 7, raced 20 times at once.
const cases: [string, (i: number) => Promise<unknown>][] = [
  ["a Stripe webhook event id", () => StripeEvent.create({ _id: "evt_1", type: "checkout.session.completed" })],
  [
    "fulfilment of one order",
    (i) => Fulfilment.create({ order_id: "order-1", stripe_session_id: `cs_${i}`, amount_paid: 30000 }),
  ],
  [
    "fulfilment of one Stripe session",
    (i) => Fulfilment.create({ order_id: `order-${i + 100}`, stripe_session_id: "cs_same", amount_paid: 30000 }),
  ],
  [
    "the token issued by one event",
    (i) =>
      IntakeToken.create({ _id: `h${i}`, order_id: "o1", purpose: "intake", issue_key: "paid:o1", expires_at: soon }),
  ],
  ["one submission per order", () => IntakeSubmission.create({ _id: "o1", order_id: "o1" })],
  [
    "one feedback per order and round",
    (i) => RevisionFeedback.create({ order_id: "o1", round: 2, feedback: `feedback ${i}` }),
  ],
  ["one coupon use per slot", (i) => CouponRedemption.create({ coupon_id: "c1", slot: "1", order_id: `order-${i}` })],
  [
    "one coupon use per order",
    (i) => CouponRedemption.create({ coupon_id: "c2", slot: String(i + 1), order_id: "order-x" }),
  ],
  [
    "one outbox message per key",
    (i) => OutboxMessage.create({ key: "mail:1", to: "a@example.test", subject: `s${i}`, text: "t", html: "h" }),
  ],
  [
    "one reminder per key",
    () => ReminderLog.create({ key: "reminder:o1:day1", order_id: "o1", kind: "intake", source: "cron" }),
  ],
  [
    "one audit entry per key",
    () => PrivacyAuditLog.create({ key: "consent:o1", action: "consent_given", order_id: "o1" }),
  ],
  ["one account per e-mail", () => User.create({ email: "Same@Example.test", password_hash: "x" })],
  ["one answer per form post (its receipt)", () => FormReceipt.create({ _id: "contact:receipt-1" })],
];

describe("unique indexes make each effect happen once under concurrency", () => {
  it.each(cases)("%s: 1 of 20 concurrent inserts wins, 19 get E11000", async (_name, insert) => {
    const { won, duplicates, other } = await race(insert);
    expect(other).toEqual([]);
    expect(won).toBe(1);
    expect(duplicates).toBe(19);
  });

  it("keeps different keys apart (a second slot of the same coupon is a separate use)", async () => {
    await CouponRedemption.create({ coupon_id: "c3", slot: "1", order_id: "a" });
    await CouponRedemption.create({ coupon_id: "c3", slot: "2", order_id: "b" });
    expect(await CouponRedemption.countDocuments({ coupon_id: "c3" })).toBe(2);
  });
});
