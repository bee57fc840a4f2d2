import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { connectDb } from "~/server/db.server";
import { IntakeSubmission } from "~/server/models/index.server";
import { paidOrder, tokenCookie, useAppDatabase } from "../support/app-data";
import { screenshot, useBrowser } from "../support/browser";
import { uniqueAddress } from "../support/mailpit";

/**
 * Without JavaScript, one refused answer does not lose the step: every valid answer
 * beside it is saved, the refused one keeps its text and its message, every row keeps its Remove, and
 * Back and Save & Exit leave once what is valid is saved.
 */
const browser = useBrowser();
useAppDatabase();

const RIVAL = "https://rival.example";
const FACEBOOK = "https://www.facebook.com/brightspark";
const GOOGLE = "https://g.page/brightspark";
const draft = async (orderId: string) => (await IntakeSubmission.findOne({ order_id: orderId }).lean())!;

async function step5(width: number, javaScriptEnabled = false) {
  const { orderId, token } = await paidOrder(uniqueAddress(`refused-${width}`));
  await connectDb();
  await IntakeSubmission.create({
    order_id: orderId,
    furthest_step: 5,
    primary_domain: "brightspark.com.au",
    competitor_urls: [RIVAL],
  });
  const page = await browser.newPage({ javaScriptEnabled, width, cookie: await tokenCookie(token) });
  await page.goto("/intake-form/5");
  return { orderId, page };
}

describe.each([390, 1280])("a refused answer on step 5 at %i px (JavaScript off)", (width) => {
  const typeAnswers = async (page: Page) => {
    await page.getByLabel("Add a competitor URL").fill("not a url");
    await page.getByLabel("Facebook").fill(FACEBOOK);
    await page.getByLabel("Google Business Profile link").fill(GOOGLE);
  };

  it("saves every valid answer beside the refused one, which keeps its text and message, and every row its Remove", async () => {
    const { orderId, page } = await step5(width);
    await typeAnswers(page);
    await page.getByRole("button", { name: "Next Step" }).click();
    await page.getByText("Step 5 of 14").waitFor();
    const saved = await draft(orderId);
    expect((saved.social_links as { facebook?: string }).facebook).toBe(FACEBOOK);
    expect(saved.google_business_url).toBe(GOOGLE);
    expect(saved.competitor_urls).toEqual([RIVAL]); // the refused list stays as stored
    expect(saved.furthest_step).toBe(5);

    const refused = page.getByLabel("Competitor URL 2", { exact: true });
    expect(await refused.inputValue()).toBe("not a url");
    expect(await refused.getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByLabel("Facebook").inputValue()).toBe(FACEBOOK);
    expect(await page.getByLabel("Google Business Profile link").inputValue()).toBe(GOOGLE);
    for (const n of [1, 2])
      expect(await page.getByRole("button", { name: `Remove competitor URL ${n}` }).count()).toBe(1);
    await screenshot(page, `intake-refused-answer-nojs-${width}`);

    // The refused row's Remove takes it away; the rest stays.
    await page.getByRole("button", { name: "Remove competitor URL 2" }).click();
    await page.getByRole("button", { name: "Remove competitor URL 1" }).waitFor();
    expect(await page.getByRole("button", { name: "Remove competitor URL 2" }).count()).toBe(0);
    expect(await page.locator("[aria-invalid=true]").count()).toBe(0); // nothing refused any more
    expect((await draft(orderId)).competitor_urls).toEqual([RIVAL]);
    expect((await draft(orderId)).google_business_url).toBe(GOOGLE);
  });

  it("lets Back and Save & Exit leave once every valid answer is saved", async () => {
    const { orderId, page } = await step5(width);
    await typeAnswers(page);
    await page.getByRole("button", { name: "Back" }).click();
    await page.getByText("Step 4 of 14").waitFor();
    expect((await draft(orderId)).google_business_url).toBe(GOOGLE);

    await page.goto("/intake-form/5");
    await saveAndExitWithRefused(page, orderId, `nojs-${width}`);
  });
});

/** Save & Exit with a refused answer: the page that follows says the rest was saved and names the refused one. */
async function saveAndExitWithRefused(page: Page, orderId: string, shot: string) {
  await page.getByLabel("Add a competitor URL").fill("still not a url");
  await page.getByLabel("Google Business Profile link").fill(`${GOOGLE}-2`);
  await page.getByRole("button", { name: "Save & Exit" }).click();
  await page.getByText("Progress Saved, Except Some Answers").waitFor();
  expect(new URL(page.url()).pathname).toBe("/");
  await page
    .getByText(/Not saved on step 5, SEO & Marketing: Competitor URL 2: .+ Everything else is saved\./)
    .waitFor();
  expect(await page.getByText("Progress Saved", { exact: true }).count()).toBe(0);
  await screenshot(page, `intake-refused-save-exit-${shot}`);
  const saved = await draft(orderId);
  expect(saved.google_business_url).toBe(`${GOOGLE}-2`);
  expect(saved.competitor_urls).toEqual([RIVAL]);
}

describe.each([390, 1280])("Save & Exit with a refused answer at %i px (JavaScript on)", (width) => {
  it("leaves once the valid answers are saved, and the page that follows names the one not saved", async () => {
    const { orderId, page } = await step5(width, true);
    await page.getByLabel("Facebook").fill(FACEBOOK);
    await saveAndExitWithRefused(page, orderId, `js-${width}`);
    expect((((await draft(orderId)).social_links ?? {}) as { facebook?: string }).facebook).toBe(FACEBOOK);
  });
});
