import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { NAV_LINKS } from "~/content/site";
import { NOT_FOUND_PAGE, PUBLIC_PAGES } from "../../scripts/page-list.mjs";
import { APP_URL, boxOf, expectNoSeriousA11yViolations, JS_MODES, screenshot, useBrowser } from "../support/browser";

const browser = useBrowser();

// Every public page answers inside the shell (the not-found page has its own test below).
const PUBLIC_ROUTES = PUBLIC_PAGES.filter((path) => path !== NOT_FOUND_PAGE);

describe.each(JS_MODES)("the site shell with %s", (_mode, javaScriptEnabled) => {
  it("serves every public route with the header links in the spec's order, the footer and one h1", async () => {
    const page = await browser.newPage({ javaScriptEnabled });
    for (const path of PUBLIC_ROUTES) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      const nav = page.getByRole("navigation", { name: "Main" });
      expect(await nav.getByRole("link").allTextContents(), path).toEqual([
        ...NAV_LINKS.map((l) => l.label),
        "Get Started",
      ]);
      expect(await page.locator("h1").count(), path).toBe(1);
      const footer = page.getByRole("contentinfo");
      await expect.poll(() => footer.getByRole("link", { name: "Login" }).getAttribute("href")).toBe("/auth");
    }
  });

  it("highlights the current page in the header and links the logo home", async () => {
    const page = await browser.newPage({ javaScriptEnabled });
    await page.goto("/services");
    const nav = page.getByRole("navigation", { name: "Main" });
    expect(await nav.getByRole("link", { name: "Services" }).getAttribute("aria-current")).toBe("page");
    expect(await nav.getByRole("link", { name: "Home" }).getAttribute("aria-current")).toBeNull();
    expect(await nav.getByRole("link", { name: "Get Started" }).getAttribute("href")).toBe("/24-hour-website");
    await page.getByRole("link", { name: "24-Hour Website home" }).click();
    await page.waitForURL(`${APP_URL}/`);
    await expect.poll(() => nav.getByRole("link", { name: "Home" }).getAttribute("aria-current")).toBe("page");
  });

  it("has a footer with legal links, social links in a new tab, contact details and this year", async () => {
    const page = await browser.newPage({ javaScriptEnabled });
    await page.goto("/");
    const footer = page.getByRole("contentinfo");
    for (const [name, href] of [
      ["Privacy Policy", "/privacy"],
      ["Terms of Service", "/terms"],
      ["Facebook Disclaimer", "/facebook-disclaimer"],
    ]) {
      expect(await footer.getByRole("link", { name }).getAttribute("href")).toBe(href);
    }
    for (const name of [/Facebook \(opens in a new tab\)/, /YouTube \(opens in a new tab\)/]) {
      const link = footer.getByRole("link", { name });
      expect(await link.getAttribute("target")).toBe("_blank");
      expect(await link.getAttribute("rel")).toBe("noopener noreferrer");
    }
    expect(await footer.getByRole("link", { name: /^0400/ }).getAttribute("href")).toMatch(/^tel:/);
    expect(await footer.textContent()).toContain(`© ${new Date().getFullYear()}`);
  });

  it("opens and closes the small-screen menu", async () => {
    const page = await browser.newPage({ javaScriptEnabled, width: 390 });
    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Main" });
    expect(await nav.isVisible()).toBe(false);
    const logo = page.getByRole("link", { name: /home$/ }).first();
    const button = page.getByText("Menu", { exact: true });
    const closed = [(await boxOf(logo)).y, (await boxOf(button)).y];
    await button.click();
    expect(await nav.isVisible()).toBe(true);
    // The header's first row stays where it was: nothing jumps when the menu opens below it.
    expect([(await boxOf(logo)).y, (await boxOf(button)).y]).toEqual(closed);
    await screenshot(page, `shell-mobile-menu-${javaScriptEnabled ? "js" : "nojs"}`);
    await page.getByText("Menu", { exact: true }).click();
    expect(await nav.isVisible()).toBe(false);

    await page.getByText("Menu", { exact: true }).click();
    await nav.getByRole("link", { name: "About" }).click();
    await page.waitForURL(`${APP_URL}/about`);
    await expect.poll(() => nav.isVisible()).toBe(false);
  });

  it("shows the not-found page with a 404 for an unknown path", async () => {
    const page = await browser.newPage({ javaScriptEnabled });
    const response = await page.goto("/no-such-page");
    expect(response?.status()).toBe(404);
    await page.getByRole("heading", { name: "Oops! Page not found" }).waitFor();
    await page.getByRole("link", { name: "Return to Home" }).click();
    await page.waitForURL(`${APP_URL}/`);
  });

  it("shows a failure of ours on the styled error screen, with the way back, and logs it once", async () => {
    // The test app's log (scripts/test-lib.sh start_test_app): one line per failed request.
    const failures = () =>
      readFileSync("data/test/log/app.log", "utf8")
        .split("\n")
        .filter((line) => line.includes('"event":"request.failed"') && line.includes('"/dev/error"')).length;
    const before = failures();
    const page = await browser.newPage({ javaScriptEnabled });
    const response = await page.goto("/dev/error");
    expect(response?.status()).toBe(500);
    await page.getByRole("heading", { name: "Unexpected Application Error!" }).waitFor();
    // Dressed like every page: the site's header and footer, and the stylesheet applied to the way back.
    await page.getByRole("banner").waitFor();
    await page.getByRole("contentinfo").waitFor();
    const back = page.getByRole("link", { name: "Return to Home" });
    expect(await back.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe("rgba(0, 0, 0, 0)");
    expect(await page.getByRole("main").innerText()).not.toContain("at loader"); // never a stack on the screen
    await screenshot(page, `shell-error-screen-${javaScriptEnabled ? "js" : "nojs"}`);
    await expect.poll(failures).toBe(before + 1);
    await back.click();
    await page.waitForURL(`${APP_URL}/`);
    expect(failures()).toBe(before + 1);
  });

  it("carries a message across a redirect and shows it in the page", async () => {
    const page = await browser.newPage({ javaScriptEnabled });
    await page.goto("/intake-form");
    await page.waitForURL(`${APP_URL}/checkout`);
    const flash = page.getByRole("status").filter({ hasText: "Access Denied" });
    expect(await flash.textContent()).toContain("Please complete payment first to access the intake form.");
    await page.reload();
    expect(await flash.count()).toBe(0);
  });
});

describe("the shell and the server", () => {
  // axe runs inside the page, so it needs JavaScript; the HTML it checks is the same server render.
  it("passes axe with no serious violations on a page, the 404 page and the small-screen menu", async () => {
    const page = await browser.newPage({ javaScriptEnabled: true });
    await page.goto("/");
    await expectNoSeriousA11yViolations(page);
    await page.goto("/missing");
    await expectNoSeriousA11yViolations(page);
    const small = await browser.newPage({ javaScriptEnabled: true, width: 390 });
    await small.goto("/");
    await small.getByText("Menu", { exact: true }).click();
    await expectNoSeriousA11yViolations(small);
  });

  it("answers /healthz and refuses a cross-site form post", async () => {
    const health = await fetch(`${APP_URL}/healthz`);
    expect(await health.json()).toEqual({ ok: true, db: "up" });
    const forged = await fetch(`${APP_URL}/contact`, {
      method: "POST",
      headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
      body: new URLSearchParams({ name: "x" }),
    });
    expect(forged.status).toBe(403);
  });

  it("sends security headers with a fresh script nonce and no inline style permission", async () => {
    const [a, b] = await Promise.all([fetch(`${APP_URL}/contact`), fetch(`${APP_URL}/contact`)]);
    const csp = a.headers.get("content-security-policy")!;
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
    // The inline stylesheet is admitted by its hash, never by 'unsafe-inline'.
    expect(csp).toMatch(/style-src 'self' 'sha256-[A-Za-z0-9+/=]+'(;|$)/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toEqual(b.headers.get("content-security-policy"));
    expect(a.headers.get("x-content-type-options")).toBe("nosniff");
    expect(a.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(a.headers.get("x-powered-by")).toBeNull();
  });

  it("asks for a form page's scripts at low priority: the first screen needs none of them", async () => {
    for (const path of ["/contact", "/checkout"]) {
      const preloads =
        (await (await fetch(`${APP_URL}${path}`)).text()).match(/<link rel="modulepreload"[^>]*>/g) ?? [];
      expect(preloads.length, path).toBeGreaterThan(0);
      for (const link of preloads) expect(link, path).toContain('fetchpriority="low"');
    }
  });

  it("keeps a page with nothing interactive for everyone, and renders it fresh for a visitor with a cookie", async () => {
    const [a, b] = [await fetch(APP_URL), await fetch(APP_URL)];
    for (const res of [a, b]) {
      expect(res.headers.get("cache-control")).toBe("public, max-age=300, s-maxage=86400");
      expect(res.headers.get("vary")).toMatch(/Cookie/);
      // No script, so no nonce: every copy is the same page under the same policy.
      expect(res.headers.get("content-security-policy")).toMatch(/script-src 'self';/);
    }
    const [first, second] = [await a.text(), await b.text()];
    expect(second).toBe(first);
    expect(first).not.toMatch(/<script|nonce=/);

    const withCookie = await fetch(APP_URL, { headers: { Cookie: "anything=1" } });
    expect(withCookie.headers.get("cache-control") ?? "").not.toContain("public");
    expect(withCookie.headers.get("vary")).toMatch(/Cookie/);
    expect(await withCookie.text()).toContain("<h1");
  });
});
