import { beforeAll, describe, expect, it } from "vitest";
import { HISTORY_PAGE_SIZE } from "~/server/admin/audit.server";
import { connectDb } from "~/server/db.server";
import { AdminAuditLog } from "~/server/models/index.server";
import { paidOrder, useAppDatabase } from "../support/app-data";
import { addSessionCookie, signedInUser } from "../support/auth";
import { APP_URL, expectNoSeriousA11yViolations, JS_MODES, screenshot, useBrowser } from "../support/browser";
import { uniqueAddress } from "../support/mailpit";

/**
 * An admin list longer than a page, in a phone-wide browser: "Showing the
 * newest N", then plain Older / Newest links (app/components/admin/Pager.tsx)
 * reach every row. The order's admin history is used because its rows belong
 * to one order, so other tests writing to the shared database cannot move them.
 */

const browser = useBrowser();
useAppDatabase();

const EXTRA = 1; // one older entry: "Showing 1 older history entry."
let adminCookie: string;
let orderId: string;

beforeAll(async () => {
  await connectDb();
  adminCookie = (await signedInUser({ admin: true })).cookie;
  ({ orderId } = await paidOrder(uniqueAddress("paging")));
  const t0 = Date.now() - 3_600_000;
  await AdminAuditLog.collection.insertMany(
    Array.from({ length: HISTORY_PAGE_SIZE + EXTRA }, (_, i) => ({
      actor_id: "paging",
      actor_email: "admin@paging.test",
      action: `paging.step-${String(i).padStart(2, "0")}`,
      target_type: "order",
      target_id: orderId,
      details: {},
      at: new Date(t0 - i * 60_000),
    })),
  );
});

describe.each(JS_MODES)("an order's admin history with %s at 390 px", (_mode, javaScriptEnabled) => {
  it("shows the newest page, says so, and links to the older entries and back", async () => {
    const page = await browser.newPage({ javaScriptEnabled, width: 390 });
    await addSessionCookie(page.context(), adminCookie, APP_URL);
    await page.goto(`/admin/orders/${orderId}`);
    const history = page.locator("section", { has: page.getByRole("heading", { name: "Admin history" }) });
    const entries = history.getByRole("listitem").filter({ hasText: "paging.step-" });
    await history.getByText(`Showing the newest ${HISTORY_PAGE_SIZE} history entries.`).waitFor();
    expect(await entries.count()).toBe(HISTORY_PAGE_SIZE);
    expect(await entries.first().textContent()).toContain("paging.step-00");
    expect(await history.getByRole("link", { name: "Newest history entries" }).count()).toBe(0);
    if (!javaScriptEnabled) await screenshot(page, "admin-paging-first-390-nojs");

    await history.getByRole("link", { name: "Older history entries" }).click();
    await page.waitForURL(/historyBefore=/);
    await history.getByText("Showing 1 older history entry.").waitFor();
    expect(await entries.count()).toBe(EXTRA);
    expect(await entries.first().textContent()).toContain(`paging.step-${HISTORY_PAGE_SIZE}`);
    expect(await entries.last().textContent()).toContain(`paging.step-${HISTORY_PAGE_SIZE + EXTRA - 1}`);
    expect(await history.getByRole("link", { name: "Older history entries" }).count()).toBe(0);
    if (!javaScriptEnabled) await screenshot(page, "admin-paging-older-390-nojs");
    if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);

    await history.getByRole("link", { name: "Newest history entries" }).click();
    await page.waitForURL((url) => !url.search.includes("historyBefore"));
    await history.getByText(`Showing the newest ${HISTORY_PAGE_SIZE} history entries.`).waitFor();
    expect(await entries.count()).toBe(HISTORY_PAGE_SIZE);
  });

  it("answers a hostile cursor with the first page", async () => {
    const page = await browser.newPage({ javaScriptEnabled, width: 390 });
    await addSessionCookie(page.context(), adminCookie, APP_URL);
    const response = await page.goto(`/admin/orders/${orderId}?historyBefore=${"9".repeat(10_240)}`);
    expect(response?.status()).toBe(200);
    await page.getByText(`Showing the newest ${HISTORY_PAGE_SIZE} history entries.`).waitFor();
  });
});
