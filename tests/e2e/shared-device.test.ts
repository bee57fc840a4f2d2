import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { RESTORED_MESSAGE } from "~/components/useDeviceCopy";
import { AUTH_MESSAGES } from "~/domain/account";
import { IntakeSubmission } from "~/server/models/index.server";
import { paidOrder, tokenCookie, useAppDatabase } from "../support/app-data";
import { signedInUser } from "../support/auth";
import { APP_URL, screenshot, scriptsRunning, useBrowser } from "../support/browser";

/**
 * A shared computer: the copies of forms this site keeps in the browser
 * (components/useDeviceCopy.ts) belong to whoever made them. A copy made while signed in is never put back for
 * another account; signing out removes every copy, with JavaScript and without; an intake step's copy goes as
 * soon as the server has the step, its autosave included.
 */
const browser = useBrowser();
useAppDatabase();

const copies = (page: Page) => page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith("copy:")));

/** The browser's session cookie becomes this one: the next person at the same computer. */
async function signInAs(page: Page, cookie: string) {
  const [name, ...rest] = cookie.split("=");
  await page.context().clearCookies();
  await page.context().addCookies([{ name, value: rest.join("="), url: APP_URL }]);
}

async function typeContact(page: Page, who: string) {
  await page.goto("/contact", { waitUntil: "networkidle" });
  await page.getByLabel("Name").fill(who);
  await page.getByLabel("Email").fill("shared@example.test");
  await page.getByLabel(/^Message/).fill(`A private message from ${who}.`);
  await expect.poll(() => copies(page)).toHaveLength(1); // written half a second after typing stops
}

async function signOut(page: Page) {
  await page.goto("/dashboard");
  await page.getByRole("button", { name: "Sign Out" }).click();
  await page.getByText(AUTH_MESSAGES.signedOut.description).waitFor();
}

describe("the contact form's copy on a shared computer (JavaScript on)", () => {
  it.each([390, 1280])("belongs to the account that typed it and goes at sign-out, at %i px", async (width) => {
    const [first, second] = [await signedInUser(), await signedInUser()];
    const page = await browser.newPage({ javaScriptEnabled: true, width, cookie: first.cookie });
    await typeContact(page, "First Person");

    // The next person, signed in on the same browser: nothing of the first person's is put back.
    await signInAs(page, second.cookie);
    await page.goto("/contact", { waitUntil: "networkidle" });
    expect(await page.getByLabel("Name").inputValue()).toBe("");
    expect(await page.getByLabel(/^Message/).inputValue()).toBe("");
    expect(await page.getByText(RESTORED_MESSAGE).count()).toBe(0);
    // Nor for a visitor who is not signed in.
    await page.context().clearCookies();
    await page.goto("/contact", { waitUntil: "networkidle" });
    expect(await page.getByLabel("Name").inputValue()).toBe("");

    // The first person back: their copy is theirs.
    await signInAs(page, first.cookie);
    await page.goto("/contact", { waitUntil: "networkidle" });
    await page.getByText(RESTORED_MESSAGE).waitFor();
    expect(await page.getByLabel("Name").inputValue()).toBe("First Person");

    // Signing out removes every copy this site kept on the device, and the page says so.
    await signOut(page);
    await screenshot(page, `shared-device-signed-out-${width}`);
    expect(await copies(page)).toEqual([]);
    await page.goto("/contact", { waitUntil: "networkidle" });
    expect(await page.getByLabel("Name").inputValue()).toBe("");
  });
});

describe("signing out with JavaScript off", () => {
  it("removes every copy this site kept on the device, and says so", async () => {
    const user = await signedInUser();
    const page = await browser.newPage({ javaScriptEnabled: false, width: 390, cookie: user.cookie });
    await page.goto("/dashboard");
    // Copies left from an earlier visit with JavaScript on (the page's own scripts are off now).
    await page.evaluate(() => {
      localStorage.setItem("copy:contact", JSON.stringify({ at: Date.now(), entries: [["name", "Someone"]] }));
      localStorage.setItem("copy:intake:abc:1", JSON.stringify({ at: Date.now(), entries: [["x", "y"]] }));
    });
    expect(await copies(page)).toHaveLength(2);
    await signOut(page);
    await screenshot(page, "shared-device-signed-out-nojs");
    expect(await copies(page)).toEqual([]);
  });
});

describe("an intake step's copy (JavaScript on)", () => {
  it("is removed as soon as an autosave has the step", async () => {
    const { orderId, token } = await paidOrder();
    await IntakeSubmission.create({ order_id: orderId, furthest_step: 1 });
    const page = await browser.newPage({ javaScriptEnabled: true, width: 1280, cookie: await tokenCookie(token) });
    await page.clock.install();
    await page.goto("/intake-form/1", { waitUntil: "networkidle" });
    await scriptsRunning(page); // the autosave's timer is set before the clock is moved on
    await page.getByLabel(/^Trading name/).fill("Saved by the autosave");
    await page.clock.fastForward(1_000); // the copy is written half a second after typing stops
    await expect.poll(() => copies(page)).toHaveLength(1);
    await page.clock.fastForward(30_000); // the autosave's tick
    await page.getByText(/^Last saved /).waitFor();
    expect((await IntakeSubmission.findOne({ order_id: orderId }).lean())?.business_name).toBe("Saved by the autosave");
    await expect.poll(() => copies(page)).toEqual([]);
  });
});
