import type { Page } from "playwright-core";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { IntakeSubmission } from "~/server/models/index.server";
import { getStorage } from "~/server/storage.server";
import { paidOrder, useAppDatabase } from "../support/app-data";
import { APP_URL, screenshot, useBrowser } from "../support/browser";

const browser = useBrowser();
useAppDatabase();

const image = (colour: string) =>
  sharp({ create: { width: 900, height: 600, channels: 3, background: colour } })
    .png()
    .toBuffer();
const alertText = async (page: Page) => {
  await page.getByRole("alert").first().waitFor();
  return page.getByRole("alert").first().textContent();
};

describe("step 4's files with JavaScript off", () => {
  it("keeps a logo chosen with a post that comes back asking for alt text, and deletes a removed photo", async () => {
    const { orderId, token } = await paidOrder();
    await IntakeSubmission.updateOne(
      { _id: orderId },
      { $set: { furthest_step: 4 }, $setOnInsert: { order_id: orderId } },
      { upsert: true },
    );
    const page = await browser.newPage({ javaScriptEnabled: false, width: 390 });
    await page.goto(`/intake-form?token=${token}`);
    await page.goto("/intake-form/4");
    await page
      .getByLabel("Add photos")
      .setInputFiles({ name: "van.png", mimeType: "image/png", buffer: await image("#2a6") });
    await page.getByRole("button", { name: "Next Step" }).click();
    expect(await alertText(page)).toBe("Please describe each new photo (alt text), then continue.");

    // The alt text is still empty when the logo is chosen: the post is refused for that field, but the logo is kept.
    await page
      .getByLabel("Upload your logo")
      .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: await image("#c33") });
    await page.getByRole("button", { name: "Next Step" }).click();
    expect(await alertText(page)).toBe("Photo 1, Describe the photo: Alt text is required");
    await page.getByAltText("Your current logo").waitFor();
    await screenshot(page, "intake-step4-logo-kept-nojs-390");
    const doc = await IntakeSubmission.findById(orderId).lean();
    expect(doc?.logo_key).toMatch(new RegExp(`^logos/${orderId}/`));
    expect(await page.getByAltText("Your current logo").getAttribute("src")).toBe(`/uploads/${doc!.logo_thumb_key}`);

    const [photo] = doc!.photo_metadata as { key: string; thumbKey: string }[];
    await page.getByRole("button", { name: "Remove photo 1" }).click();
    await page.waitForURL(`${APP_URL}/intake-form/4`);
    expect((await IntakeSubmission.findById(orderId).lean())?.photo_metadata).toEqual([]);
    expect(await getStorage().get(photo.key)).toBeNull();
    expect(await getStorage().get(photo.thumbKey)).toBeNull();
    expect(await getStorage().get(doc!.logo_key!)).not.toBeNull();
  });
});
