import { randomBytes } from "node:crypto";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { UPLOAD_MESSAGES } from "~/components/intake/upload-sender";
import { LABELS } from "~/domain/intake/labels";
import { IntakeSubmission } from "~/server/models/index.server";
import { getStorage } from "~/server/storage.server";
import { paidOrder, useAppDatabase } from "../support/app-data";
import {
  alertText,
  APP_URL,
  recordRequests,
  screenshot,
  slowLink,
  useBrowser,
  waitForEffect,
} from "../support/browser";
import { useRelays } from "../support/faulty-relay";

const browser = useBrowser();
useAppDatabase();

const image = (colour: string) =>
  sharp({ create: { width: 900, height: 600, channels: 3, background: colour } })
    .png()
    .toBuffer();

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

/** Step 4 open with JavaScript on at `width` px (through `baseURL`, a faulty relay, when given); the customer's order and their page. */
async function stepFour(width: number, baseURL?: string) {
  const { orderId, token } = await paidOrder();
  await IntakeSubmission.updateOne(
    { _id: orderId },
    { $set: { furthest_step: 4 }, $setOnInsert: { order_id: orderId } },
    { upsert: true },
  );
  const page = await browser.newPage({ javaScriptEnabled: true, width, baseURL });
  await page.goto(`/intake-form?token=${token}`);
  await page.goto("/intake-form/4", { waitUntil: "networkidle" });
  return { orderId, page };
}
const newRelay = useRelays();
const choosePhoto = async (page: Page, name: string, colour: string) =>
  page.getByLabel("Add photos").setInputFiles({ name, mimeType: "image/png", buffer: await image(colour) });
const photos = async (orderId: string) =>
  ((await IntakeSubmission.findById(orderId).lean())?.photo_metadata ?? []) as { fileName: string; altText: string }[];

describe.each([390, 1280])("step 4's files with JavaScript on at %i px", (width) => {
  it("uploads a chosen photo on its own with progress, keeps typing meanwhile, and Next does not send it again", async () => {
    const { orderId, page } = await stepFour(width);
    // A satellite uplink (about 256 kbps) and a photo of 200 KB: the bar moves for several seconds.
    const fullSpeed = await slowLink(page, 650, { upload: 32_000 });
    const noise = await sharp(randomBytes(260 * 260 * 3), { raw: { width: 260, height: 260, channels: 3 } })
      .png()
      .toBuffer();
    await page.getByLabel("Add photos").setInputFiles({ name: "van.png", mimeType: "image/png", buffer: noise });
    await page.getByRole("progressbar", { name: "Upload of van.png" }).waitFor();
    await page
      .getByText(/^Uploading van\.png: [1-9]\d?%$/)
      .first()
      .waitFor({ timeout: 30_000 });
    await screenshot(page, `intake-step4-uploading-${width}`);
    // Typing while the photo is on its way is still there when the step shows it.
    await page.getByLabel(LABELS.logoUrl).fill("https://example.com/our-logo.png");
    await page.getByRole("group", { name: "Photo 1" }).waitFor({ timeout: 60_000 });
    await fullSpeed();
    expect(await page.getByLabel(LABELS.logoUrl).inputValue()).toBe("https://example.com/our-logo.png");
    expect((await photos(orderId)).map((p) => p.fileName)).toEqual(["van.png"]);

    await page
      .getByRole("group", { name: "Photo 1" })
      .getByLabel(/Describe the photo/)
      .fill("Our service van");
    const post = page.waitForRequest((r) => r.method() === "POST" && r.url().includes("/intake-form/4.data"));
    await page.getByRole("button", { name: "Next Step" }).click();
    await page.getByText("Step 5 of 14").waitFor();
    expect((await (await post).sizes()).requestBodySize).toBeLessThan(20_000); // the photo is not in it
    expect(await photos(orderId)).toMatchObject([{ fileName: "van.png", altText: "Our service van" }]);
    expect((await IntakeSubmission.findById(orderId).lean())?.logo_url).toBe("https://example.com/our-logo.png");
  });
});

describe("step 4's files on a dropped link (JavaScript on)", () => {
  it("sends a dropped upload again without choosing the file again, stores it once, and asks before leaving mid-upload", async () => {
    const relay = await newRelay();
    const { orderId, page } = await stepFour(1280, relay.url);
    recordRequests(page);
    // The server stores the photo, then the link drops before its answer arrives.
    const dropped = relay.fail("drop", "/intake-form/upload", { method: "PUT" });
    await choosePhoto(page, "shop.png", "#36c");
    await page.getByText(`shop.png: ${UPLOAD_MESSAGES.failed}`).first().waitFor();
    expect(dropped.reached).toBe(1);
    await screenshot(page, "intake-step4-upload-dropped-1280");
    relay.restore();
    // Try again, unless the page's own back-off has just sent it again (the button is then gone).
    await page
      .getByRole("button", { name: "Try again" })
      .click({ timeout: 5_000 })
      .catch(() => undefined);
    await page.getByRole("group", { name: "Photo 1" }).waitFor({ timeout: 30_000 });
    expect((await photos(orderId)).map((p) => p.fileName)).toEqual(["shop.png"]); // sent twice, stored once

    // A photo on its way (its answer held): leaving asks first.
    const held = relay.fail("stall", "/intake-form/upload", { method: "PUT" });
    await choosePhoto(page, "team.png", "#c63");
    await page.getByRole("progressbar", { name: "Upload of team.png" }).waitFor();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Home", exact: true }).click();
    await page.getByText(UPLOAD_MESSAGES.leave).waitFor();
    await page.getByRole("button", { name: "Stay until it has uploaded" }).click();
    await expect.poll(() => held.reached, { timeout: 30_000 }).toBe(1);
    await screenshot(page, "intake-step4-upload-held-1280");
    relay.restore();
    await waitForEffect(page, page.getByRole("group", { name: "Photo 2" }), "upload-held-then-restored", 30_000);
    expect(new URL(page.url()).pathname).toBe("/intake-form/4");
    expect((await photos(orderId)).map((p) => p.fileName)).toEqual(["shop.png", "team.png"]);
  });
});

describe.each([390, 1280])("step 4 in two tabs at %i px (JavaScript on)", (width) => {
  it("keeps both tabs' photos when their uploads land at once, and either tab's Next keeps them", async () => {
    const { orderId, page: first } = await stepFour(width);
    const second = await first.context().newPage(); // a second tab of the same browser
    await second.goto("/intake-form/4", { waitUntil: "networkidle" });
    // Both uploads are held until each has arrived, then answered together: the server handles them at once.
    const held: (() => Promise<void>)[] = [];
    const bothHeld = new Promise<void>((resolve) =>
      first.context().route(/\/intake-form\/upload\?/, async (route) => {
        const go = new Promise<void>((release) => held.push(async () => release()));
        if (held.length === 2) resolve();
        await go;
        await route.continue();
      }),
    );
    await choosePhoto(first, "shop.png", "#36c");
    await choosePhoto(second, "van.png", "#c63");
    await bothHeld;
    await Promise.all(held.map((release) => release()));
    await first.getByRole("group", { name: "Photo 1" }).waitFor({ timeout: 30_000 });
    await second.getByRole("group", { name: "Photo 1" }).waitFor({ timeout: 30_000 });
    await expect
      .poll(async () => (await photos(orderId)).map((p) => p.fileName).sort())
      .toEqual(["shop.png", "van.png"]);

    // The first tab, shown again, has both; describing them and Next keeps both.
    await first.reload({ waitUntil: "networkidle" });
    await first.getByRole("group", { name: "Photo 2" }).waitFor();
    await screenshot(first, `intake-step4-two-tabs-${width}`);
    for (const n of [1, 2])
      await first
        .getByRole("group", { name: `Photo ${n}` })
        .getByLabel(/Describe the photo/)
        .fill(`Photo number ${n}`);
    await first.getByRole("button", { name: "Next Step" }).click();
    await first.getByText("Step 5 of 14").waitFor();
    expect((await photos(orderId)).map((p) => p.altText)).toEqual(["Photo number 1", "Photo number 2"]);
  });
});

describe.each([390, 1280])("step 4's files on a satellite link at %i px (JavaScript on)", (width) => {
  it("continues a photo cut off mid-way from what arrived, says the time left, and cancels a file", async () => {
    const relay = await newRelay();
    const { orderId, page } = await stepFour(width, relay.url);
    // 650 ms and 1 Mbps up: a photo of about 800 KB takes some 7 s a try.
    await slowLink(page, 650);
    const big = await sharp(randomBytes(520 * 520 * 3), { raw: { width: 520, height: 520, channels: 3 } })
      .png()
      .toBuffer();
    const puts: URL[] = [];
    page.on("request", (r) => void (r.method() === "PUT" && puts.push(new URL(r.url()))));
    const cut = relay.fail("cut-request", "/intake-form/upload", { method: "PUT" });
    await page.getByLabel("Add photos").setInputFiles({ name: "shop.png", mimeType: "image/png", buffer: big });
    await page.getByText(`shop.png: ${UPLOAD_MESSAGES.failed}`).first().waitFor({ timeout: 60_000 });
    expect(cut.reached).toBe(1);
    relay.restore();
    await page
      .getByRole("button", { name: "Try again" })
      .click({ timeout: 5_000 })
      .catch(() => undefined);
    // The rest, not the whole file: the second try starts where the first was cut off.
    await page.getByRole("progressbar", { name: "Upload of shop.png" }).waitFor();
    await screenshot(page, `intake-step4-upload-resumed-${width}`);
    await page.getByRole("group", { name: "Photo 1" }).waitFor({ timeout: 90_000 });
    const offsets = puts.map((u) => Number(u.searchParams.get("offset")));
    expect(offsets[0]).toBe(0);
    expect(offsets.at(-1)).toBeGreaterThan(big.byteLength / 4);
    expect((await photos(orderId)).map((p) => p.fileName)).toEqual(["shop.png"]);

    // A file on its way can be cancelled: its line goes, what arrived is deleted, and nothing is stored.
    await page.getByLabel("Add photos").setInputFiles({ name: "team.png", mimeType: "image/png", buffer: big });
    await page.getByRole("progressbar", { name: "Upload of team.png" }).waitFor();
    // Once the speed is measured, the line says the time left (about 6 s at 125 kB/s).
    await page.getByText(/^Uploading team\.png: \d+%, about \d+ (s|min) left$/).waitFor({ timeout: 30_000 });
    const deleted = page.waitForResponse((r) => r.request().method() === "DELETE");
    await page.getByRole("button", { name: "Cancel team.png" }).click();
    expect((await deleted).status()).toBe(200);
    expect(await page.getByRole("progressbar", { name: "Upload of team.png" }).count()).toBe(0);
    expect(await page.getByText(/team\.png/).count()).toBe(0);
    expect((await photos(orderId)).map((p) => p.fileName)).toEqual(["shop.png"]);
  });
});
