import { describe, expect, it } from "vitest";
import { IntakeSubmission } from "~/server/models/index.server";
import { paidOrder, tokenCookie, useAppDatabase } from "../support/app-data";
import { useAdminPages } from "../support/auth";
import { APP_URL, horizontalOverflow, JS_MODES, screenshot, useBrowser } from "../support/browser";

/** The builder's side of an order: the customer's files on the admin order page. */
const browser = useBrowser();
useAppDatabase();

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

const adminPage = useAdminPages(browser);

/** A paid order whose customer sent a logo and two photos through the intake's own upload route, over HTTP. */
async function orderWithFiles(label: string) {
  const o = await paidOrder();
  await IntakeSubmission.create({
    _id: o.orderId,
    order_id: o.orderId,
    furthest_step: 4,
    business_name: `Riverside Bakery ${label}`,
  });
  const cookie = await tokenCookie(o.token);
  for (const [field, name] of [
    ["logo", "logo.png"],
    ["photos", "shop-front.png"],
    ["photos", "van.png"],
  ]) {
    const form = new FormData();
    form.append(field, new File([PNG as BlobPart], name, { type: "image/png" }));
    const answer = await fetch(`${APP_URL}/intake-form/upload`, {
      method: "POST",
      body: form,
      headers: { Cookie: cookie },
    });
    expect(answer.status, name).toBe(200);
  }
  await IntakeSubmission.updateOne(
    { _id: o.orderId },
    { $set: { "photo_metadata.0.altText": "The shop front at dawn", "photo_metadata.0.placement": "hero" } },
  );
  return o.orderId;
}

describe.each(JS_MODES)("the customer's files on the admin order page, %s", (_mode, javaScriptEnabled) => {
  it.each([390, 1280])(
    "shows thumbnails with each photo's details, opens each file and downloads all at %i px",
    async (width) => {
      const orderId = await orderWithFiles(`${javaScriptEnabled ? "js" : "nojs"}-${width}`);
      const page = await adminPage(javaScriptEnabled, width);
      await page.goto(`/admin/orders/${orderId}`);
      const card = page.getByRole("region", { name: "Customer's Files" });
      await card.getByRole("img", { name: "The customer's logo" }).waitFor();
      const photos = card.getByRole("list", { name: "Photos" }).getByRole("listitem");
      expect(await photos.count()).toBe(2);
      await expect.poll(() => photos.first().getByRole("img", { name: "The shop front at dawn" }).count()).toBe(1);
      expect(await photos.first().innerText()).toContain("Top of the home page (hero)");
      expect(await photos.nth(1).innerText()).toMatch(/Alt text\s+Not answered/);
      // Every thumbnail really loaded (through the app, not a storage address); lazy ones once scrolled to.
      for (const img of await card.getByRole("img").all()) {
        await img.scrollIntoViewIfNeeded();
        await expect.poll(() => img.evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
        expect(await img.getAttribute("src")).toMatch(/^\/uploads\//);
      }
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `admin-order-files-${javaScriptEnabled ? "js" : "nojs"}-${width}`);

      const full = await page.request.get(
        (await card.getByRole("link", { name: /^Open full size: 01-shop-front/ }).getAttribute("href"))!,
      );
      expect(full.status()).toBe(200);
      expect(full.headers()["content-type"]).toBe("image/png");
      const archive = await page.request.get(
        (await card.getByRole("link", { name: "Download all files (.zip)" }).getAttribute("href"))!,
      );
      expect(archive.status()).toBe(200);
      expect(archive.headers()["content-disposition"]).toMatch(
        /^attachment; filename="riverside-bakery-.*-files\.zip"$/,
      );
      const body = await archive.body();
      for (const name of ["logo.png", "photos/01-shop-front.png", "photos/02-van.png"])
        expect(body.includes(name)).toBe(true);
      await page.close();
    },
  );
});
