// npm run migrate: runs every migration of stored documents not yet run on MONGODB_URI's database
// (app/server/migrations.server.ts), in order, each once however many processes run it at once. The app
// runs them too when it starts; this is for running them first, by hand or from a deploy script.
// npm run migrate -- --list            what has run, and what has not
// npm run migrate -- --release ID      removes the claim of a migration whose process died while running it
import { connectDb, disconnectDb } from "~/server/db.server";
import { ensureIndexes, Migration } from "~/server/models/index.server";
import { MIGRATIONS, releaseMigration, runMigrations } from "~/server/migrations.server";
import { takeServedAddress } from "./served-at";

takeServedAddress();
const [flag, id] = process.argv.slice(2);
await connectDb();
await ensureIndexes();
try {
  if (flag === "--release") {
    if (!id) throw new Error("Usage: npm run migrate -- --release MIGRATION_ID");
    console.log(
      (await releaseMigration(id)) ? `Released ${id}: the next run runs it again.` : `${id} holds no unfinished claim.`,
    );
  } else if (flag === "--list") {
    const done = new Map((await Migration.find().lean()).map((m) => [m._id, m]));
    for (const m of MIGRATIONS) {
      const row = done.get(m.id);
      const state = !row
        ? "not run"
        : row.finished_at
          ? `done ${row.finished_at.toISOString()}: ${row.result}`
          : `started ${row.started_at.toISOString()}, not finished`;
      console.log(`${m.id}  ${state}`);
    }
  } else if (flag) {
    throw new Error(`Unknown option ${flag} (use --list or --release ID)`);
  } else {
    const run = await runMigrations();
    for (const m of run.ran) console.log(`ran ${m}: ${(await Migration.findById(m).lean())?.result ?? ""}`);
    for (const m of run.waitedFor) console.log(`${m}: run by another process meanwhile`);
    console.log(`${run.alreadyDone.length} already done, ${run.ran.length} run now.`);
  }
} finally {
  await disconnectDb();
}
