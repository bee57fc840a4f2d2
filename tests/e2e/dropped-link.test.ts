import mongoose from "mongoose";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { CONNECTION_MESSAGES } from "~/components/connection";
import { connectDb } from "~/server/db.server";
import { ContactMessage, RateLimitHit } from "~/server/models/index.server";
import { useAppDatabase } from "../support/app-data";
import { screenshot, useBrowser } from "../support/browser";

/**
 * A customer on a satellite link, JavaScript on: the connection drops before a
 * post, the answer of a post the server got is lost, an answer takes 30 s.
 * Each time the form stays with what was typed, the page says so beside the
 * button, the resend works, and the database holds exactly one of each effect.
 */
const browser = useBrowser();
useAppDatabase();

const WIDTHS = [390, 1280] as const;

async function freshContactPage(width: number) {
  // Each journey sends real messages from 127.0.0.1: start it under the per-address limit.
  await connectDb();
  await RateLimitHit.deleteMany({ key: mongoose.trusted({ $regex: "^contact:" }) });
  const page = await browser.newPage({ javaScriptEnabled: true, width });
  await page.goto("/contact", { waitUntil: "networkidle" }); // hydrated: the scripts are running
  return page;
}

async function fillContact(page: Page, name: string) {
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Email").fill("rural@example.test");
  await page.getByLabel(/^Message/).fill(`Hello from the farm, ${name}.`);
}

const send = (page: Page) => page.getByRole("button", { name: /Send Message|Sending/ }).click();
// first(): route.fetch() keeps the lost answer's flash cookie in the context's jar, so that case shows two.
const sentFlash = (page: Page) => page.getByText("Message sent!").first().waitFor({ timeout: 60_000 });
const stored = (name: string) => ContactMessage.countDocuments({ name });

describe.each(WIDTHS)("the contact form on a dropped link at %i px (JavaScript on)", (width) => {
  it("keeps the message when the browser is offline, says so, and sends it once when back online", async () => {
    const page = await freshContactPage(width);
    const name = `Offline ${width} ${Date.now()}`;
    await fillContact(page, name);
    await page.context().setOffline(true);
    await send(page);
    await page.getByText(CONNECTION_MESSAGES.failed).waitFor();
    expect(await page.getByLabel("Name").inputValue()).toBe(name);
    expect(await page.getByLabel(/^Message/).inputValue()).toContain("Hello from the farm");
    expect(await page.getByText("Unexpected Application Error").count()).toBe(0);
    await screenshot(page, `dropped-link-contact-offline-${width}`);
    expect(await stored(name)).toBe(0);

    await page.context().setOffline(false);
    await sentFlash(page);
    expect(await stored(name)).toBe(1);
  });

  it("answers a resend after a lost answer as the first, storing the message once", async () => {
    const page = await freshContactPage(width);
    const name = `Lost answer ${width} ${Date.now()}`;
    await fillContact(page, name);
    let reached = 0;
    await page.route("**/contact.data", async (route) => {
      if (route.request().method() !== "POST" || reached++ > 0) return route.continue();
      await route.fetch(); // the server got it and answered...
      await route.abort("connectionreset"); // ...and the answer never arrived
    });
    await send(page);
    await page.getByText(CONNECTION_MESSAGES.failed).waitFor();
    expect(await page.getByLabel("Name").inputValue()).toBe(name);
    await page.getByRole("button", { name: "Try again" }).click();
    await sentFlash(page);
    expect(reached).toBe(2);
    expect(await stored(name)).toBe(1);
  });

  it("says it is still sending during a 30-second answer, and sends once", async () => {
    const page = await freshContactPage(width);
    const name = `Slow ${width} ${Date.now()}`;
    await fillContact(page, name);
    await page.route("**/contact.data", async (route) => {
      if (route.request().method() !== "POST") return route.continue();
      const response = await route.fetch();
      await new Promise((resolve) => setTimeout(resolve, 30_000));
      await route.fulfill({ response });
    });
    await send(page);
    await page.getByText(CONNECTION_MESSAGES.slow).waitFor({ timeout: 15_000 });
    expect(await page.getByRole("button", { name: "Sending..." }).isDisabled()).toBe(true);
    await screenshot(page, `dropped-link-contact-slow-${width}`);
    await sentFlash(page);
    expect(await stored(name)).toBe(1);
  }, 60_000);
});
