// Benchmark (not a test): the admin orders page's server time at 1k and 10k orders,
// next to the database's own time for the same queries. Prints figures; asserts nothing.
//
//   TEST_PORT_OFFSET=400 bash scripts/services.sh start test
//   eval "$(TEST_PORT_OFFSET=400 bash scripts/services.sh env test)"; export MONGODB_URI
//   npm run bench:admin-orders            # or: npx tsx scripts/bench/admin-orders.ts 1000 10000
//
// "page" is what the /admin loader awaits: listOrders + orderFigures, in parallel, through
// mongoose. "db" runs the same filters, sorts and pipelines with the bare MongoDB driver
// (no mongoose casting, no hydration, no arithmetic), one after another and in parallel,
// and "explain" is the server's own executionTimeMillis where the server reports one.
import { randomUUID } from "node:crypto";
import mongoose from "mongoose";
import { CHART_WEEKS } from "~/domain/admin/chart";
import { PAGE_SIZE, parseOrderFilters } from "~/domain/admin/order-filters";
import { DAY_MS } from "~/domain/dates";
import { PAID_STATUSES } from "~/domain/order-status";
import { listOrders, orderFigures, ordersFilter } from "~/server/admin/orders.server";
import { connectDb, disconnectDb } from "~/server/db.server";
import { ensureIndexes } from "~/server/models/index.server";

const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const fromEnv = (process.env.BENCH_SIZES ?? "")
  .split(",")
  .map(Number)
  .filter((n) => n > 0);
const SIZES = sizes.length ? sizes : fromEnv.length ? fromEnv : [1000, 10_000];
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const base = new URL(process.env.MONGODB_URI ?? "mongodb://127.0.0.1:22017/x");
const STATUSES = [
  "pending",
  "paid",
  "paid",
  "in_progress",
  "completed",
  "completed",
  "completed",
  "cancelled",
  "failed",
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function time(fn: () => Promise<unknown>): Promise<number> {
  const samples: number[] = [];
  await fn(); // warm up
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  return median(samples);
}

async function seed(n: number, now: Date) {
  const orders = mongoose.connection.db!.collection("orders");
  for (let start = 0; start < n; start += 1000) {
    const docs = Array.from({ length: Math.min(1000, n - start) }, (_, i) => {
      const k = start + i;
      const status = STATUSES[k % STATUSES.length];
      const paid = ["paid", "in_progress", "completed"].includes(status);
      return {
        _id: randomUUID(),
        user_id: k % 3 === 0 ? null : `user${k % 500}`,
        email: `customer${k}@example${k % 40}.test`,
        product_id: "24-hour-website",
        product_name: "24-Hour Website",
        status,
        amount_total: 30_000,
        amount_paid: paid ? 30_000 : 0,
        currency: "aud",
        stripe_payment_intent_id: paid ? `pi_${k}` : null,
        delivery_hours: status === "completed" ? 12 + (k % 20) : null,
        created_at: new Date(now.getTime() - ((k * 7919) % (365 * 24)) * 3_600_000),
      };
    });
    await orders.insertMany(docs as never[]);
  }
}

/** The same reads as the loader, with the bare driver. */
function rawQueries(query: string, now: Date) {
  const orders = mongoose.connection.db!.collection("orders");
  const filter = ordersFilter(parseOrderFilters(new URLSearchParams(query)), now);
  const since = new Date(now.getTime() - Math.max(CHART_WEEKS * 7, 60) * DAY_MS);
  return [
    () =>
      orders
        .find(filter as never, {
          projection: {
            email: 1,
            user_id: 1,
            status: 1,
            amount_paid: 1,
            currency: 1,
            created_at: 1,
            stripe_payment_intent_id: 1,
            product_name: 1,
          },
        })
        .sort({ created_at: -1, _id: -1 })
        .limit(PAGE_SIZE + 1)
        .toArray(),
    () => orders.countDocuments(filter as never),
    () => orders.aggregate([{ $group: { _id: "$status", n: { $sum: 1 } } }]).toArray(),
    () =>
      orders
        .aggregate([
          { $match: { status: { $in: [...PAID_STATUSES] } } },
          { $group: { _id: "$status", total: { $sum: "$amount_paid" } } },
        ])
        .toArray(),
    () =>
      orders
        .find(
          { status: { $in: [...PAID_STATUSES] }, created_at: { $gte: since } },
          { projection: { status: 1, amount_paid: 1, created_at: 1, delivery_hours: 1, _id: 0 } },
        )
        .toArray(),
  ];
}

async function explainMs(query: string, now: Date): Promise<string> {
  try {
    const orders = mongoose.connection.db!.collection("orders");
    const filter = ordersFilter(parseOrderFilters(new URLSearchParams(query)), now);
    const plan = (await orders
      .find(filter as never)
      .sort({ created_at: -1, _id: -1 })
      .limit(PAGE_SIZE + 1)
      .explain("executionStats")) as { executionStats?: { executionTimeMillis?: number } };
    const ms = plan.executionStats?.executionTimeMillis;
    return typeof ms === "number" ? `${ms} ms` : "n/a";
  } catch {
    return "n/a";
  }
}

const SCENARIOS = [
  ["all orders, page 1", ""],
  ["status=paid", "status=paid"],
  ["date=month", "date=month"],
  ["search e-mail prefix", "q=customer12"],
  ["search id prefix", "q=0a"],
];

console.log(`admin orders page: median of ${RUNS} runs after one warm-up, server ${base.host}`);
for (const n of SIZES) {
  const db = `bench_admin_${n}_${Date.now()}`;
  await connectDb(`${base.protocol}//${base.host}/${db}`);
  await ensureIndexes();
  const now = new Date();
  const t = performance.now();
  await seed(n, now);
  console.log(`\n${n} orders (seeded in ${Math.round(performance.now() - t)} ms)`);
  console.log(
    "scenario".padEnd(24),
    "page (loader)".padStart(14),
    "list".padStart(8),
    "figures".padStart(9),
    "db serial".padStart(10),
    "db parallel".padStart(12),
    "explain".padStart(9),
  );
  for (const [name, query] of SCENARIOS) {
    const filters = parseOrderFilters(new URLSearchParams(query));
    const page = await time(() => Promise.all([listOrders(filters, { now }), orderFigures(now)]));
    const list = await time(() => listOrders(filters, { now }));
    const figures = await time(() => orderFigures(now));
    const raw = rawQueries(query, now);
    const serial = await time(async () => {
      for (const q of raw) await q();
    });
    const parallel = await time(() => Promise.all(raw.map((q) => q())));
    const ms = (x: number) => `${x.toFixed(0)} ms`;
    console.log(
      name.padEnd(24),
      ms(page).padStart(14),
      ms(list).padStart(8),
      ms(figures).padStart(9),
      ms(serial).padStart(10),
      ms(parallel).padStart(12),
      (await explainMs(query, now)).padStart(9),
    );
  }
  await mongoose.connection.dropDatabase();
  await disconnectDb();
}
