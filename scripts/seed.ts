// npm run seed: demo data for development and the local run (refused in a deployment). Prints the
// credentials and links it makes; nothing here is a fixed password.
import { randomBytes } from "node:crypto";
import { createUser } from "~/server/accounts.server";
import { connectDb, disconnectDb } from "~/server/db.server";
import { getEnv, standInsAllowed } from "~/server/env.server";
import { issueToken } from "~/server/tokens.server";
import { CouponFormSchema } from "~/domain/admin/coupons.schema";
import { createCoupon } from "~/server/admin/coupons.server";
import { ensureIndexes, Order, User } from "~/server/models/index.server";
import { takeServedAddress } from "./served-at";

takeServedAddress();
const env = getEnv();
if (!standInsAllowed()) {
  console.error("Refusing to seed demo data in a deployment.");
  process.exit(1);
}

await connectDb();
await ensureIndexes();

const password = () => randomBytes(9).toString("base64url");
async function ensureUser(email: string, admin: boolean) {
  if (await User.exists({ email })) return { email, password: "(unchanged: account already existed)" };
  const pw = password();
  await createUser({ email, password: pw, fullName: admin ? "Demo Admin" : "Demo Customer", admin, verified: true });
  return { email, password: pw };
}

const admin = await ensureUser("admin@example.test", true);
const customer = await ensureUser("customer@example.test", false);
const customerId = String((await User.findOne({ email: customer.email }).lean())!._id);

// Through the admin's own function (and its form's schema), so a seeded coupon is one an admin could have made.
const adminUser = (await User.findOne({ email: admin.email }).lean())!;
const actor = { id: String(adminUser._id), email: adminUser.email };
const lastWeek = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);
for (const c of [
  { code: "WELCOME10", discount_type: "percentage", discount_value: "10" },
  { code: "SAVE50", discount_type: "fixed", discount_value: "50" },
  { code: "LASTONE", discount_type: "percentage", discount_value: "25", max_uses: "1" },
  { code: "EXPIRED", discount_type: "fixed", discount_value: "10", valid_until: lastWeek },
]) {
  const value = CouponFormSchema.parse({ active: "on", allowed_emails: "", allowed_domains: "", ...c });
  await createCoupon(value, actor); // "code-taken" on a second run: the coupon is there already
}

const links: string[] = [];
const statuses = ["pending", "paid", "in_progress", "completed", "cancelled", "failed"] as const;
if ((await Order.countDocuments()) === 0) {
  for (const [i, status] of statuses.entries()) {
    const order = await Order.create({
      email: i % 2 ? customer.email : `guest${i}@example.test`,
      user_id: i % 2 ? customerId : null,
      status,
      amount_total: 30000,
      amount_paid: status === "pending" || status === "failed" ? 0 : 30000,
      intake_progress: [0, 20, 60, 100, 0, 0][i],
      intake_submitted_at: status === "completed" ? new Date() : null,
      draft_url: status === "completed" ? "https://example.com/draft" : null,
    });
    if (status === "paid" || status === "in_progress" || status === "completed") {
      const intake = await issueToken({ orderId: order._id, purpose: "intake", issueKey: `seed:${order._id}` });
      const statusToken = await issueToken({ orderId: order._id, purpose: "status", issueKey: `seed:${order._id}` });
      links.push(`${status.padEnd(12)} ${env.APP_URL}/intake-form?token=${intake}`);
      links.push(`${"".padEnd(12)} ${env.APP_URL}/order-status?access_token=${statusToken}`);
    }
  }
}

console.log(`Seeded demo data for the app at ${env.APP_URL}`);
console.log(`  admin:    ${admin.email} / ${admin.password}`);
console.log(`  customer: ${customer.email} / ${customer.password}`);
console.log("            (the admin sets up two-factor sign-in with an authenticator app at the first sign-in)");
console.log("  coupons:  WELCOME10 (10%), SAVE50 ($50 off), LASTONE (one use left), EXPIRED");
if (links.length) console.log(`  intake and order-status links:\n    ${links.join("\n    ")}`);
await disconnectDb();
