// Benchmark (not a test): the admin orders page (/admin) at 1k, 10k and 100k orders, its time
// beside the time of the same queries run directly on the database. Prints figures; its exit
// code says nothing about the targets (the page adds at most 20% to the
// database's own time; the first page at 10k answers within 1 s on the embedded database).
//
//   TEST_PORT_OFFSET=650 npx tsx scripts/bench/admin-orders.ts             (1k, 10k, 100k)
//   BENCH_SIZES=1000,10000 BENCH_RUNS=5 npx tsx scripts/bench/admin-orders.ts
//   BENCH_SMOKE=1 npx tsx scripts/bench/admin-orders.ts                     (50 orders, once: CI)
//   BENCH_SEED=raw BENCH_DB=0 BENCH_SIZES=1000,100000 ...   (100k seeded fast; the page alone, no old queries)
//
// "page" is an HTTP GET of /admin by a signed-in admin against the production build (sign-in
// checks, loader, render, compression). "db" runs the page's queries with the bare MongoDB
// driver (no mongoose, no arithmetic, no render), in the page's order: the sign-in checks one
// after another (the session, the user and the admin role), then the loader's. The figures come
// from the order digest (app/server/admin/order-digest.server.ts), which reads the change log's
// marks on each view; for the unfiltered first page, the newest orders' rows are then read by
// `_id`; with a filter, in parallel, the list's keyset page, the count of what matches and
// whether any order exists: what the page ran before every filter was answered from the digest
// too, so for a filter "db" is the old page's scan, and "x 1st" the page's time against its own at
// the first size in the same run (the goal: within 1.2x at 100k of 1k). The collection grows from one size to the next, seeded through the
// Order model 1,000 at a time (as the app writes: each batch is one entry in the change log).
// Each filter matches at least a page at every size (paid orders have a running or overdue clock), so the
// sizes compare pages of as many rows (printed beside each figure).
// Beside the medians it prints the views that cost more: the first view after seeding (the
// digest rebuilt by one pass over every order, as after a deploy) and a view right after one
// order's status changed (the digest reads that one order), the first after a restart with and without the
// digest's snapshot, and the first page while the app's own pass runs in the background after that restart
// (the medians are taken once it is done and its snapshot written: the app logs "order_digest.rebuilt" and
// "order_digest.snapshot_written").
import mongoose from "mongoose";
import { BENCH_SECRETS, ensureBuild, machine, median, say, SMOKE, startApp, startServices } from "./lib.mjs";

const fromEnv = (process.env.BENCH_SIZES ?? "")
  .split(",")
  .map(Number)
  .filter((n) => n > 0);
const SIZES = SMOKE ? [50] : fromEnv.length ? fromEnv.sort((a, b) => a - b) : [1000, 10_000, 100_000];
const RUNS = SMOKE ? 1 : Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const RAW = process.env.BENCH_SEED === "raw";
/** BENCH_DB=0: the page alone, without the old page's queries beside it (at 100k they take minutes). */
const WITH_DB = process.env.BENCH_DB !== "0";
const SCENARIOS: [string, string][] = [
  ["all orders, first page", ""],
  ["status=paid", "status=paid"],
  ["status=completed", "status=completed"],
  ["date=month", "date=month"],
  ["clock=overdue", "clock=overdue"],
  ["search e-mail prefix", "q=customer1"],
];
const STATUSES = ["pending", "paid", "paid", "in_progress", "completed", "completed", "completed", "cancelled"];

const services = startServices();
ensureBuild();
const database = "bench-admin-orders";
const mongoRoot = services.env.MONGODB_URI.slice(0, services.env.MONGODB_URI.lastIndexOf("/"));
// The server modules read these when first imported: the same database and secrets as the app.
Object.assign(process.env, BENCH_SECRETS, { MONGODB_URI: `${mongoRoot}/${database}` });
const { connectDb, disconnectDb } = await import("~/server/db.server");
const { Order, OrderDigestSnapshot, ensureIndexes } = await import("~/server/models/index.server");
const { recordOrderChange } = await import("~/server/models/order-change.server");
const { ordersFilter, ROW_FIELDS } = await import("~/server/admin/orders.server");
const { PAGE_SIZE } = await import("~/domain/admin/order-filters");
const { parseOrderFilters } = await import("~/domain/admin/order-filters.schema");
const { signedInUser } = await import("../../tests/support/auth");

await connectDb();
await mongoose.connection.dropDatabase();
await ensureIndexes();
let app = await startApp({ serviceEnv: services.env, database });
const orders = mongoose.connection.db!.collection("orders");

/**
 * Orders spread over the last year, 1,000 at a time: through the model (its hooks list each order for its
 * customer and address, a walk each: about 20 s per 1,000 on a quiet machine), or with BENCH_SEED=raw as the
 * model would store them (its defaults applied) but in one insert per 1,000 and one "some orders changed" entry
 * in the change log: what 100k needs (the admin pages read neither list).
 */
async function seedTo(n: number, now: Date) {
  const have = await orders.estimatedDocumentCount();
  for (let start = have; start < n; start += 1000) {
    const docs = Array.from({ length: Math.min(1000, n - start) }, (_, i) => {
      const k = start + i;
      const status = STATUSES[k % STATUSES.length];
      const paid = ["paid", "in_progress", "completed"].includes(status);
      const created = new Date(now.getTime() - ((k * 7919) % (365 * 24)) * 3_600_000);
      const delivered = status === "completed" ? new Date(created.getTime() + 30 * 3_600_000) : null;
      // A paid order's clock runs from 12 h after payment for 24 h (most of a year's are overdue).
      const started = paid ? new Date(created.getTime() + 12 * 3_600_000) : null;
      return {
        // Guests, and customers with two orders each: each order is listed under its customer as it is inserted
        // (models/slots.server.ts), and a few customers with hundreds of orders each would make the seed crawl.
        user_id: k % 3 === 0 ? null : `user${Math.floor(k / 3)}`,
        email: `customer${k}@example${k % 40}.test`,
        status,
        amount_total: 30_000,
        amount_paid: paid ? 30_000 : 0,
        stripe_session_id: `cs_${k}`,
        stripe_payment_intent_id: paid ? `pi_${k}` : null,
        paid_at: paid ? created : null,
        clock_started_at: started,
        clock_deadline: started ? new Date(started.getTime() + 24 * 3_600_000) : null,
        draft_delivered_at: delivered,
        delivery_hours: delivered ? 18 : null,
        intake_progress: paid ? 100 : 0,
        created_at: created,
        updated_at: created,
      };
    });
    if (RAW) await orders.insertMany(docs.map((d) => new Order(d).toObject()) as never[]);
    else await Order.insertMany(docs);
  }
  if (RAW) await recordOrderChange("all");
}

/** The page's queries, with the bare driver: the sign-in checks in turn, then the loader's in parallel. */
async function dbQueries(query: string, now: Date, admin: { sessionId: string; userId: string }) {
  const db = mongoose.connection.db!;
  await db.collection("sessions").findOne({ _id: admin.sessionId } as never);
  await db.collection("users").findOne({ _id: new mongoose.Types.ObjectId(admin.userId) } as never);
  await db.collection("user_roles").findOne({ user_id: admin.userId, role: "admin" }, { projection: { _id: 1 } });
  const filter = ordersFilter(parseOrderFilters(new URLSearchParams(query)), now) as never;
  const marks = () => db.collection("order_change_marks").find({}).toArray();
  if (Object.keys(filter).length === 0) {
    await marks();
    return Promise.all(newestIds.map((id) => orders.findOne({ _id: id } as never, { projection: ROW_FIELDS })));
  }
  await Promise.all([
    orders
      .find(filter, { projection: ROW_FIELDS })
      .sort({ created_at: -1, _id: -1 })
      .limit(PAGE_SIZE + 1)
      .toArray(),
    marks(),
    orders.countDocuments(filter),
    orders.findOne({}, { projection: { _id: 1 } }),
  ]);
}
/** The first page's orders (what the digest names), found once per size outside the timing. */
let newestIds: string[] = [];

const elapsed = async (fn: () => Promise<unknown>) => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};

/**
 * Medians of `a` and `b` after a warm-up of each, run in turn and in alternating order, so that
 * whatever else loads the machine (or the database settling after a seed) falls on both alike.
 */
async function interleaved(a: () => Promise<unknown>, b: () => Promise<unknown>): Promise<[number, number]> {
  await a();
  await b();
  const as: number[] = [];
  const bs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    if (i % 2 === 0) {
      as.push(await elapsed(a));
      bs.push(await elapsed(b));
    } else {
      bs.push(await elapsed(b));
      as.push(await elapsed(a));
    }
  }
  return [median(as), median(bs)];
}

let exitCode = 0;
try {
  const { cookie, user } = await signedInUser({ admin: true });
  const session = await mongoose.connection.db!.collection("sessions").findOne({ user_id: user.id });
  const admin = { sessionId: String(session!._id), userId: user.id };
  const getPage = async (query: string) => {
    const res = await fetch(`${app.url}/admin${query ? `?${query}` : ""}`, {
      headers: { cookie, "accept-encoding": "gzip" },
      redirect: "manual",
      signal: AbortSignal.timeout(120_000),
    });
    const body = await res.text();
    if (res.status !== 200 || !body.includes("Total Orders")) throw new Error(`/admin?${query} answered ${res.status}`);
    return body.split('href="/admin/orders/').length - 1;
  };

  console.log(
    `Admin orders page against its own database queries, median of ${RUNS} each, interleaved, after a warm-up | ${machine()}`,
  );
  console.log("orders   scenario                  page ms    db ms  page/db   x 1st  rows  seeded in");
  const firstSize = new Map<string, number>();
  const verdicts: string[] = [];
  const costly: string[] = [];
  for (const n of SIZES) {
    const now = new Date();
    const t0 = performance.now();
    await seedTo(n, now);
    const seeded = `${((performance.now() - t0) / 1000).toFixed(0)} s`;
    newestIds = (
      await orders
        .find({}, { projection: { _id: 1 } })
        .sort({ created_at: -1, _id: -1 })
        .limit(PAGE_SIZE + 1)
        .toArray()
    ).map((d) => String(d._id));
    const rebuilt = await elapsed(() => getPage(""));
    const changed = await orders.findOne({ status: "paid" }, { projection: { _id: 1 } });
    await Order.updateOne({ _id: String(changed!._id) }, { $set: { status: "in_progress" } });
    const afterChange = await elapsed(() => getPage(""));
    await Order.updateOne({ _id: String(changed!._id) }, { $set: { status: "paid" } });
    // The first view after a restart: with no snapshot (a pass at start, as before snapshots), then from the
    // snapshot the app wrote after that pass.
    const snapshotWritten = async () => {
      for (let waited = 0; waited < 300_000; waited += 500) {
        if (await OrderDigestSnapshot.exists({ _id: "head" })) return;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      throw new Error("the app wrote no snapshot of the order digest within 5 minutes");
    };
    const PASS = "order_digest.rebuilt";
    const SNAPSHOT = "order_digest.snapshot_written";
    const restarted = async () => {
      await app.stop();
      app = await startApp({ serviceEnv: services.env, database });
      return elapsed(() => getPage(""));
    };
    await OrderDigestSnapshot.collection.deleteOne({ _id: "head" } as never);
    const pass = await restarted();
    await snapshotWritten();
    const fromSnapshot = await restarted();
    // Started from the snapshot, the app makes its own pass in the background (as every 30 minutes): the first
    // page while it runs, then the medians once it is done (the steady state).
    const duringPass: number[] = [];
    while (!app.logged(PASS).length && duringPass.length < 200) duringPass.push(await elapsed(() => getPage("")));
    const passLine = await app.loggedSince(PASS);
    const passMs = passLine.ms;
    // The next view takes the pass's digest (unless a view during the pass already did), which the app then
    // writes as its snapshot in the background.
    const swapped = await elapsed(() => getPage(""));
    const snapshotMs = (await app.loggedSince(SNAPSHOT, passLine.time)).ms;
    costly.push(
      `${String(n).padStart(6)}   first view after seeding (digest rebuilt): ${rebuilt.toFixed(0)} ms; right after one order changed: ${afterChange.toFixed(0)} ms; after a restart: ${pass.toFixed(0)} ms with no snapshot (a pass), ${fromSnapshot.toFixed(0)} ms from the snapshot (x ${(fromSnapshot / pass).toFixed(2)}); the first page during the app's background pass (${(passMs / 1000).toFixed(1)} s): median ${median(duringPass).toFixed(0)} ms of ${duringPass.length}; the view that took the pass's digest ${swapped.toFixed(0)} ms (the snapshot then written in ${(snapshotMs / 1000).toFixed(1)} s)`,
    );
    for (const [name, query] of SCENARIOS) {
      // The rows the page shows: a page compared across sizes must show as many (each filter has a page's worth).
      const rows = await getPage(query);
      const [page, db] = await interleaved(
        () => getPage(query),
        WITH_DB ? () => dbQueries(query, now, admin) : async () => undefined,
      );
      const ratio = page / db;
      if (!firstSize.has(name)) firstSize.set(name, page);
      const growth = page / firstSize.get(name)!;
      const dbCells = WITH_DB
        ? `${db.toFixed(0).padStart(8)} ${ratio.toFixed(2).padStart(8)}`
        : `${"-".padStart(8)} ${"-".padStart(8)}`;
      console.log(
        `${String(n).padStart(6)}   ${name.padEnd(22)} ${page.toFixed(0).padStart(10)} ${dbCells} ${growth.toFixed(2).padStart(7)} ${String(rows).padStart(5)}  ${name === SCENARIOS[0][0] ? seeded : ""}`,
      );
      if (WITH_DB)
        verdicts.push(
          `  ${n} ${name}: page/db ${ratio.toFixed(2)} (target <= 1.20: ${ratio <= 1.2 ? "met" : "missed"})`,
        );
      if (n === SIZES.at(-1) && SIZES.length > 1)
        verdicts.push(
          `  ${n} ${name}: ${growth.toFixed(2)}x its time at ${SIZES[0]} (target <= 1.20: ${growth <= 1.2 ? "met" : "missed"})`,
        );
      if (n === 10_000 && !query)
        verdicts.push(
          `  10000 first page: ${page.toFixed(0)} ms (target <= 1000 ms: ${page <= 1000 ? "met" : "missed"})`,
        );
    }
    say(`${n} done | load ${machine().split("load ")[1]}`);
  }
  console.log("the views that cost more (each once):");
  for (const c of costly) console.log(c);
  console.log("targets:");
  for (const v of verdicts) console.log(v);
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  await mongoose.connection.dropDatabase().catch(() => {});
  await disconnectDb();
  await app.stop();
  services.stop();
}
process.exitCode = exitCode;
