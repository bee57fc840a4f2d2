import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { IntakeToken, Order } from "~/server/models/index.server";
import { SIGN_UP_LIMITS } from "~/server/accounts.server";
import { CHECKOUT_LIMIT } from "~/server/rate-limit.server";
import { setRevisionEnabled, submitFeedback } from "~/server/revisions.server";
import { addSessionCookie, clearSignInLimit, signedInUser } from "../support/auth";
import {
  alertText,
  APP_URL,
  boxOf,
  expectNoSeriousA11yViolations,
  flash,
  horizontalOverflow,
  JS_MODES,
  screenshot,
  useBrowser,
} from "../support/browser";
import { paidOrder, useAppDatabase } from "../support/app-data";
import { messageText, uniqueAddress, waitForMessages } from "../support/mailpit";
import { clearBrowserLimits } from "../support/rate-limits";

const browser = useBrowser();
useAppDatabase();

/** The link labelled `label` in the newest e-mail to `to` with this subject. */
async function linkFromMail(to: string, subject: string, label: string) {
  const until = Date.now() + 15_000;
  for (;;) {
    const mails = (await waitForMessages(to)).filter((m) => m.Subject === subject);
    if (mails[0]) {
      const body = await messageText(mails[0].ID);
      return new RegExp(`${label}: (http\\S+)`).exec(body.Text)![1];
    }
    if (Date.now() > until) throw new Error(`no "${subject}" mail to ${to}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
/** axe (it runs as a script, so only with JavaScript on), then screenshots at 1280 and 390 px wide. */
async function check(page: Page, name: string, javaScriptEnabled: boolean) {
  if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
  const mode = javaScriptEnabled ? "js" : "nojs";
  await screenshot(page, `${name}-${mode}-1280`);
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, `${name}-${mode}-390`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

describe.each(JS_MODES)("the customer side with %s", (_mode, javaScriptEnabled) => {
  const tag = javaScriptEnabled ? "js" : "nojs";

  it("signs up, confirms the address, sees the guest order, gives feedback once, signs out and back in", async () => {
    const email = uniqueAddress(`account-${tag}`);
    const { orderId } = await paidOrder(email);
    await setRevisionEnabled(orderId, 1, true);
    const page = await browser.newPage({ javaScriptEnabled });
    await clearBrowserLimits(SIGN_UP_LIMITS.address); // shared by every browser test's sign-ups

    await page.goto("/auth");
    await check(page, "auth-signin", javaScriptEnabled);
    await page.getByRole("link", { name: "Sign Up" }).click();
    await page.getByRole("heading", { name: "Sign Up", level: 2 }).waitFor();
    // Nothing typed: one alert with the spec's words, naming each field that failed, and each field says
    // its own message once.
    await page.getByRole("button", { name: "Create Account" }).click();
    expect(await alertText(page)).toBe(
      "Missing Information: Please provide email and passwordCheck these fields: Email, Password.",
    );
    expect(await page.getByText("Missing Information").count()).toBe(1);
    expect(await page.getByText("Enter your email address", { exact: true }).count()).toBe(1);
    expect(await page.getByText("Enter a password", { exact: true }).count()).toBe(1);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("12345");
    await page.getByRole("button", { name: "Create Account" }).click();
    expect(await alertText(page)).toBe("Weak Password: Password must be at least 6 characters");
    expect(await page.getByLabel("Email").inputValue()).toBe(email);
    await check(page, "auth-signup-error", javaScriptEnabled);
    await page.getByLabel("Password").fill("a-good-password");
    await Promise.all([flash(page, "Account Created"), page.getByRole("button", { name: "Create Account" }).click()]);

    await page.goto(await linkFromMail(email, "Confirm your e-mail address", "Confirm my e-mail address"));
    await check(page, "auth-verify", javaScriptEnabled);
    await clearSignInLimit(email); // the confirmation's password counts as a sign-in
    await page.getByLabel("Password").fill("a-good-password");
    await Promise.all([
      flash(page, "E-mail Confirmed"),
      page.getByRole("button", { name: "Confirm and Sign In" }).click(),
    ]);
    await page.waitForURL(`${APP_URL}/dashboard`);

    // The guest order joined the account; its timeline and round 1 show.
    await page.getByRole("heading", { name: new RegExp(`Order #${orderId.slice(0, 8)}`) }).waitFor();
    expect(await page.getByRole("list", { name: "Progress of your website" }).textContent()).toContain(
      "Payment Received",
    );
    const box = page.getByLabel("What would you like changed in revision 1?");
    await box.fill("Too short");
    await page.getByRole("button", { name: "Submit Feedback" }).click();
    expect(await alertText(page)).toBe("Feedback must be at least 10 characters");
    await page
      .getByLabel("What would you like changed in revision 1?")
      .fill("Please make the phone number bigger on mobile.");
    await Promise.all([
      flash(page, "Feedback Submitted!"),
      page.getByRole("button", { name: "Submit Feedback" }).click(),
    ]);
    expect(await page.getByRole("button", { name: "Submit Feedback" }).count()).toBe(0);
    // Sent feedback is text to read (not a box to type in), all of it shown.
    const readOnly = page.getByLabel("Your feedback for revision 1");
    expect(await readOnly.textContent()).toBe("Please make the phone number bigger on mobile.");
    expect(await page.getByRole("textbox", { name: "Your feedback for revision 1" }).count()).toBe(0);
    await page.getByText("Submitted", { exact: true }).waitFor();
    await check(page, "dashboard", javaScriptEnabled);

    await page.getByRole("button", { name: "Sign Out" }).click();
    await page.waitForURL(`${APP_URL}/`);
    await page.goto("/dashboard");
    await page.waitForURL(/\/auth\?redirectTo=%2Fdashboard$/);

    await clearSignInLimit(email);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("not-my-password");
    await page.getByRole("button", { name: "Sign In" }).click();
    expect(await alertText(page)).toBe("Invalid email or password");
    await page.getByLabel("Password").fill("a-good-password");
    await Promise.all([flash(page, "Welcome Back"), page.getByRole("button", { name: "Sign In" }).click()]);
    await page.waitForURL(`${APP_URL}/dashboard`);
  });

  it("resets a forgotten password by the e-mailed link", async () => {
    const { email } = await signedInUser({ email: uniqueAddress(`reset-${tag}`) });
    const page = await browser.newPage({ javaScriptEnabled });
    await page.goto("/auth");
    await page.getByRole("link", { name: "Forgot password?" }).click();
    // Wait for the new page: the sign-in form has an Email field too.
    await page.getByRole("heading", { name: "Forgot Password", level: 1 }).waitFor();
    await page.getByLabel("Email").fill(email);
    await check(page, "auth-forgot", javaScriptEnabled);
    await Promise.all([
      flash(page, "Check your e-mail"),
      page.getByRole("button", { name: "Send Reset Link" }).click(),
    ]);

    const link = await linkFromMail(email, "Choose a new password", "Choose a new password");
    await page.goto(link);
    await page.getByLabel("New password", { exact: true }).fill("brand-new-password");
    await Promise.all([
      flash(page, "Password Changed"),
      page.getByRole("button", { name: "Set New Password" }).click(),
    ]);
    await page.waitForURL(`${APP_URL}/dashboard`);
    // The link worked once.
    await page.goto(link);
    await page.getByRole("heading", { name: "Link Expired" }).waitFor();
  });

  it("follows the e-mailed order status link, renews access and asks for deletion", async () => {
    const email = uniqueAddress(`status-${tag}`);
    const { orderId } = await paidOrder(email);
    const page = await browser.newPage({ javaScriptEnabled });
    await page.goto("/order-status");
    await page.getByText("Access Token Required").waitFor();
    expect(await page.getByText("Please use the link from your order confirmation email.").count()).toBe(1);
    // A link that matches no order: the 'Order Not Found' card, once, with a way to contact support.
    await page.goto(`/order-status?access_token=${"A".repeat(43)}`);
    await page.getByRole("heading", { name: "Order Not Found" }).waitFor();
    expect(page.url()).not.toContain("access_token");
    expect(await page.getByText("Access Token Required").count()).toBe(0);
    expect(await page.getByRole("link", { name: "contact support" }).getAttribute("href")).toBe("/contact");
    await check(page, "order-status-not-found", javaScriptEnabled);

    await page.goto(
      await linkFromMail(
        email,
        "Your 24-Hour Website order: next, tell us about your business",
        "See your order status",
      ),
    );
    await page.waitForURL(`${APP_URL}/order-status`);
    expect(page.url()).not.toContain("access_token");
    await page.getByRole("heading", { name: /Your Project/ }).waitFor();
    expect(await page.getByRole("main").textContent()).toContain(`#${orderId.slice(0, 8)}`);
    expect(await page.getByRole("main").textContent()).toContain("$300.00 AUD");
    await check(page, "order-status", javaScriptEnabled);

    await IntakeToken.updateOne(
      { order_id: orderId, purpose: "intake" },
      { $set: { expires_at: new Date(Date.now() - 60_000) } },
    );
    await page.reload();
    await page.getByText("Expired", { exact: true }).waitFor();
    await Promise.all([
      flash(page, "Access Renewed!"),
      page.getByRole("button", { name: "Renew Access for 30 Days" }).click(),
    ]);
    await page.getByText("Active", { exact: true }).waitFor();

    await page.getByRole("link", { name: "Request deletion of my data" }).click();
    await Promise.all([
      flash(page, "Deletion Requested"),
      page.getByRole("button", { name: "Yes, delete my data" }).click(),
    ]);
  });

  for (const width of [390, 1280])
    it(`lays the order status out cleanly at ${width} px: whole words in the address, level headings, all the feedback, equal buttons`, async () => {
      const email = `owner.riverside.bakery.${tag}${width}.${Date.now().toString(36)}@example.test`;
      const { orderId, statusToken } = await paidOrder(email);
      await setRevisionEnabled(orderId, 1, true);
      const feedback = `Please make the phone number bigger on mobile.\n\n${"Move the opening hours above the fold. ".repeat(8)}\n\nThanks!`;
      await submitFeedback({ orderId, round: 1, feedback });
      await setRevisionEnabled(orderId, 2, true);
      const page = await browser.newPage({ javaScriptEnabled, width });
      await page.goto(`/order-status?access_token=${encodeURIComponent(statusToken)}`);
      await page.waitForURL(`${APP_URL}/order-status`);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

      // The address wraps only after a dot or before the @, never inside a word.
      const breaks = await page
        .getByRole("definition")
        .filter({ hasText: "@example.test" })
        .locator(".email")
        .evaluate((el) => {
          const text = el.textContent ?? "";
          const tops: number[] = [];
          const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null)
            for (let i = 0; i < node.data.length; i++) {
              const range = document.createRange();
              range.setStart(node, i);
              range.setEnd(node, i + 1);
              tops.push(Math.round(range.getBoundingClientRect().top));
            }
          return tops.flatMap((top, i) => (i > 0 && top > tops[i - 1] ? [text.slice(i - 1, i + 1)] : []));
        });
      for (const pair of breaks) expect(pair[0] === "." || pair[1] === "@", `broke "${pair}"`).toBe(true);
      if (width === 390) expect(breaks.length).toBeGreaterThan(0);

      // 'Revision Rounds' is a card heading like the others.
      await page.getByRole("heading", { level: 2, name: "Revision Rounds" }).waitFor();
      // Where there is room it runs across the page with its rounds side by side: no hole beside it.
      if (width === 1280) {
        const rounds = page.getByRole("region", { name: "Revision Rounds" });
        const project = await boxOf(page.getByRole("region", { name: /Your Project/ }));
        expect((await boxOf(rounds)).width).toBeGreaterThan(project.width * 2.5);
        const tops = await rounds
          .locator(".round")
          .evaluateAll((items) => items.map((li) => Math.round(li.getBoundingClientRect().top)));
        expect(new Set(tops).size).toBe(1);
      }
      await page.getByRole("heading", { level: 2, name: /Your Project/ }).waitFor();
      // The sent feedback shows whole: nothing cut off, nothing to scroll.
      const sent = page.getByLabel("Your feedback for revision 1");
      expect(await sent.textContent()).toBe(feedback);
      expect(await sent.evaluate((el) => el.scrollHeight - el.clientHeight)).toBeLessThanOrEqual(0);
      // The two data buttons: the same height, side by side where there is room.
      const download = await boxOf(page.getByRole("button", { name: "Download my data (JSON)" }));
      const remove = await boxOf(page.getByRole("link", { name: "Request deletion of my data" }));
      expect(Math.round(download.height)).toBe(Math.round(remove.height));
      expect(Math.round(download.width)).toBe(Math.round(remove.width));
      await screenshot(page, `order-status-layout-${tag}-${width}`);
    });

  it("tells one story about an order: submitted intake, what was paid, a complete project, Sydney dates", async () => {
    const { user, cookie } = await signedInUser();
    const done = await paidOrder(uniqueAddress(`story-${tag}`));
    // Ordered at 15:48 UTC on 23 Nov: already 24 Nov, 2:48 am in Sydney.
    await Order.updateOne(
      { _id: done.orderId },
      {
        $set: {
          user_id: user.id,
          status: "completed",
          created_at: new Date("2026-11-23T15:48:00Z"),
          intake_progress: 60,
          intake_submitted_at: new Date("2026-11-24T01:00:00Z"),
          draft_url: "https://draft.example.test",
        },
      },
      // created_at is immutable to mongoose: without this the $set of it is dropped without a word.
      { overwriteImmutable: true },
    );
    const failed = await Order.create({
      email: user.email,
      user_id: user.id,
      status: "failed",
      amount_total: 30_000,
      amount_paid: 0,
    });
    const page = await browser.newPage({ javaScriptEnabled });
    await addSessionCookie(page.context(), cookie, APP_URL);
    await page.goto("/dashboard");
    const card = page.getByRole("listitem").filter({ hasText: `Order #${done.orderId.slice(0, 8)}` });
    expect(await card.getByText("Ordered 24 Nov 2026").count()).toBe(1);
    expect(await card.textContent()).not.toContain("23 Nov 2026");
    expect(await card.getByRole("list", { name: "Progress of your website" }).textContent()).toContain(
      "Intake Form (done)",
    );
    // Submitted is not 100%: the dashboard counts 35 items, and says it was submitted.
    expect(await card.getByText("Intake form progress: 60%").count()).toBe(1);
    expect(await card.getByText("Submitted: we have your intake form.").count()).toBe(1);
    expect(
      await card.getByText("Your project is complete, so no more rounds will open. Need a change? Contact us.").count(),
    ).toBe(3);
    const failedCard = page.getByRole("listitem").filter({ hasText: `Order #${failed._id.slice(0, 8)}` });
    expect(await failedCard.textContent()).toContain("$0.00 AUD paid");
    await check(page, "dashboard-story", javaScriptEnabled);

    await page.goto(`/order-status?access_token=${done.statusToken}`);
    await page.getByRole("heading", { name: /Your Project/ }).waitFor();
    const facts = await page.getByRole("main").textContent();
    expect(facts).toContain("24 Nov 2026");
    expect(facts).not.toContain("23 Nov 2026");
    // The order status page counts its own 20 items (none stored here), and says it was submitted.
    expect(facts).toContain("Intake form completeness: 0%");
    expect(facts).toContain("Submitted: we have your intake form.");
    expect(facts).not.toContain("Intake form completed!");
    expect(await page.getByRole("list", { name: "Progress of your website" }).textContent()).toContain(
      "Intake Form (done)",
    );
    await check(page, "order-status-complete", javaScriptEnabled);
  });

  it("subscribes to a plan through the offline checkout and manages it", async () => {
    const page = await browser.newPage({ javaScriptEnabled });
    await page.goto("/maintenance");
    await check(page, "maintenance", javaScriptEnabled);
    expect(await page.getByText("All plans include a 30-day money-back guarantee").count()).toBe(1);
    await Promise.all([
      flash(page, "Please sign in to subscribe"),
      page.getByRole("button", { name: "Subscribe Now to Essentials" }).click(),
    ]);
    await page.waitForURL(/\/auth\?redirectTo=%2Fmaintenance$/);

    const { cookie } = await signedInUser();
    await addSessionCookie(page.context(), cookie, APP_URL);
    await page.goto("/maintenance");
    await page.getByRole("button", { name: "Subscribe Now to Professional" }).click();
    await page.getByRole("heading", { name: "Test subscription" }).waitFor();
    await Promise.all([
      flash(page, "Subscribed!"),
      page.getByRole("button", { name: "Complete test subscription" }).click(),
    ]);
    await page.waitForURL(`${APP_URL}/maintenance`);
    const current = page.getByRole("listitem").filter({ hasText: "Current Plan" });
    expect(await current.getByRole("heading").textContent()).toContain("Professional");
    expect(await current.textContent()).toContain("Next billing date");
    await check(page, "maintenance-subscribed", javaScriptEnabled);
    // Side by side, the cards' prices, notes and buttons start level (the badges under Professional's name
    // and the notes of different lengths moved them).
    const buttons = ["Switch to Essentials", "Manage Subscription", "Switch to Enterprise"];
    const buttonTops: number[] = [];
    for (const name of buttons) buttonTops.push(Math.round((await boxOf(page.getByRole("button", { name }))).y));
    // (Within 2 px: the current plan's border is 2 px where the others' is 1.)
    expect(Math.max(...buttonTops) - Math.min(...buttonTops)).toBeLessThanOrEqual(2);
    const priceTops = await page
      .locator(".plan .price")
      .evaluateAll((prices) => prices.map((p) => Math.round(p.getBoundingClientRect().top)));
    expect(Math.max(...priceTops) - Math.min(...priceTops)).toBeLessThanOrEqual(2);
    // Only the current plan is taken; every other plan says how to switch, and its button opens the portal.
    const essentials = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: /Essentials/ }) });
    expect(await essentials.getByText("You're on Professional. Switching opens Manage Subscription").count()).toBe(1);
    const switchTo = essentials.getByRole("button", { name: "Switch to Essentials" });
    expect(await switchTo.isEnabled()).toBe(true);
    await switchTo.click();
    await page.getByRole("heading", { name: "Test billing portal" }).waitFor();
    await page.goto("/maintenance");

    await page.getByRole("button", { name: "Manage Subscription" }).click();
    await page.getByRole("heading", { name: "Test billing portal" }).waitFor();
    await Promise.all([flash(page, "Plan Cancelled"), page.getByRole("button", { name: "Cancel my plan" }).click()]);
    expect(await page.getByText("Current Plan").count()).toBe(0);
  });

  it("toggles packages to 'With Maintenance' and carries the choice through one checkout", async () => {
    const page = await browser.newPage({ javaScriptEnabled });
    await page.goto("/packages");
    expect(await page.getByRole("main").textContent()).toContain("$1,997");
    // Side by side, the three cards' prices and feature lists start level.
    const cards = page
      .getByRole("main")
      .getByRole("listitem")
      .filter({ has: page.getByRole("link", { name: /^Get Started with/ }) });
    expect(await cards.count()).toBe(3);
    const listTops = [];
    for (const card of await cards.all()) listTops.push(Math.round((await boxOf(card.getByRole("list").first())).y));
    expect(new Set(listTops).size).toBe(1);
    // On a phone the comparison table shows every package whole, with nothing hidden to scroll to.
    await page.setViewportSize({ width: 390, height: 844 });
    const table = page.getByRole("region", { name: "Compare packages" });
    expect(await table.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    // The two pricing tabs are one size, side by side, on a phone as on a wide screen.
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      const pricing = page.getByRole("navigation", { name: "Pricing" });
      const oneTime = await boxOf(pricing.getByRole("link", { name: "One-Time" }));
      const maintenance = await boxOf(pricing.getByRole("link", { name: /With Maintenance/ }));
      expect(Math.round(oneTime.width)).toBe(Math.round(maintenance.width));
      expect(Math.round(oneTime.height)).toBe(Math.round(maintenance.height));
      expect(Math.round(oneTime.y)).toBe(Math.round(maintenance.y));
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await check(page, "packages", javaScriptEnabled);
    await page.getByRole("link", { name: /With Maintenance/ }).click();
    await page.waitForURL(/billing=maintenance/);
    await page.getByText("$847", { exact: true }).waitFor();
    expect(await page.getByRole("main").textContent()).toContain("Save 15%");

    const user = await signedInUser();
    await page.getByRole("link", { name: "Get Started with Starter" }).click();
    await page.waitForURL(/\/auth\?redirectTo=/);
    await clearSignInLimit(user.email);
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await page.waitForURL(/\/checkout\?package=starter&maintenance=1$/);
    expect(await page.locator(".summary-total output").textContent()).toBe("$896.00");
    expect(await page.getByRole("main").textContent()).toContain("Essentials maintenance, first month");
    await page.getByLabel(/I agree to the/).check();
    await clearBrowserLimits(CHECKOUT_LIMIT);
    await page.getByRole("button", { name: "Proceed to Payment" }).click();
    await page.getByRole("button", { name: "Complete test payment" }).click();
    await page.waitForURL(/\/order-success/);

    await page.goto("/maintenance");
    const current = page.getByRole("listitem").filter({ hasText: "Current Plan" });
    expect(await current.getByRole("heading").textContent()).toContain("Essentials");
  });
});
