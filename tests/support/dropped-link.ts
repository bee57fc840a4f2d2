import mongoose from "mongoose";
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { CONNECTION_MESSAGES } from "~/components/connection";
import { connectDb } from "~/server/db.server";
import { RateLimitHit } from "~/server/models/index.server";
import { screenshot } from "./browser";

/**
 * A customer on a satellite link, JavaScript on (issue 20): the connection
 * dropped before a post, the answer of a post the server got lost, a
 * 30-second answer, and typing while each is out. Shared by the browser tests
 * of every form that changes state.
 */

export const WIDTHS = [390, 1280] as const;

/** Starts a journey under the per-address limits it uses (every test posts from 127.0.0.1). */
export async function underLimits(...names: string[]) {
  await connectDb();
  await RateLimitHit.deleteMany({ key: mongoose.trusted({ $regex: `^(${names.join("|")}):` }) });
}

/** Remix's data request for a page's posts (`/contact` -> `/contact.data?...`). */
const dataRoute = (path: string) => `**${path}.data*`;

/**
 * The first POST to `path` reaches the server, which answers it, and the answer
 * never arrives (the request fetched, then the connection reset). Returns how
 * many POSTs reached the server.
 */
export async function loseFirstAnswer(page: Page, path: string) {
  const reached = { count: 0 };
  await page.route(dataRoute(path), async (route) => {
    if (route.request().method() !== "POST" || reached.count++ > 0) return route.continue();
    await route.fetch(); // the server got it and answered...
    await route.abort("connectionreset"); // ...and the answer never arrived
  });
  return reached;
}

/** The first POST to `path` is answered after `ms` (a 30-second satellite stall by default). */
export async function slowFirstAnswer(page: Page, path: string, ms = 30_000) {
  let first = true;
  await page.route(dataRoute(path), async (route) => {
    if (route.request().method() !== "POST" || !first) return route.continue();
    first = false;
    const response = await route.fetch();
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route.fulfill({ response });
  });
}

/** The page kept the form: no error screen, and `field` still holds `value`. */
export async function expectKept(page: Page, field: Locator, value: string) {
  expect(await field.inputValue()).toBe(value);
  expect(await page.getByText("Unexpected Application Error").count()).toBe(0);
}

/** Types at the end of a field, as a person goes on typing, and returns what it then holds. */
export async function typeMore(field: Locator, text: string) {
  await field.press("End");
  await field.pressSequentially(text);
  return field.inputValue();
}

/** One form that creates something, as the journeys below drive it. */
export type DroppedLinkForm = {
  /** The page path the form posts to. */
  path: string;
  /**
   * A fresh page at `width` px with the form filled in; `effects` counts what this journey stored, and
   * `stored` (when given) reads back the field's text as the server keeps it.
   */
  open(width: number): Promise<{ page: Page; effects: () => Promise<number>; stored?: () => Promise<unknown> }>;
  /** A field a person could go on typing in while the post is out. */
  field(page: Page): Locator;
  /** What the customer adds to that field while the post waits offline (" (typed offline)" unless said). */
  typedOffline?: string;
  submit(page: Page): Promise<void>;
  /** Waits for the sign that the post succeeded. */
  done(page: Page): Promise<void>;
};

/**
 * The three journeys of each form at 390 and 1280 px: each time nothing typed is lost, the message
 * shows beside the button, the resend works, and the database holds exactly one effect. `forms` are
 * named as the tests say them ("checkout", "sign-up").
 *
 * The 30-second answers run side by side (describe.concurrent, vitest's maxConcurrency at a time):
 * each waits on the clock, not the machine, and in turn they held a test worker 32 s each. Each has
 * a page, a journey and data of its own (open() makes them), as every test here does.
 */
export function droppedLinkJourneys(forms: Record<string, DroppedLinkForm>) {
  for (const [name, form] of Object.entries(forms)) {
    describe.each(WIDTHS)(`${name} on a dropped link at %i px (JavaScript on)`, (width) => {
      it("keeps what was typed when the browser is offline, says so, and sends once when back online", async () => {
        const { page, effects, stored } = await form.open(width);
        await page.context().setOffline(true);
        await form.submit(page);
        await page.getByText(CONNECTION_MESSAGES.failed).waitFor();
        const typed = await typeMore(form.field(page), form.typedOffline ?? " (typed offline)");
        await expectKept(page, form.field(page), typed);
        await screenshot(page, `dropped-link-${name.replace(/\W+/g, "-")}-offline-${width}`);
        expect(await effects()).toBe(0);
        await page.context().setOffline(false);
        await form.done(page);
        expect(await effects()).toBe(1);
        // The resend carried what was on the screen, the typing made while it waited included.
        if (stored) expect(await stored()).toBe(typed);
      });

      it("answers a resend after a lost answer as the first, storing one", async () => {
        const { page, effects } = await form.open(width);
        const reached = await loseFirstAnswer(page, form.path);
        const value = await form.field(page).inputValue();
        await form.submit(page);
        await page.getByText(CONNECTION_MESSAGES.failed).waitFor();
        await expectKept(page, form.field(page), value);
        await page.getByRole("button", { name: "Try again" }).click();
        await form.done(page);
        expect(reached.count).toBe(2);
        expect(await effects()).toBe(1);
      });
    });
  }

  describe.concurrent("a 30-second answer on a dropped link (JavaScript on)", () => {
    for (const [name, form] of Object.entries(forms)) {
      for (const width of WIDTHS) {
        it(`${name} at ${width} px says it is still sending, keeps typing, and sends once`, async () => {
          const { page, effects } = await form.open(width);
          await slowFirstAnswer(page, form.path);
          await form.submit(page);
          await page.getByText(CONNECTION_MESSAGES.slow).waitFor({ timeout: 15_000 });
          const typed = await typeMore(form.field(page), " (typed while sending)");
          await expectKept(page, form.field(page), typed);
          await form.done(page);
          expect(await effects()).toBe(1);
        }, 90_000);
      }
    }
  });
}
