import { describe, expect, it } from "vitest";
import { submittedAnswers } from "~/domain/intake/answers";
import type { StoredSubmission } from "~/domain/intake/data";
import { IntakeSubmission } from "~/server/models/index.server";
import { paidOrder, useAppDatabase } from "../support/app-data";
import { useAdminPages } from "../support/auth";
import { storedConsent } from "../support/consent";
import { horizontalOverflow, JS_MODES, screenshot, useBrowser } from "../support/browser";

/** The admin's Brief tab: every intake answer by step, in the customer's words, printable on A4. */
const browser = useBrowser();
useAppDatabase();

const adminPage = useAdminPages(browser);

/** A paid order whose intake was submitted, then changed (trading name, pages) and submitted again. */
async function resubmittedOrder(label: string) {
  const o = await paidOrder();
  const first: StoredSubmission = {
    status: "submitted",
    business_name: `Riverside Bakery ${label}`,
    contact_email: "hello@riverside.example",
    business_type: "hospitality",
    pricing_approach: "mixed",
    brand_colors: ["Forest green", "Cream"],
    competitor_urls: ["https://rival-bakery.example/", "javascript:alert(1)"],
    pages_needed: ["Home", "Contact"],
    privacy_consent: storedConsent({ timestamp: new Date().toISOString() }),
  };
  const second: StoredSubmission = {
    ...first,
    business_name: `Riverside Bakehouse ${label}`,
    pages_needed: ["Home", "About", "Contact"],
  };
  await IntakeSubmission.create({
    _id: o.orderId,
    order_id: o.orderId,
    furthest_step: 15,
    submitted_at: new Date(),
    ...(second as object),
    submitted_answers: submittedAnswers(second),
    previous_answers: submittedAnswers(first),
  });
  return o.orderId;
}

describe.each(JS_MODES)("the Brief tab, %s", (mode, javaScriptEnabled) => {
  it.each([390, 1280])(
    "shows the answers by step, marks changes and prints without the admin at %i px",
    async (width) => {
      const tag = `${javaScriptEnabled ? "js" : "nojs"}-${width}`;
      const orderId = await resubmittedOrder(tag);
      const page = await adminPage(javaScriptEnabled, width);
      await page.goto(`/admin/orders/${orderId}`);
      await page.getByRole("navigation", { name: "Order data" }).getByRole("link", { name: "Brief" }).click();
      await page.waitForURL(/\?tab=brief$/);
      const panel = page.getByRole("region", { name: "Brief", exact: true });

      // Grouped by the form's steps, in its words.
      const basics = panel.getByRole("region", { name: /^Step 1: Business Basics/ });
      expect(await basics.innerText()).toMatch(/Trading name Changed\s+Riverside Bakehouse/);
      expect(await basics.innerText()).toMatch(/Business type\s+Hospitality/);
      expect(await panel.getByRole("region", { name: /^Step 3: Services/ }).innerText()).toMatch(
        /How do you handle pricing\?\s+A mix of both/,
      );
      expect(await panel.getByRole("heading", { level: 3 }).count()).toBe(14);
      // A list as a list; a link as a link (http/https only); an empty answer marked.
      const branding = panel.getByRole("region", { name: /^Step 4: Branding/ });
      expect(await branding.getByRole("listitem").allInnerTexts()).toEqual(["Forest green", "Cream"]);
      const seo = panel.getByRole("region", { name: /^Step 5: SEO/ });
      const link = seo.getByRole("link", { name: "https://rival-bakery.example/" });
      expect(await link.getAttribute("rel")).toBe("noopener noreferrer");
      expect(await seo.getByRole("link").count()).toBe(1);
      expect(await seo.innerText()).toContain("javascript:alert(1)");
      expect(await basics.innerText()).toMatch(/Legal name \(if different\)\s+Not answered/);
      // The re-submission's changes: two answers, on steps 1 and 7.
      await panel.getByText(/submitted the form again: 2 answers changed/).waitFor();
      expect(await panel.getByRole("heading", { level: 3, name: /Changed$/ }).allInnerTexts()).toEqual([
        "Step 1: Business Basics Changed",
        "Step 7: Pages Changed",
      ]);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `admin-brief-${tag}`);

      // Printed from the tab itself: no site header, admin tabs, cards or buttons.
      await page.emulateMedia({ media: "print" });
      await page.setViewportSize({ width: 794, height: 1123 }); // A4 at 96 dpi
      for (const hidden of [
        page.getByRole("navigation", { name: "Admin sections" }),
        page.getByRole("navigation", { name: "Order data" }),
        page.getByRole("link", { name: "Print brief" }),
        page.getByRole("heading", { name: "Order Information" }),
        page.locator(".site-header"),
      ])
        expect(await hidden.isVisible(), hidden.toString()).toBe(false);
      expect(await basics.isVisible()).toBe(true);
      await screenshot(page, `admin-brief-print-${tag}`);
      await page.emulateMedia({ media: "screen" });
      await page.setViewportSize({ width, height: 900 });

      // "Print brief" opens the brief alone, which works without JavaScript.
      await panel.getByRole("link", { name: "Print brief" }).click();
      await page.waitForURL(/\?tab=brief&print=1$/);
      // The print view's own link (the tab's headings are on both pages: with JavaScript the URL may change first).
      await page.getByRole("link", { name: "Back to the order" }).waitFor();
      await page.getByRole("heading", { name: "Step 14: Final Details" }).waitFor();
      expect(await page.getByRole("navigation", { name: "Order data" }).count()).toBe(0);
      expect(await page.getByRole("heading", { name: "Order Information" }).count()).toBe(0);
      await page.emulateMedia({ media: "print" });
      expect(await page.getByRole("link", { name: "Back to the order" }).isVisible()).toBe(false);
      expect(await page.locator(".site-header").isVisible()).toBe(false);
      if (width === 1280)
        await page.pdf({
          path: `test-results/admin-brief-${mode === "JavaScript on" ? "js" : "nojs"}.pdf`,
          format: "A4",
        });
      await page.close();
    },
  );
});
