import { randomUUID } from "node:crypto";
import mongoose from "mongoose";
import { beforeAll, describe, expect, it } from "vitest";
import { PAGE_SIZE } from "~/domain/admin/order-filters";
import * as orders from "~/routes/admin._index";
import * as csv from "~/routes/admin.orders[.]csv";
import { ordersFilter } from "~/server/admin/orders.server";
import { AdminAuditLog, Order, OutboxMessage, ReminderLog } from "~/server/models/index.server";
import { afterCursor } from "~/server/paging.server";
import { flashOf, get, paidOrderWithSession, post } from "../support/admin";
import { signedInUser } from "../support/auth";
import { useTestDatabase } from "../support/db";

useTestDatabase();

const DAY = 86_400_000;
let cookie: string;
const tag = randomUUID().slice(0, 6);

beforeAll(async () => {
  cookie = (await signedInUser({ admin: true })).cookie;
});

type ListData = Awaited<ReturnType<typeof orders.loader>>;
const list = async (query = "") => {
  const data = (await get(orders.loader, `/admin${query}`, cookie)).data as ListData;
  return { ...data, rows: data.page.rows, nextCursor: data.page.next };
};

async function makeOrder(fields: Record<string, unknown>) {
  const created = await Order.create({ email: `o-${randomUUID()}@example.test`, amount_total: 30_000, ...fields });
  // Through the model, so the change log (and the figures' digest) hears of it.
  if (fields.created_at)
    await Order.updateOne(
      { _id: created._id },
      { $set: { created_at: fields.created_at as Date } },
      { overwriteImmutable: true },
    );
  return created._id;
}

describe("the orders list", () => {
  let jo: string;
  beforeAll(async () => {
    jo = await makeOrder({
      email: `jo.${tag}@acme.test`,
      status: "paid",
      amount_paid: 30_000,
      created_at: new Date(Date.now() - 2 * DAY),
    });
    await makeOrder({
      email: `old.${tag}@acme.test`,
      status: "completed",
      amount_paid: 30_000,
      created_at: new Date(Date.now() - 200 * DAY),
    });
    for (let i = 0; i < PAGE_SIZE + 3; i++)
      await makeOrder({ status: "pending", created_at: new Date(Date.now() - i * 60_000) });
  });

  it("finds an order by e-mail prefix in any case, or by the first characters of its id", async () => {
    expect((await list(`?q=JO.${tag.toUpperCase()}`)).rows.map((r) => r.id)).toEqual([jo]);
    const byId = await list(`?q=${jo.slice(0, 8)}`);
    expect(byId.rows.map((r) => r.id)).toContain(jo);
    expect((await list(`?q=order%20%23${jo.slice(0, 8)}`)).rows.map((r) => r.id)).toContain(jo);
  });

  it("filters by status and date, and says when nothing matches", async () => {
    const paid = await list(`?q=${tag}&status=paid`);
    expect(paid.rows).toHaveLength(0); // the tag is in the e-mail, not its start
    expect((await list(`?q=old.${tag}&date=quarter`)).rows).toHaveLength(0);
    expect((await list(`?q=old.${tag}`)).rows).toHaveLength(1);
    const none = await list("?q=nobody-at-all");
    expect(none.rows).toHaveLength(0);
    expect(none.anyOrders).toBe(true);
  });

  it("asks the database one flat filter: $and only where two conditions name one field", () => {
    const now = new Date("2026-11-20T00:00:00Z");
    const paidThisWeek = ordersFilter({ status: "paid", date: "week" }, now);
    expect(Object.keys(paidThisWeek)).toEqual(["status", "created_at"]);
    expect(ordersFilter({ status: "paid" }, now)).toEqual({ status: "paid" });
    const searched = ordersFilter({ status: "paid", q: "jo" }, now);
    expect(Object.keys(searched)).toEqual(["status", "$or"]);
    // A keyset page of a search: two $or, so those two (and only those) are joined by $and.
    const page = afterCursor(searched, "created_at", { at: now, id: "x" });
    expect(Object.keys(page)).toEqual(["status", "$and"]);
    expect(page.$and).toHaveLength(2);
  });

  it("pages newest first with a keyset cursor, without repeating or skipping", async () => {
    const first = await list("?status=pending");
    expect(first.rows).toHaveLength(PAGE_SIZE);
    expect(first.total).toBe(PAGE_SIZE + 3);
    const second = await list(`?status=pending&before=${first.nextCursor}`);
    expect(second.rows).toHaveLength(3);
    expect(second.nextCursor).toBeNull();
    const ids = [...first.rows, ...second.rows].map((r) => r.id);
    expect(new Set(ids).size).toBe(PAGE_SIZE + 3);
  });

  it("shows rows as the spec draws them", async () => {
    const [row] = (await list(`?q=jo.${tag}`)).rows;
    expect(row).toMatchObject({
      shortId: jo.slice(0, 8),
      statusText: "PAID",
      tone: "green",
      guest: true,
      amount: "$300.00",
    });
  });

  it("exports the filtered list as CSV", async () => {
    const answer = await csv.loader({
      request: new Request(`http://localhost/admin/orders.csv?q=jo.${tag}`, { headers: { Cookie: cookie } }),
      params: {},
      context: {},
    });
    expect(answer.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    const text = await answer.text();
    const lines = text.trim().split("\r\n");
    expect(lines[0]).toBe(
      "order_id,status,guest,email,amount_paid,currency,created_at,payment_intent_id,product,created_sydney,add_ons,coupon,discount,data_deleted",
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`${jo},paid,yes,jo.${tag}@acme.test,300.00,AUD`);
  });
});

describe("bulk actions", () => {
  const bulk = (body: Record<string, string | string[]>) =>
    post(orders.action, "/admin", cookie, { intent: "bulk", ...body });

  it("moves paid work to completed and in progress, leaving unpaid orders alone, with an audit entry each", async () => {
    const a = await makeOrder({ status: "paid", amount_paid: 30_000 });
    const b = await makeOrder({ status: "in_progress", amount_paid: 30_000 });
    const unpaid = await makeOrder({ status: "pending" });
    const answer = await bulk({ action: "completed", orderIds: [a, b, unpaid] });
    expect(answer.status).toBe(303);
    expect(await flashOf(answer)).toEqual({
      kind: "success",
      title: "Updated 2 orders to completed. 1 order skipped: not paid (pending, failed or cancelled).",
    });
    expect((await Order.findById(unpaid).lean())!.status).toBe("pending");
    expect((await Order.findById(a).lean())!.status).toBe("completed");
    expect(
      await AdminAuditLog.countDocuments({ action: "order.status", target_id: mongoose.trusted({ $in: [a, b] }) }),
    ).toBe(2);
    expect(await flashOf(await bulk({ action: "in_progress", orderIds: [a] }))).toEqual({
      kind: "success",
      title: "Updated 1 order to in progress",
    });
  });

  it("answers a missing choice with the spec's messages and changes nothing", async () => {
    const a = await makeOrder({ status: "paid", amount_paid: 30_000 });
    expect((await flashOf(await bulk({ action: "delete_everything", orderIds: [a] })))?.title).toBe(
      "Invalid action selected",
    );
    expect((await flashOf(await bulk({ action: "", orderIds: [a] })))?.title).toBe("Please choose a bulk action");
    expect((await flashOf(await bulk({ action: "completed" })))?.title).toBe("Please select at least one order");
    expect((await flashOf(await bulk({ action: "completed", orderIds: ["not-an-id"] })))?.title).toBe(
      "Please select at least one order",
    );
    expect((await Order.findById(a).lean())!.status).toBe("paid");
    expect((await post(orders.action, "/admin", cookie, { intent: "drop" })).status).toBe(400);
  });

  it("'Select all' applies to every order matching the filters", async () => {
    const email = `all-${randomUUID()}@bulk.test`;
    const ids = [
      await makeOrder({ email, status: "paid", amount_paid: 1 }),
      await makeOrder({ email, status: "paid", amount_paid: 1 }),
    ];
    const answer = await bulk({ action: "completed", all: "on", q: email });
    expect(await flashOf(answer)).toEqual({ kind: "success", title: "Updated 2 orders to completed" });
    expect(answer.location).toBe(`/admin?q=${encodeURIComponent(email)}`);
    for (const id of ids) expect((await Order.findById(id).lean())!.status).toBe("completed");
  });

  it("enables revision 1 and e-mails each customer once, however often it is posted", async () => {
    const { orderId } = await paidOrderWithSession(`rev-${randomUUID()}@example.test`);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => bulk({ action: "enable_revision_1", orderIds: [orderId] })),
    );
    expect(await flashOf(answers[0])).toEqual({ kind: "success", title: "Enabled revision 1 for 1 order" });
    expect((await Order.findById(orderId).lean())!.revision_1_enabled).toBe(true);
    expect(await OutboxMessage.countDocuments({ key: `revision-opened:${orderId}:1` })).toBe(1);
  });

  it("sends each reminder once under the cron's rules, even 20 posts at once", async () => {
    const { orderId } = await paidOrderWithSession(`remind-${randomUUID()}@example.test`);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => bulk({ action: "send_reminders", orderIds: [orderId] })),
    );
    const titles = await Promise.all(answers.map(async (a) => (await flashOf(a))?.title));
    expect(titles.filter((t) => t === "Sent reminders for 1 order")).toHaveLength(1);
    // Every other post names the order it skipped, and why.
    expect(
      titles.filter((t) => t === "Sent reminders for 0 orders. 1 order skipped: limit reached or sent recently."),
    ).toHaveLength(19);
    expect(await ReminderLog.countDocuments({ order_id: orderId })).toBe(1);
    expect(await OutboxMessage.countDocuments({ key: mongoose.trusted({ $regex: `^reminder:${orderId}:` }) })).toBe(1);
  });
});

describe("the figures", () => {
  it("come from the data: cards and a 12-week chart", async () => {
    const data = await list();
    expect(data.cards.map((c) => c.label)).toEqual([
      "Total Revenue",
      "Total Orders",
      "Avg Order Value",
      "Active Projects",
      "Completion Rate",
      "Avg Delivery",
    ]);
    expect(data.weeks).toHaveLength(12);
    // Total Orders counts every order, as the unfiltered list's "Select all (N orders)" does.
    const allOrders = await Order.countDocuments({});
    expect(data.cards[1].value).toBe(String(allOrders));
    expect(data.total).toBe(allOrders);
    for (const c of data.cards) {
      expect(c.hint).not.toBe("");
      expect(c.trend).toMatch(/vs previous 30 days|no orders in|no deliveries yet|none delivered in/);
    }
    // Filtered, the list counts what matches, and the cards stay all-time.
    const paid = await list("?status=paid");
    expect(paid.total).toBe(await Order.countDocuments({ status: "paid" }));
    expect(paid.cards[1].value).toBe(String(allOrders));
  });
});

describe("cancelled orders (abandoned checkouts)", () => {
  it("have their own filter, a badge and a CSV status, and stay out of the cards and the chart", async () => {
    const before = await list();
    const card = (cards: typeof before.cards, label: string) => cards.find((c) => c.label === label)!.value;
    const weekOrders = (weeks: typeof before.weeks) => weeks.reduce((n, w) => n + w.orders, 0);
    const email = `cancel.${tag}@acme.test`;
    const cancelled = await makeOrder({ status: "cancelled", email });

    const filtered = await list(`?q=${encodeURIComponent(email)}&status=cancelled`);
    expect(filtered.rows.map((r) => [r.id, r.statusText, r.tone])).toEqual([[cancelled, "CANCELLED", "grey"]]);
    expect((await list(`?q=${encodeURIComponent(email)}&status=pending`)).rows).toHaveLength(0);

    const after = await list();
    for (const label of ["Total Orders", "Total Revenue", "Avg Order Value", "Active Projects", "Completion Rate"])
      expect(card(after.cards, label), label).toBe(card(before.cards, label));
    expect(weekOrders(after.weeks)).toBe(weekOrders(before.weeks));

    const answer = await csv.loader({
      request: new Request(`http://localhost/admin/orders.csv?q=${encodeURIComponent(email)}&status=cancelled`, {
        headers: { Cookie: cookie },
      }),
      params: {},
      context: {},
    });
    const lines = (await answer.text()).trim().split("\r\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`${cancelled},cancelled,yes,${email},0.00,AUD`);
  });
});
