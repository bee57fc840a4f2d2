import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { CONNECTION_MESSAGES } from "~/components/connection";
import { screenshot } from "./browser";
import { useRelays, type Relay } from "./faulty-relay";

/**
 * A customer on a satellite link, JavaScript on: the
 * connection dropped before a post, the answer of a post the server got lost
 * or cut off, a gateway's 503, a 30-second answer, and typing while each is
 * out. Shared by the browser tests of every form that changes state.
 */

export const WIDTHS = [390, 1280] as const;

/** The page kept the form: no error screen, and `field` still holds `value`. */
export async function expectKept(page: Page, field: Locator, value: string) {
  expect(await field.inputValue()).toBe(value);
  expect(await page.getByText("Unexpected Application Error").count()).toBe(0);
}

/**
 * While a press is out, its form cannot be changed: typing into `field` changes nothing, and the page says
 * why (components/connection.tsx).
 */
export async function expectLocked(page: Page, field: Locator) {
  const before = await field.inputValue();
  await field.focus();
  await page.keyboard.press("End");
  await page.keyboard.type(" (typed while sending)");
  await page.getByText(CONNECTION_MESSAGES.locked).waitFor();
  expect(await field.inputValue()).toBe(before);
}

/**
 * The link is good again and the held press goes again: on Try again, or on the page's own back-off when
 * that comes first (then there is nothing left to press). Resolves once `done` has seen the answer.
 */
export async function restoreAndResend(page: Page, relay: Relay, done: () => Promise<void>) {
  relay.restore();
  page
    .getByRole("button", { name: "Try again" })
    .click()
    .catch(() => undefined); // gone: the back-off sent it first
  await done();
}

/** One form that creates something, as the journeys below drive it. */
export type DroppedLinkForm = {
  /** The page path the form posts to. */
  path: string;
  /**
   * A fresh page at `width` px, reaching the site at `baseURL` (a faulty relay), with the form filled in;
   * `effects` counts what this journey stored, and `stored` (when given) reads back the field's text as the
   * server keeps it.
   */
  open(
    width: number,
    baseURL: string,
  ): Promise<{ page: Page; effects: () => Promise<number>; stored?: () => Promise<unknown> }>;
  /** A field a person could go on typing in while the post is out. */
  field(page: Page): Locator;
  submit(page: Page): Promise<void>;
  /** Waits for the sign that the post succeeded. */
  done(page: Page): Promise<void>;
};

/**
 * The journeys of each form at 390 and 1280 px, each through a faulty relay of its own
 * (tests/support/faulty-relay.ts): offline before the post, the answer lost after the server acted (the link
 * dropped, or the answer cut in half), a gateway's 503, and an answer held past SLOW_MS. Each time nothing typed is
 * lost, the form cannot be changed while its press is out (so the resend carries exactly what was pressed),
 * the message shows beside the button, the resend works, and the database holds exactly one effect. `forms`
 * are named as the tests say them ("checkout", "sign-up").
 * Each has a page, a relay, a journey and data of its own (open() makes them).
 */
export function droppedLinkJourneys(forms: Record<string, DroppedLinkForm>) {
  const newRelay = useRelays();
  for (const [name, form] of Object.entries(forms)) {
    describe.each(WIDTHS)(`${name} on a dropped link at %i px (JavaScript on)`, (width) => {
      it("keeps what was typed when the browser is offline, says so, and sends once when back online", async () => {
        const relay = await newRelay();
        const { page, effects, stored } = await form.open(width, relay.url);
        const value = await form.field(page).inputValue();
        await page.context().setOffline(true);
        await form.submit(page);
        await page.getByText(CONNECTION_MESSAGES.failed).waitFor();
        await expectLocked(page, form.field(page));
        await expectKept(page, form.field(page), value);
        await screenshot(page, `dropped-link-${name.replace(/\W+/g, "-")}-offline-${width}`);
        expect(await effects()).toBe(0);
        await page.context().setOffline(false);
        await form.done(page);
        expect(await effects()).toBe(1);
        if (stored) expect(await stored()).toBe(value);
      });

      for (const fault of ["drop", "cut"] as const) {
        it(`answers a resend after ${fault === "drop" ? "a lost" : "a cut-off"} answer as the first, storing one`, async () => {
          const relay = await newRelay();
          const { page, effects, stored } = await form.open(width, relay.url);
          const reached = relay.fail(fault, form.path);
          const value = await form.field(page).inputValue();
          await form.submit(page);
          await page.getByText(CONNECTION_MESSAGES.failed).waitFor();
          await expectKept(page, form.field(page), value);
          await expectLocked(page, form.field(page));
          expect(await effects()).toBe(1); // the server acted; its answer was lost
          await restoreAndResend(page, relay, () => form.done(page));
          expect(reached.reached).toBe(2);
          expect(await effects()).toBe(1);
          if (stored) expect(await stored()).toBe(value);
        });
      }

      it("sends again after a gateway's 503, storing one", async () => {
        const relay = await newRelay();
        const { page, effects } = await form.open(width, relay.url);
        const reached = relay.fail("503", form.path);
        await form.submit(page);
        await page.getByText(CONNECTION_MESSAGES.failed).waitFor();
        expect(await effects()).toBe(0);
        await restoreAndResend(page, relay, () => form.done(page));
        expect(reached.reached).toBe(1);
        expect(await effects()).toBe(1);
      });

      it("says it is still sending when the answer is slow, keeps the form as pressed, and sends once", async () => {
        const relay = await newRelay();
        const { page, effects } = await form.open(width, relay.url);
        relay.fail("stall", form.path);
        const value = await form.field(page).inputValue();
        await form.submit(page);
        // Said once the press has been out SLOW_MS (8 s) on the page's clock; the answer is held until then.
        await page.getByText(CONNECTION_MESSAGES.slow).waitFor({ timeout: 60_000 });
        await expectLocked(page, form.field(page));
        await expectKept(page, form.field(page), value);
        expect(await effects()).toBe(1);
        relay.restore();
        await form.done(page);
        expect(await effects()).toBe(1);
      }, 90_000);
    });
  }
}
