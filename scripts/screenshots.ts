// Screenshots of every public page, checkout (with a package and with add-ons),
// every intake step and the privacy preview, at 1280 and 390 px, for a person to
// look at before and after a visual change. Needs the app running on the test
// services (npm test's app, or scripts/services.sh start test + node scripts/server.mjs).
//   npx tsx scripts/screenshots.ts [base-url] [out-dir]
import { mkdir } from "node:fs/promises";
import { chromium, type Page } from "playwright-core";
import { connectDb, disconnectDb } from "~/server/db.server";
import { fulfilOrder } from "~/server/fulfilment.server";
import { Order } from "~/server/models/index.server";
import { SITE_PAGES } from "./page-list.mjs";

const BASE = process.argv[2] ?? process.env.APP_URL ?? "http://127.0.0.1:3100";
const OUT = process.argv[3] ?? "test-results/screens";
const WIDTHS = [1280, 390];

async function shoot(page: Page, name: string) {
  // Filling a form scrolls it; from the top, the sticky header stays where a person sees it.
  await page.evaluate(() => window.scrollTo(0, 0));
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    const path = `${OUT}/${name}-${width}.png`;
    await page.screenshot({ path, fullPage: true });
    console.log(path);
  }
  await page.setViewportSize({ width: WIDTHS[0], height: 900 });
}

const slug = (route: string) => route.replace(/^\//, "").replace(/[^a-z0-9]+/gi, "-") || "home";

/** What a careful customer would type on each intake step, so every screen shows real content. */
const STEP_INPUT: Record<number, (page: Page) => Promise<void>> = {
  1: async (p) => {
    await p.getByLabel(/^Trading name/).fill("Bright Spark Electrical");
    await p.getByLabel(/^ABN or ACN/).fill("12 345 678 901");
    await p.getByLabel(/^Contact phone/).fill("0400 123 999");
    await p.getByLabel(/^Address/).fill("12 Keen St, Lismore NSW 2480");
    await p.getByLabel(/^Service area/).fill("Lismore and the Northern Rivers");
    await p.getByLabel(/^Business type/).selectOption("trades");
    await p
      .getByLabel(/^Describe your business/)
      .fill("Licensed electricians for homes, farms and small businesses across the Northern Rivers.");
  },
  2: async (p) => {
    await p.getByLabel(/^What is your website mainly for/).selectOption("lead_generation");
    await p.getByLabel(/^What should visitors do/).fill("Call for a free quote");
  },
  3: async (p) => {
    await p.getByLabel("Service name").fill("Switchboard upgrades");
    await p.getByLabel("Short description").fill("Safety switches and new boards, done in a day.");
  },
  5: async (p) => {
    await p.getByLabel(/^Primary domain/).fill("brightspark.com.au");
  },
  9: async (p) => {
    await p.getByLabel(/Legal Pages Acknowledgement/).check();
  },
  11: async (p) => {
    await p.getByLabel("Bold & creative").check();
  },
  12: async (p) => {
    for (const label of [/processed by AI/, /used to generate my website/, /never sent to AI/, /how my data is used/])
      await p.getByLabel(label).check();
  },
};

await mkdir(OUT, { recursive: true });
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
try {
  const context = await browser.newContext({ baseURL: BASE, javaScriptEnabled: false });
  const page = await context.newPage();
  for (const route of SITE_PAGES) {
    await page.goto(route);
    await shoot(page, slug(route));
  }
  await page.goto("/checkout?package=professional");
  await shoot(page, "checkout-package");
  await page.goto("/checkout");
  for (const name of [/Priority 12-Hour Delivery/, /Professional Logo Design/]) await page.getByLabel(name).check();
  await page
    .getByRole("button", { name: "Update total" })
    .click()
    .catch(() => undefined);
  await shoot(page, "checkout-add-ons");

  await connectDb();
  const order = await Order.create({ email: `screens-${Date.now()}@example.com`, amount_total: 30_000 });
  const { token } = await fulfilOrder({ orderId: order._id, sessionId: `cs_test_${order._id}`, amountPaid: 30_000 });
  await page.goto(`/intake-form?token=${token}`);
  for (let step = 1; step <= 14; step++) {
    await page.getByText(`Step ${step} of 14`).waitFor();
    await STEP_INPUT[step]?.(page);
    await shoot(page, `intake-step-${step}`);
    if (step < 14) {
      await page.getByRole("button", { name: /^(Next Step|Complete Required Fields First)$/ }).click();
      // A step that answers with a message (step 3 adds the service first) is shown, then moved on from.
      if (await page.getByText(`Step ${step} of 14`).isVisible())
        await page.getByRole("button", { name: "Next Step" }).click();
    }
  }
} finally {
  await browser.close();
  await disconnectDb();
}
