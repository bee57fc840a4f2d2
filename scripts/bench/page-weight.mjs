// What each page costs a visitor, as Chromium receives it: requests, and the
// compressed bytes of HTML, CSS and JS, with scripts on and off, against the
// budgets of ARCHITECTURE rule 8 (the same 14 KB as scripts/page-weight.mjs,
// which checks every public page in `npm test`; this adds JS, requests and an
// intake step). Prints one row per page and mode; exits 1 when a budget is missed.
//   TEST_PORT_OFFSET=600 node scripts/bench/page-weight.mjs
// BENCH_SMOKE=1: home, /checkout and the intake step only (a page without a form, one with, and the one
// that needs a customer's cookie); npm test's scripts/page-weight.mjs checks every page's budget.
import { CRITICAL_BUDGET, JS_BUDGET, pageKind } from "../page-budgets.mjs";
import { intakeCustomer, launchChromium, loadPage, machine, say, SMOKE, startBench } from "./lib.mjs";

const PAGES = [
  "/",
  "/24-hour-website",
  "/services",
  "/showcase",
  "/showcase/dog-groomer",
  "/contact",
  "/checkout",
  "/order-status",
  "/auth",
];

const bench = await startBench({ database: "bench-weight" });
const { app } = bench;
const browser = await launchChromium();
let missed = 0;
try {
  const { cookie } = await intakeCustomer(bench);
  const pages = SMOKE ? ["/", "/checkout"] : PAGES;
  const targets = [...pages.map((path) => ({ path })), { path: "/intake-form/1", cookie }];

  console.log(`Page weight (KB, compressed as sent) | ${machine()}`);
  console.log("page                     scripts  requests   html    css     js   html+css  budget");
  for (const { path, cookie: c } of targets) {
    for (const js of [true, false]) {
      const r = await loadPage(browser, app.url + path, { js, cookie: c });
      const kb = (type) => (r.types[type]?.bytes ?? 0) / 1024;
      const critical = kb("document") + kb("stylesheet");
      const jsBudget = JS_BUDGET[pageKind(r.forms > 0, path)];
      const over = critical * 1024 > CRITICAL_BUDGET || kb("script") * 1024 > jsBudget;
      if (over) missed++;
      console.log(
        `${path.padEnd(24)} ${(js ? "on" : "off").padEnd(8)} ${String(r.requests).padStart(8)} ${kb("document").toFixed(1).padStart(6)} ${kb("stylesheet").toFixed(1).padStart(6)} ${kb("script").toFixed(1).padStart(6)} ${critical.toFixed(1).padStart(9)}  ${over ? "OVER" : "ok"} (${CRITICAL_BUDGET / 1024}/${jsBudget / 1024})`,
      );
    }
  }
} finally {
  await browser.close();
  await bench.stop();
}
if (missed) {
  say(`${missed} page load(s) over budget`);
  process.exitCode = 1;
}
