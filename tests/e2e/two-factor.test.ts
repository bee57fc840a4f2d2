import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { FRESH_PROOF_MS } from "~/domain/two-factor";
import { totpCode } from "~/domain/totp";
import { connectDb } from "~/server/db.server";
import { Coupon, Order } from "~/server/models/index.server";
import { paidOrder, useAppDatabase } from "../support/app-data";
import { signedInUser, signInOnPage } from "../support/auth";
import { expectNoSeriousA11yViolations, flash, JS_MODES, screenshot, useBrowser } from "../support/browser";

const browser = useBrowser();
useAppDatabase();
beforeAll(async () => {
  await connectDb();
});

const WIDTHS = [390, 1280] as const;

const signInWithPassword = (page: Page, email: string, password: string) =>
  signInOnPage(page, email, password, "/admin");

describe.each(JS_MODES)("two-factor sign-in with %s", (mode, javaScriptEnabled) => {
  const label = javaScriptEnabled ? "js" : "nojs";

  it.each(WIDTHS)("an admin sets it up, then signs in with a code and with a recovery code (%i px)", async (width) => {
    const admin = await signedInUser({ admin: true, secondFactor: false });
    const page = await browser.newPage({ javaScriptEnabled, width });
    await signInWithPassword(page, admin.email, admin.password);

    // Enrolment: the QR code (an SVG, drawn on the server) and the key as text.
    await page.getByRole("heading", { name: "Set Up Two-Factor Sign-In" }).waitFor();
    await expect(page.getByRole("img", { name: "QR code of your two-factor key" }).locator("svg")).toBeTruthy();
    expect(await page.locator(".qr-code svg").count()).toBe(1);
    const secret = (await page.locator("code.totp-key").innerText()).replace(/\s/g, "");
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await screenshot(page, `two-factor-setup-${label}-${width}`);
    if (javaScriptEnabled && width === 1280) await expectNoSeriousA11yViolations(page);

    // A wrong code says so on the same page.
    await page.getByLabel("Authentication code").fill("000000");
    await page.getByRole("button", { name: "Turn On Two-Factor Sign-In" }).click();
    await page.getByRole("alert").filter({ hasText: "That code didn't match" }).waitFor();

    await page.getByLabel("Authentication code").fill(totpCode(secret, Date.now()));
    await page.getByRole("button", { name: "Turn On Two-Factor Sign-In" }).click();
    await page.getByRole("heading", { name: "Your recovery codes" }).waitFor();
    const codes = await page.locator(".recovery-codes code").allInnerTexts();
    expect(codes).toHaveLength(10);
    await screenshot(page, `two-factor-recovery-codes-${label}-${width}`);
    await page.getByRole("link", { name: "I've saved them, continue" }).click();
    await page.getByRole("heading", { name: "Admin Panel" }).waitFor();

    // Next sign-in, in another browser: password, then the code (the next step's: this step's was used).
    const second = await browser.newPage({ javaScriptEnabled, width });
    await signInWithPassword(second, admin.email, admin.password);
    await second.getByRole("heading", { name: "Enter your code" }).waitFor();
    await screenshot(second, `two-factor-code-${label}-${width}`);
    await second.getByLabel("Authentication code").fill(totpCode(secret, Date.now() + 30_000));
    await second.getByRole("button", { name: "Verify" }).click();
    await second.getByRole("heading", { name: "Admin Panel" }).waitFor();
    await flash(second, "Welcome Back");

    // And with a recovery code, typed as shown.
    const third = await browser.newPage({ javaScriptEnabled, width });
    await signInWithPassword(third, admin.email, admin.password);
    await third.getByLabel("Authentication code").fill(codes[0]);
    await third.getByRole("button", { name: "Verify" }).click();
    await third.getByRole("heading", { name: "Admin Panel" }).waitFor();
    await flash(third, "You have 9 recovery codes left.");

    // The same recovery code a second time is refused.
    const fourth = await browser.newPage({ javaScriptEnabled, width });
    await signInWithPassword(fourth, admin.email, admin.password);
    await fourth.getByLabel("Authentication code").fill(codes[0]);
    await fourth.getByRole("button", { name: "Verify" }).click();
    await fourth.getByRole("alert").filter({ hasText: "That code didn't work" }).waitFor();
    expect(new URL(fourth.url()).pathname).toBe("/auth/two-factor");
  });

  it.each(WIDTHS)(
    "a destructive action asks for a fresh code and comes back to the same confirmation, with the choice kept (%i px)",
    async (width) => {
      const admin = await signedInUser({ admin: true, verifiedAt: Date.now() - FRESH_PROOF_MS - 60_000 });
      const { orderId } = await paidOrder();
      const shortId = orderId.slice(0, 8);
      const page = await browser.newPage({ javaScriptEnabled, width, cookie: admin.cookie });

      // Bulk status change: tick the order, choose the action, apply.
      await page.goto(`/admin?q=${shortId}`);
      await page.getByRole("checkbox", { name: `Select order #${shortId}` }).check();
      await page.getByLabel("Bulk action").selectOption("completed");
      await page.getByRole("button", { name: "Apply to selected" }).click();
      await page.getByRole("heading", { name: "Confirm it's you" }).waitFor();
      await screenshot(page, `two-factor-reprompt-${label}-${width}`);
      expect((await Order.findById(orderId).lean())?.status).toBe("paid");

      await page.getByLabel("Authentication code").fill(admin.code());
      await page.getByRole("button", { name: "Confirm" }).click();
      await flash(page, "Please confirm the action again.");
      // Back on the list with the same order ticked and the same action chosen.
      expect(await page.getByRole("checkbox", { name: `Select order #${shortId}` }).isChecked()).toBe(true);
      expect(await page.getByLabel("Bulk action").inputValue()).toBe("completed");
      expect(await page.getByLabel("Search").inputValue()).toBe(shortId);
      await page.getByRole("button", { name: "Apply to selected" }).click();
      await flash(page, "Updated 1 order to completed");
      expect((await Order.findById(orderId).lean())?.status).toBe("completed");

      // Within 10 minutes of that code, deleting a coupon asks nothing more.
      const coupon = await Coupon.create({
        code: `TFA${label}${width}${Date.now()}`.toUpperCase(),
        discount_type: "fixed",
        discount_value: 500,
      });
      await page.goto(`/admin/coupons/${coupon._id}?confirm=delete`);
      await page.getByRole("button", { name: "Delete", exact: true }).click();
      await flash(page, "Deleted");
      expect(await Coupon.exists({ _id: coupon._id })).toBeNull();
    },
  );
  void mode;
});
