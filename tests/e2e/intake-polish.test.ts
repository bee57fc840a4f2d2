import { describe, expect, it } from "vitest";
import { IntakeSubmission } from "~/server/models/index.server";
import { APP_URL, expectNoSeriousA11yViolations, JS_MODES, screenshot, useBrowser } from "../support/browser";
import { paidOrder, useAppDatabase } from "../support/app-data";
import { uniqueAddress } from "../support/mailpit";

const browser = useBrowser();
useAppDatabase();

/** A customer who has already reached `step` (what earlier visits would have left). */
async function customerAt(step: number, javaScriptEnabled: boolean, width?: number) {
  const { orderId, token } = await paidOrder(uniqueAddress(`polish-${step}`));
  await IntakeSubmission.create({
    order_id: orderId,
    furthest_step: step,
    business_name: "Bright Spark Electrical",
    contact_email: "owner@brightspark.example",
    contact_phone: "0400 123 999",
    business_type: "trades",
    business_description: "Licensed electricians for homes and businesses in Lismore.",
    website_purpose: "lead_generation",
    main_cta: "Call for a free quote",
    services_list: [
      { name: "Switchboard upgrades", description: "Done in a day", showPricing: true, price: "From $990" },
    ],
    service_area: "Lismore and the Northern Rivers",
    abn_acn: "12 345 678 901",
    primary_domain: "brightspark.com.au",
    pages_needed: ["Home", "Contact"],
    pricing_approach: "mixed",
    competitor_urls: ["https://one.example", "https://two.example", "https://three.example"],
  });
  const page = await browser.newPage({ javaScriptEnabled, width });
  await page.goto(`/intake-form?token=${token}`);
  await page.getByText(`Step ${step} of 14`).waitFor();
  return { page, orderId };
}

describe.each(JS_MODES)("intake details with %s", (mode, javaScriptEnabled) => {
  it("keeps a half-typed testimonial and staff row and says what each is missing", async () => {
    const { page, orderId } = await customerAt(10, javaScriptEnabled);
    await page.goto("/intake-form/6");
    await page.getByText("Step 6 of 14").waitFor();
    expect(await page.getByLabel("Rating").inputValue()).toBe("5"); // spec default
    await page.getByLabel("Customer's name").fill("Jenny from Goonellabah");
    await page.getByRole("button", { name: "Next Step" }).click();
    await page.getByRole("alert").first().waitFor();
    expect(await page.getByRole("alert").first().textContent()).toBe(
      "Testimonial 1, What they said: Please add what they said",
    );
    // The row stays on the form with what was typed (checked in the browser with JavaScript; by the server without).
    const row = page.getByRole("group", { name: javaScriptEnabled ? "Add a testimonial" : "Testimonial 1" });
    expect(await row.getByLabel("Customer's name").inputValue()).toBe("Jenny from Goonellabah");
    expect(page.url()).toBe(`${APP_URL}/intake-form/6`);

    await row.getByLabel("What they said").fill("On time and tidy.");
    await page.getByRole("button", { name: "Next Step" }).click();
    await page.getByText("Step 7 of 14").waitFor();
    expect((await IntakeSubmission.findOne({ order_id: orderId }).lean())?.testimonials).toMatchObject([
      { author: "Jenny from Goonellabah", text: "On time and tidy.", rating: 5 },
    ]);
    // Back into step 6 (a page load without JavaScript, a client-side one with it): the stored 5 is chosen.
    await page.getByRole("button", { name: "Back", exact: true }).click();
    await page.getByText("Step 6 of 14").waitFor();
    const saved = page.getByRole("group", { name: "Testimonial 1", exact: true });
    expect(await saved.getByLabel("Rating").inputValue()).toBe("5");
    await page.getByRole("button", { name: "Next Step" }).click();
    await page.getByText("Step 7 of 14").waitFor();
    await page.getByRole("button", { name: "Back", exact: true }).click();
    await page.getByText("Step 6 of 14").waitFor();
    expect(await saved.getByLabel("Rating").inputValue()).toBe("5");
    expect(await page.getByRole("group", { name: "Add a testimonial" }).getByLabel("Rating").inputValue()).toBe("5");
    await page.getByRole("button", { name: "Next Step" }).click();
    await page.getByText("Step 7 of 14").waitFor();

    await page.goto("/intake-form/10");
    await page.getByRole("heading", { level: 1, name: "Integrations & Launch" }).waitFor();
    await page.getByLabel("Role").fill("Apprentice");
    await page.getByRole("button", { name: "Save & Exit" }).click();
    if (!javaScriptEnabled) {
      // Without JavaScript, Save & Exit leaves once the step's valid answers are saved (a refused row is not).
      await page.waitForURL(`${APP_URL}/`);
      expect((await IntakeSubmission.findOne({ order_id: orderId }).lean())?.staff_bios ?? []).toEqual([]);
      return;
    }
    await page.getByRole("alert").first().waitFor();
    expect(await page.getByRole("alert").first().textContent()).toBe(
      "Staff member 1, Name: Please add this person's name, or clear their boxes",
    );
    expect(
      await page
        .getByRole("group", { name: javaScriptEnabled ? "Add a staff member" : "Staff member 1" })
        .getByLabel("Role")
        .inputValue(),
    ).toBe("Apprentice");
  });

  it("points out a price typed without its tick instead of dropping it", async () => {
    const { page } = await customerAt(4, javaScriptEnabled);
    await page.goto("/intake-form/3");
    const added = page.getByRole("group", { name: "Add a service" });
    await added.getByLabel("Service name").fill("Safety inspections");
    if (javaScriptEnabled) {
      expect(await added.getByLabel("Price", { exact: true }).count()).toBe(0); // shown only when ticked
      await added.getByLabel("Show a price for this service").check();
      await added.getByLabel("Price", { exact: true }).fill("$180");
      await added.getByLabel("Show a price for this service").uncheck();
      expect(await added.getByLabel("Price", { exact: true }).count()).toBe(0);
    } else {
      expect(await added.getByText("Shown only when 'Show a price for this service' is ticked").count()).toBe(1);
      await added.getByLabel("Price", { exact: true }).fill("$180");
      await page.getByRole("button", { name: "Add service" }).click();
      await page.getByRole("alert").first().waitFor();
      expect(await page.getByRole("alert").first().textContent()).toContain(
        "Tick 'Show a price for this service' to show this price, or clear it",
      );
      expect(
        await page.getByRole("group", { name: "Service 2" }).getByLabel("Price", { exact: true }).inputValue(),
      ).toBe("$180");
    }
  });

  it("lets a customer opt out of AI on step 12, and then sends nothing to AI", async () => {
    const { page, orderId } = await customerAt(12, javaScriptEnabled, 390);
    await page.getByLabel(/Build my website by hand/).check();
    if (javaScriptEnabled) expect(await page.getByLabel(/processed by AI/).count()).toBe(0);
    await screenshot(page, `intake-step12-opt-out-${mode.replace(/\s/g, "-")}`);
    await page.getByRole("button", { name: "Next Step" }).click();
    await page.getByText("Step 13 of 14").waitFor();
    await page.getByText(/You chose to have your website built by hand/).waitFor();
    const doc = await IntakeSubmission.findOne({ order_id: orderId }).lean();
    expect(doc).toMatchObject({
      ai_processing_consent: false,
      privacy_consent: { aiOptOut: true, allowAIDataProcessing: false },
    });

    await page.getByRole("button", { name: "Back" }).click();
    await page.getByText("Step 12 of 14").waitFor();
    expect(await page.getByLabel(/Build my website by hand/).isChecked()).toBe(true);
  });

  it("keeps the competitor URL box at 3, disabled, saying why", async () => {
    const { page } = await customerAt(10, javaScriptEnabled, 390);
    await page.goto("/intake-form/5");
    await page.getByText("Step 5 of 14").waitFor();
    const box = page.getByLabel("Add a competitor URL");
    expect(await box.isDisabled()).toBe(true);
    // It looks disabled too: greyed, not the white of a box to type in.
    expect(await box.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe("rgb(255, 255, 255)");
    expect(await page.getByRole("button", { name: "Add competitor URL" }).isDisabled()).toBe(true);
    const why = await box.getAttribute("aria-describedby");
    expect(await page.locator(`[id="${why}"]`).textContent()).toBe(
      "That's the most we need (3). Remove one to add another.",
    );
    await screenshot(page, `intake-competitors-full-${mode.replace(/\s/g, "-")}-390`);
    // Remove one: the box is open again.
    await page.getByRole("button", { name: "Remove competitor URL 3" }).click();
    await page.getByLabel("Competitor URL 3", { exact: true }).waitFor({ state: "detached" });
    expect(await page.getByLabel("Add a competitor URL").isDisabled()).toBe(false);
  });

  it("shows the privacy preview in the form's words", async () => {
    const { page } = await customerAt(13, javaScriptEnabled);
    const preview = page.locator(".preview");
    expect(await preview.getByText("Trading name").count()).toBe(1);
    expect(await preview.getByText("Get more enquiries").count()).toBe(1); // not lead_generation
    expect(await preview.getByText("A mix of both").count()).toBe(1); // not mixed
    expect(await preview.textContent()).not.toContain("mixed");
    expect(await preview.textContent()).not.toMatch(/lead_generation|_|null/);
    expect(await preview.getByRole("table").getByRole("cell", { name: "Switchboard upgrades" }).count()).toBe(1);
    expect(await preview.getByRole("listitem").filter({ hasText: "Contact" }).count()).toBe(1);
    await page.getByRole("heading", { name: "What we generalised, and why" }).waitFor();
    expect(await page.getByText("Registered Australian business").count()).toBeGreaterThan(0);
    if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
    await screenshot(page, `intake-preview-${mode.replace(/\s/g, "-")}`);
  });
});
