// How long the hourly cron job takes as orders pile up: for each size, a fresh
// database with that many orders being worked on (a mix of intake not started,
// started, submitted with a revision round open), then two runs of the job: the
// first sends the reminders that are due, the second is the usual hour when
// nothing new is due. Prints figures; asserts nothing.
//   TEST_PORT_OFFSET=700 bash scripts/services.sh start test
//   eval "$(TEST_PORT_OFFSET=700 bash scripts/services.sh env test)"; export MONGODB_URI
//   npx tsx scripts/bench/cron.ts 1000 5000
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { runCron } from "~/server/cron.server";
import { connectDb, disconnectDb } from "~/server/db.server";
import { ensureIndexes, IntakeSubmission, IntakeToken, Order, ReminderLog } from "~/server/models/index.server";

// Sizes from the arguments, else BENCH_SIZES (as the other benchmarks take them), else 1000;
// BENCH_SMOKE=1: 50.
const smoke = process.env.BENCH_SMOKE === "1" ? ["50"] : null;
const sizes = (
  smoke ?? (process.argv.length > 2 ? process.argv.slice(2) : (process.env.BENCH_SIZES ?? "1000").split(","))
)
  .map(Number)
  .filter((n) => n > 0);
if (!process.env.MONGODB_URI || sizes.length === 0) {
  console.error("Usage: MONGODB_URI=mongodb://host:port npx tsx scripts/bench/cron.ts 1000 [5000 ...]");
  process.exit(1);
}
const base = new URL(process.env.MONGODB_URI);
const H = 3_600_000;

async function seed(n: number) {
  const now = Date.now();
  const orders = [];
  const tokens = [];
  const submissions = [];
  for (let i = 0; i < n; i++) {
    const _id = randomUUID();
    const state = i % 4; // 0: not started, 1: started, 2: submitted with round 1 open, 3: recently paid
    const paidAt = new Date(now - (state === 3 ? 2 : 100) * H);
    orders.push({
      _id,
      email: `bench-${i}@example.test`,
      status: "paid",
      amount_total: 30_000,
      amount_paid: 30_000,
      paid_at: paidAt,
      revision_1_enabled: state === 2,
    });
    tokens.push({
      _id: createHash("sha256").update(randomBytes(32)).digest("hex"), // as issued: the token's SHA-256
      order_id: _id,
      purpose: "intake",
      issue_key: `paid:${_id}`,
      expires_at: new Date(now + 6 * 24 * H),
      used: state === 2,
    });
    if (state === 1 || state === 2) {
      submissions.push({
        order_id: _id,
        business_name: `Business ${i}`,
        furthest_step: 5,
        ...(state === 2 ? { status: "submitted", submitted_at: new Date(now - 90 * H) } : {}),
      });
    }
  }
  for (let i = 0; i < n; i += 1000) {
    await Order.insertMany(orders.slice(i, i + 1000));
    await IntakeToken.insertMany(tokens.slice(i, i + 1000));
  }
  if (submissions.length) await IntakeSubmission.insertMany(submissions);
  // Last saved long ago, so the started ones are due a reminder.
  await IntakeSubmission.collection.updateMany({}, { $set: { updated_at: new Date(now - 60 * H) } });
}

async function timed<T>(run: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const result = await run();
  return [Math.round(performance.now() - start), result];
}

console.log("orders  first run (ms)  reminders sent  steady run (ms)  ms per order (steady)");
for (const n of sizes) {
  process.env.MONGODB_URI = `${base.protocol}//${base.host}/bench_cron_${randomBytes(4).toString("hex")}`;
  const conn = await connectDb(process.env.MONGODB_URI);
  await ensureIndexes();
  await seed(n);
  const [first, summary] = await timed(() => runCron());
  const sent = await ReminderLog.countDocuments();
  const [steady] = await timed(() => runCron());
  if (!summary.ok) console.error("the run reported errors:", "errors" in summary ? summary.errors : "");
  console.log(
    `${String(n).padStart(6)}  ${String(first).padStart(14)}  ${String(sent).padStart(14)}  ${String(steady).padStart(15)}  ${(steady / n).toFixed(2).padStart(21)}`,
  );
  await conn.connection.dropDatabase();
  await disconnectDb();
}
