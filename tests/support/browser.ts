import AxeBuilder from "@axe-core/playwright";
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";

export const APP_URL = process.env.APP_URL ?? "http://127.0.0.1:3100";

/** Each journey runs twice: as a visitor whose JavaScript is off, and with it on. */
export const JS_MODES = [
  ["JavaScript off", false],
  ["JavaScript on", true],
] as const;

/** One Debian Chromium per test file (never a browser a tool downloads itself). */
export function useBrowser() {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    /** A fresh visitor (own cookies) with JavaScript on or off; `cookie` ("__session=…") signs them in. */
    async newPage(options: {
      javaScriptEnabled: boolean;
      width?: number;
      cookie?: string;
      /** The browser's own time zone (the machine's by default). */
      timezoneId?: string;
      /** Where the site is reached (APP_URL unless a faulty relay stands between: tests/support/faulty-relay.ts). */
      baseURL?: string;
    }): Promise<Page> {
      const context = await browser.newContext({
        baseURL: options.baseURL ?? APP_URL,
        javaScriptEnabled: options.javaScriptEnabled,
        viewport: { width: options.width ?? 1280, height: 900 },
        timezoneId: options.timezoneId,
      });
      contexts.push(context);
      if (options.cookie) {
        const [name, ...rest] = options.cookie.split("=");
        await context.addCookies([{ name, value: rest.join("="), url: APP_URL }]);
      }
      return context.newPage();
    },
  };
}

/** Fails on any serious or critical axe violation, naming each rule and element. */
export async function expectNoSeriousA11yViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(serious, `axe on ${page.url()}:\n${serious.join("\n")}`).toEqual([]);
}

/**
 * Waits for the flash message `text` a post brought (rendered in the HTML, so it shows without JavaScript too).
 * With JavaScript a toast fades after 4 s: start waiting before the click, Promise.all([flash(...), click()]).
 */
export async function flash(page: Page, text: string | RegExp) {
  await page.getByRole("status").filter({ hasText: text }).first().waitFor();
}

/** The text of the page's first alert (the form's problem), once it shows. */
export async function alertText(page: Page) {
  await page.getByRole("alert").first().waitFor();
  return (await page.getByRole("alert").first().textContent())?.trim();
}

/** Saves a screenshot under test-results/ for a person to look at. */
export async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: `test-results/${name}.png`, fullPage: true });
}

/** How far the page is wider than its window (0 or less: no sideways scrolling). */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** A visible element's box on the page (px), for layout checks: aligned tops, equal heights, a row that stays put. */
export async function boxOf(locator: Locator) {
  const box = await locator.boundingBox();
  if (!box) throw new Error(`no box for ${locator.toString()}`);
  return box;
}

/**
 * What a page shows (its address, alerts, status lines, first headings, busy forms) and, when `recordRequests`
 * was called on it, its requests since: said when an awaited effect does not come, with a screenshot named
 * `failed-<name>`, so a red run on a busy machine tells why without a rerun.
 */
async function pageReport(page: Page, name: string) {
  const texts = async (role: "alert" | "status" | "heading") =>
    (
      await page
        .getByRole(role)
        .allTextContents()
        .catch(() => [])
    )
      .map((t) => t.trim())
      .filter(Boolean);
  const shows = {
    url: page.url(),
    alerts: await texts("alert"),
    status: await texts("status"),
    headings: (await texts("heading")).slice(0, 3),
    busy: await page
      .locator("[aria-busy=true]")
      .count()
      .catch(() => -1),
    requests: requestLogs.get(page),
  };
  await screenshot(page, `failed-${name}`).catch(() => undefined);
  return JSON.stringify(shows);
}

/**
 * Slows the page's link by Chromium's own network emulation (`latency` ms each way; 125,000 bytes/s is 1 Mbps)
 * and gives back the function that puts it back to full speed.
 */
export async function slowLink(page: Page, latency: number, { download = 125_000, upload = 125_000 } = {}) {
  const cdp = await page.context().newCDPSession(page);
  const emulate = (conditions: { latency: number; downloadThroughput: number; uploadThroughput: number }) =>
    cdp.send("Network.emulateNetworkConditions", { offline: false, ...conditions });
  await emulate({ latency, downloadThroughput: download, uploadThroughput: upload });
  return () => emulate({ latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
}

const requestLogs = new WeakMap<Page, string[]>();

/** From now on, the page's requests to the app and how each ended, for `pageReport`. */
export function recordRequests(page: Page) {
  const log: string[] = [];
  requestLogs.set(page, log);
  const line = (r: { method(): string; url(): string }, end: string) =>
    log.push(`${new Date().toISOString().slice(11, 23)} ${r.method()} ${new URL(r.url()).pathname} ${end}`);
  page.on("request", (r) => line(r, "sent"));
  page.on("requestfinished", (r) => void r.response().then((res) => line(r, `answered ${res?.status() ?? "?"}`)));
  page.on("requestfailed", (r) => line(r, `failed ${r.failure()?.errorText ?? ""}`));
}

/** Runs `wait` (an effect awaited); when it fails, fails saying what the page shows instead (`pageReport`). */
export async function expectEffect(page: Page, name: string, wait: () => Promise<unknown>) {
  try {
    await wait();
  } catch (error) {
    throw new Error(`${(error as Error).message}; the page shows ${await pageReport(page, name)}`, { cause: error });
  }
}

/** Waits for `locator`, the visible effect of a post; when it does not come, says what the page shows instead. */
export async function waitForEffect(page: Page, locator: Locator, name: string, timeout = 60_000) {
  await expectEffect(page, name, () => locator.waitFor({ timeout }));
}

/**
 * Waits until React has hydrated the page (its fiber is on <main>) and the network is idle. An idle network
 * alone is not that: the scripts may still be running when the last request ends. The effects of the first
 * render run right after hydration's commit; a test that moves the page's clock calls this first.
 * (A marker set by an effect in the root would be exact, but it cost 24 bytes of script on every page, and the
 * admin's order page had less room than that left in its 97 KB budget.)
 */
export async function scriptsRunning(page: Page, timeout = 30_000) {
  await page.waitForFunction(
    () => Object.keys(document.querySelector("main") ?? {}).some((key) => key.startsWith("__reactFiber$")),
    undefined,
    { timeout },
  );
  await page.waitForLoadState("networkidle");
}
