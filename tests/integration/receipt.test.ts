import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { loader as dashboardLoader } from "~/routes/dashboard";
import { loader as statusLoader } from "~/routes/order-status";
import { quote } from "~/domain/pricing";
import type { ReceiptView } from "~/domain/receipt";
import { fulfilOrder, statusTokenFor } from "~/server/fulfilment.server";
import { Coupon, Order, OutboxMessage } from "~/server/models/index.server";
import { get } from "../support/admin";
import { tokenCookie } from "../support/app-data";
import { signedInUser } from "../support/auth";
import { useTestDatabase } from "../support/db";

useTestDatabase();

/**
 * The customer's receipt (date, order number, items, coupon and discount, total in AUD, the
 * business's name and ABN) says the same on the payment e-mail, the dashboard and the order status page, for a
 * Starter buyer, a 24-Hour Website with add-ons and a coupon, and an Enterprise buyer.
 */
async function buy(input: { packageId?: string; addOnIds?: string[]; coupon?: Parameters<typeof quote>[0]["coupon"] }) {
  const owner = await signedInUser();
  // The coupon exists, as checkout found it, so its use is kept when the order is paid.
  if (input.coupon) await Coupon.create(input.coupon);
  const priced = quote({ packageId: input.packageId, addOnIds: input.addOnIds ?? [], coupon: input.coupon });
  const order = await Order.create({
    email: `receipt-${randomBytes(4).toString("hex")}@example.test`,
    user_id: owner.user.id,
    product_id: priced.product.id,
    product_name: priced.product.name,
    add_ons: priced.addOns.map(({ id, name, price }) => ({ id, name, price })),
    amount_total: priced.total,
    discount: priced.discount,
    coupon_code: input.coupon?.code,
  });
  await fulfilOrder({ orderId: order._id, sessionId: `cs_${order._id}`, amountPaid: priced.total });
  const dashboard = (await get(dashboardLoader, "/dashboard", owner.cookie)).data as {
    orders: { id: string; receipt: ReceiptView | null }[];
  };
  const status = (
    await get(statusLoader, "/order-status", await tokenCookie(await statusTokenFor(order._id), "status"))
  ).data as { receipt: ReceiptView | null };
  const mail = await OutboxMessage.findOne({ key: `order-paid:${order._id}` }).lean();
  return {
    orderId: order._id,
    dashboard: dashboard.orders.find((o) => o.id === order._id)?.receipt,
    status: status.receipt,
    mail: mail!,
  };
}

/** The receipt's rows as the e-mail's text writes them ("label: amount"). */
const mailLines = (r: ReceiptView) => [...r.rows, r.total].map((row) => `${row.label}: ${row.amount}`).join("\n");

function expectEverywhere(bought: Awaited<ReturnType<typeof buy>>, rows: [string, string][], total: string) {
  const receipt = bought.dashboard!;
  expect(receipt.rows.map((r) => [r.label, r.amount])).toEqual(rows);
  expect(receipt.total).toEqual({ label: "Total paid (AUD)", amount: total });
  expect(receipt).toMatchObject({
    seller: "24-Hour Website",
    abn: "ABN 51 824 753 556",
    orderNumber: `#${bought.orderId.slice(0, 8)}`,
  });
  expect(receipt.date).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}$/);
  expect(bought.status).toEqual(receipt);
  expect(bought.mail.text).toContain(
    `Receipt\n24-Hour Website, ABN 51 824 753 556\nDate: ${receipt.date}\nOrder: ${receipt.orderNumber}`,
  );
  expect(bought.mail.text).toContain(mailLines(receipt));
  for (const [label, amount] of rows)
    expect(bought.mail.html).toMatch(
      new RegExp(`${label.replace(/[$.+()-]/g, "\\$&")}</td><td[^>]*>${amount.replace(/[$.]/g, "\\$&")}<`),
    );
}

describe("the receipt", () => {
  it("a Starter buyer: the package alone", async () => {
    expectEverywhere(await buy({ packageId: "starter" }), [["Starter Website Package", "$997.00"]], "$997.00");
  });

  it("a 24-Hour Website with add-ons and a coupon: each add-on at its price, the coupon and its discount", async () => {
    const bought = await buy({
      addOnIds: ["priority-12hr", "domain-setup", "extra-pages"],
      coupon: { code: "SAVE10", discount_type: "percentage", discount_value: 10 },
    });
    expectEverywhere(
      bought,
      [
        ["24-Hour Website", "$300.00"],
        ["Priority 12-Hour Delivery", "$200.00"],
        ["Domain Connection Service", "$50.00"],
        ["2 Extra Pages", "$100.00"],
        ["Coupon SAVE10", "-$65.00"],
      ],
      "$585.00",
    );
  });

  it("an Enterprise buyer", async () => {
    expectEverywhere(
      await buy({ packageId: "enterprise" }),
      [["Enterprise Website Package", "$3,997.00"]],
      "$3,997.00",
    );
  });

  it("is not shown for an order that was never paid", async () => {
    const owner = await signedInUser();
    const order = await Order.create({ email: owner.email, user_id: owner.user.id, amount_total: 30_000 });
    await Order.updateOne({ _id: order._id }, { $set: { status: "cancelled" } });
    const dashboard = (await get(dashboardLoader, "/dashboard", owner.cookie)).data as {
      orders: { id: string; receipt: ReceiptView | null }[];
    };
    expect(dashboard.orders.find((o) => o.id === order._id)?.receipt).toBeNull();
  });
});
