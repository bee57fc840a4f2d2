import { randomBytes } from "node:crypto";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { useAppDatabase } from "../support/app-data";
import { addSessionCookie, signedInUser } from "../support/auth";
import { APP_URL, screenshot, useBrowser } from "../support/browser";
import { messageText, uniqueAddress, waitForMessages } from "../support/mailpit";
import { buy } from "../support/purchase";

/*
 * The business's journey: three orders of three kinds are bought, their intakes filled in and submitted, and then,
 * from the admin alone, everything the builder needs is there: what was sold at its prices, the promise the
 * customer was given (the same on the customer's order status page), the files, the Brief and the AI prompt's
 * build lines.
 */
const browser = useBrowser();
const db = useAppDatabase();

let adminCookie: string;
beforeAll(async () => {
  adminCookie = (await signedInUser({ admin: true })).cookie;
});

const next = (page: Page) => page.getByRole("button", { name: "Next Step" }).click();
async function onStep(page: Page, n: number) {
  await page.waitForURL(`${APP_URL}/intake-form/${n}`, { timeout: 20_000 }).catch(async (error: unknown) => {
    const refused = page.getByRole("alert").first();
    throw new Error(`not on step ${n}: ${(await refused.count()) ? await refused.innerText() : String(error)}`);
  });
  await page.getByText(`Step ${n} of 14`).waitFor();
}

/** A real image, decoded by the app like any upload. */
const image = (colour: string) =>
  sharp({ create: { width: 640, height: 480, channels: 3, background: colour } })
    .png()
    .toBuffer();

type Intake = { business: string; pages: string[]; files?: { photoAlt: string } };

/** Fills in the intake from the success page's "Go to Intake Form" through step 14, and submits it. */
async function fillIntake(page: Page, javaScriptEnabled: boolean, intake: Intake) {
  await page.getByRole("link", { name: "Go to Intake Form" }).click();
  await onStep(page, 1);
  await page.getByLabel(/^Trading name/).fill(intake.business);
  await page.getByLabel(/^Contact phone/).fill("0400 123 999");
  await page.getByLabel(/^Service area/).fill("Lismore and the Northern Rivers");
  await page.getByLabel(/^Business type/).selectOption("trades");
  await page.getByLabel(/^Describe your business/).fill(`${intake.business}: licensed, local and on time.`);
  await next(page);
  await onStep(page, 2);
  await page.getByLabel(/^What is your website mainly for/).selectOption("lead_generation");
  await page.getByLabel(/^What should visitors do/).fill("Call for a free quote");
  await next(page);
  await onStep(page, 3);
  await next(page);
  await onStep(page, 4);
  if (intake.files) {
    await page.getByLabel("Upload your logo").setInputFiles({
      name: "logo.png",
      mimeType: "image/png",
      buffer: await image("#1b5e20"),
    });
    await page.getByLabel("Add photos").setInputFiles({
      name: "shop-front.png",
      mimeType: "image/png",
      buffer: await image("#c84"),
    });
    if (javaScriptEnabled)
      await page.getByRole("progressbar", { name: "Upload of shop-front.png" }).waitFor({ state: "detached" });
    else await next(page); // the post carries the files; the step asks for the photo's alt text
    await page.getByLabel("Describe the photo (alt text, required)").fill(intake.files.photoAlt);
  }
  await next(page);
  await onStep(page, 5);
  await page.getByLabel(/^Primary domain/).fill(`${intake.business.toLowerCase().replace(/\s+/g, "")}.com.au`);
  await next(page);
  await onStep(page, 6);
  await next(page);
  await onStep(page, 7);
  for (const name of intake.pages) await page.getByRole("checkbox", { name, exact: true }).check();
  await next(page);
  await onStep(page, 8);
  await next(page);
  await onStep(page, 9);
  await page.getByLabel(/Legal Pages Acknowledgement/).check();
  await next(page);
  await onStep(page, 10);
  await next(page);
  await onStep(page, 11);
  await page.getByLabel("Bold & creative").check();
  await next(page);
  await onStep(page, 12);
  for (const label of [/processed by AI/, /used to generate my website/, /never sent to AI/, /how my data is used/])
    await page.getByLabel(label).check();
  await next(page);
  await onStep(page, 13);
  await next(page);
  await onStep(page, 14);
  await page.getByRole("button", { name: "Submit Request" }).click();
  await page.getByRole("heading", { name: "Your intake form has been submitted" }).waitFor();
}

/** The rows of a receipt-like table (the admin's What Was Sold, the customer's Receipt), without its header. */
const tableRows = (page: Page, region: string, skipHeader: boolean) =>
  page
    .getByRole("region", { name: region })
    .getByRole("table")
    .getByRole("row")
    .evaluateAll(
      (trs, skip) => trs.slice(skip ? 1 : 0).map((tr) => [...tr.children].map((c) => c.textContent?.trim() ?? "")),
      skipHeader,
    );

type Kind = {
  name: string;
  path: string;
  addOns: RegExp[];
  coupon?: boolean;
  javaScriptEnabled: boolean;
  width: number;
  intake: Intake;
  /** What Was Sold, as the admin reads it (the coupon's row is named after its code). */
  sold: (coupon: string) => string[][];
  included: string;
  windowHours: number;
  rounds: number;
  pagesInBrief: string[];
  buildLines: string[];
};

const KINDS: Kind[] = [
  {
    name: "a 24-Hour Website with Priority, Domain Connection, 2 Extra Pages and a coupon, JavaScript off",
    path: "/checkout",
    addOns: [/Priority 12-Hour Delivery/, /Domain Connection Service/, /2 Extra Pages/],
    coupon: true,
    javaScriptEnabled: false,
    width: 1280,
    intake: {
      business: "Riverside Electrical",
      pages: ["About", "Services", "Gallery", "FAQ", "Team"],
      files: { photoAlt: "Our shop front on Keen Street" },
    },
    sold: (coupon) => [
      ["24-Hour Website", "$300.00"],
      ["Priority 12-Hour Delivery", "$200.00"],
      ["Domain Connection Service", "$50.00"],
      ["2 Extra Pages", "$100.00"],
      [`Coupon ${coupon}`, "-$65.00"],
      ["Total paid (AUD)", "$585.00"],
    ],
    included:
      "Included: your first draft within 12 hours of receiving your details (or a full refund), up to 3 rounds of revisions and up to 7 pages.",
    windowHours: 12,
    rounds: 3,
    pagesInBrief: ["Home", "About", "Services", "Contact", "Gallery", "FAQ", "Team"],
    buildLines: [
      "Pages: up to 7 (5 with the package plus 2 from 2 Extra Pages)",
      "Logo design: not bought",
      "Domain connection: wanted (Domain Connection Service bought): we connect the customer's domain to the site",
      "Priority: yes (Priority 12-Hour Delivery bought): the first draft is due within 12 hours",
    ],
  },
  {
    name: "a Starter package, JavaScript on at 390 px",
    path: "/checkout?package=starter",
    addOns: [],
    javaScriptEnabled: true,
    width: 390,
    intake: { business: "Starter Plumbing", pages: ["About", "Services"] },
    sold: () => [
      ["Starter Website Package", "$997.00"],
      ["Total paid (AUD)", "$997.00"],
    ],
    included:
      "Included: your first draft within 48 hours of receiving your details (or a full refund), 1 round of revisions and up to 5 pages.",
    windowHours: 48,
    rounds: 1,
    pagesInBrief: ["Home", "About", "Services", "Contact"],
    buildLines: ["Pages: up to 5", "Priority: no: the first draft is due within 48 hours"],
  },
  {
    name: "an Enterprise package, JavaScript on",
    path: "/checkout?package=enterprise",
    addOns: [],
    javaScriptEnabled: true,
    width: 1280,
    intake: { business: "Enterprise Builders", pages: ["About", "Services", "Gallery", "Testimonials", "FAQ", "Team"] },
    sold: () => [
      ["Enterprise Website Package", "$3,997.00"],
      ["Total paid (AUD)", "$3,997.00"],
    ],
    included:
      "Included: your first draft within 12 hours of receiving your details (or a full refund), up to 3 rounds of revisions and unlimited pages.",
    windowHours: 12,
    rounds: 3,
    pagesInBrief: ["Home", "About", "Services", "Contact", "Gallery", "Testimonials", "FAQ", "Team"],
    buildLines: ["Pages: unlimited", "Priority: no: the first draft is due within 12 hours"],
  },
];

describe("the business's journey: buy, fill in, and build from the admin alone", () => {
  it.each(KINDS)("$name", { timeout: 240_000 }, async (kind) => {
    const tag = kind.intake.business.toLowerCase().replace(/\s+/g, "-");
    const email = uniqueAddress(tag);
    const coupon = kind.coupon
      ? await db.coupon({
          code: `JOURNEY${randomBytes(3).toString("hex").toUpperCase()}`,
          discount_type: "percentage",
          discount_value: 10,
        })
      : "";
    const page = await browser.newPage({ javaScriptEnabled: kind.javaScriptEnabled, width: kind.width });
    const orderId = await buy(page, kind.path, email, kind.addOns, coupon || undefined);
    await fillIntake(page, kind.javaScriptEnabled, kind.intake);

    // The customer's order status page: the same promise and receipt as the admin's.
    const texts = await Promise.all((await waitForMessages(email, 2)).map(async (m) => (await messageText(m.ID)).Text));
    const statusUrl = texts.map((t) => /(http\S+\/order-status\?access_token=\S+)/.exec(t)?.[1]).find(Boolean)!;
    await page.goto(statusUrl);
    await page.getByText(kind.included).waitFor();
    const receipt = await tableRows(page, "Receipt", true);

    // The admin, on the same kind of browser.
    const admin = await browser.newPage({ javaScriptEnabled: kind.javaScriptEnabled, width: kind.width });
    await addSessionCookie(admin.context(), adminCookie, APP_URL);
    await admin.goto(`/admin/orders/${orderId}`);
    const sold = await tableRows(admin, "What Was Sold", false);
    expect(sold).toEqual(kind.sold(coupon));
    // The customer's receipt says the same, in the same order.
    expect(receipt).toEqual(sold);
    expect(await admin.getByRole("region", { name: "Delivery Clock" }).innerText()).toMatch(
      new RegExp(`Window\\s+${kind.windowHours} hours`),
    );
    expect(
      await admin
        .getByRole("region", { name: "Revision Workflow" })
        .getByRole("button", { name: /^Enable Revision \d/ })
        .count(),
    ).toBe(kind.rounds);

    // The files: thumbnails that load, each full size, and all in one archive.
    const files = admin.getByRole("region", { name: "Customer's Files" });
    if (kind.intake.files) {
      const logo = files.getByRole("img", { name: "The customer's logo" });
      const photo = files.getByRole("img", { name: kind.intake.files.photoAlt });
      for (const img of [logo, photo]) {
        await img.scrollIntoViewIfNeeded();
        await expect.poll(() => img.evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
      }
      const full = await admin.request.get(
        (await files.getByRole("link", { name: /^Open full size: 01-shop-front/ }).getAttribute("href"))!,
      );
      expect(full.status()).toBe(200);
      expect((await sharp(await full.body()).metadata()).width).toBe(640);
      const archive = await admin.request.get(
        (await files.getByRole("link", { name: "Download all files (.zip)" }).getAttribute("href"))!,
      );
      expect(archive.status()).toBe(200);
      const zip = await archive.body();
      for (const name of ["logo.png", "photos/01-shop-front.png"]) expect(zip.includes(name)).toBe(true);
    } else await files.getByText("The customer has not uploaded a logo or photos.").waitFor();
    await screenshot(admin, `journey-admin-${tag}`);

    // The Brief: the customer's answers by step, the pages as a list, the photo by its alt text.
    await admin.goto(`/admin/orders/${orderId}?tab=brief`);
    const brief = admin.getByRole("region", { name: "Brief", exact: true });
    expect(await brief.getByRole("region", { name: /^Step 1: Business Basics/ }).innerText()).toContain(
      `Trading name\n${kind.intake.business}`,
    );
    expect(
      await brief
        .getByRole("region", { name: /^Step 7: Pages/ })
        .getByRole("listitem")
        .allInnerTexts(),
    ).toEqual(kind.pagesInBrief);
    if (kind.intake.files)
      await brief
        .getByRole("region", { name: /^Step 4: Branding/ })
        .getByText(`Photo 1: ${kind.intake.files.photoAlt}`)
        .waitFor();
    await screenshot(admin, `journey-brief-${tag}`);

    // The AI prompt states what shapes the build.
    await admin.goto(`/admin/orders/${orderId}?tab=ai-prompt`);
    await admin.getByRole("button", { name: "Generate AI Prompt" }).click();
    const prompt = await admin.getByLabel("Generated prompt").inputValue();
    for (const line of kind.buildLines) expect(prompt).toContain(line);
    await page.close();
    await admin.close();
  });
});
