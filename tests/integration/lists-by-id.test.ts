import { createHash } from "node:crypto";
import mongoose from "mongoose";
import { describe, expect, it } from "vitest";
import { claimGuestOrders, listOrdersForUser } from "~/server/customer-orders.server";
import { deleteOrderData } from "~/server/data-deletion.server";
import { createUser } from "~/server/accounts.server";
import { verifyLogin } from "~/server/auth.server";
import { MIGRATIONS } from "~/server/migrations.server";
import { customerOrders, emailOrders, emailOwner } from "~/server/models/customer-order.server";
import { CustomerOrder, EmailOrder, IntakeToken, Order, Subscription, User } from "~/server/models/index.server";

const EmailUser = emailUsers.Slot;
import { orderTokens, tokenList } from "~/server/models/intake-token.server";
import { subscriptionFacts, userSubscriptions } from "~/server/models/subscription.server";
import { emailUsers, findUserByEmail } from "~/server/models/user.server";
import { currentSubscription, recordInvoiceEvent } from "~/server/subscriptions.server";
import { hashToken, issueToken, newestToken } from "~/server/tokens.server";
import { useTestDatabase } from "../support/db";

/**
 * A customer's orders and an order's links are found by `_id`: numbered slots per owner
 * (models/slots.server.ts), filled by the models' hooks on every write that names or stops naming an owner,
 * under unique indexes (ARCHITECTURE.md rule 7).
 */
useTestDatabase();

let n = 0;
const user = () => `user-${Date.now()}-${++n}`;
const ids = (orders: { _id: string }[]) => orders.map((o) => o._id);
const slotsOf = async (userId: string) =>
  (await CustomerOrder.find({ _id: mongoose.trusted({ $regex: `^${userId}:` }) }).lean()).sort((a, b) =>
    a._id.localeCompare(b._id),
  );
const order = (userId: string | null, fields: Record<string, unknown> = {}) =>
  Order.create({ email: `c${++n}@example.test`, amount_total: 30_000, user_id: userId, ...fields });

describe("a customer's orders by _id", () => {
  it("list the customer's own orders newest first, each in one slot, and no one else's", async () => {
    const [me, other] = [user(), user()];
    const day = 86_400_000;
    const made = [];
    for (const k of [3, 1, 2]) made.push(await order(me, { created_at: new Date(Date.now() - k * day) }));
    const theirs = await order(other);
    await order(null);
    const [b, c] = await Order.insertMany([
      { email: "many@example.test", amount_total: 1, user_id: me, created_at: new Date(Date.now() - 2000) },
      { email: "many@example.test", amount_total: 1, user_id: me, created_at: new Date(Date.now() - 1000) },
    ]);

    expect(ids(await listOrdersForUser(me))).toEqual([c._id, b._id, made[1]._id, made[2]._id, made[0]._id]);
    expect((await slotsOf(me)).map((s) => s._id)).toEqual([0, 1, 2, 3, 4].map((k) => `${me}:${k}`));
    expect(ids(await listOrdersForUser(other))).toEqual([theirs._id]);
  });

  it("give 20 orders created at once for one customer 20 slots, and an order linked 10 times at once one", async () => {
    const me = user();
    const made = await Promise.all(Array.from({ length: 20 }, () => order(me)));
    const slots = await slotsOf(me);
    expect(slots).toHaveLength(20);
    expect(new Set(slots.map((s) => s.member))).toEqual(new Set(ids(made)));
    expect(ids(await listOrdersForUser(me)).sort()).toEqual(ids(made).sort());

    const more = await order(null);
    await Promise.all(Array.from({ length: 10 }, () => customerOrders.add(me, more._id)));
    expect((await slotsOf(me)).filter((s) => s.member === more._id)).toHaveLength(1);
    // In a slot but not the customer's order: not listed.
    expect(ids(await listOrdersForUser(me))).not.toContain(more._id);
  });

  it("list guest orders once the account claims them, and no longer once their data is deleted", async () => {
    const address = `claim-${++n}@example.test`;
    const account = await User.create({ email: address, password_hash: "x", email_verified_at: new Date() });
    const me = String(account._id);
    const guests = [await order(null, { email: address }), await order(null, { email: address })];
    expect(await listOrdersForUser(me)).toEqual([]);

    await claimGuestOrders(account.toObject());
    await claimGuestOrders(account.toObject());
    expect(ids(await listOrdersForUser(me)).sort()).toEqual(ids(guests).sort());
    expect(await slotsOf(me)).toHaveLength(2);

    await deleteOrderData({ orderId: guests[0]._id, reason: "asked by the customer" });
    expect(ids(await listOrdersForUser(me))).toEqual([guests[1]._id]);
    // The slot stays taken (a walk goes on past it) but names no order.
    expect((await slotsOf(me)).map((s) => s.member)).toEqual([`${me}:0`, guests[1]._id]);
    const later = await order(me);
    expect(ids(await listOrdersForUser(me))).toEqual([later._id, guests[1]._id]);
  });

  it("find an order's newest link of each purpose through its list, an event issued once however often it runs", async () => {
    const made = await order(null);
    const first = await issueToken({ orderId: made._id, purpose: "intake", issueKey: `paid:${made._id}` });
    const status = await issueToken({ orderId: made._id, purpose: "status", issueKey: `paid:${made._id}` });
    await Promise.all(
      Array.from({ length: 5 }, () => issueToken({ orderId: made._id, purpose: "intake", issueKey: "r1" })),
    );
    const newest = await issueToken({ orderId: made._id, purpose: "intake", issueKey: "r2" });
    expect(first).not.toBe(newest);
    expect((await newestToken(made._id, "intake"))?.token._id).toBe(hashToken(newest));
    expect((await newestToken(made._id, "status"))?.token._id).toBe(hashToken(status));
    expect(await orderTokens.members(tokenList(made._id, "intake"))).toHaveLength(3);
    expect(await newestToken((await order(null))._id, "intake")).toBeNull();
  });

  it("list the orders and links stored before the lists, by the migration, once", async () => {
    const me = user();
    const { insertedIds } = await Order.collection.insertMany(
      [1, 2, 3].map((k) => ({
        _id: `${me}-order-${k}`,
        email: "before@example.test",
        amount_total: 30_000,
        status: "paid",
        user_id: me,
        created_at: new Date(Date.now() - k * 1000),
      })) as never[],
    );
    await IntakeToken.collection.insertOne({
      _id: `${me}-token`,
      order_id: `${me}-order-1`,
      purpose: "intake",
      issue_key: `before:${me}`,
      expires_at: new Date(Date.now() + 86_400_000),
      used: false,
      auto_renewed_count: 0,
      created_at: new Date(),
    } as never);
    expect(await listOrdersForUser(me)).toEqual([]);
    expect(await newestToken(`${me}-order-1`, "intake")).toBeNull();

    const migration = MIGRATIONS.find((m) => m.id === "2026-11-27-lists-by-id")!;
    expect(await migration.up(new Date())).toMatch(/^listed \d+ orders and \d+ links$/);
    await migration.up(new Date());
    expect(ids(await listOrdersForUser(me))).toEqual(Object.values(insertedIds).map(String));
    expect(await slotsOf(me)).toHaveLength(3);
    expect((await newestToken(`${me}-order-1`, "intake"))?.token._id).toBe(`${me}-token`);
  });

  it("claim an address's guest orders through its list: only that address's, listed however they were written", async () => {
    const address = `Guest-${++n}@Example.test`;
    const lower = address.toLowerCase();
    const account = await User.create({ email: lower, password_hash: "x", email_verified_at: new Date() });
    const me = String(account._id);
    const saved = await order(null, { email: address });
    const [many] = await Order.insertMany([{ email: ` ${address} `, amount_total: 1 }]);
    const moved = await order(null);
    await Order.updateOne({ _id: moved._id }, { $set: { email: lower } });
    const away = await order(null, { email: address });
    await Order.updateOne({ _id: away._id }, { $set: { email: `else-${n}@example.test` } });
    const someoneElse = await order(null);
    const owner = user();
    const owned = await order(owner, { email: lower });

    expect((await emailOrders.members(emailOwner(address)!)).sort()).toEqual(ids([saved, many, moved, owned]).sort());
    // The slot of the order that moved away stays taken but names nothing; no address is kept in the list.
    expect(await EmailOrder.countDocuments({ _id: mongoose.trusted({ $regex: `@` }) })).toBe(0);
    await claimGuestOrders(account.toObject());
    expect(ids(await listOrdersForUser(me)).sort()).toEqual(ids([saved, many, moved]).sort());
    expect((await Order.findById(owned._id).lean())?.user_id).toBe(owner);
    expect((await Order.findById(someoneElse._id).lean())?.user_id).toBeNull();
    expect((await Order.findById(away._id).lean())?.user_id).toBeNull();

    // A data deletion takes the order out of its address's list and lists it under no other.
    await deleteOrderData({ orderId: saved._id, reason: "asked by the customer" });
    expect(await emailOrders.members(emailOwner(address)!)).not.toContain(saved._id);
    expect(emailOwner("deleted@deleted.invalid")).toBeNull();
  });

  it("find a user's plan facts through their list, a replayed fact listed once", async () => {
    const [me, other] = [user(), user()];
    const fact = (id: string, userId: string, status: string, ago: number) => ({
      _id: id,
      stripe_subscription_id: `sub-${userId}`,
      user_id: userId,
      plan_id: "essentials",
      status,
      observed_at: new Date(Date.now() - ago),
    });
    await Subscription.create(fact(`evt-${me}-1`, me, "active", 2000));
    await Subscription.create(fact(`evt-${other}-1`, other, "active", 1000));
    await Subscription.create(fact(`evt-${me}-2`, me, "past_due", 1000));
    await expect(Subscription.create(fact(`evt-${me}-2`, me, "past_due", 1000))).rejects.toThrow();
    expect(await userSubscriptions.members(me)).toEqual([`evt-${me}-1`, `evt-${me}-2`]);
    expect(await currentSubscription(me)).toMatchObject({ subscriptionId: `sub-${me}`, status: "past_due" });
    expect(await currentSubscription(user())).toBeNull();
  });

  it("list the orders by address and the plan facts stored before the lists, by the migration, once", async () => {
    const me = user();
    const address = `before-${me}@example.test`;
    await Order.collection.insertOne({
      _id: `${me}-guest`,
      email: address,
      amount_total: 30_000,
      status: "paid",
      user_id: null,
      created_at: new Date(),
    } as never);
    await Subscription.collection.insertOne({
      _id: `evt-${me}`,
      stripe_subscription_id: `sub-${me}`,
      user_id: me,
      status: "active",
      observed_at: new Date(),
    } as never);
    expect(await currentSubscription(me)).toBeNull();

    const migration = MIGRATIONS.find((m) => m.id === "2026-11-27-email-and-plan-lists")!;
    expect(await migration.up(new Date())).toMatch(/^listed \d+ orders? by address and \d+ plan facts?$/);
    await migration.up(new Date());
    expect(await emailOrders.members(emailOwner(address)!)).toEqual([`${me}-guest`]);
    expect(await currentSubscription(me)).toMatchObject({ subscriptionId: `sub-${me}`, status: "active" });
    expect(await userSubscriptions.members(me)).toEqual([`evt-${me}`]);
  });

  it("give an invoice event what is known of its subscription through that subscription's list, facts stored before it by the migration", async () => {
    const me = user();
    const subscriptionId = `sub-inv-${me}`;
    const t = Math.floor(Date.now() / 1000);
    // Stored before the list existed: a created subscription with its plan, and an unrelated subscriber's fact.
    await Subscription.collection.insertMany([
      {
        _id: `evt-inv-${me}-c`,
        stripe_subscription_id: subscriptionId,
        user_id: me,
        plan_id: "professional",
        product_id: "prod_professional",
        status: "active",
        cancel_at_period_end: true,
        observed_at: new Date((t - 100) * 1000),
      },
      {
        _id: `evt-inv-${me}-x`,
        stripe_subscription_id: `sub-x-${me}`,
        user_id: user(),
        status: "active",
        observed_at: new Date(),
      },
    ] as never[]);
    const migration = MIGRATIONS.find((m) => m.id === "2026-11-27-subscription-fact-lists")!;
    expect(await migration.up(new Date())).toMatch(/^listed \d+ plan facts? by subscription$/);
    await migration.up(new Date());
    expect(await subscriptionFacts.members(subscriptionId)).toEqual([`evt-inv-${me}-c`]);

    // An invoice whose subscription details carry no metadata (one made before the app set any): its user, plan
    // and cancel-at-period-end come from the subscription's facts.
    const invoice = (id: string, type: string, created: number) => ({
      id,
      type,
      created,
      data: {
        object: {
          object: "invoice",
          customer: `cus-${me}`,
          parent: { subscription_details: { subscription: subscriptionId } },
          lines: { data: [{ period: { end: t + 30 * 86_400 } }] },
        },
      },
    });
    expect(await recordInvoiceEvent(invoice(`evt-inv-${me}-f`, "invoice.payment_failed", t) as never)).toBe(
      "processed",
    );
    expect(await subscriptionFacts.members(subscriptionId)).toEqual([`evt-inv-${me}-c`, `evt-inv-${me}-f`]);
    expect(await currentSubscription(me)).toMatchObject({
      subscriptionId,
      status: "past_due",
      planId: "professional",
      productId: "prod_professional",
      cancelAtPeriodEnd: true,
    });
    // A subscription nothing is known of, without metadata: ignored, nothing stored.
    const unknown = {
      ...invoice(`evt-inv-${me}-u`, "invoice.paid", t),
      data: { object: { object: "invoice", subscription: `sub-none-${me}` } },
    };
    expect(await recordInvoiceEvent(unknown as never)).toBe("ignored");
    expect(await Subscription.findById(`evt-inv-${me}-u`).lean()).toBeNull();
  });
});

describe("an address's account by _id", () => {
  const sha = (address: string) => createHash("sha256").update(address).digest("hex");
  const address = () => `Account${Date.now()}-${++n}@Example.test`;

  it("finds an account by its address in any case, through its slot, and signs it in; without the slot it finds none", async () => {
    const typed = address();
    const lower = typed.toLowerCase();
    const made = await createUser({ email: typed, password: "a long password 1", verified: true });
    expect(await EmailUser.findById(`${sha(lower)}:0`).lean()).toMatchObject({ member: made.id });
    expect(String((await findUserByEmail(` ${typed.toUpperCase()} `))?._id)).toBe(made.id);
    expect((await verifyLogin(typed, "a long password 1", `10.61.${n}.1`)).id).toBe(made.id);
    expect(await findUserByEmail(`other-${lower}`)).toBeNull();
    // Nothing scans `users` for the address: an account whose slot is emptied is not found.
    await emailUsers.remove(sha(lower), made.id);
    expect(await findUserByEmail(lower)).toBeNull();
    await emailUsers.add(sha(lower), made.id);
    expect(String((await findUserByEmail(lower))?._id)).toBe(made.id);
  });

  it("lists users made by create and insertMany, skips a member that names no account, adds none for a taken address, and keeps one account under a race", async () => {
    const [one, two] = [address().toLowerCase(), address().toLowerCase()];
    const [a] = await User.insertMany([{ email: one, password_hash: "x" }]);
    const b = await User.create({ email: two, password_hash: "x" });
    expect(String((await findUserByEmail(one))?._id)).toBe(String(a._id));
    expect(String((await findUserByEmail(two))?._id)).toBe(String(b._id));
    // A member naming no account (a sign-up whose insert failed after its slot was taken): left out.
    await emailUsers.add(sha(one), new mongoose.Types.ObjectId().toString());
    expect(String((await findUserByEmail(one))?._id)).toBe(String(a._id));

    // Another account tried with a taken address: refused by users.email, and no slot is added for it.
    await expect(User.create({ email: one.toUpperCase(), password_hash: "x" })).rejects.toThrow(/E11000|duplicate/);
    const slots = await EmailUser.countDocuments({ _id: mongoose.trusted({ $regex: `^${sha(one)}:` }) });
    expect(slots).toBe(2);

    // Ten sign-ups of one address at once: one account (users.email is unique), and that one is found.
    const raced = address().toLowerCase();
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => User.create({ email: raced, password_hash: "x" })),
    );
    const stored = results.filter((r) => r.status === "fulfilled");
    expect(stored).toHaveLength(1);
    expect(String((await findUserByEmail(raced))?._id)).toBe(
      String((stored[0] as PromiseFulfilledResult<{ _id: unknown }>).value._id),
    );
  });

  it("lists the accounts made before, once, by its migration", async () => {
    const before = address().toLowerCase();
    const user = await User.create({ email: before, password_hash: "x" });
    await EmailUser.deleteMany({ member: String(user._id) });
    expect(await findUserByEmail(before)).toBeNull();
    const migration = MIGRATIONS.find((m) => m.id === "2026-11-28-address-account-lists")!;
    await migration.up(new Date());
    await migration.up(new Date());
    expect(String((await findUserByEmail(before))?._id)).toBe(String(user._id));
    expect(await EmailUser.countDocuments({ member: String(user._id) })).toBe(1);
  });
});
