import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { useAppDatabase } from "../support/app-data";
import { signedInUser } from "../support/auth";
import { APP_URL, JS_MODES, screenshot, useBrowser } from "../support/browser";
import { messageText, waitForMessages } from "../support/mailpit";
import { buy } from "../support/purchase";

const browser = useBrowser();
const db = useAppDatabase();

/**
 * The receipt in a browser: a signed-in buyer of a 24-Hour Website with add-ons and a coupon sees the
 * same receipt on the dashboard, the order status page and the payment e-mail, and continues the intake form.
 */
describe.each(JS_MODES)("the receipt and 'Continue your intake form', with %s", (_mode, javaScriptEnabled) => {
  const tag = javaScriptEnabled ? "js" : "nojs";

  it("a 24-Hour Website with Priority, Domain Connection and a coupon (1280 and 390 px)", async () => {
    const code = await db.coupon({
      code: `RCPT${randomBytes(3).toString("hex").toUpperCase()}`,
      discount_type: "percentage",
      discount_value: 10,
    });
    const user = await signedInUser();
    const page = await browser.newPage({ javaScriptEnabled, width: 1280, cookie: user.cookie });
    await buy(page, "/checkout", user.email, [/Priority 12-Hour Delivery/, /Domain Connection Service/], code);

    const rows = [
      ["24-Hour Website", "$300.00"],
      ["Priority 12-Hour Delivery", "$200.00"],
      ["Domain Connection Service", "$50.00"],
      [`Coupon ${code}`, "-$55.00"],
      ["Total paid (AUD)", "$495.00"],
    ];
    const receiptRows = async () => {
      const table = page.getByRole("region", { name: "Receipt" }).getByRole("table");
      return table
        .getByRole("row")
        .evaluateAll((trs) => trs.slice(1).map((tr) => [...tr.children].map((c) => c.textContent?.trim() ?? "")));
    };

    await page.goto("/dashboard");
    const receipt = page.getByRole("region", { name: "Receipt" });
    await receipt.waitFor();
    expect(await receiptRows()).toEqual(rows);
    await receipt.getByText("24-Hour Website, ABN 51 824 753 556").waitFor();
    await screenshot(page, `receipt-dashboard-1280-${tag}`);
    await page.setViewportSize({ width: 390, height: 900 });
    await screenshot(page, `receipt-dashboard-390-${tag}`);

    const [mail] = await waitForMessages(user.email);
    const message = await messageText(mail.ID);
    for (const [label, amount] of rows) expect(message.Text).toContain(`${label}: ${amount}`);
    const statusUrl = /https?:\/\/\S+\/order-status\?access_token=[\w-]+/.exec(message.Text)![0];

    // Continue the intake form from the dashboard: the link still works, so the form opens.
    await page.getByRole("button", { name: "Continue your intake form" }).click();
    await page.waitForURL(/\/intake-form/);
    await page
      .getByText(/Step 1 of 14/)
      .first()
      .waitFor();

    await page.goto(new URL(new URL(statusUrl).pathname + new URL(statusUrl).search, APP_URL).toString());
    await page.getByRole("heading", { name: "Order Status" }).waitFor();
    expect(await receiptRows()).toEqual(rows);
    await screenshot(page, `receipt-order-status-390-${tag}`);
    await page.setViewportSize({ width: 1280, height: 900 });
    await screenshot(page, `receipt-order-status-1280-${tag}`);
    await page.getByRole("button", { name: "Continue your intake form" }).click();
    await page.waitForURL(/\/intake-form/);

    await page.setContent(message.HTML);
    await screenshot(page, `receipt-payment-email-${tag}`);
  });
});
