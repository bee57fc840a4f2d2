import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { IntakeSubmission } from "~/server/models/index.server";
import { useAppDatabase } from "../support/app-data";
import { JS_MODES, screenshot, useBrowser } from "../support/browser";
import { messageText, uniqueAddress, waitForMessages } from "../support/mailpit";
import { buy } from "../support/purchase";

const browser = useBrowser();
useAppDatabase();

/** Ticks every page of step 7 (Home and Contact are ticked and locked) up to `count` pages, then presses Next. */
async function tickPages(page: Page, names: string[]) {
  for (const name of names) await page.getByRole("checkbox", { name, exact: true }).check();
  await page.getByRole("button", { name: "Next Step" }).click();
}

describe.each(JS_MODES)("one promise, from what was bought, with %s", (mode, javaScriptEnabled) => {
  const tag = javaScriptEnabled ? "js" : "nojs";

  it("a Starter buyer is promised 48 hours, 1 round and 5 pages everywhere (390 px)", async () => {
    const email = uniqueAddress(`starter-${tag}`);
    const page = await browser.newPage({ javaScriptEnabled, width: 390 });
    const orderId = await buy(page, "/checkout?package=starter", email, []);
    const main = page.getByRole("main");
    await main.getByRole("heading", { name: "Our 48-Hour Guarantee" }).waitFor();
    await main.getByText("Your first draft within 48 hours of receiving all your details, or a full refund.").waitFor();
    await main.getByText("Ask for changes: 1 round of revisions included.").waitFor();
    expect(await main.textContent()).not.toMatch(/24 hours|24-Hour Guarantee|3 rounds/);
    await screenshot(page, `order-includes-starter-success-${tag}`);

    const [mail] = await waitForMessages(email);
    const text = (await messageText(mail.ID)).Text;
    expect(text).toContain(
      "Your first draft arrives within 48 hours of receiving your details, or you get a full refund.",
    );
    expect(text).not.toContain("24 hours");

    // Steps 7 and 11 (the form reached as far as step 11, the way a customer who pressed Next would have).
    await IntakeSubmission.create({ order_id: orderId, furthest_step: 11, business_name: "Starter Plumbing" });
    await page.getByRole("link", { name: "Go to Intake Form" }).click();
    await page.waitForURL(/\/intake-form\/11/);
    await page.getByText("Your Starter package is paid for.").waitFor();
    expect(await page.getByRole("main").textContent()).not.toContain("24-Hour Website is paid for");
    await screenshot(page, `order-includes-starter-step11-${tag}`);

    await page.goto("/intake-form/7");
    await page.getByText("Your order includes up to 5 pages.").waitFor();
    await tickPages(page, ["About", "Services", "Gallery", "FAQ"]);
    const refusal =
      "Your order includes up to 5 pages. For more, add the 2 Extra Pages add-on to a later order, or ask us for a quote at /contact.";
    await page.getByText(refusal).first().waitFor();
    expect(page.url()).toMatch(/\/intake-form\/7/);
    await screenshot(page, `order-includes-starter-step7-refused-${tag}`);
    // Nothing over the limit was stored; five pages go through.
    expect((await IntakeSubmission.findById(orderId).lean())?.pages_needed ?? []).not.toHaveLength(6);
    await page.getByRole("checkbox", { name: "FAQ", exact: true }).uncheck();
    await page.getByRole("button", { name: "Next Step" }).click();
    await page.waitForURL(/\/intake-form\/8/);
    expect((await IntakeSubmission.findById(orderId).lean())?.pages_needed).toHaveLength(5);

    const status = /(http\S+\/order-status\?access_token=\S+)/.exec(text)?.[1];
    await page.goto(status!);
    await page
      .getByText(
        "Included: your first draft within 48 hours of receiving your details (or a full refund), 1 round of revisions and up to 5 pages.",
      )
      .waitFor();
    // (The help card's "We answer within 24 hours" is about e-mails, not the build.)
    expect(await page.getByRole("main").textContent()).not.toMatch(/24-hour|24 hours of|3 rounds/);
    await screenshot(page, `order-includes-starter-status-${tag}`);
  });

  it("a Priority buyer with 2 Extra Pages is promised 12 hours, 3 rounds and 7 pages (1280 px)", async () => {
    const email = uniqueAddress(`priority-${tag}`);
    const page = await browser.newPage({ javaScriptEnabled, width: 1280 });
    const orderId = await buy(page, "/checkout", email, [/Priority 12-Hour Delivery/, /2 Extra Pages/]);
    const main = page.getByRole("main");
    await main.getByRole("heading", { name: "Our 12-Hour Guarantee" }).waitFor();
    await main.getByText("Your first draft within 12 hours of receiving all your details, or a full refund.").waitFor();
    await main.getByText("Ask for changes: up to 3 rounds of revisions included.").waitFor();
    expect(await main.textContent()).not.toMatch(/24 hours|24-Hour Guarantee/);
    await screenshot(page, `order-includes-priority-success-${mode.replace(/\s/g, "-")}`);
    const [mail] = await waitForMessages(email);
    expect((await messageText(mail.ID)).Text).toContain("Your first draft arrives within 12 hours");

    await IntakeSubmission.create({ order_id: orderId, furthest_step: 11, business_name: "Priority Plumbing" });
    await page.getByRole("link", { name: "Go to Intake Form" }).click();
    await page.getByText("Your 24-Hour Website is paid for.").waitFor();
    await page.goto("/intake-form/7");
    await page.getByText("Your order includes up to 7 pages.").waitFor();
    await tickPages(page, ["About", "Services", "Gallery", "Testimonials", "FAQ", "Team"]);
    await page
      .getByText(/^Your order includes up to 7 pages\. For more/)
      .first()
      .waitFor();
    await page.getByRole("checkbox", { name: "Team", exact: true }).uncheck();
    await page.getByRole("button", { name: "Next Step" }).click();
    await page.waitForURL(/\/intake-form\/8/);
    expect((await IntakeSubmission.findById(orderId).lean())?.pages_needed).toHaveLength(7);
  });
});
