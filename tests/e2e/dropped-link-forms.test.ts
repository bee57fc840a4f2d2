import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { EXPORT_OFFLINE } from "~/components/DataExportButton";
import { RESTORED_MESSAGE } from "~/components/useDeviceCopy";
import { connectDb } from "~/server/db.server";
import { Order, PrivacyAuditLog, RevisionFeedback, User } from "~/server/models/index.server";
import { SIGN_UP_LIMITS } from "~/server/accounts.server";
import { CHECKOUT_LIMIT } from "~/server/rate-limit.server";
import { setRevisionEnabled } from "~/server/revisions.server";
import { paidOrder, tokenCookie, useAppDatabase } from "../support/app-data";
import { screenshot, useBrowser } from "../support/browser";
import { droppedLinkJourneys, WIDTHS, type DroppedLinkForm } from "../support/dropped-link";
import { uniqueAddress } from "../support/mailpit";
import { clearBrowserLimits } from "../support/rate-limits";

/**
 * Checkout, sign-up and revision feedback on a dropped link (the contact form
 * and the intake are in dropped-link.test.ts): the journeys of
 * tests/support/dropped-link.ts, and the feedback's copy on the device.
 */
const browser = useBrowser();
useAppDatabase();

const waitLong = { timeout: 60_000 };
const copies = (page: Page) => page.evaluate(() => Object.entries(localStorage).filter(([k]) => k.startsWith("copy:")));

const checkout: DroppedLinkForm = {
  path: "/checkout",
  async open(width, baseURL) {
    await clearBrowserLimits(CHECKOUT_LIMIT);
    const email = uniqueAddress(`dropped-checkout-${width}`);
    const page = await browser.newPage({ javaScriptEnabled: true, width, baseURL });
    await page.goto("/checkout", { waitUntil: "networkidle" });
    await page.getByLabel("Email").fill(email);
    await page.getByLabel(/I agree to the/).check();
    return {
      page,
      effects: () => Order.countDocuments({ email }),
      stored: async () => (await Order.findOne({ email }).lean())?.email,
    };
  },
  field: (page) => page.getByLabel("Email"),
  submit: (page) => page.getByRole("button", { name: "Proceed to Payment" }).click(),
  done: (page) => page.waitForURL(/\/checkout\/offline\?session_id=/, waitLong),
};

const signUp: DroppedLinkForm = {
  path: "/auth",
  async open(width, baseURL) {
    await clearBrowserLimits(SIGN_UP_LIMITS.address);
    const email = uniqueAddress(`dropped-signup-${width}`);
    const page = await browser.newPage({ javaScriptEnabled: true, width, baseURL });
    await page.goto("/auth?tab=signup", { waitUntil: "networkidle" });
    await page.getByLabel("Full name (optional)").fill("Rural Customer");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("a-good-password");
    return { page, effects: () => User.countDocuments({ email }) };
  },
  field: (page) => page.getByLabel("Full name (optional)"),
  submit: (page) => page.getByRole("button", { name: /Create Account|Creating account/ }).click(),
  done: (page) => page.getByText("Account Created").first().waitFor(waitLong),
};

/** The order status page of a paid order whose first revision round is open. */
async function feedbackPage(width: number, baseURL?: string) {
  const { orderId, statusToken } = await paidOrder(uniqueAddress(`dropped-feedback-${width}`));
  await setRevisionEnabled(orderId, 1, true);
  const page = await browser.newPage({
    javaScriptEnabled: true,
    width,
    cookie: await tokenCookie(statusToken, "status"),
    baseURL,
  });
  await page.goto("/order-status", { waitUntil: "networkidle" });
  return { page, orderId };
}
const feedbackBox = (page: Page) => page.getByLabel("What would you like changed in revision 1?");
const sendFeedback = (page: Page) => page.getByRole("button", { name: /Submit Feedback|Sending/ }).click();
const feedbackSent = (page: Page) => page.getByText("Feedback Submitted!").first().waitFor(waitLong);

const revisionFeedback: DroppedLinkForm = {
  path: "/order-status",
  async open(width, baseURL) {
    const { page, orderId } = await feedbackPage(width, baseURL);
    await feedbackBox(page).fill("Please make the phone number bigger on mobile.");
    await connectDb();
    return {
      page,
      effects: () => RevisionFeedback.countDocuments({ order_id: orderId }),
      stored: async () => (await RevisionFeedback.findOne({ order_id: orderId }).lean())?.feedback,
    };
  },
  field: feedbackBox,
  submit: sendFeedback,
  done: feedbackSent,
};

droppedLinkJourneys({ checkout, "sign-up": signUp, "revision feedback": revisionFeedback });

describe("revision feedback kept on the device (JavaScript on)", () => {
  it("puts the feedback back after a reload, and forgets it once sent", async () => {
    const { page, orderId } = await feedbackPage(390);
    const text = "The header photo should be the shopfront, not the van.";
    await feedbackBox(page).fill(text);
    await page.waitForTimeout(700); // the copy is written half a second after typing stops
    await page.reload({ waitUntil: "networkidle" });
    await page.getByText(RESTORED_MESSAGE).waitFor();
    expect(await feedbackBox(page).inputValue()).toBe(text);
    await screenshot(page, "dropped-link-feedback-restored-390");
    await sendFeedback(page);
    await feedbackSent(page);
    expect(await copies(page)).toEqual([]);
    expect((await RevisionFeedback.findOne({ order_id: orderId }).lean())?.feedback).toBe(text);
  });
});

describe.each(WIDTHS)("Download my data on a dropped link at %i px (JavaScript on)", (width) => {
  it("says the download needs the connection instead of the browser's error page, and downloads once it is back", async () => {
    const { page, orderId } = await feedbackPage(width);
    await page.context().setOffline(true);
    await page.getByRole("button", { name: "Download my data (JSON)" }).click();
    await page.getByRole("alert").filter({ hasText: EXPORT_OFFLINE }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/order-status"); // the page is still there
    expect(await feedbackBox(page).count()).toBe(1);
    await screenshot(page, `dropped-link-export-offline-${width}`);
    expect(await PrivacyAuditLog.countDocuments({ order_id: orderId, action: "data_export" })).toBe(0);

    await page.context().setOffline(false);
    const [file] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download my data (JSON)" }).click(),
    ]);
    expect(file.suggestedFilename()).toMatch(/^order-[0-9a-f]{8}-data\.json$/);
    expect(await PrivacyAuditLog.countDocuments({ order_id: orderId, action: "data_export" })).toBe(1);
  });
});
