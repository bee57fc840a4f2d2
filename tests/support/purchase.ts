import type { Page } from "playwright-core";
import { connectDb } from "~/server/db.server";
import { Order } from "~/server/models/index.server";
import { CHECKOUT_LIMIT } from "~/server/rate-limit.server";
import { clearBrowserLimits } from "./rate-limits";

/**
 * Pays for `path` (the checkout, `?package=` for a package) as a buyer would: the e-mail, each add-on ticked,
 * a coupon applied when given, the terms, then the offline test checkout. Ends on the success page; the order's id.
 */
export async function buy(page: Page, path: string, email: string, addOns: RegExp[], coupon?: string) {
  await clearBrowserLimits(CHECKOUT_LIMIT);
  await page.goto(path);
  await page.getByLabel("Email").fill(email);
  for (const addOn of addOns) await page.getByLabel(addOn).check();
  if (coupon) {
    await page.getByLabel("Coupon code").fill(coupon);
    await page.getByRole("button", { name: "Apply" }).click();
    await page.getByText("Coupon Applied!").waitFor();
  }
  await page.getByLabel(/I agree to the/).check();
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await page.waitForURL(/\/checkout\/offline\?session_id=/);
  await page.getByRole("button", { name: "Complete test payment" }).click();
  await page.waitForURL(/\/order-success\?session_id=/);
  await page.getByRole("heading", { name: "Payment Successful!" }).waitFor();
  const sessionId = new URL(page.url()).searchParams.get("session_id");
  await connectDb();
  const order = await Order.findOne({ stripe_session_id: sessionId }, { _id: 1 }).lean();
  return order!._id;
}
