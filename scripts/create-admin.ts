// npm run create-admin -- someone@example.com
// Makes the account an admin, creating it when needed. The password comes from
// ADMIN_PASSWORD, or a random one is generated and printed once.
import { randomBytes } from "node:crypto";
import { createUser } from "~/server/accounts.server";
import { connectDb, disconnectDb } from "~/server/db.server";
import { getEnv } from "~/server/env.server";
import { ensureIndexes, User, UserRole } from "~/server/models/index.server";
import { takeServedAddress } from "./served-at";

const email = process.argv[2]?.trim().toLowerCase();
if (!email || !email.includes("@")) {
  console.error("Usage: npm run create-admin -- someone@example.com   (password from ADMIN_PASSWORD, or generated)");
  process.exit(2);
}

takeServedAddress();
await connectDb();
await ensureIndexes();
const existing = await User.findOne({ email }).lean();
if (existing) {
  await UserRole.updateOne({ user_id: String(existing._id), role: "admin" }, { $setOnInsert: {} }, { upsert: true });
  console.log(`${email} is now an admin (password unchanged).`);
} else {
  const password = process.env.ADMIN_PASSWORD || randomBytes(12).toString("base64url");
  if (password.length < 6) throw new Error("ADMIN_PASSWORD must be at least 6 characters");
  await createUser({ email, password, admin: true });
  console.log(`Created admin ${email}${process.env.ADMIN_PASSWORD ? "" : ` with password ${password}`}`);
}
console.log(
  [
    "",
    "Admin accounts need two-factor sign-in. To set it up:",
    "  1. Install an authenticator app on your phone (Google Authenticator, 1Password, Authy, ...).",
    `  2. Sign in at ${getEnv().APP_URL}/auth with ${email} and the password.`,
    "  3. Scan the QR code shown (or type the key), enter the 6-digit code the app shows,",
    "     and save the ten recovery codes somewhere safe: they are shown only once.",
    "Lost the phone and the codes? Another admin can reset your second factor (Admin Panel > Security),",
    `or, on the server: npm run two-factor -- reset ${email}`,
  ].join("\n"),
);
await disconnectDb();
