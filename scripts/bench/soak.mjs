// Soak: a realistic mix at a steady rate against the production app on
// loopback, for a bounded time, printing each minute the requests, errors
// (5xx, dropped connections or any unexpected status), p50/p99 latency and the
// app's resident memory. Target: 0 errors and flat memory.
//   TEST_PORT_OFFSET=600 node scripts/bench/soak.mjs          (50 req/s for 10 minutes)
//   SOAK_RPS=20 SOAK_MINUTES=2 node scripts/bench/soak.mjs    (shorter; capped at 200 req/s, 60 minutes)
// The mix: 60% page views, 10% contact messages, 10% checkouts (Stripe's API
// mock), 20% intake steps (half views, half saves) by 5 paying customers.
import {
  intakeCustomer,
  knob,
  machine,
  median,
  post,
  quantile,
  say,
  sleep,
  SMOKE,
  startBench,
  STEP_ONE,
} from "./lib.mjs";

// BENCH_SMOKE=1: 5 requests a second for one step of 10 s (a step is otherwise a minute).
const RPS = knob("SOAK_RPS", 50, 1, 200, 5);
const MINUTES = knob("SOAK_MINUTES", 10, 1, 60, 1);
const STEP_SECONDS = SMOKE ? 10 : 60;
const MAX_IN_FLIGHT = 500;
const PAGES = [
  "/",
  "/services",
  "/24-hour-website",
  "/about",
  "/showcase",
  "/showcase/electrician",
  "/contact",
  "/checkout",
  "/privacy",
  "/terms",
];
const bench = await startBench({ database: "bench-soak" });
const { app } = bench;
let exitCode = 0;
try {
  await bench.db.dropDatabase();
  const cookies = [];
  for (let i = 0; i < 5; i++) cookies.push((await intakeCustomer(bench)).cookie);
  const pick = (items) => items[Math.floor(Math.random() * items.length)];
  let seq = 0;
  /** One request of the mix: its promise resolves to the status, and which statuses are right. */
  function nextRequest() {
    const r = Math.random();
    const n = ++seq;
    if (r < 0.6)
      return {
        kind: "page",
        expect: [200],
        run: () => fetch(app.url + pick(PAGES), { signal: AbortSignal.timeout(30_000) }),
      };
    if (r < 0.7)
      return {
        kind: "contact",
        expect: [303],
        run: () =>
          post(`${app.url}/contact`, {
            name: `Soak ${n}`,
            email: `soak${n}@example.test`,
            message: "Hello, please call me about a website.",
          }),
      };
    if (r < 0.8)
      return {
        kind: "checkout",
        expect: [303],
        run: () => post(`${app.url}/checkout`, { email: `soak-buyer${n}@example.test`, terms: "on", intent: "pay" }),
      };
    const cookie = pick(cookies);
    if (r < 0.9)
      return {
        kind: "intake view",
        expect: [200],
        run: () => fetch(`${app.url}/intake-form/1`, { headers: { cookie }, signal: AbortSignal.timeout(30_000) }),
      };
    return {
      kind: "intake save",
      expect: [303],
      run: () => post(`${app.url}/intake-form/1`, { ...STEP_ONE, intent: "stay" }, { cookie }),
    };
  }

  const span = SMOKE ? `${STEP_SECONDS} s` : `${MINUTES} min`;
  console.log(`Soak: ${RPS} req/s for ${span}, mix of pages, contact, checkout, intake | ${machine()}`);
  console.log("minute  requests  errors  p50 ms  p99 ms  app RSS MB  in flight");
  const all = { requests: 0, errors: 0, latencies: [], rss: [], problems: new Map() };
  let inFlight = 0;
  for (let minute = 1; minute <= MINUTES; minute++) {
    const latencies = [];
    let errors = 0;
    let requests = 0;
    const start = Date.now();
    for (let tick = 0; tick < RPS * STEP_SECONDS; tick++) {
      // Open loop: requests leave on schedule whether or not earlier ones have been answered.
      const due = start + (tick * 1000) / RPS;
      if (due > Date.now()) await sleep(due - Date.now());
      requests++;
      if (inFlight >= MAX_IN_FLIGHT) {
        errors++;
        all.problems.set("overload (too many in flight)", (all.problems.get("overload (too many in flight)") ?? 0) + 1);
        continue;
      }
      const req = nextRequest();
      const sent = performance.now();
      inFlight++;
      req
        .run()
        .then(async (res) => {
          await res.arrayBuffer();
          latencies.push(performance.now() - sent);
          if (!req.expect.includes(res.status)) {
            errors++;
            const key = `${req.kind} answered ${res.status}`;
            all.problems.set(key, (all.problems.get(key) ?? 0) + 1);
          }
        })
        .catch((error) => {
          errors++;
          const key = `${req.kind}: ${error.name}`;
          all.problems.set(key, (all.problems.get(key) ?? 0) + 1);
        })
        .finally(() => inFlight--);
    }
    const rss = app.rssMb();
    all.requests += requests;
    all.errors += errors;
    all.latencies.push(...latencies);
    all.rss.push(rss);
    console.log(
      `${String(minute).padStart(6)} ${String(requests).padStart(9)} ${String(errors).padStart(7)} ${quantile(latencies, 0.5).toFixed(0).padStart(7)} ${quantile(latencies, 0.99).toFixed(0).padStart(7)} ${rss.toFixed(0).padStart(11)} ${String(inFlight).padStart(10)}`,
    );
  }
  for (let i = 0; i < 300 && inFlight > 0; i++) await sleep(100); // the last answers, up to 30 s
  console.log(
    `total: ${all.requests} requests, ${all.errors} errors, p50 ${median(all.latencies).toFixed(0)} ms, p99 ${quantile(all.latencies, 0.99).toFixed(0)} ms; RSS first/last/max minute ${all.rss[0].toFixed(0)}/${all.rss.at(-1).toFixed(0)}/${Math.max(...all.rss).toFixed(0)} MB`,
  );
  for (const [problem, count] of all.problems) console.log(`  ${count} x ${problem}`);
  if (all.errors) exitCode = 1;
} finally {
  await bench.stop();
}
if (exitCode) say("errors during the soak; see data/bench/app-*.log");
process.exitCode = exitCode;
