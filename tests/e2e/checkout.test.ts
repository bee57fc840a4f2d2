import type { Page } from "playwright-core";
import { beforeEach, describe, expect, it } from "vitest";
import { CHECKOUT_LIMIT } from "~/server/rate-limit.server";
import { APP_URL, expectNoSeriousA11yViolations, JS_MODES, screenshot, useBrowser } from "../support/browser";
import { useAppDatabase } from "../support/app-data";
import { messageText, uniqueAddress, waitForMessages } from "../support/mailpit";
import { clearBrowserLimits } from "../support/rate-limits";

const browser = useBrowser();
const db = useAppDatabase();

const total = (page: Page) => page.locator(".summary-total output").textContent();
/** The alert's message (the spec's sentence); a second line lists every field that failed. */
const alertText = async (page: Page) => {
  await page.getByRole("alert").waitFor();
  return page.getByRole("alert").locator("p").first().textContent();
};

describe.each(JS_MODES)("checkout with %s", (mode, javaScriptEnabled) => {
  // Each test applies coupons and pays from 127.0.0.1, under the suite's shared checkout limit.
  beforeEach(() => clearBrowserLimits(CHECKOUT_LIMIT));

  it("applies and removes a coupon, prices add-ons, pays through the test checkout and follows the e-mailed link", async () => {
    const code = await db.coupon({
      code: `TEN${javaScriptEnabled ? "JS" : "NOJS"}${Date.now()}`,
      discount_type: "percentage",
      discount_value: 10,
    });
    const email = uniqueAddress(`checkout-${javaScriptEnabled ? "js" : "nojs"}`);
    const page = await browser.newPage({ javaScriptEnabled });
    await page.goto("/checkout");
    expect(await total(page)).toBe("$300.00");
    expect(await page.getByRole("main").textContent()).toContain("$1000+");
    expect(await page.getByRole("link", { name: "Back to the 24-Hour Website" }).getAttribute("href")).toBe(
      "/rapid-website",
    );

    await page.getByLabel("Email").fill(email);
    await page.getByLabel(/Professional Logo Design/).check();
    await page.getByLabel(/Priority 12-Hour Delivery/).check();
    if (javaScriptEnabled) {
      expect(await total(page)).toBe("$650.00"); // follows the ticks at once
    } else {
      await page.getByRole("button", { name: "Update total" }).click();
      await page.waitForLoadState();
      expect(await total(page)).toBe("$650.00");
    }

    await page.getByLabel("Coupon code").fill(code.toLowerCase());
    await page.getByRole("button", { name: "Apply" }).click();
    await page.getByText("Coupon Applied!").waitFor();
    expect(await total(page)).toBe("$585.00");
    expect(await page.getByLabel(/Professional Logo Design/).isChecked()).toBe(true);
    expect(await page.getByLabel("Email").inputValue()).toBe(email);

    await page.getByRole("button", { name: "Remove coupon" }).click();
    await page.getByText("Coupon removed").waitFor();
    expect(await total(page)).toBe("$650.00");
    expect(await page.getByLabel("Coupon code").inputValue()).toBe("");
    await page.getByLabel("Coupon code").fill(code);
    await page.getByRole("button", { name: "Apply" }).click();
    await page.getByText("Coupon Applied!").waitFor();

    await page.getByRole("button", { name: "Proceed to Payment" }).click();
    expect(await alertText(page)).toBe("Missing Information: Please provide your email and agree to the terms.");
    // The missing tick is marked, with its own message; the e-mail given is not.
    expect(await page.getByRole("alert").textContent()).toContain("Check this field: Terms agreement.");
    expect(await page.getByLabel(/I agree to the/).getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByLabel("Email").getAttribute("aria-invalid")).toBeNull();
    await page.getByLabel(/I agree to the/).check();
    await screenshot(page, `checkout-${mode.replace(/\s/g, "-")}`);
    await page.getByRole("button", { name: "Proceed to Payment" }).click();

    await page.waitForURL(/\/checkout\/offline\?session_id=/);
    expect(await page.getByRole("main").textContent()).toContain("$585.00");
    await page.getByRole("button", { name: "Complete test payment" }).click();
    await page.waitForURL(/\/order-success\?session_id=/);
    await page.getByRole("heading", { name: "Payment Successful!" }).waitFor();
    expect(await page.getByRole("main").textContent()).toContain("The link is valid for 7 days");
    await page.reload(); // reloading changes nothing
    await page.getByRole("heading", { name: "Payment Successful!" }).waitFor();
    expect(await page.getByRole("link", { name: "Return to Homepage" }).getAttribute("href")).toBe("/");
    await screenshot(page, `order-success-${mode.replace(/\s/g, "-")}`);
    const intakeHref = await page.getByRole("link", { name: "Go to Intake Form" }).getAttribute("href");
    expect(intakeHref).toMatch(/^\/intake-form\?token=/);

    const mails = await waitForMessages(email);
    expect(mails).toHaveLength(1);
    const body = await messageText(mails[0].ID);
    const link = /(http\S+\/intake-form\?token=\S+)/.exec(body.Text)?.[1];
    expect(link).toBe(`${APP_URL}${intakeHref}`);
    const visit = await page.goto(link!);
    expect(visit?.status()).toBe(200);
  });

  it("keeps each sum of money on one line at 390 and 1280 px, the discount too", async () => {
    const code = await db.coupon({
      code: `QUARTER${javaScriptEnabled ? "JS" : "NOJS"}${Date.now()}`,
      discount_type: "percentage",
      discount_value: 25,
    });
    for (const width of [390, 1280]) {
      const page = await browser.newPage({ javaScriptEnabled, width });
      await page.goto("/checkout");
      await page.getByLabel(/Professional Logo Design/).check();
      await page.getByLabel(/Priority 12-Hour Delivery/).check();
      await page.getByLabel("Coupon code").fill(code);
      await page.getByRole("button", { name: "Apply" }).click();
      await page.getByText("Coupon Applied!").waitFor();
      expect(await total(page)).toBe("$487.50");
      const lines = page.locator(".summary-lines dd");
      const discount = page.locator(".summary-discount dd");
      expect(await discount.textContent()).toBe("-$162.50");
      // Every figure is on one line: its text makes one box, not one per line.
      const boxes = await lines.evaluateAll((dds) =>
        dds.map((dd) => {
          const range = document.createRange();
          range.selectNodeContents(dd);
          return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        }),
      );
      expect(boxes.every((n) => n === 1)).toBe(true);
      await page.getByRole("region", { name: "Order Summary" }).screenshot({
        path: `test-results/checkout-discount-${mode}-${width}.png`,
      });
      await page.close();
    }
  });

  it("says what is wrong with a coupon on the same form", async () => {
    const page = await browser.newPage({ javaScriptEnabled });
    await page.goto("/checkout");
    await page.getByRole("button", { name: "Apply" }).click();
    // In the form's alert and beside the box it is about, which is marked.
    await expect.poll(() => alertText(page)).toBe("Invalid Coupon: Please enter a coupon code");
    expect(await page.getByLabel("Coupon code").getAttribute("aria-invalid")).toBe("true");
    await page.getByLabel("Coupon code").fill("NOT-A-REAL-CODE");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect.poll(() => alertText(page)).toBe("Invalid Coupon: This coupon code is not valid");
    expect(await page.getByLabel("Coupon code").inputValue()).toBe("NOT-A-REAL-CODE");
    expect(await total(page)).toBe("$300.00");
  });

  it("prices a package chosen on the packages page", async () => {
    const page = await browser.newPage({ javaScriptEnabled });
    await page.goto("/checkout?package=professional");
    expect(await page.locator(".summary-product").textContent()).toBe("Professional Website Package");
    expect(await total(page)).toBe("$1,997.00");
    // The summary describes the package, not the 24-Hour Website.
    const summary = await page.getByRole("region", { name: "Order Summary" }).textContent();
    expect(summary).toContain("Up to 10 pages");
    expect(summary).not.toContain("$1000+");
    expect(summary).not.toContain("First month of hosting");
    expect(await page.getByRole("link", { name: "Back to packages" }).getAttribute("href")).toBe("/packages");
    // Each add-on says what it adds to this package, not to the 24-Hour Website (five pages, 24 hours).
    const main = page.getByRole("main");
    expect(await main.textContent()).toContain("Two more pages on top of the ten included.");
    expect(await main.textContent()).toContain("Your first draft in 12 hours instead of 24.");
    expect(await main.textContent()).not.toContain("on top of the five included");
    await screenshot(page, `checkout-professional-${mode}`);
    await page.goto("/checkout?package=starter");
    expect(await main.textContent()).toContain("Your first draft in 12 hours instead of 48.");
    expect(await main.textContent()).toContain("Two more pages on top of the five included.");
    // Enterprise is delivered in 12 hours with unlimited pages: neither add-on is offered.
    await page.goto("/checkout?package=enterprise");
    await page.getByLabel(/Professional Logo Design/).waitFor();
    expect(await page.getByLabel(/Priority 12-Hour Delivery/).count()).toBe(0);
    expect(await page.getByLabel(/2 Extra Pages/).count()).toBe(0);
  });

  it("pays, not applies a coupon, when Enter is pressed in the e-mail box", async () => {
    const page = await browser.newPage({ javaScriptEnabled });
    await page.goto("/checkout");
    await page.getByLabel("Email").fill(uniqueAddress("enter"));
    await page.getByLabel("Email").press("Enter");
    expect(await alertText(page)).toBe("Missing Information: Please provide your email and agree to the terms.");
    expect(await page.getByText("Please enter a coupon code").count()).toBe(0);
  });
});

describe("checkout", () => {
  it("passes axe with no serious violations", async () => {
    const page = await browser.newPage({ javaScriptEnabled: true });
    await page.goto("/checkout");
    await expectNoSeriousA11yViolations(page);
  });
});
