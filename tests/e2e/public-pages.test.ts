import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { FAQ } from "~/content/marketing";
import { SITE_PAGES } from "../../scripts/page-list.mjs";
import {
  APP_URL,
  expectNoSeriousA11yViolations,
  horizontalOverflow,
  JS_MODES,
  screenshot,
  useBrowser,
} from "../support/browser";

const browser = useBrowser();

const href = (page: Page, name: string | RegExp) =>
  page
    .getByRole("main")
    .getByRole("link", { name, exact: typeof name === "string" })
    .first()
    .getAttribute("href");
const heading = (page: Page, name: string) =>
  page.getByRole("heading", { name, exact: true }).first().waitFor({ timeout: 15_000 });

describe.each(JS_MODES)("public pages with %s", (_mode, javaScriptEnabled) => {
  it("home: hero, benefits, services, three 5-star testimonials and every call to action", async () => {
    const page = await browser.newPage({ javaScriptEnabled });
    await page.goto("/");
    // "24 Hours" never breaks between the number and its word.
    expect(await page.locator("h1").textContent()).toContain("24\u00a0Hours");
    expect(await page.getByRole("main").textContent()).toContain("Limited daily spots available");
    expect(await href(page, "Get Started Today")).toBe("/checkout");
    expect(await href(page, "See All Services")).toBe("/services");
    expect(await href(page, "Get My Website Started")).toBe("/checkout");
    expect(await href(page, "Talk to Us First")).toBe("/contact");
    expect(await href(page, "See All Services & Pricing")).toBe("/services");
    expect(await href(page, /24-Hour Website/)).toBe("/24-hour-website");
    expect(await href(page, /Review Generation/)).toBe("/review-generation");
    expect(await page.getByLabel("Rated 5 out of 5").count()).toBe(3);
    // The business's own work: the three example sites' sketches, each leading to its demo (no script, no image file).
    const work = page.getByRole("region", { name: "Our Work" });
    expect(await work.getByRole("img", { name: /^Sketch of the .* home page$/ }).count()).toBe(3);
    expect(await work.getByRole("link", { name: "View the Bright Spark Electrical demo" }).getAttribute("href")).toBe(
      "/showcase/electrician",
    );
    // One honest set: the testimonials say they are examples, and each names one of the portfolio's example businesses.
    const testimonials = page.getByRole("region", { name: "Example Testimonials" });
    expect(await testimonials.textContent()).toContain("These are examples");
    const businesses = await testimonials
      .getByRole("link")
      .evaluateAll((links) => links.map((a) => a.getAttribute("href")));
    expect(businesses.sort()).toEqual(["/showcase/accountant", "/showcase/dog-groomer", "/showcase/electrician"]);
    expect(await testimonials.getByText("(an example business)").count()).toBe(3);
    await heading(page, "We're a Small Business Too");
    for (const title of ["Fast Results", "Honest Pricing", "Built to Win Customers", "Everything Handled"])
      await heading(page, title);
  });

  for (const width of [390, 1280])
    it(`home fits ${width} px, its heading keeps "24 Hours" on one line and it ships no script`, async () => {
      const page = await browser.newPage({ javaScriptEnabled, width });
      const scripts: string[] = [];
      page.on("request", (r) => (r.resourceType() === "script" ? scripts.push(r.url()) : undefined));
      await page.goto("/");
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      // The two words' boxes sit on one line: the same top.
      const tops = await page.locator("h1").evaluate((h1) => {
        const text = h1.firstChild as Text;
        const at = (word: string) => {
          const start = text.data.indexOf(word);
          const range = document.createRange();
          range.setStart(text, start);
          range.setEnd(text, start + word.length);
          return Math.round(range.getBoundingClientRect().top);
        };
        return [at("24"), at("Hours")];
      });
      expect(tops[0]).toBe(tops[1]);
      expect(scripts).toEqual([]);
      await screenshot(page, `home-${javaScriptEnabled ? "js" : "nojs"}-${width}`);
    });

  it("services: the four cards with their buttons and the closing block", async () => {
    const page = await browser.newPage({ javaScriptEnabled });
    await page.goto("/services");
    await heading(page, "Choose What Works for Your Business");
    expect(await href(page, "Get Your 24-Hour Website")).toBe("/24-hour-website");
    expect(await href(page, "Get a Quote")).toBe("/contact");
    expect(await href(page, "Talk About Your Store")).toBe("/contact");
    expect(await href(page, "Start Getting Reviews")).toBe("/review-generation");
    await heading(page, "Not Sure Which Option Is Right for You?");
    expect(await href(page, "Talk to Us")).toBe("/contact");
  });

  it("about: story, promise, the three values and a way to get started", async () => {
    const page = await browser.newPage({ javaScriptEnabled });
    await page.goto("/about");
    for (const title of ["Our Promise", "No BS", "We Get It", "Built to Win Customers", "Ready to Get Started?"])
      await heading(page, title);
    expect(await href(page, "Contact Us")).toBe("/contact");
  });

  for (const path of ["/24-hour-website", "/rapid-website"]) {
    it(`${path}: guarantee, four steps, the 7-question FAQ (readable without JavaScript) and calls to checkout`, async () => {
      const page = await browser.newPage({ javaScriptEnabled });
      await page.goto(path);
      expect(await page.locator(".banner").textContent()).toContain("or a full refund");
      for (const step of ["Submit Your Details", "We Build", "Review & Refine", "Launch"]) await heading(page, step);
      expect(await page.locator("#how-it-works").count()).toBe(1);
      expect(await href(page, "How It Works")).toBe("#how-it-works");
      expect(await page.locator(".faq details").count()).toBe(7);
      await page.getByText(FAQ[2].question).click();
      expect(await page.getByText(FAQ[2].answer).isVisible()).toBe(true);
      expect(await href(page, "Get My 24-Hour Website")).toBe("/checkout");
      expect(await href(page, "Get Started Now")).toBe("/checkout");
      expect(await page.getByRole("main").textContent()).toContain("First month of hosting included");
    });
  }

  it("review generation: benefits, how it works, features and the free demo", async () => {
    const page = await browser.newPage({ javaScriptEnabled });
    await page.goto("/review-generation");
    expect(await page.locator("#how-it-works").count()).toBe(1);
    expect(await page.getByRole("main").textContent()).toContain("Private filtering of negative feedback to the owner");
    expect(await href(page, "Book a Free 15-Minute Demo")).toBe("/contact");
  });

  it("showcase: three examples with their demo pages, and a generic example for an unknown one", async () => {
    const page = await browser.newPage({ javaScriptEnabled });
    await page.goto("/showcase");
    expect(await page.getByRole("img", { name: /^Sketch of the .* home page$/ }).count()).toBe(3);
    for (const [name, slug] of [
      ["Pampered Paws Grooming", "dog-groomer"],
      ["Bright Spark Electrical", "electrician"],
      ["Riverside Accounting", "accountant"],
    ]) {
      expect(await href(page, `View the ${name} demo`)).toBe(`/showcase/${slug}`);
    }
    await page.getByRole("link", { name: "View the Bright Spark Electrical demo" }).click();
    await page.waitForURL(`${APP_URL}/showcase/electrician`);
    // The demo's own h1 (the portfolio page has a card with the same title).
    await page.getByRole("heading", { level: 1, name: "Bright Spark Electrical" }).waitFor();
    await expect.poll(() => page.locator(".card h3").count()).toBe(4);
    // A convincing small site: real services, a customer's words, how to get in touch; no placeholder text.
    const demo = await page.getByRole("main").textContent();
    for (const text of ["Switchboard Upgrades", "Called at 7am with no power", "Get in Touch", "(02) 5550 2931"])
      expect(demo).toContain(text);
    expect(demo).not.toMatch(/placeholder/i);
    expect(await page.getByRole("img", { name: "Sketch of the Bright Spark Electrical home page" }).count()).toBe(1);
    await page.getByRole("link", { name: /Back to Portfolio/ }).click();
    await page.waitForURL(`${APP_URL}/showcase`);
    expect((await page.goto("/showcase/plumber"))?.status()).toBe(200);
    await page.getByRole("heading", { level: 1, name: "Your Business Name" }).waitFor();
  });

  it("legal pages: the terms, privacy and Facebook disclaimer say what the spec requires", async () => {
    const page = await browser.newPage({ javaScriptEnabled });
    await page.goto("/terms");
    const terms = await page.getByRole("main").textContent();
    for (const text of [
      "16 March 2020",
      "confirmed that we have received all the materials",
      "functional website",
      "up to 3 rounds of revisions",
      "within 7 days",
      "21 days",
      "New South Wales",
    ]) {
      expect(terms).toContain(text);
    }
    await page.goto("/privacy");
    const privacy = await page.getByRole("main").textContent();
    for (const text of [
      "Registered Australian business",
      "Local area",
      "30 days, 1 year, or permanently",
      "Opt out",
      "delete your data",
      "preview",
    ]) {
      expect(privacy).toContain(text);
    }
    await page.goto("/facebook-disclaimer");
    await heading(page, "Facebook Disclaimer");
  });
});

describe("public pages", () => {
  it("each has a title under 60 characters, a description under 160 and Open Graph tags", async () => {
    const page = await browser.newPage({ javaScriptEnabled: false });
    for (const path of SITE_PAGES) {
      await page.goto(path);
      const title = await page.title();
      const description = await page.locator('meta[name="description"]').getAttribute("content");
      expect(title.length, path).toBeLessThan(60);
      expect(description!.length, path).toBeLessThan(160);
      expect(await page.locator('meta[property="og:title"]').getAttribute("content"), path).toBe(title);
    }
  });

  it("pass axe with no serious violations", async () => {
    const page = await browser.newPage({ javaScriptEnabled: true });
    for (const path of SITE_PAGES) {
      await page.goto(path);
      await expectNoSeriousA11yViolations(page);
    }
    await page.goto("/");
    await screenshot(page, "home");
    await page.goto("/24-hour-website");
    await screenshot(page, "24-hour-website");
  }, 240_000); // axe on 11 pages: about 10 s alone, over 60 s on a loaded CI machine
});
