import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { connectDb } from "~/server/db.server";
import { layout } from "~/server/mail/templates.server";
import { Order, OutboxMessage, PrivacyAuditLog } from "~/server/models/index.server";
import { paidOrder, useAppDatabase } from "../support/app-data";
import { addSessionCookie, signedInUser } from "../support/auth";
import { APP_URL, expectNoSeriousA11yViolations, JS_MODES, screenshot, useBrowser } from "../support/browser";
import { messageText, uniqueAddress, waitForMessages } from "../support/mailpit";

const browser = useBrowser();
useAppDatabase();

async function asAdmin(javaScriptEnabled: boolean, width?: number) {
  await connectDb();
  const admin = await signedInUser({ admin: true });
  const page = await browser.newPage({ javaScriptEnabled, width });
  await addSessionCookie(page.context(), admin.cookie, APP_URL);
  return page;
}

/** Clicks a button that answers with a file, and returns the file's JSON. */
async function download(page: Page, button: ReturnType<Page["getByRole"]>) {
  const [file] = await Promise.all([page.waitForEvent("download"), button.click()]);
  expect(file.suggestedFilename()).toMatch(/^order-[0-9a-f]{8}-data\.json$/);
  return JSON.parse(await readFile((await file.path())!, "utf8"));
}

describe.each(JS_MODES)("the admin outbox with %s", (mode, javaScriptEnabled) => {
  it("lists messages with their state, and Retry sends a failed one once", async () => {
    const page = await asAdmin(javaScriptEnabled);
    const to = uniqueAddress(`outbox-${javaScriptEnabled ? "js" : "nojs"}`);
    await OutboxMessage.create({
      key: `e2e-failed-${to}`,
      to,
      ...layout("Your draft is ready", ["Have a look."]),
      status: "failed",
      attempts: 20,
      last_error: "550 mailbox unavailable",
    });

    await page.goto("/admin/outbox");
    await page.getByLabel("Status", { exact: true }).selectOption("failed");
    await page.getByRole("button", { name: "Show" }).click();
    await page.waitForURL(/status=failed/);
    const row = page.getByRole("row").filter({ hasText: to });
    expect(await row.textContent()).toContain("550 mailbox unavailable");
    expect(await row.getByText("Failed").count()).toBe(1);
    if (javaScriptEnabled) await expectNoSeriousA11yViolations(page); // axe runs as a script
    await screenshot(page, `admin-outbox-${javaScriptEnabled ? "js" : "nojs"}-1280`);

    await row.getByRole("button", { name: /^Retry the message to/ }).click();
    await page.getByText("Retry Queued").waitFor();
    expect(page.url()).toContain("status=failed");
    // The app's outbox worker delivers it; the row leaves the failed list.
    const [mail] = await waitForMessages(to);
    expect((await messageText(mail.ID)).Subject).toBe("Your draft is ready");
    await expect
      .poll(async () => (await OutboxMessage.findOne({ to }).lean())?.status, { timeout: 10_000 })
      .toBe("sent");
    await page.goto("/admin/outbox?status=sent");
    const sentRow = page.getByRole("row").filter({ hasText: to });
    expect(await sentRow.getByRole("button").count()).toBe(0); // nothing delivered is offered again
  });

  it(`fits a phone (${mode})`, async () => {
    const page = await asAdmin(javaScriptEnabled, 390);
    await page.goto("/admin/outbox");
    await page.getByRole("heading", { name: "Outbox", level: 1 }).waitFor();
    if (javaScriptEnabled) await expectNoSeriousA11yViolations(page); // axe runs as a script
    await screenshot(page, `admin-outbox-${javaScriptEnabled ? "js" : "nojs"}-390`);
  });
});

describe.each(JS_MODES)("the admin's Send Reminder with %s", (_mode, javaScriptEnabled) => {
  it("sends one reminder through the cron's rules, shows it in the history, and refuses a second right away", async () => {
    const page = await asAdmin(javaScriptEnabled);
    const email = uniqueAddress(`remind-${javaScriptEnabled ? "js" : "nojs"}`);
    const { orderId } = await paidOrder(email);
    await page.goto(`/admin/orders/${orderId}`);
    expect(await page.getByText("No reminders sent yet.").count()).toBe(1);
    await page.getByRole("button", { name: "Send Reminder" }).click();
    await page.getByText("Intake form reminder sent to customer.").waitFor();
    expect(await page.getByText("Reminder Sent").count()).toBeGreaterThan(0);
    const row = page.getByRole("row").filter({ hasText: "Intake not started" });
    expect(await row.textContent()).toContain("Admin: ");
    if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
    await screenshot(page, `admin-order-reminders-${javaScriptEnabled ? "js" : "nojs"}`);

    await page.getByRole("button", { name: "Send Reminder" }).click();
    await page.getByText("Reminder not sent (limit reached or sent recently)").waitFor();
    expect(await page.getByRole("row").filter({ hasText: "Intake not started" }).count()).toBe(1);
    const subjects = (await waitForMessages(email, 2)).map((m) => m.Subject);
    expect(subjects.filter((s) => s === "Your website is waiting for your details")).toHaveLength(1);
  });
});

describe("the admin outbox's access", () => {
  it("sends a visitor to sign in and a customer away", async () => {
    const page = await browser.newPage({ javaScriptEnabled: false });
    await page.goto("/admin/outbox");
    expect(new URL(page.url()).pathname).toBe("/auth");
    const customer = await signedInUser();
    await addSessionCookie(page.context(), customer.cookie, APP_URL);
    await page.goto("/admin/outbox");
    expect(new URL(page.url()).pathname).toBe("/dashboard");
  });
});

describe.each(JS_MODES)("the customer's data export with %s", (_mode, javaScriptEnabled) => {
  it("a signed-in customer downloads their order's data from the dashboard", async () => {
    await connectDb();
    const customer = await signedInUser();
    const { orderId } = await paidOrder(customer.email);
    await Order.updateOne({ _id: orderId }, { $set: { user_id: customer.user.id } });
    const page = await browser.newPage({ javaScriptEnabled });
    await addSessionCookie(page.context(), customer.cookie, APP_URL);
    await page.goto("/dashboard");
    const data = await download(
      page,
      page.getByRole("button", { name: `Download my data (JSON) for order ${orderId.slice(0, 8)}` }),
    );
    expect(data.order).toMatchObject({ id: orderId, email: customer.email, status: "paid", amount_paid_cents: 30_000 });
    expect(data.emails.map((m: { subject: string }) => m.subject)).toContain(
      "Your 24-Hour Website order: next, tell us about your business",
    );
    expect(JSON.stringify(data)).not.toMatch(/token_hash|password/);
    expect(await PrivacyAuditLog.countDocuments({ order_id: orderId, action: "data_export" })).toBe(1);
  });

  it("a customer with the e-mailed link downloads from the order status page", async () => {
    const email = uniqueAddress(`export-${javaScriptEnabled ? "js" : "nojs"}`);
    const { orderId, statusToken } = await paidOrder(email);
    const page = await browser.newPage({ javaScriptEnabled });
    await page.goto(`/order-status?access_token=${statusToken}`); // the e-mailed link opens the order for this browser
    expect(page.url()).toBe(`${APP_URL}/order-status`);
    if (javaScriptEnabled) await expectNoSeriousA11yViolations(page); // axe runs as a script
    const data = await download(page, page.getByRole("button", { name: "Download my data (JSON)" }));
    expect(data.order.id).toBe(orderId);
    expect(await PrivacyAuditLog.countDocuments({ order_id: orderId, action: "data_export" })).toBe(1);
  });
});
