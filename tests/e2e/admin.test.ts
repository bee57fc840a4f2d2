import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime, sydneyDateInput } from "~/domain/dates";
import { Coupon, IntakeSubmission, IntakeToken, Order, OutboxMessage } from "~/server/models/index.server";
import { sendReminder } from "~/server/reminders.server";
import { setRevisionEnabled } from "~/server/revisions.server";
import { getStorage } from "~/server/storage.server";
import { paidOrder, useAppDatabase } from "../support/app-data";
import { signedInUser, useAdminPages } from "../support/auth";
import {
  APP_URL,
  boxOf,
  expectNoSeriousA11yViolations,
  flash,
  horizontalOverflow,
  JS_MODES,
  screenshot,
  slowLink,
  useBrowser,
  waitForEffect,
} from "../support/browser";
import { expectLocked } from "../support/dropped-link";
import { messagesTo, uniqueAddress, waitForMessages } from "../support/mailpit";

const browser = useBrowser();
useAppDatabase();

const adminPage = useAdminPages(browser);

/** A paid order whose customer submitted the intake form, allowed AI, and asked for their data to be deleted. */
async function customerOrder(label: string) {
  const email = uniqueAddress(label);
  const { orderId } = await paidOrder(email);
  await getStorage().put(`logos/${orderId}/logo.png`, new Uint8Array([137, 80, 78, 71]), "image/png");
  await IntakeSubmission.create({
    order_id: orderId,
    status: "submitted",
    submitted_at: new Date(Date.now() - 5 * 3_600_000),
    business_name: `Riverside Bakery ${label}`,
    business_description: "Sourdough and pastries baked daily in Lismore.",
    business_type: "hospitality",
    website_purpose: "lead_generation",
    contact_email: `owner.${label}@private.test`,
    contact_phone: "0400 765 432",
    logo_key: `logos/${orderId}/logo.png`,
    logo_url: `${APP_URL}/uploads/logos/${orderId}/logo.png`,
    // As the intake stores social links with one platform given: the blank ones are null.
    social_links: { facebook: "https://fb.example/riverside", instagram: null, youtube: null, linkedin: null },
    ai_processing_consent: true,
    data_deletion_requested: true,
    data_deletion_date: new Date(),
  });
  return { email, orderId, shortId: orderId.slice(0, 8) };
}

describe.each(JS_MODES)("the admin back office with %s", (_mode, javaScriptEnabled) => {
  const label = javaScriptEnabled ? "js" : "nojs";
  // axe runs its checks as scripts in the page, so it runs in the pass with JavaScript on.
  /** How long a post may take here before its page is checked: a full run's busy machine, not a person's wait. */
  const SLOW_POST_MS = 60_000;
  const axe = (page: Page) => (javaScriptEnabled ? expectNoSeriousA11yViolations(page) : Promise.resolve());

  it("shows six cards that say what they count, agree with the list and compare with the previous 30 days", async () => {
    await customerOrder(`cards-${label}`);
    for (const width of [1280, 390]) {
      const page = await adminPage(javaScriptEnabled, width);
      await page.goto("/admin");
      const summary = page.getByRole("list", { name: "Summary" });
      // A card's text starts with its label (another card's hint may name it too).
      const card = (name: string) => summary.getByRole("listitem").filter({ hasText: new RegExp(`^${name}`) });
      await summary.waitFor();
      expect(await summary.getByRole("listitem").count()).toBe(6);
      // Total Orders leaves out abandoned checkouts (cancelled), which the unfiltered list still shows.
      const totalOrders = Number(await card("Total Orders").locator("strong").innerText());
      const listed = Number(/Select all \((\d+) orders?\)/.exec(await page.getByRole("main").innerText())?.[1]);
      expect(listed).toBeGreaterThanOrEqual(totalOrders);
      await card("Total Orders").getByText("Every order but abandoned checkouts (cancelled)").waitFor();
      await card("Avg Order Value").getByText("Total Revenue ÷ Total Orders").waitFor();
      await card("Completion Rate")
        .getByText("Completed orders ÷ Total Orders (abandoned checkouts left out)")
        .waitFor();
      await card("Active Projects").getByText("Orders paid or in progress").waitFor();
      await page.getByText("Trends compare orders placed in the last 30 days with the 30 days before.").waitFor();
      for (const name of ["Total Revenue", "Total Orders", "Active Projects"])
        await card(name)
          .getByText(/^([+-]\S+|no change) vs previous 30 days$/)
          .waitFor();
      const text = await summary.innerText();
      expect(text).not.toMatch(/new this month|from last month|pending/);
      expect(await card("Avg Delivery").locator("strong").innerText()).not.toBe("0h");
      // No card's figure spills out of its card.
      const spills = await summary
        .locator("li")
        .evaluateAll((items) => items.filter((li) => li.scrollWidth > li.clientWidth).map((li) => li.textContent));
      expect(spills).toEqual([]);
      await screenshot(page, `admin-cards-${label}-${width}`);
      await page.close();
    }
  });

  it("finds an order, moves it along in bulk, and works it from its detail page", async () => {
    const { email, orderId, shortId } = await customerOrder(`adm-${label}`);
    const page = await adminPage(javaScriptEnabled);

    await page.goto("/admin");
    await page.getByRole("heading", { name: "Admin Panel" }).waitFor();
    for (const card of [
      "Total Revenue",
      "Total Orders",
      "Avg Order Value",
      "Active Projects",
      "Completion Rate",
      "Avg Delivery",
    ]) {
      await page.getByText(card, { exact: true }).waitFor();
    }
    await page.getByRole("img", { name: /Weekly revenue and paid orders/ }).waitFor();
    await axe(page);

    // Search by e-mail, in capitals: one order.
    await page.getByPlaceholder("Search by email, order ID...").fill(email.toUpperCase());
    await page.getByRole("button", { name: "Apply Filters" }).click();
    await page.waitForURL(/q=/);
    await page.getByText(`Order #${shortId}`).waitFor();
    await page.getByRole("link", { name: "Reset Filters" }).waitFor();
    expect(await page.getByText("Select all (1 order)").count()).toBe(1);
    expect(await page.getByText("Guest", { exact: true }).count()).toBe(1);
    await screenshot(page, `admin-orders-${label}`);

    // Bulk: nothing chosen, then in progress.
    await page.getByRole("button", { name: "Apply to selected" }).click();
    await flash(page, "Please choose a bulk action");
    await page.getByLabel(`Select order #${shortId}`).check();
    await page.getByLabel("Bulk action").selectOption("in_progress");
    await page.getByRole("button", { name: "Apply to selected" }).click();
    await flash(page, "Updated 1 order to in progress");
    expect((await Order.findById(orderId).lean())!.status).toBe("in_progress");
    expect(page.url()).toContain("q=");

    // The order's own page.
    await page.getByRole("link", { name: `View Details of order #${shortId}` }).click();
    await page.getByRole("heading", { name: `Order #${shortId}` }).waitFor();
    await page.getByText("Unused").waitFor();
    await axe(page);

    await page.getByRole("button", { name: "Save", exact: true }).click();
    await flash(page, "URL Required");
    // Not a web address: said on the form, naming the field, and what was typed stays.
    await page.getByLabel("Draft URL").fill("not a url");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByRole("alert").filter({ hasText: "Draft URL: Enter a web address" }).waitFor();
    expect(await page.getByLabel("Draft URL").inputValue()).toBe("not a url");
    await page.getByLabel("Draft URL").fill("https://drafts.example/riverside");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await flash(page, "Draft URL Saved");
    await page.getByRole("link", { name: "View Current Draft" }).waitFor();

    await page.getByRole("button", { name: "Enable Revision 1 Form" }).click();
    await flash(page, "Revision Enabled");
    expect(await page.getByRole("button", { name: "Enable Revision 1 Form" }).getAttribute("aria-pressed")).toBe(
      "true",
    );
    const mail = await waitForMessages(email, 2);
    expect(mail.filter((m) => m.Subject.startsWith("Revision round 1 is open"))).toHaveLength(1);
    // Disabled and enabled again: one e-mail per round, ever, and the toast says none was sent.
    await page.getByRole("button", { name: "Enable Revision 1 Form" }).click();
    await flash(page, "Revision Disabled");
    expect(await page.getByRole("button", { name: "Enable Revision 1 Form" }).getAttribute("aria-pressed")).toBe(
      "false",
    );
    await page.getByRole("button", { name: "Enable Revision 1 Form" }).click();
    await flash(page, "The customer was e-mailed when it first opened, so no new e-mail was sent.");
    expect(await OutboxMessage.countDocuments({ key: `revision-opened:${orderId}:1` })).toBe(1);
    expect((await messagesTo(email)).filter((m) => m.Subject.startsWith("Revision round 1 is open"))).toHaveLength(1);

    await page.getByRole("button", { name: "Send Reminder" }).click();
    await flash(page, /Notice|Reminder Sent/);

    // The AI prompt: generated on request, without private data, copyable either way.
    await page.getByRole("button", { name: "Generate AI Prompt" }).click();
    const prompt = await page.getByLabel("Generated prompt").inputValue();
    expect(prompt).toContain(`Riverside Bakery adm-${label}`);
    expect(prompt).not.toContain(`owner.adm-${label}@private.test`);
    expect(prompt).not.toContain("0400 765 432");
    if (javaScriptEnabled) {
      await page.getByRole("button", { name: "Copy" }).click();
      await page.getByRole("button", { name: "Copied!" }).waitFor();
      await page.getByRole("button", { name: "Copy" }).waitFor({ timeout: 15_000 }); // resets after 2 s
    } else {
      await page.getByText("Select the text above and copy it.").waitFor();
    }

    // Tabs are URLs. Edit Data saves what it pre-fills as it is.
    await page.getByRole("link", { name: "Edit Data" }).click();
    await page.waitForURL(/tab=edit-data/);
    await page.getByRole("button", { name: "Save Changes" }).click();
    await flash(page, "Saved Successfully");
    // A JSON edit that does not parse is ignored and named; the rest is saved, and what was typed stays.
    await page.getByLabel("Brand colours").fill("[navy");
    await page.getByLabel("Headline", { exact: true }).fill("Fresh every morning");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await page.getByRole("alert").filter({ hasText: "Saved, except Brand colours: that change was ignored" }).waitFor();
    expect(await page.getByLabel("Brand colours").getAttribute("aria-invalid")).toBe("true");
    await page.getByText("Brand colours: not valid JSON, so this change was ignored").waitFor();
    expect(await page.getByLabel("Brand colours").inputValue()).toBe("[navy");
    expect(await page.getByLabel("Headline", { exact: true }).inputValue()).toBe("Fresh every morning");
    expect((await IntakeSubmission.findOne({ order_id: orderId }).lean())!).toMatchObject({
      headline: "Fresh every morning",
      social_links: { facebook: "https://fb.example/riverside" },
    });
    await screenshot(page, `admin-edit-data-${label}`);
    await page.getByLabel("Brand colours").fill('["navy", "cream"]');
    await page.getByRole("button", { name: "Save Changes" }).click();
    await page.getByRole("alert").filter({ hasText: "Saved, except" }).waitFor({ state: "detached" });
    await flash(page, "Saved Successfully");
    expect((await IntakeSubmission.findOne({ order_id: orderId }).lean())!).toMatchObject({
      headline: "Fresh every morning",
      brand_colors: ["navy", "cream"],
    });

    await page.getByRole("link", { name: "Revision 1" }).click();
    await page.getByRole("button", { name: "Generate Revision Prompt" }).click();
    await page.getByRole("alert").filter({ hasText: "Please enter revision notes before generating prompt" }).waitFor();
    await screenshot(page, `admin-order-${label}`);
  });

  it("Reset Filters clears every filter, on screen and in the address, after a bulk action too", async () => {
    const { email, shortId } = await customerOrder(`reset-${label}`);
    const page = await adminPage(javaScriptEnabled);
    await page.goto("/admin");
    await page.getByPlaceholder("Search by email, order ID...").fill(email);
    await page.getByLabel("Status", { exact: true }).selectOption("paid");
    await page.getByLabel("Date", { exact: true }).selectOption("week");
    await page.getByRole("button", { name: "Apply Filters" }).click();
    await page.waitForURL(/q=/);
    await page.getByText(`Order #${shortId}`).waitFor();
    // A bulk action returns to the filtered list (the post keeps its page).
    // (Forced: in one full CI run the box never settled as "stable" for Playwright with JavaScript on,
    // while the same steps pass alone and in this file; whether it is checked is asserted below.)
    await page.getByLabel(`Select order #${shortId}`).check({ force: true });
    expect(await page.getByLabel(`Select order #${shortId}`).isChecked()).toBe(true);
    await page.getByLabel("Bulk action").selectOption("enable_revision_1");
    await page.getByRole("button", { name: "Apply to selected" }).click();
    await flash(page, /Enabled revision 1 for 1 order/);
    await page.getByRole("link", { name: "Reset Filters" }).click();
    await page.waitForURL((url) => url.pathname === "/admin" && url.search === "");
    await page.getByRole("link", { name: "Reset Filters" }).waitFor({ state: "detached" });
    expect(await page.getByPlaceholder("Search by email, order ID...").inputValue()).toBe("");
    for (const select of ["Status", "Date", "Delivery", "Sort"])
      expect(await page.getByLabel(select, { exact: true }).inputValue()).toBe("");
    // The next Apply filters nothing.
    await page.getByRole("button", { name: "Apply Filters" }).click();
    await page.waitForURL(/\/admin\?/);
    expect(new URL(page.url()).searchParams.get("q") ?? "").toBe("");
    await page.getByText(`Order #${shortId}`).waitFor();
  });

  it("bulk reminders on two ticked orders say how many were sent and how many were skipped, and why", async () => {
    const prefix = `bulk${Date.now() % 1_000_000}${label}`;
    const due = await paidOrder(uniqueAddress(prefix));
    const remindedJustNow = await paidOrder(uniqueAddress(prefix));
    await sendReminder({ orderId: remindedJustNow.orderId, source: "admin", actor: "lead.admin@example.test" });
    const page = await adminPage(javaScriptEnabled);
    await page.goto(`/admin?q=${prefix}`);
    for (const { orderId } of [due, remindedJustNow])
      await page.getByLabel(`Select order #${orderId.slice(0, 8)}`).check({ force: true });
    expect(await page.getByText("Select all (2 orders)").count()).toBe(1);
    // Select all is the same box as each order's, in the brand's green.
    const all = await boxOf(page.getByLabel("Select all (2 orders)"));
    const one = await boxOf(page.getByLabel(`Select order #${due.orderId.slice(0, 8)}`));
    expect([Math.round(all.width), Math.round(all.height)]).toEqual([Math.round(one.width), Math.round(one.height)]);
    expect(await page.getByLabel("Select all (2 orders)").evaluate((el) => getComputedStyle(el).accentColor)).toBe(
      "rgb(11, 93, 59)",
    );
    await page.getByLabel("Bulk action").selectOption("send_reminders");
    await page.getByRole("button", { name: "Apply to selected" }).click();
    await flash(page, "Sent reminders for 1 order. 1 order skipped: limit reached or sent recently.");
    await screenshot(page, `admin-bulk-skipped-${label}`);
  });

  it("reads one order's dates in Sydney time on the admin's pages and the customer's", async () => {
    const { orderId, statusToken } = await paidOrder(uniqueAddress(`zone-${label}`));
    // 15:48 UTC on 23 Nov is 2:48 am on 24 Nov in Sydney (the "Ordered 23 Nov" beside "24 Nov, 2:48 am").
    // (created_at is immutable to mongoose: without overwriteImmutable the $set is dropped without a word.)
    await Order.updateOne(
      { _id: orderId },
      { $set: { created_at: new Date("2026-11-23T15:48:00Z") } },
      { overwriteImmutable: true },
    );
    const expiresAt = new Date(Date.now() + 7 * 86_400_000);
    expiresAt.setUTCHours(16, 45, 0, 0);
    await IntakeToken.updateOne({ order_id: orderId, purpose: "intake" }, { $set: { expires_at: expiresAt } });
    const admin = await adminPage(javaScriptEnabled);
    await admin.goto(`/admin/orders/${orderId}`);
    const info = await admin.getByRole("region", { name: "Order Information" }).textContent();
    expect(info).toContain("24 Nov 2026, 2:48 am");
    // 16:45 UTC is already the next day in Sydney (+10 or +11), in every season.
    expect(sydneyDateInput(expiresAt)).not.toBe(expiresAt.toISOString().slice(0, 10));
    const expiry = formatDateTime(expiresAt);
    expect(expiry.startsWith(`${formatDate(expiresAt)}, `)).toBe(true);
    expect(await admin.getByRole("main").textContent()).toContain(`Expires ${expiry}`);
    const customer = await browser.newPage({ javaScriptEnabled });
    await customer.goto(`/order-status?access_token=${encodeURIComponent(statusToken)}`);
    const main = await customer.getByRole("main").textContent();
    expect(main).toContain("24 Nov 2026");
    expect(main).not.toContain("23 Nov 2026");
    expect(main).toContain(`Your link works until ${expiry}`);
  });

  it("says a link's time left one way on the admin's page and the customer's: 2 days 1 hour is '2 days'", async () => {
    const { orderId, statusToken } = await paidOrder(uniqueAddress(`days-${label}`));
    const expiresAt = new Date(Date.now() + 2 * 86_400_000 + 3_600_000);
    await IntakeToken.updateOne({ order_id: orderId, purpose: "intake" }, { $set: { expires_at: expiresAt } });
    for (const width of [390, 1280]) {
      const admin = await adminPage(javaScriptEnabled, width);
      await admin.goto(`/admin/orders/${orderId}`);
      const access = admin.getByRole("region", { name: "Intake Access" });
      await access.getByText(`Expires ${formatDateTime(expiresAt)} (2 days left)`).waitFor();
      // The state counts rounded-up days (spec 2 section 4): 3, so Expiring Soon.
      await access.getByText("Expiring Soon", { exact: true }).waitFor();
      await access.screenshot({ path: `test-results/admin-link-days-${label}-${width}.png` });
      await admin.close();
      const customer = await browser.newPage({ javaScriptEnabled, width });
      await customer.goto(`/order-status?access_token=${encodeURIComponent(statusToken)}`);
      const intake = customer.getByRole("region", { name: "Intake Form" });
      await intake.getByText(`Your link works until ${formatDateTime(expiresAt)} (2 days left).`).waitFor();
      await intake.screenshot({ path: `test-results/status-link-days-${label}-${width}.png` });
      await customer.close();
    }
  });

  it("offers Refund before the clock starts and says why it is not due, on the card and its page", async () => {
    const { orderId } = await paidOrder(uniqueAddress(`not-due-${label}`));
    const why = "Refund not due: the delivery clock has not started (it starts when the intake form is submitted)";
    for (const width of [390, 1280]) {
      const admin = await adminPage(javaScriptEnabled, width);
      await admin.goto(`/admin/orders/${orderId}`);
      const clock = admin.getByRole("region", { name: "Delivery Clock" });
      await clock.getByText(`${why}.`).waitFor();
      expect(await horizontalOverflow(admin)).toBeLessThanOrEqual(0);
      await clock.screenshot({ path: `test-results/admin-refund-not-due-${label}-${width}.png` });
      await clock.getByRole("link", { name: "Refund" }).click();
      await admin.getByRole("heading", { name: /^Refund order #/ }).waitFor();
      await admin.getByText(`${why}: say why you are refunding.`).waitFor();
      await screenshot(admin, `admin-refund-page-not-due-${label}-${width}`);
      await admin.close();
    }
  });

  it("manages coupons: create, a refused value, edit, delete after confirming", async () => {
    const page = await adminPage(javaScriptEnabled);
    const code = `E2E${label.toUpperCase()}${Date.now() % 100000}`;
    await page.goto("/admin/coupons");
    await page.getByRole("heading", { name: "Create a coupon" }).waitFor();
    await axe(page);

    await page.getByLabel("Code (required)").fill(code.toLowerCase());
    await page.getByLabel("Discount value (required)").fill("0");
    await page.getByRole("button", { name: "Create Coupon" }).click();
    await page.getByRole("alert").filter({ hasText: "Percentage must be between 1 and 100" }).waitFor();
    await page.getByLabel("Discount value (required)").fill("150");
    await page.getByRole("button", { name: "Create Coupon" }).click();
    await page.getByRole("alert").filter({ hasText: "Percentage must be between 1 and 100" }).waitFor();
    expect(await page.getByLabel("Code (required)").inputValue()).toBe(code.toLowerCase());
    await page.getByLabel("Discount value (required)").fill("15");
    await page.getByLabel("Allowed domains (optional, comma-separated)").fill(" acme.com.au, ,");
    await page.getByLabel(/Valid until/).fill("2099-12-31");
    await page.getByRole("button", { name: "Create Coupon" }).click();
    // The post's effect first, with room for a busy machine (a full run has three browsers and the suite's
    // services on two cores), then the toast it brought.
    await waitForEffect(
      page,
      page.getByRole("cell", { name: code, exact: true }),
      `coupon-create-${label}`,
      SLOW_POST_MS,
    );
    await flash(page, "Coupon Created");
    // A typed date is the end of that day in Sydney: listed as the same day, and badged by checkout's rule.
    const row = page.getByRole("row").filter({ hasText: code });
    expect(await row.textContent()).toContain("31 Dec 2099");
    expect(await row.textContent()).toContain("ACTIVE");
    const expired = `OLD${label.toUpperCase()}${Date.now() % 100000}`;
    await Coupon.create({ code: expired, discount_type: "fixed", discount_value: 1000, valid_until: new Date(0) });
    await page.reload();
    expect(await page.getByRole("row").filter({ hasText: expired }).textContent()).toContain("EXPIRED");
    expect((await Coupon.findOne({ code }).lean())!.allowed_domains).toEqual(["acme.com.au"]);
    await screenshot(page, `admin-coupons-${label}`);

    await page.getByRole("link", { name: `Edit ${code}` }).click();
    await page.getByRole("heading", { name: `Edit coupon ${code}` }).waitFor();
    await page.getByLabel("Discount value (required)").fill("20");
    await page.getByRole("button", { name: "Save Coupon" }).click();
    await waitForEffect(
      page,
      page.getByRole("cell", { name: "20% off" }).first(),
      `coupon-edit-${label}`,
      SLOW_POST_MS,
    );
    await flash(page, "Updated");

    await page.getByRole("link", { name: `Delete ${code}` }).click();
    await page.getByText("Are you sure you want to delete this coupon?").waitFor();
    await axe(page);
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await page.getByRole("status").filter({ hasText: "Deleted" }).first().waitFor({ timeout: SLOW_POST_MS });
    expect(await Coupon.exists({ code })).toBeNull();
  }, 180_000);

  it.runIf(javaScriptEnabled)(
    "keeps what is typed in the coupon form while a refusal comes back on a slow link, and empties the form after a create",
    async () => {
      const page = await adminPage(true);
      const code = `SLOW${Date.now() % 100000}`;
      await page.goto("/admin/coupons");
      await page.getByRole("heading", { name: "Create a coupon" }).waitFor();
      const value = page.getByLabel("Discount value (required)");
      const domains = page.getByLabel("Allowed domains (optional, comma-separated)");
      await page.getByLabel("Code (required)").fill(code);
      await value.fill("0");
      // A link slow enough that the refusal's page data is still on its way (3 s) after its post is answered.
      const fullSpeed = await slowLink(page, 3_000);
      let pageDataCame = false;
      page.on("response", (r) => {
        if (r.request().method() === "GET" && new URL(r.url()).pathname === "/admin/coupons.data") pageDataCame = true;
      });
      await page.getByRole("button", { name: "Create Coupon" }).click();
      // The refusal's message shows as soon as its post is answered, and the form opens again.
      await page.getByRole("alert").filter({ hasText: "Percentage must be between 1 and 100" }).waitFor();
      // The admin fixes the value and goes on typing while the page's own data is still on its way.
      await value.fill("15");
      await domains.fill("acme.com.au");
      expect(pageDataCame).toBe(false);
      // The page's data came (the address takes the form's post): what was typed since is still there.
      await page.waitForURL(/\/admin\/coupons\?index$/, { timeout: 30_000 });
      expect(await value.inputValue()).toBe("15");
      expect(await domains.inputValue()).toBe("acme.com.au");
      expect((await page.getByLabel("Code (required)").inputValue()).toUpperCase()).toBe(code);
      // Fixed, the value's message went as it was typed.
      expect(await page.getByText("Percentage must be between 1 and 100").count()).toBe(0);

      await fullSpeed();
      await page.getByRole("button", { name: "Create Coupon" }).click();
      await waitForEffect(page, page.getByRole("cell", { name: code, exact: true }), "coupon-slow-link", SLOW_POST_MS);
      expect(await page.getByRole("row").filter({ hasText: code }).textContent()).toContain("@acme.com.au");
      // Created: the form starts empty for the next coupon.
      expect(await page.getByLabel("Code (required)").inputValue()).toBe("");
      expect(await value.inputValue()).toBe("");
      await Coupon.deleteOne({ code });
    },
    120_000,
  );

  it.runIf(javaScriptEnabled)(
    "keeps the filter form locked while its page is on its way on a slow link, then shows what was applied",
    async () => {
      const page = await adminPage(true);
      await page.goto("/admin");
      const search = page.getByLabel("Search");
      await search.fill("riverside");
      const fullSpeed = await slowLink(page, 3_000);
      await page.getByRole("button", { name: "Apply Filters" }).click();
      // Drawn again with what is applied once its page comes, the form takes no typing meanwhile, and says so.
      await expectLocked(page, search);
      await page.waitForURL(/q=riverside/, { timeout: 30_000 });
      await fullSpeed();
      await page.getByRole("link", { name: "Reset Filters" }).waitFor();
      expect(await search.inputValue()).toBe("riverside");
      await search.fill("riverside bakery");
      expect(await search.inputValue()).toBe("riverside bakery");
    },
    60_000,
  );

  it("permanently deletes a customer's data on request", async () => {
    const name = `del-${label}-${Date.now() % 1_000_000}`;
    const { email, orderId } = await customerOrder(name);
    await waitForMessages(email, 1);
    const page = await adminPage(javaScriptEnabled);
    await page.goto("/admin/privacy");
    const counters = page.getByRole("list", { name: "Privacy counters" });
    for (const counter of ["Total Consents", "AI Processing Enabled", "Deletion Requests", "AI Processing (24h)"])
      await counters.getByText(counter, { exact: true }).waitFor();
    await axe(page);
    await page.getByRole("link", { name: "Deletion Requests" }).click();
    await page.getByRole("columnheader", { name: "Business Name" }).waitFor();
    await axe(page);
    await page.getByRole("link", { name: `Delete data for Riverside Bakery ${name}` }).click();

    await page.getByRole("heading", { name: "Confirm Data Deletion" }).waitFor();
    await page.getByText("This cannot be undone.").waitFor();
    await axe(page);
    await screenshot(page, `admin-confirm-deletion-${label}`);
    await page.getByRole("button", { name: "Delete Permanently" }).click();
    await page.getByRole("status").filter({ hasText: "Data Deleted" }).first().waitFor({ timeout: SLOW_POST_MS });

    expect(await IntakeSubmission.countDocuments({ order_id: orderId })).toBe(0);
    expect(await getStorage().get(`logos/${orderId}/logo.png`)).toBeNull();
    // The one message kept for them is the promised "Your data has been deleted", queued before the address went.
    expect(await OutboxMessage.countDocuments({ to: email })).toBe(1);
    expect((await Order.findById(orderId).lean())!.email).toBe("deleted@deleted.invalid");
    await expect.poll(async () => (await messagesTo(email)).length, { timeout: 20_000 }).toBe(2);
  }, 180_000);
});

describe.each(JS_MODES)("the admin pages' layout with %s", (_mode, javaScriptEnabled) => {
  const tag = javaScriptEnabled ? "js" : "nojs";
  for (const width of [390, 1280])
    it(`order detail at ${width} px: the workflow has room, On/Off beside each toggle, brand-green progress, readable chart, short reminder rows, compact tabs`, async () => {
      const { orderId } = await customerOrder(`layout-${tag}-${width}`);
      await Order.updateOne({ _id: orderId }, { $set: { intake_progress: 40 } });
      await setRevisionEnabled(orderId, 1, true);
      await sendReminder({ orderId, source: "admin", actor: "lead.admin@northernriverswebsites.com.au" });
      const page = await adminPage(javaScriptEnabled, width);
      await page.goto(`/admin/orders/${orderId}`);
      await page.getByRole("heading", { name: /^Order #/ }).waitFor();
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      // Before the clock starts it says so in a line of text, not a badge wrapped into a capsule.
      const notStarted = page
        .getByRole("region", { name: "Delivery Clock" })
        .getByText("Starts when the intake form is submitted", { exact: true });
      expect(await notStarted.getAttribute("class")).toBe("hint");

      // Each round's On/Off sits on its toggle's row.
      for (const round of [1, 2, 3]) {
        const toggle = page.getByRole("button", { name: new RegExp(`^Enable Revision ${round} Form`) });
        const state = page.locator(`#revision-toggle-${round} + .hint`);
        const [t, h] = [await boxOf(toggle), await boxOf(state)];
        expect(h.y + h.height / 2).toBeGreaterThan(t.y);
        expect(h.y + h.height / 2).toBeLessThan(t.y + t.height);
      }
      // The progress bar is the brand's green, not the browser's blue.
      expect(
        await page
          .getByRole("progressbar")
          .first()
          .evaluate((el) => getComputedStyle(el).accentColor),
      ).toBe("rgb(11, 93, 59)");
      const workflow = await boxOf(page.getByRole("region", { name: "Revision Workflow" }));
      const info = await boxOf(page.getByRole("region", { name: "Order Information" }));
      if (width === 1280) expect(workflow.width).toBeGreaterThan(info.width * 1.8);
      // The reminder's date on one line.
      const sent = await boxOf(page.getByRole("region", { name: "Reminders" }).locator("time").first());
      expect(sent.height).toBeLessThan(30);
      // The tabs on at most two rows.
      const tabTops = await page
        .getByRole("navigation", { name: "Order data" })
        .getByRole("link")
        .evaluateAll((links) => links.map((a) => Math.round(a.getBoundingClientRect().top)));
      expect(new Set(tabTops).size).toBeLessThanOrEqual(2);
      await screenshot(page, `admin-order-layout-${tag}-${width}`);

      // Edit Data: the Google Business URL box is as wide as the form.
      await page.getByRole("navigation", { name: "Order data" }).getByRole("link", { name: "Edit Data" }).click();
      const url = await boxOf(page.getByLabel("Google Business URL"));
      const description = await boxOf(page.getByLabel("Business description"));
      expect(url.width).toBeGreaterThan(description.width * 0.95);
    });

  for (const width of [390, 1280])
    it(`orders list and coupons at ${width} px: the chart's labels readable, filters and coupon fields level and equal`, async () => {
      const page = await adminPage(javaScriptEnabled, width);
      await page.goto("/admin");
      const chart = page.getByRole("img", { name: /Weekly revenue and paid orders/ });
      const labelHeights = await chart
        .locator("text")
        .evaluateAll((texts) => texts.map((t) => t.getBoundingClientRect().height));
      expect(Math.min(...labelHeights)).toBeGreaterThanOrEqual(10);
      if (width === 1280) {
        const search = await boxOf(page.getByLabel("Search"));
        for (const label of ["Status", "Date", "Delivery", "Sort"]) {
          const select = await boxOf(page.getByLabel(label, { exact: true }));
          expect(Math.round(select.y)).toBe(Math.round(search.y));
          expect(Math.round(select.height)).toBe(Math.round(search.height));
        }
      }
      const whole = `WHOLE${tag.toUpperCase()}${width}${Date.now() % 100000}`;
      await Coupon.create({ code: whole, discount_type: "fixed", discount_value: 5000 });
      await page.goto("/admin/coupons");
      // The list keeps its words whole (it scrolls sideways on a phone): a code, a badge and a link
      // each on one line (a cell is as tall as its row, so the text's own lines are counted).
      const table = page.getByRole("table", { name: "Coupons" });
      const row = table.getByRole("row").filter({ hasText: whole });
      for (const text of [whole, "ACTIVE", "Edit"]) {
        const lines = await row.getByText(text, { exact: true }).evaluate((el) => {
          const range = document.createRange();
          range.selectNodeContents(el);
          return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        });
        expect(lines, text).toBe(1);
      }
      const boxes = [];
      for (const label of [/^Code/, /^Discount type/, /^Discount value/, /^Max uses/])
        boxes.push(await boxOf(page.getByLabel(label)));
      expect(new Set(boxes.map((b) => Math.round(b.height))).size).toBe(1);
      if (width === 1280) expect(new Set(boxes.map((b) => Math.round(b.y))).size).toBe(1);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `admin-coupons-layout-${tag}-${width}`);
    });
});

describe("the admin pages on a phone", () => {
  it.each([
    ["orders", "/admin"],
    ["coupons", "/admin/coupons"],
    ["privacy", "/admin/privacy"],
  ])("%s fit 390 px and pass axe", async (name, path) => {
    const page = await adminPage(true, 390);
    await page.goto(path);
    await page.getByRole("heading", { name: "Admin Panel" }).waitFor();
    await expectNoSeriousA11yViolations(page);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, `admin-${name}-390`);
  });

  it("the order detail fits 390 px", async () => {
    const { orderId } = await customerOrder("phone");
    const page = await adminPage(true, 390);
    await page.goto(`/admin/orders/${orderId}`);
    await page.getByRole("heading", { name: /^Order #/ }).waitFor();
    await expectNoSeriousA11yViolations(page);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, "admin-order-390");
  });

  it("a customer is turned away with 'Access Denied'", async () => {
    const { cookie } = await signedInUser();
    const page = await browser.newPage({ javaScriptEnabled: false, cookie });
    await page.goto("/admin/coupons");
    await page.waitForURL(`${APP_URL}/dashboard`);
    await flash(page, "Access Denied");
  });
});
