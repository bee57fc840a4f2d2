// npm run two-factor -- reset someone@example.com   turns off an account's second factor (e.g. the last
//                                                    admin lost their phone and recovery codes) and ends
//                                                    its sessions; the next sign-in sets it up again.
// npm run two-factor -- reencrypt                   re-seals every stored key under the newest
//                                                    TWO_FACTOR_SECRET (after rotating it).
// Whoever runs this has the server's shell and database already; every use is written to the admin audit log.
import { recordAdminAction } from "~/server/admin/audit.server";
import { connectDb, disconnectDb } from "~/server/db.server";
import { ensureIndexes, User } from "~/server/models/index.server";
import { endAllSessions } from "~/server/session.server";
import { removeSecondFactor, resealAll } from "~/server/two-factor.server";
import { loadEnvFile } from "./env-file.mjs";

const [command, arg] = process.argv.slice(2);
const usage = "Usage: npm run two-factor -- reset someone@example.com | npm run two-factor -- reencrypt";

loadEnvFile(); // as every command does: .env, under the shell's own values
await connectDb();
await ensureIndexes();
if (command === "reset" && arg?.includes("@")) {
  const email = arg.trim().toLowerCase();
  const user = await User.findOne({ email }).lean();
  if (!user) {
    console.error(`No account uses ${email}.`);
    process.exitCode = 1;
  } else {
    const id = String(user._id);
    await removeSecondFactor(id);
    await endAllSessions(id);
    await recordAdminAction({ id: "command-line", email: "command line (npm run two-factor)" }, "two_factor.reset", {
      type: "user",
      id,
    });
    console.log(
      `Two-factor sign-in is off for ${email} and its sessions are ended. Sign in with the password to set it up again.`,
    );
  }
} else if (command === "reencrypt") {
  console.log(`Re-sealed ${await resealAll()} stored key(s) under the newest TWO_FACTOR_SECRET.`);
} else {
  console.error(usage);
  process.exitCode = 2;
}
await disconnectDb();
