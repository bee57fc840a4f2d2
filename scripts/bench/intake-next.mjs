// An intake step's Next on a satellite link, with JavaScript on and off (issue 20 item 8: JavaScript
// never makes a step slower). Chromium with CDP network throttling (650 ms round trip, 1 Mbps down,
// 256 kbps up; the CPU not slowed, so the network is what is measured): step 1 is filled in, the
// page is left to settle (with JavaScript: hydrated, its routes discovered), then Next is pressed and
// timed until step 2's heading shows. Prints the median (min-max) of BENCH_RUNS presses per mode, the
// requests each Next made (and how many were /__manifest route lookups), and the ratio on/off.
// Target: on <= off.
//   TEST_PORT_OFFSET=600 node scripts/bench/intake-next.mjs
import {
  intakeCustomer,
  knob,
  launchChromium,
  machine,
  median,
  spread,
  startBench,
  STEP_ONE,
  throttle,
} from "./lib.mjs";

// BENCH_SMOKE=1: one Next per mode.
const RUNS = knob("BENCH_RUNS", 5, 1, 30, 1);
/** A satellite link as issue 20 measured it (bits per second). */
const SATELLITE = { latencyMs: 650, downBps: 1024 * 1024, upBps: 256 * 1024 };

/** One Next from step 1, in a fresh context (cold cache, as a customer returning by the e-mailed link). */
async function timeNext(browser, url, cookie, js) {
  const context = await browser.newContext({ javaScriptEnabled: js, viewport: { width: 390, height: 844 } });
  await context.addCookies(
    cookie.split("; ").map((pair) => ({
      name: pair.slice(0, pair.indexOf("=")),
      value: pair.slice(pair.indexOf("=") + 1),
      url,
    })),
  );
  const page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    await throttle(cdp, SATELLITE);
    await page.goto(`${url}/intake-form/1`, { waitUntil: "load", timeout: 120_000 });
    await page.getByText("Step 1 of 14").waitFor();
    for (const [name, value] of Object.entries(STEP_ONE)) {
      const field = page.locator(`[name="${name}"]`);
      if ((await field.evaluate((el) => el.tagName)) === "SELECT") await field.selectOption(value);
      else await field.fill(value);
    }
    // Settled: with JavaScript the page has hydrated and made its own requests (route discovery).
    await page.waitForLoadState("networkidle", { timeout: 60_000 });
    const requests = [];
    page.on("request", (request) => requests.push(new URL(request.url()).pathname));
    const started = performance.now();
    await page.getByRole("button", { name: "Next Step" }).click();
    await page.getByText("Step 2 of 14").waitFor({ timeout: 120_000 });
    const ms = performance.now() - started;
    if (process.env.BENCH_DEBUG) console.error(js, Math.round(ms), requests.join(" "));
    return { ms, requests: requests.length, manifest: requests.filter((p) => p === "/__manifest").length };
  } finally {
    await context.close();
  }
}

const bench = await startBench({ database: "bench-intake-next" });
const browser = await launchChromium();
try {
  const { cookie } = await intakeCustomer(bench);
  console.log(
    `Intake Next (step 1 to 2), satellite profile ${SATELLITE.latencyMs} ms, 1 Mbps down, 256 kbps up; ${RUNS} presses per mode; ms as median (min-max) | ${machine()}`,
  );
  console.log("scripts  Next (ms)                requests  /__manifest");
  const medians = {};
  for (const js of [true, false]) {
    const runs = [];
    // Interleaved would mix caches; each press is a fresh context, so the modes run in turn.
    for (let i = 0; i < RUNS; i++) runs.push(await timeNext(browser, bench.app.url, cookie, js));
    medians[js ? "on" : "off"] = median(runs.map((r) => r.ms));
    console.log(
      `${(js ? "on" : "off").padEnd(8)} ${spread(runs.map((r) => r.ms)).padEnd(24)} ${String(median(runs.map((r) => r.requests))).padStart(8)}  ${String(Math.max(...runs.map((r) => r.manifest))).padStart(11)}`,
    );
  }
  const ratio = medians.on / medians.off;
  console.log(`ratio on/off ${ratio.toFixed(2)} (target <= 1.00: ${ratio <= 1 ? "met" : "missed"})`);
} finally {
  await browser.close();
  await bench.stop();
}
