// Throughput of the home page against a bare one-route Remix page built by this
// script from the same installed versions (Remix, React, Express, compression),
// both served in production mode on loopback. autocannon, 10 connections,
// interleaved rounds (A B, then B A, ...) so that a noisy neighbour hurts both
// alike. Prints per round and the median (min-max) of requests/s, p50, p99 and
// the ratio home/bare. Target: ratio >= 0.9; /contact and /checkout >= 0.7, both as a new
// visitor gets them (no cookie: a copy of the kept page with a fresh nonce and form key) and
// rendered for a visitor who carries a cookie (printed beside them, as "rendered"); an intake step, always
// rendered (the customer's cookie, two database reads), >= 0.7 too.
//   TEST_PORT_OFFSET=600 node scripts/bench/throughput.mjs
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { APP_PORT, intakeCustomer, knob, machine, median, ROOT, say, spread, startApp, startBench } from "./lib.mjs";

// BENCH_SMOKE=1: one round of 1 s.
const ROUNDS = knob("BENCH_ROUNDS", 5, 1, 20, 1);
const SECONDS = knob("BENCH_SECONDS", 5, 1, 60, 1);
const TARGET = 0.9;

/** The baseline: the smallest Remix app, with the same config flags and server stack as ours. */
function buildBare() {
  const dir = path.join(ROOT, "data/bench/bare");
  const file = (name, text) => {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  };
  // Remix reads the runtime from package.json; the versions are ours (node_modules is shared).
  const ours = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
  const pick = (names) => Object.fromEntries(names.map((n) => [n, ours.dependencies[n] ?? ours.devDependencies[n]]));
  file(
    "package.json",
    JSON.stringify({
      name: "bare",
      private: true,
      type: "module",
      sideEffects: false,
      dependencies: pick([
        "@remix-run/node",
        "@remix-run/react",
        "@remix-run/express",
        "react",
        "react-dom",
        "express",
        "compression",
        "isbot",
      ]),
      devDependencies: pick(["@remix-run/dev"]),
    }),
  );
  file(
    "remix.config.js",
    `export default { serverModuleFormat: "esm", future: { v3_fetcherPersist: true, v3_relativeSplatPath: true, v3_throwAbortReason: true, v3_singleFetch: true, v3_lazyRouteDiscovery: true } };\n`,
  );
  file(
    "app/root.tsx",
    `import { Links, Meta, Outlet, Scripts } from "@remix-run/react";
export default function App() {
  return (<html lang="en"><head><meta charSet="utf-8" /><meta name="viewport" content="width=device-width, initial-scale=1" /><Meta /><Links /></head>
    <body><Outlet /><Scripts /></body></html>);
}
`,
  );
  file(
    "app/routes/_index.tsx",
    `export const meta = () => [{ title: "Bare" }];
export function loader() { return { now: Date.now() }; }
export default function Index() { return <main><h1>A bare Remix page</h1><p>One route, no data, no styles.</p></main>; }
`,
  );
  file(
    "server.mjs",
    `import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";
import * as build from "./build/index.js";
const app = express();
app.disable("x-powered-by");
app.use(compression());
app.get("/healthz", (_req, res) => res.send("ok"));
app.use("/build", express.static("public/build", { immutable: true, maxAge: "1y" }));
app.all("*", createRequestHandler({ build, mode: "production" }));
const server = app.listen(Number(process.env.PORT), "127.0.0.1");
process.on("SIGTERM", () => server.close(() => process.exit(0)));
`,
  );
  say("building the bare Remix page...");
  execFileSync(path.join(ROOT, "node_modules/.bin/remix"), ["build"], {
    cwd: dir,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, NODE_ENV: "production" },
  });
  return dir;
}

/**
 * What each round measures. Home and /services are pages with nothing interactive: after their
 * first render the server answers them from memory (scripts/page-cache.mjs), as a visitor without
 * cookies gets them. /contact and /checkout without a cookie are copies of the kept form page (each
 * with its own nonce and form key); with a cookie (any: a returning visitor's) they are rendered for
 * the request. The bare page is rendered on every request (it is not worth keeping).
 */
const VISITOR_COOKIE = "returning=1";
/** An intake step is always rendered: a customer opens it with the cookie their e-mailed link set (set below). */
const INTAKE = { name: "intake step", path: "/intake-form/1", cookie: "" };
const TARGETS = [
  { name: "home", path: "/" },
  { name: "services", path: "/services" },
  { name: "contact", path: "/contact" },
  { name: "checkout", path: "/checkout" },
  { name: "contact rendered", path: "/contact", cookie: VISITOR_COOKIE },
  { name: "checkout rendered", path: "/checkout", cookie: VISITOR_COOKIE },
  INTAKE,
  { name: "bare", path: "/" },
];
/** Form pages: their goal is a lower ratio to the bare page. */
const FORM_TARGET = 0.7;

function run(url, cookie) {
  const headers = { "accept-encoding": "gzip", ...(cookie ? { cookie } : {}) };
  return autocannon({ url, connections: 10, duration: SECONDS, headers });
}

const bench = await startBench({ database: "bench-throughput", drop: true });
const home = bench.app;
let bare = null;
try {
  say("buying a website for the intake step...");
  INTAKE.cookie = (await intakeCustomer(bench)).cookie;
  bare = await startApp({ serviceEnv: bench.serviceEnv, port: APP_PORT + 1, entry: "server.mjs", cwd: buildBare() });
  say("warming up both...");
  await run(`${home.url}/`);
  await run(`${home.url}/services`);
  await run(`${home.url}/contact`);
  await run(`${home.url}/checkout`);
  await run(`${home.url}/contact`, VISITOR_COOKIE);
  await run(`${home.url}${INTAKE.path}`, INTAKE.cookie);
  await run(`${bare.url}/`);
  const rows = Object.fromEntries(TARGETS.map((t) => [t.name, []]));
  console.log(`Throughput, autocannon 10 connections, ${ROUNDS} interleaved rounds of ${SECONDS} s | ${machine()}`);
  console.log("round  page               req/s    p50 ms  p99 ms  KB/answer  non-2xx  errors");
  for (let round = 1; round <= ROUNDS; round++) {
    // Rotate the order each round so that no target always runs first or last.
    const order = TARGETS.map((_, i) => TARGETS[(i + round) % TARGETS.length]);
    for (const { name, path: page, cookie } of order) {
      const r = await run(`${(name === "bare" ? bare : home).url}${page}`, cookie);
      // Answers over the run's own length: autocannon's per-second average reads 0 for a 1 s run.
      const rps = r.requests.total / r.duration;
      rows[name].push({ rps, p50: r.latency.p50, p99: r.latency.p99 });
      console.log(
        `${String(round).padStart(5)}  ${name.padEnd(17)} ${rps.toFixed(0).padStart(6)} ${String(r.latency.p50).padStart(9)} ${String(r.latency.p99).padStart(7)} ${(r.throughput.total / Math.max(r.requests.total, 1) / 1024).toFixed(1).padStart(10)} ${String(r.non2xx).padStart(8)} ${String(r.errors).padStart(7)}`,
      );
    }
  }
  console.log("summary, median (min-max):");
  for (const { name } of TARGETS) {
    const r = rows[name];
    console.log(
      `  ${name.padEnd(17)} req/s ${spread(r.map((x) => x.rps))}  p50 ${spread(r.map((x) => x.p50))} ms  p99 ${spread(r.map((x) => x.p99))} ms`,
    );
  }
  const ratio = (name) => rows[name].map((h, i) => h.rps / rows.bare[i].rps);
  for (const { name } of TARGETS.filter((t) => t.name !== "bare")) {
    const target = name === "home" || name === "services" ? TARGET : FORM_TARGET;
    const verdict = median(ratio(name)) >= target ? "met" : "missed";
    console.log(`  ratio ${name}/bare per round: ${spread(ratio(name), 2)}; target >= ${target}: ${verdict}`);
  }
} finally {
  await bare?.stop();
  await bench.stop();
}
