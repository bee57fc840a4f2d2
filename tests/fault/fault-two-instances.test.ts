import mongoose from "mongoose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COUPON_MESSAGES } from "~/domain/pricing";
import { TOKEN_PURPOSES } from "~/domain/tokens";
import { Coupon, CouponRedemption, Fulfilment, IntakeToken, Order, OutboxMessage } from "~/server/models/index.server";
import { postForm, startAppProcess, type AppProcess } from "../support/app-process";
import { useTestDatabase } from "../support/db";
import { messagesTo, uniqueAddress, waitForMessages } from "../support/mailpit";
import { privatePort } from "../support/processes";
import { sessionEvent, signedDelivery, uniqueId } from "../support/stripe-events";

// Two instances of the built app on one database, as a site that outgrew one machine runs them
// behind a load balancer: both take checkouts and webhooks, and both run the mail outbox worker.
useTestDatabase();
const apps: AppProcess[] = [];
beforeAll(async () => {
  const port = privatePort(16000);
  const env = { MONGODB_URI: process.env.MONGODB_URI!, OUTBOX_POLL_MS: "200", OUTBOX_BACKOFF_MS: "200" };
  apps.push(...(await Promise.all([startAppProcess({ port, env }), startAppProcess({ port: port + 1000, env })])));
}, 120_000);
afterAll(() => Promise.all(apps.map((a) => a.stop())));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const shuffle = <T>(items: T[]) =>
  items
    .map((v) => [Math.random(), v] as const)
    .sort((a, b) => a[0] - b[0])
    .map(([, v]) => v);
const checkout = (app: AppProcess, fields: Record<string, string>) =>
  postForm(`${app.url}/checkout`, { terms: "on", intent: "pay", ...fields });

describe("two app instances on one database", () => {
  it(
    "turn 100 duplicate, out-of-order webhook deliveries for 5 sessions into one paid order, one token of each kind and one e-mail each",
    { timeout: 120_000 },
    async () => {
      const buyers = Array.from({ length: 5 }, (_, i) => uniqueAddress(`twin${i}`));
      for (const [i, email] of buyers.entries()) expect((await checkout(apps[i % 2], { email })).status).toBe(303);
      const orders = await Order.find({ email: mongoose.trusted({ $in: buyers }) }).lean();
      expect(orders).toHaveLength(5);

      // Each session's two paid events (completed, async success), each sent 10 times, to either instance, in any order, at once.
      const events = orders.flatMap((o) => {
        const session = { id: o.stripe_session_id!, orderId: o._id, amount: o.amount_total };
        return ["checkout.session.completed", "checkout.session.async_payment_succeeded"].map((type) =>
          sessionEvent(type, session, uniqueId("evt")),
        );
      });
      const deliveries = shuffle(events.flatMap((e) => Array.from({ length: 10 }, () => e)));
      expect(deliveries).toHaveLength(100);
      const statuses = await Promise.all(
        deliveries.map((e, i) => fetch(`${apps[i % 2].url}/webhooks/stripe`, signedDelivery(e)).then((r) => r.status)),
      );
      expect(statuses.filter((s) => s !== 200)).toEqual([]);

      for (const o of orders) {
        expect((await Order.findById(o._id).lean())?.status).toBe("paid");
        expect(await Fulfilment.countDocuments({ order_id: o._id })).toBe(1);
        for (const purpose of TOKEN_PURPOSES)
          expect(await IntakeToken.countDocuments({ order_id: o._id, purpose })).toBe(1);
        expect(await OutboxMessage.countDocuments({ to: o.email })).toBe(1);
      }
      // Both outbox workers poll the same queue: each buyer's e-mail arrives once, and no second copy follows.
      for (const email of buyers) expect(await waitForMessages(email, 1, 20_000)).toHaveLength(1);
      await sleep(2_000);
      for (const email of buyers) expect(await messagesTo(email)).toHaveLength(1);
    },
  );

  it(
    "give the last use of a coupon to exactly one of 50 concurrent checkouts, and tell the other 49",
    { timeout: 120_000 },
    async () => {
      const code = `LAST${Date.now() % 100_000}`;
      const coupon = await Coupon.create({ code, discount_type: "fixed", discount_value: 1000, max_uses: 3 });
      for (const slot of ["1", "2"])
        await CouponRedemption.create({
          coupon_id: String(coupon._id),
          slot,
          order_id: `earlier-${slot}`,
          status: "used",
        });

      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          checkout(apps[i % 2], { email: uniqueAddress(`last${i}`), couponCode: code }).then(async (r) => ({
            status: r.status,
            body: await r.text(),
          })),
        ),
      );
      // A failure says what all 50 answers were: how many of each status, and the start of any other than 303 or 409.
      const statuses: Record<number, number> = {};
      for (const a of answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
      const others = answers.filter((a) => a.status !== 303 && a.status !== 409);
      const said = [
        `answers by status ${JSON.stringify(statuses)}`,
        ...others.map((a) => `${a.status}: ${a.body.slice(0, 300)}`),
      ].join("; ");
      const won = answers.filter((a) => a.status === 303);
      expect(won, said).toHaveLength(1);
      const refused = answers.filter((a) => a.status === 409);
      expect(refused, said).toHaveLength(49);
      for (const a of refused) expect(a.body, said).toContain(COUPON_MESSAGES.usedUp);
      expect(await CouponRedemption.countDocuments({ coupon_id: String(coupon._id) }), said).toBe(3);
    },
  );
});
