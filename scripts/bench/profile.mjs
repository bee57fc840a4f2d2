// Where the app's CPU goes while it serves one page under load: runs the
// production app with Node's sampling profiler (--cpu-prof), drives the page
// with autocannon (10 connections, BENCH_SECONDS, default 15), and prints the
// share of samples per package (react-dom, express, compression, zlib...) and
// the busiest functions. Explains throughput figures with a measurement.
//   TEST_PORT_OFFSET=600 node scripts/bench/profile.mjs [path]     (default /)
// BENCH_COOKIE="returning=1" sends a cookie with every request (a page rendered, not kept); a path under
// /intake-form is opened with the cookie of a website bought for it.
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { intakeCustomer, knob, machine, ROOT, startBench } from "./lib.mjs";

const PAGE = process.argv[2] ?? "/";
// BENCH_SMOKE=1: 1 s of load.
const SECONDS = knob("BENCH_SECONDS", 15, 1, 120, 1);
const COOKIE = process.env.BENCH_COOKIE;
const dir = path.join(ROOT, "data/bench/profile");

/** Which part of the stack a sampled function belongs to. */
function area(frame) {
  const url = frame.url;
  if (!url) return frame.functionName.startsWith("(") ? frame.functionName : "(native or node internals)";
  if (url.startsWith("node:")) return `node:${url.slice(5).split("/")[0]}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.includes("/build/")) return "the app (build/index.js)";
  if (url.includes("/scripts/server.mjs")) return "scripts/server.mjs";
  return url.replace(/^file:\/\//, "");
}

rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
// An intake step is opened with the cookie of a bought website's link (its loader reads the order and the draft).
const INTAKE = PAGE.startsWith("/intake-form");
const bench = await startBench({
  database: "bench-profile",
  withDb: INTAKE,
  drop: INTAKE,
  nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${dir}`],
});
const { app } = bench;
let result;
try {
  const cookie = INTAKE ? (await intakeCustomer(bench)).cookie : COOKIE;
  result = await autocannon({
    url: app.url + PAGE,
    connections: 10,
    duration: SECONDS,
    headers: { "accept-encoding": "gzip", ...(cookie ? { cookie } : {}) },
  });
} finally {
  // Node writes the profile as the process exits: on a loaded machine that takes more than the
  // usual 5 s grace, and a SIGKILL before it ends leaves no file.
  await bench.stop({ graceMs: 120_000 });
}
const file = readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
if (!file) throw new Error(`no profile written in ${dir} (see ${app.logFile})`);
const profile = JSON.parse(readFileSync(path.join(dir, file), "utf8"));
const byArea = new Map();
const byFunction = new Map();
let total = 0;
for (const node of profile.nodes) {
  if (!node.hitCount) continue;
  total += node.hitCount;
  const a = area(node.callFrame);
  byArea.set(a, (byArea.get(a) ?? 0) + node.hitCount);
  const fn = `${node.callFrame.functionName || "(anonymous)"} ${a}`;
  byFunction.set(fn, (byFunction.get(fn) ?? 0) + node.hitCount);
}
const busy = total - (byArea.get("(idle)") ?? 0);
const top = (map, n) =>
  [...map]
    .filter(([k]) => !k.startsWith("(idle)"))
    .sort((a, b) => b[1] - a[1])
    .slice(0, n);
console.log(
  `CPU profile of ${PAGE}: ${(result.requests.total / result.duration).toFixed(0)} req/s, p50 ${result.latency.p50} ms over ${SECONDS} s | ${machine()}`,
);
console.log(`share of the app's busy samples (${busy} of ${total}; the rest idle):`);
for (const [name, hits] of top(byArea, 15)) console.log(`  ${((100 * hits) / busy).toFixed(1).padStart(5)}%  ${name}`);
console.log("busiest functions:");
for (const [name, hits] of top(byFunction, 12))
  console.log(`  ${((100 * hits) / busy).toFixed(1).padStart(5)}%  ${name}`);
