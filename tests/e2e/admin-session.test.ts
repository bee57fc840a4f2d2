import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN_SESSION_MESSAGES } from "~/domain/admin/session";
import { connectDb } from "~/server/db.server";
import { IntakeSubmission, Session } from "~/server/models/index.server";
import { ADMIN_SESSION_IDLE_MS, sessionStorage } from "~/server/session.server";
import { paidOrder, useAppDatabase } from "../support/app-data";
import { clearSignInLimit, signedInUser } from "../support/auth";
import {
  expectNoSeriousA11yViolations,
  flash,
  JS_MODES,
  screenshot,
  useBrowser,
  waitForEffect,
} from "../support/browser";
import { uniqueAddress } from "../support/mailpit";

/**
 * In the browser: the admin pages say when the session ends if left idle; with JavaScript a
 * warning offers "Stay signed in" 2 minutes before (the page's clock is moved on, never waited for); and an Edit
 * Data change refused because the session idled out (its last sight moved back in the database) comes back
 * after the password and the code, on its tab, with a notice, and saves when the admin presses Save.
 */

const browser = useBrowser();
useAppDatabase();
beforeAll(async () => {
  await connectDb();
});

const WIDTHS = [390, 1280] as const;

/** Moves the session's last sight back, as if the admin had been away `ms`. */
async function idle(cookie: string, ms: number) {
  const id = (await sessionStorage().getSession(cookie)).id;
  await Session.updateOne({ _id: id }, { $set: { last_seen_at: new Date(Date.now() - ms) } });
  return id;
}

async function submittedOrder(label: string) {
  const { orderId } = await paidOrder(uniqueAddress(label));
  await IntakeSubmission.create({
    order_id: orderId,
    status: "submitted",
    submitted_at: new Date(),
    business_name: `Saved Bakery ${label}`,
    business_description: "Bread.",
  });
  return orderId;
}

async function adminPage(javaScriptEnabled: boolean, width: number) {
  const admin = await signedInUser({ admin: true });
  const page = await browser.newPage({ javaScriptEnabled, width, cookie: admin.cookie });
  return { admin, page };
}

const businessName = (page: Page) => page.getByLabel("Business name", { exact: true });

/** On the sign-in page a kept post led to: the password and the code (made for `at`), then the kept form's notice. */
async function signBackIn(page: Page, admin: Awaited<ReturnType<typeof signedInUser>>, at = Date.now()) {
  await clearSignInLimit(admin.email);
  await page.getByLabel("Email").fill(admin.email);
  await page.getByLabel("Password").fill(admin.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.getByLabel("Authentication code").fill(admin.code(at));
  await page.getByRole("button", { name: "Verify" }).click();
  await page.getByText(ADMIN_SESSION_MESSAGES.kept).waitFor();
}

describe.each(JS_MODES)("the admin session with %s", (_mode, javaScriptEnabled) => {
  const label = javaScriptEnabled ? "js" : "nojs";

  it.each(WIDTHS)(
    "an Edit Data change refused after the idle limit comes back after sign-in (%i px)",
    async (width) => {
      const orderId = await submittedOrder(`kept-${label}-${width}`);
      const { admin, page } = await adminPage(javaScriptEnabled, width);
      await page.goto(`/admin/orders/${orderId}?tab=edit-data`);
      await page
        .getByText(/^If left idle, your admin session ends at \d{1,2}:\d{2}\s?[ap]m \(Sydney time\)\.$/)
        .waitFor();

      const typed = `Typed while away ${label} ${width}`;
      await businessName(page).fill(typed);
      await idle(admin.cookie, ADMIN_SESSION_IDLE_MS + 60_000);
      await page.getByRole("button", { name: "Save Changes" }).click();

      await page
        .getByRole("heading", { name: /sign in/i })
        .first()
        .waitFor();
      await flash(page, ADMIN_SESSION_MESSAGES.keptUntilSignIn);
      await screenshot(page, `admin-session-kept-sign-in-${label}-${width}`);
      await signBackIn(page, admin);
      expect(new URL(page.url()).search).toBe("?tab=edit-data");
      expect(await businessName(page).inputValue()).toBe(typed);
      expect(await page.getByLabel("Business description").inputValue()).toBe("Bread.");
      // Shown, never applied by itself.
      expect((await IntakeSubmission.findOne({ order_id: orderId }).lean())?.business_name).toBe(
        `Saved Bakery kept-${label}-${width}`,
      );
      await screenshot(page, `admin-session-kept-back-${label}-${width}`);
      if (javaScriptEnabled && width === 1280) await expectNoSeriousA11yViolations(page);

      await page.getByRole("button", { name: "Save Changes" }).click();
      await flash(page, "Saved Successfully");
      expect((await IntakeSubmission.findOne({ order_id: orderId }).lean())?.business_name).toBe(typed);
    },
  );

  it("a coupon (its code too) and a round's revision notes refused after the idle limit come back after sign-in", async () => {
    const orderId = await submittedOrder(`kept-forms-${label}`);
    await IntakeSubmission.updateOne({ order_id: orderId }, { $set: { ai_processing_consent: true } });
    const { admin, page } = await adminPage(javaScriptEnabled, 1280);

    await page.goto("/admin/coupons");
    const code = `KEPT${label.toUpperCase()}${Date.now() % 100_000}`;
    await page.getByLabel("Code (required)").fill(code);
    await page.getByLabel("Discount value (required)").fill("15");
    await page.getByLabel("Max uses (optional)").fill("5");
    await idle(admin.cookie, ADMIN_SESSION_IDLE_MS + 60_000);
    await page.getByRole("button", { name: "Create Coupon" }).click();
    await flash(page, ADMIN_SESSION_MESSAGES.keptUntilSignIn);
    await signBackIn(page, admin);
    expect(await page.getByLabel("Code (required)").inputValue()).toBe(code);
    expect(await page.getByLabel("Discount value (required)").inputValue()).toBe("15");
    expect(await page.getByLabel("Max uses (optional)").inputValue()).toBe("5");

    await page.goto(`/admin/orders/${orderId}?tab=revision-1`);
    const notes = `Make the phone number bigger (${label})`;
    await page.getByLabel("Revision notes").fill(notes);
    const signedInAgain = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    await idle(signedInAgain, ADMIN_SESSION_IDLE_MS + 60_000);
    await page.getByRole("button", { name: "Generate Revision Prompt" }).click();
    await flash(page, ADMIN_SESSION_MESSAGES.keptUntilSignIn);
    // The code of the next 30 s: the one just used is refused a second time (replay).
    await signBackIn(page, admin, Date.now() + 30_000);
    expect(new URL(page.url()).search).toBe("?tab=revision-1");
    expect(await page.getByLabel("Revision notes").inputValue()).toBe(notes);
  });

  if (!javaScriptEnabled) return;

  it.each(WIDTHS)("warns 2 minutes before the end, and Stay signed in extends the session (%i px)", async (width) => {
    const { admin, page } = await adminPage(true, width);
    await page.clock.install();
    // Hydrated (the scripts ran and set the warning's timers) before the clock is moved on: a jump before the
    // timers are set would put them 28 minutes after it. The heading is in the server's page and the network
    // falls idle while the scripts still run on a busy machine, so neither says so. The dialog's module is
    // fetched by the effect that runs beside the one setting the timers: once it is asked for, they are set.
    const timersSet = page.waitForRequest((request) => new URL(request.url()).pathname.includes("/SessionDialog-"));
    await page.goto("/admin/coupons");
    await timersSet;
    await page.getByRole("textbox").first().focus();
    // The admin stayed on the page without a click for 28.5 minutes: the server's clock and the page's.
    const sessionId = await idle(admin.cookie, ADMIN_SESSION_IDLE_MS - 90_000);
    await page.clock.fastForward("28:30");

    const dialog = page.getByRole("alertdialog", { name: ADMIN_SESSION_MESSAGES.warningTitle });
    await waitForEffect(page, dialog.getByText(ADMIN_SESSION_MESSAGES.warning), `session-warning-${width}`, 30_000);
    const stay = dialog.getByRole("button", { name: "Stay signed in" });
    await expect.poll(() => stay.evaluate((el) => el === document.activeElement)).toBe(true);
    await screenshot(page, `admin-session-warning-${width}`);
    if (width === 1280) await expectNoSeriousA11yViolations(page);

    await page.keyboard.press("Enter");
    await dialog.waitFor({ state: "detached" });
    const seen = (await Session.findById(sessionId).lean())?.last_seen_at?.getTime() ?? 0;
    expect(Date.now() - seen).toBeLessThan(60_000);
    // The focus goes back where it was.
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("INPUT");
    // And the next warning is a full session away.
    await page.clock.fastForward("25:00");
    expect(await dialog.count()).toBe(0);
  });
});
