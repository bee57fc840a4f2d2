import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { settlePayment } from "~/server/fulfilment.server";
import { Order, PaymentIssue } from "~/server/models/index.server";
import { useAppDatabase } from "../support/app-data";
import { useAdminPages } from "../support/auth";
import { APP_URL, expectNoSeriousA11yViolations, JS_MODES, screenshot, useBrowser } from "../support/browser";
import { uniqueAddress, waitForMessages } from "../support/mailpit";

const browser = useBrowser();
useAppDatabase();

const adminPage = useAdminPages(browser);

/** A checkout paid with 1 cent less than its quote, as Stripe's webhook would report it: held for the admin. */
async function heldPayment(label: string) {
  const email = uniqueAddress(label);
  const order = await Order.create({ email, amount_total: 30_000, stripe_session_id: `cs_test_${randomUUID()}` });
  expect(await settlePayment({ orderId: order._id, sessionId: order.stripe_session_id!, amountPaid: 29_999 })).toEqual({
    state: "review",
  });
  return { email, orderId: order._id, shortId: order._id.slice(0, 8) };
}

describe.each(JS_MODES)("the Payments tab with %s", (_mode, javaScriptEnabled) => {
  const label = javaScriptEnabled ? "js" : "nojs";

  it("leads from the order's banner to the held payment, accepts it once, and the customer gets their links", async () => {
    const { email, orderId, shortId } = await heldPayment(`pay-${label}`);
    const page = await adminPage(javaScriptEnabled);

    await page.goto(`/admin/orders/${orderId}`);
    await page.getByText("This order has a payment that needs a look.").waitFor();
    await page.getByRole("link", { name: "Open the Payments tab" }).click();
    await page.waitForURL(`${APP_URL}/admin/payments`);
    await page.getByRole("heading", { name: "Needs a look" }).waitFor();
    expect(await page.getByRole("link", { name: "Payments", exact: true }).getAttribute("aria-current")).toBe("page");
    if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);

    const card = page.getByRole("listitem").filter({ has: page.getByRole("link", { name: `Order ${shortId}` }) });
    await card.getByText("Paid amount differs from the quote").waitFor();
    await card.getByText(email).waitFor();
    await card.getByText("$300.00").waitFor();
    await card.getByText("$299.99").waitFor();
    await screenshot(page, `admin-payments-${label}`);

    await card.getByRole("button", { name: "Accept payment and fulfil" }).click();
    await page.getByRole("status").filter({ hasText: "Payment Accepted" }).first().waitFor();
    expect(await card.count()).toBe(0);
    await page
      .getByRole("table")
      .getByRole("link", { name: `#${shortId}` })
      .waitFor();
    expect(await Order.findById(orderId).lean()).toMatchObject({ status: "paid", amount_paid: 29_999 });
    expect(await waitForMessages(email, 1)).toHaveLength(1);

    await page.goto(`/admin/orders/${orderId}`);
    await page.getByRole("heading", { name: `Order #${shortId}` }).waitFor();
    expect(await page.getByText("This order has a payment that needs a look.").count()).toBe(0);
  });

  it("marks a held payment resolved (refunded outside) without fulfilling it", async () => {
    const { orderId, shortId } = await heldPayment(`res-${label}`);
    const page = await adminPage(javaScriptEnabled);
    await page.goto("/admin/payments");
    const card = page.getByRole("listitem").filter({ has: page.getByRole("link", { name: `Order ${shortId}` }) });
    await card.getByRole("button", { name: "Mark resolved" }).click();
    await page.getByRole("status").filter({ hasText: "Marked Resolved" }).first().waitFor();
    expect((await Order.findById(orderId).lean())!.status).toBe("pending");
    expect((await PaymentIssue.findOne({ order_id: orderId }).lean())!.resolution).toBe("resolved");
  });
});

describe("the Payments tab on a phone", () => {
  it("fits 390 px and passes axe", async () => {
    await heldPayment("pay-phone");
    const page = await adminPage(true, 390);
    await page.goto("/admin/payments");
    await page.getByRole("heading", { name: "Admin Panel" }).waitFor();
    await expectNoSeriousA11yViolations(page);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, "admin-payments-390");
  });
});
