// npm run restore -- DIR [--force]: loads a backup made by `npm run backup` into MONGODB_URI's database,
// which must be empty (--force drops the collections the backup holds first). Stop the app first and start
// it after: it reads the orders into memory at start. Then see what it prints about uploads.
import path from "node:path";
import { DatabaseNotEmptyError, restoreBackup } from "~/server/backup.server";
import { connectDb, disconnectDb } from "~/server/db.server";
import { takeServedAddress } from "./served-at";

const args = process.argv.slice(2);
const force = args.includes("--force");
const dir = args.find((a) => !a.startsWith("--"));
if (!dir) {
  console.error("Usage: npm run restore -- DIR [--force]   (DIR: a folder written by npm run backup)");
  process.exit(2);
}

takeServedAddress();
await connectDb();
try {
  const summary = await restoreBackup(path.resolve(dir), { force });
  const documents = Object.values(summary.collections).reduce((a, b) => a + b, 0);
  console.log(
    `Restored ${documents} documents in ${Object.keys(summary.collections).length} collections into ${summary.database} from the copy of ${summary.from}.`,
  );
  if (summary.missingUploads.length) {
    console.log(
      `${summary.missingUploads.length} upload objects listed in the copy are no longer in the bucket (deleted since by retention or a deletion request).`,
    );
    if (summary.ordersDeletedSince.length)
      console.log(
        `The data of these orders was deleted after the copy was made; delete it again (Admin > Privacy, or /admin/privacy/delete/ORDER) before the site serves:\n  ${summary.ordersDeletedSince.join("\n  ")}`,
      );
  }
  console.log("The next cron run deletes again any intake data whose retention has ended since the copy.");
} catch (error) {
  if (!(error instanceof DatabaseNotEmptyError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
} finally {
  await disconnectDb();
}
