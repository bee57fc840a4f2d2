// npm run backup -- DIR: the whole database (MONGODB_URI) in mongodump's directory format, which the stock
// mongorestore reads, plus a manifest of the upload objects (app/server/backup.server.ts). DIR defaults to
// data/backups/<UTC time> (data/ is out of git, and the one folder the systemd unit lets the app write).
// Copy DIR somewhere else (another bucket, another machine): docs/deploy.md says how.
import path from "node:path";
import { writeBackup } from "~/server/backup.server";
import { connectDb, disconnectDb } from "~/server/db.server";
import { takeServedAddress } from "./served-at";

takeServedAddress();
const dir = path.resolve(
  process.argv[2] ?? path.join("data", "backups", new Date().toISOString().replace(/[:.]/g, "-")),
);
await connectDb();
try {
  const manifest = await writeBackup(dir);
  const documents = Object.values(manifest.collections).reduce((a, b) => a + b, 0);
  console.log(
    `Backed up ${documents} documents in ${Object.keys(manifest.collections).length} collections of ${manifest.database}` +
      ` (${manifest.point_in_time ? "one point in time" : "collection by collection: not point in time on this server"})` +
      ` and listed ${manifest.uploads.objects.length} upload objects, to ${dir}`,
  );
} finally {
  await disconnectDb();
}
