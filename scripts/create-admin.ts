// npm run create-admin -- someone@example.com
// Makes the account an admin, creating it when needed. The password comes from
// ADMIN_PASSWORD, or a random one is generated and printed once.
import { randomBytes } from "node:crypto";
import { createUser } from "~/server/auth.server";
import { connectDb, disconnectDb } from "~/server/db.server";
import { ensureIndexes, User, UserRole } from "~/server/models/index.server";

const email = process.argv[2]?.trim().toLowerCase();
if (!email || !email.includes("@")) {
  console.error("Usage: npm run create-admin -- someone@example.com   (password from ADMIN_PASSWORD, or generated)");
  process.exit(2);
}

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
await disconnectDb();
