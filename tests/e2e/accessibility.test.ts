import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import mongoose from "mongoose";
import { connectDb } from "~/server/db.server";
import { IntakeSubmission, RateLimitHit } from "~/server/models/index.server";
import { PUBLIC_PAGES } from "../../scripts/page-list.mjs";
import { paidOrder, tokenCookie, useAppDatabase } from "../support/app-data";
import { signedInUser } from "../support/auth";
import { JS_MODES, screenshot, useBrowser } from "../support/browser";
import { uniqueAddress } from "../support/mailpit";

// WCAG 2.2 AA checks that axe cannot make: each one measures the rendered page (docs/limits.md, "Accessibility").
const browser = useBrowser();
const db = useAppDatabase();

/** Text-only zoom: the browser's default font size (what Chromium's "Font size" setting changes), not the page scale. */
async function textZoom(page: Page, factor: number) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Page.enable");
  await cdp.send("Page.setFontSizes", { fontSizes: { standard: 16 * factor, fixed: 13 * factor } });
}

/** How far the page is wider than its window, and the outermost elements that stick out (for the message). */
function overflow(page: Page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const extra = document.documentElement.scrollWidth - width;
    const culprits = [...document.body.querySelectorAll("*")]
      .filter((el) => el.getBoundingClientRect().right > width + 1)
      .filter((el) => !el.parentElement || el.parentElement.getBoundingClientRect().right <= width + 1)
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}: ${el.textContent?.slice(0, 40)}`);
    return { extra, culprits };
  });
}

/** The focused element's box against the window and the sticky header's bottom edge. */
function focusPlacement(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    const header = document.querySelector(".site-header")!.getBoundingClientRect();
    if (!el || el === document.body)
      return { name: "body", top: -1, bottom: -1, headerBottom: header.bottom, height: 0 };
    const box = el.getBoundingClientRect();
    const name = `${el.tagName.toLowerCase()}#${el.id} ${el.getAttribute("name") ?? ""} ${el.textContent?.slice(0, 40)}`;
    return { name, top: box.top, bottom: box.bottom, headerBottom: header.bottom, height: window.innerHeight };
  });
}

async function expectFocusInView(page: Page, what: string) {
  // Conform moves focus after its own validation; wait for the page to settle.
  await page.waitForTimeout(150);
  const at = await focusPlacement(page);
  expect(at.name, `${what}: something has focus`).not.toBe("body");
  expect(at.top, `${what}: ${at.name} is below the header`).toBeGreaterThanOrEqual(at.headerBottom - 1);
  expect(at.bottom, `${what}: ${at.name} is inside the window`).toBeLessThanOrEqual(at.height + 1);
}

describe("reflow and text size (1.4.10, 1.4.4)", () => {
  it("has no horizontal scroll at 320 px (text at 100% and 200%) nor at 1280 px with text at 200%, on every measured page", async () => {
    // The customer's pages of the page-weight list: every intake step, the order-status link, the dashboard
    // of someone with a long e-mail address, and the admin list.
    const long = `${"a-very-long-local-part-that-goes-on".repeat(2)}-${Date.now()}@an-equally-long-domain-name.example.test`;
    const { cookie: customer } = await signedInUser({ email: long });
    const { cookie: admin } = await signedInUser({ admin: true });
    const { orderId, token, statusToken } = await paidOrder(uniqueAddress("reflow"));
    await db.coupon({ code: `REFLOW${Date.now()}`, discount_type: "fixed", discount_value: 100 }); // a coupon row in admin lists
    await IntakeSubmission.create({ order_id: orderId, furthest_step: 14, business_name: "Reflow Plumbing" });
    const intake = await tokenCookie(token);
    const status = await tokenCookie(statusToken, "status");
    const pages: [string, string][] = [
      ...PUBLIC_PAGES.map((p): [string, string] => [p, ""]),
      ...Array.from({ length: 14 }, (_, i): [string, string] => [`/intake-form/${i + 1}`, intake]),
      ["/order-status", status],
      ["/dashboard", customer],
      ["/admin", admin],
      [`/admin/orders/${orderId}`, admin],
      ["/admin/coupons", admin],
    ];
    const failures: string[] = [];
    for (const [width, zoom] of [
      [320, 1],
      [320, 2],
      [1280, 2],
    ]) {
      // One browser per signed-in person (the cookie), reused across their pages.
      const byCookie = new Map<string, Page>();
      for (const [path, cookie] of pages) {
        let page = byCookie.get(cookie);
        if (!page) {
          page = await browser.newPage({ javaScriptEnabled: false, width, cookie: cookie || undefined });
          if (zoom !== 1) await textZoom(page, zoom);
          byCookie.set(cookie, page);
        }
        await page.goto(path);
        const fontSize = await page.evaluate(() => getComputedStyle(document.documentElement).fontSize);
        expect(fontSize, "the text zoom holds").toBe(`${16 * zoom}px`);
        const { extra, culprits } = await overflow(page);
        if (extra > 0)
          failures.push(`${path} at ${width} px, text ${zoom * 100}%: ${extra} px too wide: ${culprits.join(" | ")}`);
        // A header that stays pinned must be short: within the room the page scrolls a focused control below
        // (html's scroll-padding-top), and at most a quarter of the window.
        const header = await page.evaluate(() => {
          const el = document.querySelector(".site-header")!;
          return {
            pinned: getComputedStyle(el).position === "sticky",
            height: el.getBoundingClientRect().height,
            room: parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop),
            window: window.innerHeight,
          };
        });
        if (header.pinned && (header.height > header.room || header.height > header.window / 4))
          failures.push(
            `${path} at ${width} px, text ${zoom * 100}%: a pinned header ${header.height} px tall (room ${header.room} px)`,
          );
        if (["/dashboard", "/intake-form/1", "/admin", "/", "/checkout"].includes(path))
          // (A full-page shot resizes the window, which drops the font setting: the first screen is enough.)
          await page.screenshot({
            path: `test-results/a11y-reflow${path.replaceAll("/", "-")}-${width}-${zoom * 100}.png`,
          });
      }
      for (const page of byCookie.values()) await page.context().close();
    }
    expect(failures).toEqual([]);
  }, 420_000);
});

describe("non-text contrast (1.4.11)", () => {
  it("draws the focus ring and the field borders at 3:1 or more against what is behind them", async () => {
    const page = await browser.newPage({ javaScriptEnabled: true });
    const failures: string[] = [];
    for (const path of ["/contact", "/checkout", "/auth?tab=signup", "/"]) {
      await page.goto(path);
      failures.push(
        ...(await page.evaluate(() => {
          const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
          const lum = (c: string) => {
            const [r, g, b] = rgb(c)
              .slice(0, 3)
              .map((v) => v / 255)
              .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
            return 0.2126 * r + 0.7152 * g + 0.0722 * b;
          };
          const ratio = (a: string, b: string) => {
            const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
            return (x + 0.05) / (y + 0.05);
          };
          // The colour behind an element: the nearest ancestor's opaque background.
          const behind = (el: Element | null): string => {
            for (let e = el; e; e = e.parentElement) {
              const bg = getComputedStyle(e).backgroundColor;
              const alpha = rgb(bg)[3];
              if (bg !== "transparent" && alpha !== 0) return bg;
            }
            return getComputedStyle(document.documentElement).backgroundColor;
          };
          const out: string[] = [];
          const where = (el: Element) =>
            `${location.pathname} ${el.tagName.toLowerCase()} ${el.textContent?.slice(0, 30) ?? ""}`;
          for (const el of document.querySelectorAll<HTMLElement>(
            "a[href], button, input, select, textarea, summary",
          )) {
            if (el.offsetParent === null || el.tabIndex < 0) continue;
            el.focus({ focusVisible: true } as FocusOptions);
            if (document.activeElement !== el) continue;
            const style = getComputedStyle(el);
            // An outline drawn outside the element (offset > 0) sits on the parent's background.
            const against = behind(el.parentElement);
            if (style.outlineStyle === "none" || parseFloat(style.outlineWidth) < 2)
              out.push(`${where(el)}: no focus ring`);
            else if (ratio(style.outlineColor, against) < 3)
              out.push(
                `${where(el)}: ring ${style.outlineColor} on ${against} is ${ratio(style.outlineColor, against).toFixed(2)}:1`,
              );
            el.blur();
            if (el.matches("input:not([type=checkbox]):not([type=radio]):not([type=hidden]), select, textarea")) {
              const border = getComputedStyle(el).borderTopColor;
              for (const bg of [against, getComputedStyle(el).backgroundColor])
                if (ratio(border, bg) < 3)
                  out.push(`${where(el)}: border ${border} on ${bg} is ${ratio(border, bg).toFixed(2)}:1`);
            }
          }
          return out;
        })),
      );
    }
    expect(failures).toEqual([]);
  });
});

describe("messages that stay and are announced (2.2.1, 4.1.3)", () => {
  it("keeps a toast for as long as the person stays, in a live region that was there before it", async () => {
    // A real message from 127.0.0.1: start under the per-address limit (other suites send some too).
    await connectDb();
    await RateLimitHit.deleteMany({ key: mongoose.trusted({ $regex: "^contact:" }) });
    const page = await browser.newPage({ javaScriptEnabled: true });
    await page.goto("/contact", { waitUntil: "networkidle" });
    // The toasts' live region is in the page, empty, before any message arrives.
    const region = page.locator(".flashes[role=status]");
    expect(await region.count()).toBe(1);
    expect(await region.textContent()).toBe("");
    await region.evaluate((el) => el.setAttribute("data-was-here", "yes"));
    await page.getByLabel("Name").fill("Alex Reader");
    await page.getByLabel("Email").fill(uniqueAddress("toast"));
    await page.getByLabel(/^Message/).fill("Please keep this message on the screen.");
    await page.getByRole("button", { name: "Send Message" }).click();
    await region.getByText("Message sent!").waitFor();
    expect(await region.getAttribute("data-was-here")).toBe("yes");
    await page.waitForTimeout(10_500);
    expect(await region.getByText("Message sent!").isVisible()).toBe(true);
    // Dismissed by the person, or gone once they move on.
    await region.getByRole("button", { name: "Dismiss" }).click();
    await expect.poll(() => region.textContent()).toBe("");
    await RateLimitHit.deleteMany({ key: mongoose.trusted({ $regex: "^contact:" }) }); // leave the limit as found
  });

  it("announces the admin list's changed result set from a live region that was there at page load", async () => {
    const email = uniqueAddress("announce");
    await paidOrder(email);
    const { cookie } = await signedInUser({ admin: true });
    const page = await browser.newPage({ javaScriptEnabled: true, cookie });
    await page.goto("/admin", { waitUntil: "networkidle" });
    // The result's region: one polite live region in the list, its count said as the Select all box says it.
    const region = page.getByRole("status").filter({ hasText: /orders?( match| matches|$)/ });
    expect(await region.count()).toBe(1);
    await region.evaluate((el) => el.setAttribute("data-was-here", "yes"));
    const selectAll = (await page.locator("label", { hasText: "Select all" }).textContent()) ?? "";
    const count = /\((\d+) orders?\)/.exec(selectAll)?.[1];
    expect(count, `Select all says how many: ${selectAll}`).toBeTruthy();
    expect(await region.textContent()).toBe(count === "1" ? "1 order" : `${count} orders`);

    // A filter applied in place: the same region says the new result.
    await page.getByLabel("Search").fill(email);
    await page.getByRole("button", { name: "Apply Filters" }).click();
    await expect.poll(() => region.textContent(), { timeout: 10_000 }).toBe("1 order matches your filters");
    expect(await page.locator("label", { hasText: "Select all" }).textContent()).toContain("(1 order)");
    await page.getByLabel("Search").fill(`nobody-${Date.now()}@example.test`);
    await page.getByRole("button", { name: "Apply Filters" }).click();
    const none = page.getByRole("status").filter({ hasText: "No orders match your filters" });
    await none.waitFor();
    expect(await none.getAttribute("data-was-here"), "the region is the one from page load").toBe("yes");
  });

  it("has the autosave's and the checkout's live regions in the page before their text", async () => {
    const page = await browser.newPage({ javaScriptEnabled: false });
    // Without JavaScript the HTML is what the browser first gets: the regions are there, empty.
    await page.goto("/checkout");
    expect(await page.locator("form [role=status]").count()).toBeGreaterThan(0);
    expect((await page.locator("form [role=status]").first().textContent())?.trim()).toBe("");
    expect(await page.locator(".flashes[role=status]").count()).toBe(1);
    const { orderId, token } = await paidOrder(uniqueAddress("regions"));
    await IntakeSubmission.create({ order_id: orderId, furthest_step: 14 });
    const intake = await browser.newPage({ javaScriptEnabled: false, cookie: await tokenCookie(token) });
    await intake.goto("/intake-form/1");
    expect(await intake.locator(".intake-header [role=status]").count()).toBe(1);
  });
});

describe.each(JS_MODES)("focus after a refused post with %s (2.4.11, 2.4.3)", (_mode, javaScriptEnabled) => {
  for (const width of [320, 1280]) {
    it(`lands on what to fix, in view and below the header, at ${width} px`, async () => {
      const page = await browser.newPage({ javaScriptEnabled, width });
      await page.goto("/contact");
      await page.getByRole("button", { name: "Send Message" }).click();
      await page.getByRole("alert").waitFor();
      await expectFocusInView(page, "/contact");

      await page.goto("/checkout");
      await page.getByRole("button", { name: "Proceed to Payment" }).click();
      await page.getByRole("alert").waitFor();
      await expectFocusInView(page, "/checkout");
      await screenshot(page, `a11y-refused-checkout-${width}-${javaScriptEnabled ? "js" : "nojs"}`);
    });
  }
});

/**
 * What a screen reader user hears of the page's forms, checked from the markup: each hint in a field is
 * named by its control's aria-describedby; each control marked aria-invalid names its own non-empty
 * message; and when more than one field failed, the form's alert links to every one of them.
 */
function formProblems(page: Page) {
  return page.evaluate(() => {
    const out: string[] = [];
    const controlsOf = (field: Element) =>
      [...field.querySelectorAll("input:not([type=hidden]), select, textarea")].filter(
        (c) => c.closest(".field") === field,
      );
    const describedBy = (el: Element) => (el.getAttribute("aria-describedby") ?? "").split(/\s+/).filter(Boolean);
    for (const field of document.querySelectorAll("main .field")) {
      const controls = controlsOf(field);
      if (controls.length !== 1) continue;
      const control = controls[0]!;
      for (const hint of field.querySelectorAll(".hint")) {
        if (hint.closest(".field") !== field || !hint.textContent?.trim()) continue;
        if (!hint.id || !describedBy(control).includes(hint.id))
          out.push(`${location.pathname} ${control.id}: hint "${hint.textContent.trim()}" not tied to its field`);
      }
    }
    const invalid = [...document.querySelectorAll("main [aria-invalid=true]")];
    for (const control of invalid) {
      const messages = describedBy(control).map((id) => document.getElementById(id)?.textContent?.trim() ?? "");
      if (!messages.some((m) => m.length > 0 && !m.startsWith("http")))
        out.push(`${location.pathname} ${control.id}: marked invalid without its own message`);
    }
    for (const form of document.querySelectorAll("main form")) {
      const failed = [...form.querySelectorAll("[aria-invalid=true]")].map((c) => c.id);
      const alert = form.querySelector(".form-alert");
      if (failed.length === 0) continue;
      if (!alert) {
        out.push(`${location.pathname}: ${failed.join(", ")} failed, and the form has no alert`);
        continue;
      }
      if (failed.length < 2) continue;
      const linked = [...alert.querySelectorAll("a[href^='#']")].map((a) => a.getAttribute("href")!.slice(1));
      for (const id of failed)
        if (!linked.includes(id)) out.push(`${location.pathname}: the alert does not name the failed field ${id}`);
    }
    return out;
  });
}

describe.each(JS_MODES)("errors and hints tied to their fields with %s (3.3.1, 1.3.1)", (_mode, javaScriptEnabled) => {
  it("names each failed field in the alert and beside the field, and ties every hint", async () => {
    const { cookie } = await signedInUser({ admin: true });
    const failures: string[] = [];
    for (const [path, button, signedIn] of [
      ["/contact", "Send Message", false],
      ["/checkout", "Proceed to Payment", false],
      ["/auth", "Sign In", false],
      ["/auth?tab=signup", "Create Account", false],
      ["/auth/forgot-password", "Send Reset Link", false],
      ["/admin/coupons", "Create Coupon", true],
    ] as const) {
      const page = await browser.newPage({ javaScriptEnabled, cookie: signedIn ? cookie : undefined });
      await page.goto(path, { waitUntil: "networkidle" });
      failures.push(...(await formProblems(page)));
      await page.getByRole("button", { name: button, exact: true }).click();
      await page.locator("main .form-alert").first().waitFor();
      const invalid = await page.locator("main [aria-invalid=true]").count();
      if (invalid === 0) failures.push(`${path}: nothing marked invalid after an empty post`);
      failures.push(...(await formProblems(page)));
      if (path === "/admin/coupons") await screenshot(page, `a11y-errors-coupon-${javaScriptEnabled ? "js" : "nojs"}`);
      await page.context().close();
    }
    expect(failures).toEqual([]);
  });
});

describe.each(JS_MODES)("the intake's errors and hints with %s (3.3.1, 1.3.1, 2.4.3)", (mode, javaScriptEnabled) => {
  it("names each failed field in the alert and beside it, ties every hint, and names a refused logo on its box", async () => {
    const { orderId, token } = await paidOrder(uniqueAddress("a11y-intake"));
    await IntakeSubmission.create({ order_id: orderId, furthest_step: 4, business_name: "Hint Plumbing" });
    const page = await browser.newPage({ javaScriptEnabled, cookie: await tokenCookie(token) });
    const failures: string[] = [];
    await page.goto("/intake-form/1", { waitUntil: "networkidle" });
    failures.push(...(await formProblems(page)));
    await page.getByRole("button", { name: "Next Step" }).click();
    await page.locator("main .form-alert").first().waitFor();
    expect(await page.locator("main [aria-invalid=true]").count()).toBeGreaterThan(1);
    failures.push(...(await formProblems(page)));
    await screenshot(page, `a11y-intake-refused-step1-${javaScriptEnabled ? "js" : "nojs"}`);

    await page.goto("/intake-form/4", { waitUntil: "networkidle" });
    failures.push(...(await formProblems(page)));
    const logo = page.getByLabel("Upload your logo");
    await logo.setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: Buffer.from("not an image at all") });
    const why = "logo.png is not a PNG, JPG or SVG image.";
    if (!javaScriptEnabled) await page.getByRole("button", { name: "Next Step" }).click();
    // Named on its own box (with JavaScript, the upload's line beside it, which takes focus).
    await expect.poll(() => logo.getAttribute("aria-invalid")).toBe("true");
    const described = await logo.evaluate((el) =>
      (el.getAttribute("aria-describedby") ?? "")
        .split(" ")
        .map((id) => document.getElementById(id)?.textContent ?? "")
        .join(" "),
    );
    expect(described).toContain(why);
    if (javaScriptEnabled)
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent ?? "")).toContain(why);
    else expect(await page.locator("main .form-alert").textContent()).toContain(why);
    await expectFocusInView(page, `refused logo (${mode})`);
    failures.push(...(await formProblems(page)));
    await screenshot(page, `a11y-intake-refused-logo-${javaScriptEnabled ? "js" : "nojs"}`);
    expect(failures).toEqual([]);
  });
});

describe("keyboard focus never hidden under the sticky header (2.4.11)", () => {
  it("keeps each control in view when Shift+Tab scrolls back up a long page", async () => {
    const { cookie } = await signedInUser({ admin: true });
    for (const [path, width] of [
      ["/checkout", 320],
      ["/contact", 1280],
      ["/24-hour-website", 390],
      ["/admin", 1280],
    ] as const) {
      const page = await browser.newPage({ javaScriptEnabled: true, width, cookie });
      await page.goto(path);
      // From the footer's last link back up through the page.
      await page.locator("footer a").last().focus();
      for (let i = 0; i < 25; i++) {
        await page.keyboard.press("Shift+Tab");
        const at = await focusPlacement(page);
        const inHeader = await page.evaluate(() => document.activeElement?.closest(".site-header") !== null);
        if (inHeader || at.name === "body") break;
        expect(at.top, `${path} at ${width} px: ${at.name}`).toBeGreaterThanOrEqual(at.headerBottom - 1);
      }
      await page.context().close();
    }
  });
});

describe("names and titles (2.4.2, 1.1.1, 4.1.2)", () => {
  it("titles each page for what it shows and reads no decorative symbol as part of a name", async () => {
    const page = await browser.newPage({ javaScriptEnabled: true });
    for (const [path, title] of [
      ["/auth", "Sign In | 24-Hour Website"],
      ["/auth?tab=signup", "Sign Up | 24-Hour Website"],
      ["/showcase/no-such-business", "Example Small Business Website (Demo) | 24-Hour Website"],
    ]) {
      await page.goto(path);
      expect(await page.title(), path).toBe(title);
    }
    const symbols = /[✓✔✕✗×←→★☆•›»▸▾○●]/;
    const failures: string[] = [];
    for (const path of [...PUBLIC_PAGES.filter((p) => !p.startsWith("/admin")), "/showcase/no-such-business"]) {
      await page.goto(path);
      // The accessibility tree as a screen reader gets it: role "name" per line.
      const tree = await page.locator("body").ariaSnapshot();
      for (const line of tree.split("\n"))
        if (
          /^\s*- (link|button|heading|checkbox|radio|textbox|combobox|listitem|img|group|tab)\b/.test(line) &&
          symbols.test(line.split(":")[0])
        )
          failures.push(`${path}: ${line.trim()}`);
    }
    expect(failures).toEqual([]);
  });
});

describe("the small-screen menu's state (4.1.2)", () => {
  it.each(JS_MODES)("is a button that says whether it is expanded, with %s", async (_mode, javaScriptEnabled) => {
    const page = await browser.newPage({ javaScriptEnabled, width: 390 });
    await page.goto("/");
    // What a screen reader gets: Chromium's own accessibility tree (not a guess from the markup).
    const menuNode = async () => {
      const cdp = await page.context().newCDPSession(page);
      const { nodes } = (await cdp.send("Accessibility.getFullAXTree")) as {
        nodes: {
          name?: { value: string };
          role?: { value: string };
          properties?: { name: string; value: { value: unknown } }[];
        }[];
      };
      const node = nodes.find((n) => n.name?.value === "Menu");
      const expanded = node?.properties?.find((p) => p.name === "expanded")?.value.value;
      return { role: node?.role?.value, expanded };
    };
    expect(await menuNode()).toEqual({ role: "DisclosureTriangle", expanded: false });
    await page.getByText("Menu", { exact: true }).click();
    expect(await menuNode()).toEqual({ role: "DisclosureTriangle", expanded: true });
    await page.getByText("Menu", { exact: true }).click();
    expect(await menuNode()).toEqual({ role: "DisclosureTriangle", expanded: false });
  });
});

describe("focus after a round trip with JavaScript on (2.4.3)", () => {
  const focused = (page: Page) =>
    page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return { tag: el?.tagName ?? "", text: el?.textContent?.trim() ?? "", scrollY: window.scrollY };
    });

  it("moves to the new page's heading after a client-side navigation", async () => {
    const page = await browser.newPage({ javaScriptEnabled: true });
    // From a page that runs scripts (pages with nothing interactive ship none, and load the next page whole).
    await page.goto("/contact", { waitUntil: "networkidle" });
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "About" }).click();
    await page.waitForURL(/\/about$/);
    await expect.poll(async () => (await focused(page)).tag).toBe("H1");
    expect((await focused(page)).text).toBe(await page.locator("h1").textContent());
  });

  it("stays on Add service, in view, after the list editor's post (the form re-renders)", async () => {
    const { orderId, token } = await paidOrder(uniqueAddress("focus"));
    await IntakeSubmission.create({ order_id: orderId, furthest_step: 14, business_name: "Focus Plumbing" });
    const page = await browser.newPage({ javaScriptEnabled: true, width: 390, cookie: await tokenCookie(token) });
    await page.goto("/intake-form/3", { waitUntil: "networkidle" });
    await page.getByLabel("Service name").fill("Blocked drains");
    await page.getByRole("button", { name: "Add service" }).click();
    // The saved row (the new row is "Service 1" before the post too): its Remove comes with the answer.
    await page.getByRole("button", { name: /^Remove service 1/ }).waitFor();
    await expect.poll(async () => (await focused(page)).text).toBe("Add service");
    await expectFocusInView(page, "Add service");
    await screenshot(page, "a11y-focus-add-service-390");
  });

  it("comes back to the keyword box after Enter there (step 5), in view, for the next keyword", async () => {
    const { orderId, token } = await paidOrder(uniqueAddress("focus-keyword"));
    await IntakeSubmission.create({ order_id: orderId, furthest_step: 5, business_name: "Focus Plumbing" });
    for (const width of [390, 1280]) {
      const page = await browser.newPage({ javaScriptEnabled: true, width, cookie: await tokenCookie(token) });
      await page.goto("/intake-form/5", { waitUntil: "networkidle" });
      const before = await page.getByRole("button", { name: /^Remove keyword/ }).count();
      await page.getByLabel("Add a keyword").fill(`plumber ${width}`);
      await page.getByLabel("Add a keyword").press("Enter");
      await page.getByLabel(`Keyword ${before + 1}`, { exact: true }).waitFor();
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("f-targetKeywords-new");
      await expectFocusInView(page, "the keyword box after Enter");
      await page.keyboard.type("hot water");
      await page.keyboard.press("Enter");
      await page.getByLabel(`Keyword ${before + 2}`, { exact: true }).waitFor();
      expect(await page.getByLabel(`Keyword ${before + 2}`, { exact: true }).inputValue()).toBe("hot water");
      await screenshot(page, `a11y-focus-keyword-${width}`);
      await page.context().close();
    }
  });

  it("without JavaScript too: the page after Enter in the keyword box (step 5) starts in that box, after Add service (step 3) on it, in view", async () => {
    const { orderId, token } = await paidOrder(uniqueAddress("focus-keyword-nojs"));
    await IntakeSubmission.create({ order_id: orderId, furthest_step: 5, business_name: "Focus Plumbing" });
    for (const width of [390, 1280]) {
      const page = await browser.newPage({ javaScriptEnabled: false, width, cookie: await tokenCookie(token) });
      await page.goto("/intake-form/5");
      const before = await page.getByRole("button", { name: /^Remove keyword/ }).count();
      await page.getByLabel("Add a keyword").fill(`plumber ${width}`);
      await page.getByLabel("Add a keyword").press("Enter");
      await page.getByLabel(`Keyword ${before + 1}`, { exact: true }).waitFor();
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("f-targetKeywords-new");
      await expectFocusInView(page, "the keyword box after Enter without JavaScript");
      await screenshot(page, `a11y-focus-keyword-nojs-${width}`);
      await page.keyboard.type("hot water");
      await page.keyboard.press("Enter");
      await page.getByLabel(`Keyword ${before + 2}`, { exact: true }).waitFor();
      expect(await page.getByLabel(`Keyword ${before + 2}`, { exact: true }).inputValue()).toBe("hot water");
      // Step 3's rows: the page after Add service starts on Add service (as with JavaScript).
      await page.goto("/intake-form/3");
      const services = await page.getByRole("group", { name: /^Service \d+$/ }).count();
      await page.getByRole("group", { name: "Add a service" }).getByLabel("Service name").fill(`Drains ${width}`);
      await page.getByRole("button", { name: "Add service" }).click();
      await page.getByRole("group", { name: `Service ${services + 1}`, exact: true }).waitFor();
      expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe("Add service");
      await expectFocusInView(page, "Add service without JavaScript");
      // A page opened afresh starts at the top as usual.
      await page.goto("/intake-form/5");
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("BODY");
      await page.context().close();
    }
  });

  it("stays on the admin's revision toggle, where the page was, after the toggle's post", async () => {
    const { orderId } = await paidOrder(uniqueAddress("toggle"));
    const { cookie } = await signedInUser({ admin: true });
    for (const width of [390, 1280]) {
      const page = await browser.newPage({ javaScriptEnabled: true, width, cookie });
      await page.goto(`/admin/orders/${orderId}`, { waitUntil: "networkidle" });
      const toggle = page.locator("#revision-toggle-1");
      const pressed = await toggle.getAttribute("aria-pressed");
      // Scrolled down to it, as a person would: the toggle at the bottom of the window.
      await toggle.evaluate((el) => el.scrollIntoView({ block: "end" }));
      await toggle.focus();
      const before = await focused(page);
      // (At 1280 px the toggle is in the first screen: that run checks focus only.)
      if (width < 1000) expect(before.scrollY, "the toggle is further down the page").toBeGreaterThan(0);
      await page.keyboard.press("Enter");
      await expect.poll(() => toggle.getAttribute("aria-pressed"), { timeout: 10_000 }).not.toBe(pressed);
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("revision-toggle-1");
      const after = await focused(page);
      expect(Math.abs(after.scrollY - before.scrollY), "no jump to the top").toBeLessThan(200);
      await expectFocusInView(page, "the revision toggle");
      await page.context().close();
    }
  });
});
