// An intake step's Next on a satellite link, with JavaScript on and off (JavaScript
// never makes a step slower). Chromium with CDP network throttling (650 ms round trip, 1 Mbps down,
// 256 kbps up; the CPU not slowed, so the network is what is measured): step 1 is filled in, the
// page is left to settle (with JavaScript: hydrated, its routes discovered, the next step's code
// preloaded), then Next is pressed. Timed in the browser, on its clock, from the press until step 2
// is in the page: with JavaScript, when React puts step 2's header in (a MutationObserver); without,
// when the browser has parsed step 2's document (domInteractive of the new page). Playwright's own
// wait cannot time this: it polls every 500 ms once a wait passes a second, while a press without
// JavaScript returns only once the new document is there (it timed JavaScript on up to 500 ms late).
// The modes alternate press by press (each in a fresh context, cold cache). Prints the median
// (min-max) of BENCH_RUNS presses per mode, the requests each Next made (how many were /__manifest
// route lookups, and how many scripts a press waited for) and the ratio on/off. Target: on <= off.
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
/** A satellite link as measured for the intake's Next (bits per second). */
const SATELLITE = { latencyMs: 650, downBps: 1024 * 1024, upBps: 256 * 1024 };

const STEP_TWO = "Step 2 of 14";

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
    // Settled: with JavaScript the page has hydrated and made its own requests (route discovery, the
    // next step's code).
    await page.waitForLoadState("networkidle", { timeout: 60_000 });
    if (js) {
      // The moment React puts step 2 in the page, on the page's clock (it survives no navigation, and needs none).
      await page.evaluate((shown) => {
        new globalThis.MutationObserver((_, observer) => {
          if (!globalThis.document.body.textContent?.includes(shown)) return;
          globalThis.__stepShownAt = performance.timeOrigin + performance.now();
          observer.disconnect();
        }).observe(globalThis.document.body, { childList: true, subtree: true, characterData: true });
      }, STEP_TWO);
    }
    const requests = [];
    page.on("request", (request) => requests.push(new URL(request.url()).pathname));
    const pressedAt = await page.evaluate(() => performance.timeOrigin + performance.now());
    await page.getByRole("button", { name: "Next Step" }).click();
    await page.getByText(STEP_TWO).waitFor({ timeout: 120_000 });
    const shownAt = await page.evaluate(
      () =>
        // Without JavaScript the press opened a new document: its start is the press's navigation.
        globalThis.__stepShownAt ??
        performance.timeOrigin + performance.getEntriesByType("navigation")[0].domInteractive,
    );
    const ms = shownAt - pressedAt;
    // With JavaScript: code fetched between the press and step 2 showing (none: its code was preloaded;
    // step 3's is fetched once step 2 shows, which no press waits for). On the page's clock.
    const scripts = js
      ? await page.evaluate(
          ([from, to]) =>
            performance
              .getEntriesByType("resource")
              .filter((e) => e.name.includes("/build/"))
              .filter((e) => performance.timeOrigin + e.startTime >= from && performance.timeOrigin + e.startTime < to)
              .length,
          [pressedAt, shownAt],
        )
      : 0;
    if (process.env.BENCH_DEBUG) console.error(js, Math.round(ms), requests.join(" "));
    return {
      ms,
      requests: requests.length,
      manifest: requests.filter((p) => p === "/__manifest").length,
      scripts,
    };
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
  console.log("scripts  Next (ms)                requests  /__manifest  scripts waited for");
  const runs = { on: [], off: [] };
  // Each press is a fresh context (cold cache), so the modes alternate, and load falls on both alike.
  for (let i = 0; i < RUNS; i++) {
    for (const js of i % 2 ? [false, true] : [true, false]) {
      runs[js ? "on" : "off"].push(await timeNext(browser, bench.app.url, cookie, js));
    }
  }
  const medians = {};
  for (const [mode, list] of Object.entries(runs)) {
    medians[mode] = median(list.map((r) => r.ms));
    const most = (key) => String(Math.max(...list.map((r) => r[key])));
    console.log(
      `${mode.padEnd(8)} ${spread(list.map((r) => r.ms)).padEnd(24)} ${String(median(list.map((r) => r.requests))).padStart(8)}  ${most("manifest").padStart(11)}  ${most("scripts").padStart(18)}`,
    );
  }
  const ratio = medians.on / medians.off;
  console.log(`ratio on/off ${ratio.toFixed(2)} (target <= 1.00: ${ratio <= 1 ? "met" : "missed"})`);
} finally {
  await browser.close();
  await bench.stop();
}
