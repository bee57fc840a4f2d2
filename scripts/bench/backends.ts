// Benchmark (not a test): the embedded database's two backends side by side, in one run. FerretDB
// 1.24 (.cache/bin/ferretdb, scripts/services/main.go) on SQLite, as scripts/services.sh runs it,
// and the same binary on PostgreSQL (-postgresql-url), each on a private port with data kept in
// data/bench-backends/ (and the PostgreSQL database given), so a large seed is made once and reused.
// For each backend and size it times, over HTTP against the production build: the customer's
// /dashboard (a customer with 3 orders among everyone's), the admin's /admin unfiltered and with
// each filter, and the first /admin after the app restarts. The medians are taken once the app's own pass over
// every order (made in the background after a start from the digest's snapshot, and every 30 minutes) and the
// snapshot written after it are done; the dashboard is also timed while that pass runs. Each figure is printed
// with its ratio to the same page at the smallest size on the same backend (the goal: <= 1.2 at 100k; the
// dashboard during the pass against the dashboard at rest), and the PostgreSQL figure beside SQLite's. Then it runs scripts/bench/intake-step.mjs on each backend.
//
//   TEST_PORT_OFFSET=300 BENCH_POSTGRESQL_URL=postgres://postgres@127.0.0.1:26732/ferretdb \
//     npx tsx scripts/bench/backends.ts                       (1k, 10k; BENCH_SIZES=1000,10000,100000)
//   BENCH_BACKENDS=sqlite   only one backend;   BENCH_INTAKE=0   pages only
//   BENCH_PAGES=customer    only the figures whose name has one of these words (comma-separated)
//   BENCH_SEED=raw          everyone's orders inserted as stored, 1,000 an insert with their lists (100k in minutes)
//   BENCH_SMOKE=1 (npm run bench:smoke, which sets BENCH_SIZES=50 BENCH_RUNS=1): no intake step after the pages
//
// Beside the customer's page it times, in this process, the query that finds the customer's orders: through
// their slots by `_id` (customer-orders.server.ts) and, as the baseline, the scan by
// `user_id` the dashboard made before.
//
// PostgreSQL itself is not started here: Debian's (apt-get install postgresql), run as its own user
// (initdb, pg_ctl), with a database for FerretDB (createdb ferretdb); docs/scaling.md says how.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, openSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import mongoose from "mongoose";
import { BENCH_SECRETS, ensureBuild, machine, median, OFFSET, ROOT, say, startApp, startServices } from "./lib.mjs";

const SIZES = (process.env.BENCH_SIZES ?? "1000,10000")
  .split(",")
  .map(Number)
  .filter((n) => n > 0)
  .sort((a, b) => a - b);
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const PG_URL = process.env.BENCH_POSTGRESQL_URL ?? "";
const BACKENDS = (process.env.BENCH_BACKENDS ?? (PG_URL ? "sqlite,postgresql" : "sqlite")).split(",");
/** Private ports beside this checkout's test FerretDB (22017 + offset; checkouts are 50 apart). */
const PORTS: Record<string, number> = { sqlite: 22042 + OFFSET, postgresql: 22043 + OFFSET };
const PAGES: [string, string][] = [
  ["customer /dashboard", "/dashboard"],
  ["admin, all orders", "/admin"],
  ["admin status=paid", "/admin?status=paid"],
  ["admin status=completed", "/admin?status=completed"],
  ["admin e-mail search", "/admin?q=customer12"],
  ["admin clock=overdue", "/admin?clock=overdue"],
  ["admin date=week", "/admin?date=week"],
];
const FIRST_VIEW = "admin, first view after a restart";
const DURING_PASS = "customer /dashboard during the pass";
/**
 * Views of a page before it is timed. The first views after a start are slow of themselves (code not yet
 * optimised, pools not yet open): a page timed after one view at 1k and after hundreds at 100k (the views during
 * the pass) compared a cold app with a warm one.
 */
const WARM_VIEWS = process.env.BENCH_SMOKE === "1" ? 1 : 100;
/** Views timed while the pass runs, one every DURING_PACE_MS: at 100k the pass takes minutes, and they span it. */
const DURING_VIEWS = 300;
const DURING_PACE_MS = process.env.BENCH_SMOKE === "1" ? 0 : 500;
const PASS = "order_digest.rebuilt";
const SNAPSHOT = "order_digest.snapshot_written";
const ORDERS_BY_SLOTS = "customer's orders, by slots (now)";
const ORDERS_BY_SCAN = "customer's orders, user_id scan (before)";
const RAW_SEED = process.env.BENCH_SEED === "raw";
/** Options for the app's node (BENCH_APP_NODE_ARGS, space-separated), e.g. --trace-gc to see its collections. */
const APP_NODE_ARGS = (process.env.BENCH_APP_NODE_ARGS ?? "").split(" ").filter(Boolean);
const WANTED = (process.env.BENCH_PAGES ?? "").split(",").filter(Boolean);
const wanted = (name: string) => !WANTED.length || WANTED.some((word) => name.includes(word));
/** No "pending": the app's first start would cancel every abandoned checkout (a migration), one by one. */
const STATUSES = ["cancelled", "paid", "paid", "in_progress", "completed", "completed", "completed", "cancelled"];

type Figure = { backend: string; size: number; page: string; ms: number };

/** The FerretDB of one backend, on its private port. */
function startFerret(backend: string): ChildProcess {
  const dir = path.join(ROOT, "data/bench-backends", backend);
  mkdirSync(dir, { recursive: true });
  const args = ["-listen", `127.0.0.1:${PORTS[backend]}`, "-dir", dir];
  if (backend === "postgresql") args.push("-postgresql-url", PG_URL);
  const log = openSync(path.join(ROOT, "data/bench-backends", `${backend}.log`), "a");
  return spawn(path.join(ROOT, ".cache/bin/ferretdb"), args, { stdio: ["ignore", log, log] });
}

/**
 * One backend's pages at one size, in a process of its own (the server modules read MONGODB_URI
 * once), on a database of that size (kept: the next run reuses it).
 */
async function measurePages(backend: string, size: number): Promise<Figure[]> {
  const uri = `mongodb://127.0.0.1:${PORTS[backend]}`;
  const database = `bench_backends_${size}`;
  const services = startServices();
  ensureBuild();
  Object.assign(process.env, BENCH_SECRETS, { MONGODB_URI: `${uri}/${database}` });
  const { connectDb, disconnectDb } = await import("~/server/db.server");
  const { Order, OrderDigestSnapshot, ensureIndexes } = await import("~/server/models/index.server");
  const { listOrdersForUser } = await import("~/server/customer-orders.server");
  const { emailOwner } = await import("~/server/models/customer-order.server");
  const { recordOrderChange } = await import("~/server/models/order-change.server");
  const { runMigrations } = await import("~/server/migrations.server");
  /**
   * Orders as stored, each listed under its customer and its address as the model's hooks list them: the seed's
   * order k is its customer's slot k % 3 - 1 (other customers have orders 3m+1 and 3m+2) and its address's only one.
   */
  const insertRaw = async (batch: { k: number; doc: { _id: string; user_id?: string | null; email: string } }[]) => {
    const db = mongoose.connection.db!;
    const at = new Date();
    await db.collection("orders").insertMany(batch.map((o) => o.doc) as never[]);
    await db
      .collection("customer_orders")
      .insertMany(
        batch
          .filter((o) => o.doc.user_id)
          .map((o) => ({ _id: `${o.doc.user_id}:${(o.k % 3) - 1}`, member: o.doc._id, created_at: at })) as never[],
      );
    await db
      .collection("email_orders")
      .insertMany(
        batch.map((o) => ({ _id: `${emailOwner(o.doc.email)}:0`, member: o.doc._id, created_at: at })) as never[],
      );
  };
  const { signedInUser } = await import("../../tests/support/auth");
  await connectDb();
  await ensureIndexes();
  const orders = mongoose.connection.db!.collection("orders");
  const serviceEnv = { ...services.env, MONGODB_URI: `${uri}/x` };
  const figures: Figure[] = [];
  let app: Awaited<ReturnType<typeof startApp>> | null = null;
  try {
    const admin = await signedInUser({ admin: true });
    const customer = await signedInUser();
    /** The time of one GET, or NaN (printed as "failed", with the reason on stderr) when it had no 200. */
    const get = async (cookie: string, url: string) => {
      const t = performance.now();
      try {
        const res = await fetch(`${app!.url}${url}`, { headers: { cookie }, redirect: "manual" });
        await res.text();
        if (res.status === 200) return performance.now() - t;
        say(`${backend}: ${url} answered ${res.status}`);
      } catch (error) {
        say(`${backend}: ${url} failed after ${(performance.now() - t).toFixed(0)} ms: ${String(error)}`, error);
      }
      return NaN;
    };
    const now = new Date();
    const t0 = performance.now();
    const have = await orders.estimatedDocumentCount();
    // A raw seed is a database that has run since its migrations: they run first, on no orders (after the
    // seed, the lists' migrations would walk every order's lists again at the app's start).
    if (RAW_SEED && have === 0) await runMigrations();
    // Everyone else's orders, through the model 1,000 at a time (as the app writes them), or with BENCH_SEED=raw
    // as the model stores them and lists them under their customer and address, one insert per 1,000 (100k in
    // minutes, not hours).
    for (let start = have; start < size; start += 1000) {
      const batch = Array.from({ length: Math.min(1000, size - start) }, (_, i) => seedOrder(start + i, now));
      if (RAW_SEED) await insertRaw(batch.map((o, i) => ({ k: start + i, doc: new Order(o).toObject() })));
      else await Order.insertMany(batch);
    }
    if (RAW_SEED && size > have) await recordOrderChange("all");
    if (!(await Order.exists({ user_id: customer.user.id })))
      await Order.insertMany([0, 1, 2].map((k) => ({ ...seedOrder(k, now), user_id: customer.user.id })));
    say(`${backend}: ${size} orders (seeded in ${((performance.now() - t0) / 1000).toFixed(0)} s)`);
    // A database seeded before a migration was added runs it here, not in the app's start (where a pass over
    // 100k orders outlasts the wait for /healthz, and a run cut short leaves its claim for the next start).
    const t1 = performance.now();
    const migrated = await runMigrations();
    if (migrated.ran.length)
      say(`${backend}: ran ${migrated.ran.join(", ")} in ${((performance.now() - t1) / 1000).toFixed(0)} s`);
    // With no snapshot (a first start), the first view makes the pass itself and no pass runs in the background.
    const fromSnapshot = Boolean(await OrderDigestSnapshot.exists({ _id: "head" }));
    // Started after the seed, so its first view is the first after a restart (a deploy).
    app = await startApp({ serviceEnv, database, startTimeoutMs: 300_000, nodeArgs: APP_NODE_ARGS });
    if (wanted(FIRST_VIEW)) figures.push({ backend, size, page: FIRST_VIEW, ms: await get(admin.cookie, "/admin") });
    // Started from the digest's snapshot, the app makes its own pass over every order in the background (as every
    // 30 minutes; 80-100 s at 100k): the customer's page while it runs, then every median once it and the snapshot
    // written after it are done (the steady state).
    if (fromSnapshot && wanted(DURING_PASS)) {
      const during: number[] = [];
      // Warmed up as the page at rest is. A small database's pass is over within the warm-up (no figure then).
      for (let i = 0; i < WARM_VIEWS && !app.logged(PASS).length; i++) await get(customer.cookie, "/dashboard");
      // Spread over the whole pass (its first seconds alone are not the pass), up to DURING_VIEWS of them.
      while (!app.logged(PASS).length && during.length < DURING_VIEWS) {
        during.push(await get(customer.cookie, "/dashboard"));
        await sleep(DURING_PACE_MS);
      }
      // A small database's pass may be over before the first view (no figure then).
      if (during.length) figures.push({ backend, size, page: DURING_PASS, ms: median(during) });
    }
    const pass = fromSnapshot ? await app.loggedSince(PASS) : null;
    await get(admin.cookie, "/admin"); // takes the pass's digest, which the app then writes as its snapshot
    await app.loggedSince(SNAPSHOT, pass?.time);
    const queries: [string, () => Promise<unknown>][] = [
      [ORDERS_BY_SLOTS, () => listOrdersForUser(customer.user.id)],
      [ORDERS_BY_SCAN, () => Order.find({ user_id: customer.user.id }).sort({ created_at: -1 }).limit(50).lean()],
    ];
    for (const [name, query] of queries.filter(([name]) => wanted(name))) {
      await query(); // warm-up
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t = performance.now();
        await query();
        times.push(performance.now() - t);
      }
      figures.push({ backend, size, page: name, ms: median(times) });
    }
    for (const [name, url] of PAGES.filter(([name]) => wanted(name))) {
      const cookie = url === "/dashboard" ? customer.cookie : admin.cookie;
      for (let i = 0; i < WARM_VIEWS; i++) await get(cookie, url); // warm-up, at every size alike
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) times.push(await get(cookie, url));
      figures.push({ backend, size, page: name, ms: median(times) });
    }
  } finally {
    await app?.stop();
    await disconnectDb();
    services.stop();
  }
  return figures;
}

/** Order k of the seed: spread over the last year, every status, other customers and guests. */
function seedOrder(k: number, now: Date) {
  const status = STATUSES[k % STATUSES.length];
  const paid = ["paid", "in_progress", "completed"].includes(status);
  const created = new Date(now.getTime() - ((k * 7919) % (365 * 24)) * 3_600_000);
  const started = paid ? new Date(created.getTime() + 12 * 3_600_000) : null;
  const delivered = status === "completed" ? new Date(created.getTime() + 30 * 3_600_000) : null;
  return {
    user_id: k % 3 === 0 ? null : `other${Math.floor(k / 3)}`, // guests, and customers with two orders each
    email: `customer${k}@example${k % 40}.test`,
    status,
    amount_total: 30_000,
    amount_paid: paid ? 30_000 : 0,
    stripe_session_id: `cs_bench_${k}_${now.getTime()}`,
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
}

function report(figures: Figure[]) {
  const at = (backend: string, size: number, page: string) =>
    figures.find((f) => f.backend === backend && f.size === size && f.page === page)?.ms;
  const cell = (backend: string, size: number, page: string) => {
    const ms = at(backend, size, page);
    // During the pass, against the page at rest at the smallest size (there the pass is over in a moment).
    const base = at(backend, SIZES[0], page === DURING_PASS ? "customer /dashboard" : page);
    if (ms === undefined || base === undefined) return "".padStart(20);
    if (Number.isNaN(ms)) return "failed".padStart(20);
    return `${ms.toFixed(0).padStart(7)} ms ${`${(ms / base).toFixed(2)}x`.padStart(7)}`.padStart(20);
  };
  console.log(`Pages by backend, median of ${RUNS} after a warm-up; "x" = against ${SIZES[0]} orders, same backend`);
  console.log(
    `page                               orders ${BACKENDS.map((b) => b.padStart(20)).join("")}${BACKENDS.length > 1 ? "   pg/sqlite" : ""}`,
  );
  for (const page of [FIRST_VIEW, DURING_PASS, ORDERS_BY_SLOTS, ORDERS_BY_SCAN, ...PAGES.map(([name]) => name)].filter(
    wanted,
  ))
    for (const size of SIZES) {
      const pg = at("postgresql", size, page);
      const sqlite = at("sqlite", size, page);
      console.log(
        `${page.padEnd(34)} ${String(size).padStart(6)} ${BACKENDS.map((b) => cell(b, size, page)).join("")}${
          pg !== undefined && sqlite !== undefined ? `${(pg / sqlite).toFixed(2).padStart(12)}` : ""
        }`,
      );
    }
}

if (process.argv[2] === "--pages") {
  // The child: one backend's figures at one size, as JSON on stdout.
  const figures = await measurePages(process.argv[3], Number(process.argv[4]));
  process.stdout.write(`\n${JSON.stringify(figures)}\n`);
  process.exit(0);
}

console.log(`FerretDB 1.24 on SQLite and on PostgreSQL | ${machine()}`);
const services = startServices(); // mail, S3 and Stripe for every app this run starts
ensureBuild(); // here, once: the children measuring each backend and size take it
const ferrets = BACKENDS.map(startFerret);
try {
  await new Promise((r) => setTimeout(r, 2_000));
  const figures: Figure[] = [];
  for (const backend of BACKENDS)
    for (const size of SIZES) {
      const child = spawnSync(
        process.execPath,
        [...process.execArgv, process.argv[1], "--pages", backend, String(size)],
        {
          cwd: ROOT,
          encoding: "utf8",
          stdio: ["ignore", "pipe", "inherit"],
          maxBuffer: 16 * 2 ** 20,
        },
      );
      if (child.status !== 0) throw new Error(`the ${backend} pages run at ${size} failed (exit ${child.status})`);
      // The figures are the last line (the server modules may log before it: migrations, say).
      figures.push(...(JSON.parse(child.stdout.trim().split("\n").at(-1)!) as Figure[]));
    }
  report(figures);
  if (process.env.BENCH_INTAKE !== "0" && process.env.BENCH_SMOKE !== "1")
    for (const backend of BACKENDS) {
      console.log(`Intake step POST on ${backend}:`);
      spawnSync(process.execPath, [path.join(ROOT, "scripts/bench/intake-step.mjs")], {
        cwd: ROOT,
        stdio: "inherit",
        env: { ...process.env, BENCH_MONGODB_URI: `mongodb://127.0.0.1:${PORTS[backend]}` },
      });
    }
} finally {
  for (const f of ferrets) f.kill("SIGTERM");
  services.stop();
}
