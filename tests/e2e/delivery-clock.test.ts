import { describe, expect, it } from "vitest";
import { formatDeadline } from "~/domain/dates";
import { connectDb } from "~/server/db.server";
import { startClock } from "~/server/delivery-clock.server";
import { Order } from "~/server/models/index.server";
import { paidOrder, useAppDatabase } from "../support/app-data";
import { signedInUser } from "../support/auth";
import { APP_URL, JS_MODES, screenshot, useBrowser } from "../support/browser";

const browser = useBrowser();
useAppDatabase();
const H = 3_600_000;

/** A paid order (in the test app's database) whose clock started `hoursAgo` hours ago, its e-mail starting with `prefix`. */
async function clocked(prefix: string, hoursAgo: number) {
  await connectDb();
  const o = await paidOrder(`${prefix}-${Math.random().toString(36).slice(2, 8)}@example.test`);
  await startClock(o.orderId, new Date(Date.now() - hoursAgo * H));
  return { ...o, shortId: o.orderId.slice(0, 8) };
}

describe.each(JS_MODES)("the delivery clock with %s", (_mode, javaScriptEnabled) => {
  for (const width of [390, 1280]) {
    const label = `${javaScriptEnabled ? "js" : "nojs"}-${width}`;

    it(`filters the admin list to overdue and due within 6 hours, sorts by deadline (${width} px)`, async () => {
      const prefix = `clk${label.replace(/-/g, "")}`;
      const overdue = await clocked(prefix, 27);
      const soon = await clocked(prefix, 20);
      const later = await clocked(prefix, 1);
      // Paid, its intake not yet submitted: no deadline, but still an order the admin must see under every sort.
      const idle = await paidOrder(`${prefix}-idle@example.test`);
      const { cookie } = await signedInUser({ admin: true });
      const page = await browser.newPage({ javaScriptEnabled, width, cookie });
      await page.goto("/admin");
      await page.getByLabel("Search").fill(prefix);
      await page.getByLabel("Delivery").selectOption({ label: "Overdue" });
      await page.getByRole("button", { name: "Apply Filters" }).click();
      await page.waitForURL(/clock=overdue/);
      // With JavaScript on, the address changes before React has drawn the new list (Remix renders in a
      // transition), and the unfiltered list shows the overdue order too: the filtered list's own count
      // says it is drawn.
      await page.getByText("Select all (1 order)").waitFor();
      await page.getByText(`Order #${overdue.shortId}`).waitFor();
      await page
        .getByText(/^Overdue by 3 h/)
        .first()
        .waitFor();
      expect(await page.getByText(`Order #${soon.shortId}`).count()).toBe(0);

      await page.getByLabel("Delivery").selectOption({ label: "Due within 6 hours" });
      await page.getByRole("button", { name: "Apply Filters" }).click();
      await page.waitForURL(/clock=due-soon/);
      await page.getByText(`Order #${soon.shortId}`).waitFor();
      await page
        .getByText(/^3 h 59 min left|^4 h left/)
        .first()
        .waitFor();
      expect(await page.getByText(`Order #${overdue.shortId}`).count()).toBe(0);

      await page.getByLabel("Delivery").selectOption({ label: "Any deadline" });
      await page.getByLabel("Sort").selectOption({ label: "Deadline, soonest first" });
      await page.getByRole("button", { name: "Apply Filters" }).click();
      await page.waitForURL(/sort=deadline/);
      await page.getByText("Select all (4 orders)").waitFor();
      const titles = await page.getByText(/^Order #/).allTextContents();
      const order = [overdue, soon, later, { shortId: idle.orderId.slice(0, 8) }].map((o) =>
        titles.findIndex((t) => t.includes(o.shortId)),
      );
      expect(order.every((i) => i >= 0)).toBe(true);
      expect([...order].sort((a, b) => a - b)).toEqual(order);
      await screenshot(page, `clock-admin-list-${label}`);
    });

    it(`shows Refund due and refunds once through the confirmation page (${width} px)`, async () => {
      const o = await clocked(`refund${label.replace(/-/g, "")}`, 30);
      const { cookie } = await signedInUser({ admin: true });
      const page = await browser.newPage({ javaScriptEnabled, width, cookie });
      await page.goto(`/admin/orders/${o.orderId}`);
      const card = page.getByRole("region", { name: "Delivery Clock" });
      await card.getByText("Refund due").waitFor();
      await card.getByText(/^Overdue by 6 h/).waitFor();
      await card.getByText("Clock started: intake form submitted", { exact: false }).waitFor();
      await screenshot(page, `clock-order-${label}`);
      await card.getByRole("link", { name: "Refund" }).click();
      await page.waitForURL(`${APP_URL}/admin/orders/${o.orderId}/refund`);
      await page.getByRole("heading", { name: `Refund order #${o.shortId}` }).waitFor();
      expect(await page.getByLabel("Reason (kept in the audit log)").inputValue()).toBe(
        "First draft not delivered by the deadline",
      );
      await screenshot(page, `clock-refund-confirm-${label}`);
      await page.getByRole("button", { name: "Refund $300.00" }).click();
      await page.waitForURL(`${APP_URL}/admin/orders/${o.orderId}`);
      await page.getByText("Refunded", { exact: true }).first().waitFor();
      await page.getByText("REFUNDED").first().waitFor();
      expect((await Order.findById(o.orderId).lean())!.status).toBe("refunded");
      expect(await page.getByRole("link", { name: "Refund" }).count()).toBe(0);
    });

    it(`tells the customer when the first draft is due (${width} px)`, async () => {
      const o = await clocked(`due${label.replace(/-/g, "")}`, 2);
      const deadline = (await Order.findById(o.orderId).lean())!.clock_deadline!;
      const page = await browser.newPage({ javaScriptEnabled, width });
      await page.goto(`/order-status?access_token=${encodeURIComponent(o.statusToken)}`);
      await page.waitForURL(`${APP_URL}/order-status`);
      await page.getByText(`Your first draft is due by ${formatDeadline(deadline)}`).waitFor();
      await screenshot(page, `clock-order-status-${label}`);
    });
  }
});
