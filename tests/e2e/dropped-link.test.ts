import mongoose from "mongoose";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { CONNECTION_MESSAGES, PROBE_MS } from "~/components/connection";
import { RESTORED_MESSAGE } from "~/components/useDeviceCopy";
import { connectDb } from "~/server/db.server";
import { INTAKE_CONFLICT } from "~/domain/intake/save-order";
import { ContactMessage, IntakeSubmission, OutboxMessage } from "~/server/models/index.server";
import { CONTACT_LIMIT } from "~/server/rate-limit.server";
import { paidOrder, tokenCookie, useAppDatabase } from "../support/app-data";
import { uniqueAddress } from "../support/mailpit";
import { expectEffect, recordRequests, screenshot, scriptsRunning, useBrowser } from "../support/browser";
import { droppedLinkJourneys, expectLocked, restoreAndResend, type DroppedLinkForm } from "../support/dropped-link";
import { useRelays } from "../support/faulty-relay";
import { clearBrowserLimits } from "../support/rate-limits";

/**
 * A customer on a satellite link, JavaScript on: the connection drops before a
 * post, the answer of a post the server got is lost, an answer takes 30 s.
 * Each time the form stays with what was typed, the page says so beside the
 * button, the resend works, and the database holds exactly one of each effect.
 */
const browser = useBrowser();
useAppDatabase();

const WIDTHS = [390, 1280] as const;
/** How long a poll waits for a state the server or the page reaches (a loaded machine takes its time). */
const WAIT = { timeout: 30_000 };

async function freshContactPage(width: number, baseURL?: string) {
  // Each journey sends real messages from 127.0.0.1: start it under the per-address limit.
  await clearBrowserLimits(CONTACT_LIMIT);
  const page = await browser.newPage({ javaScriptEnabled: true, width, baseURL });
  await page.goto("/contact", { waitUntil: "networkidle" });
  await scriptsRunning(page);
  return page;
}

async function fillContact(page: Page, name: string) {
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Email").fill("rural@example.test");
  await page.getByLabel(/^Message/).fill(`Hello from the farm, ${name}.`);
}

const send = (page: Page) => page.getByRole("button", { name: /Send Message|Sending/ }).click();
const sentFlash = (page: Page) => page.getByText("Message sent!").waitFor({ timeout: 60_000 });

/** The contact form: one message stored and one e-mail queued to the business per press. */
const contact: DroppedLinkForm = {
  path: "/contact",
  async open(width, baseURL) {
    const page = await freshContactPage(width, baseURL);
    const name = `Dropped ${width} ${Date.now()} ${Math.random().toString(36).slice(2, 8)}`;
    await fillContact(page, name);
    return {
      page,
      effects: async () => {
        const messages = await ContactMessage.find({ name }).lean();
        // The business's e-mail names the sender: one per message, never one for a press that stored none.
        const mails = await OutboxMessage.countDocuments({ text: mongoose.trusted({ $regex: name }) });
        expect(mails).toBe(messages.length);
        return messages.length;
      },
      stored: async () => (await ContactMessage.findOne({ name }).lean())?.message,
    };
  },
  field: (page) => page.getByLabel(/^Message/),
  submit: send,
  done: sentFlash,
};

droppedLinkJourneys({ contact });
const newRelay = useRelays();

describe.each(WIDTHS)("a drop the browser does not notice at %i px (JavaScript on)", (width) => {
  it("sends the held press as soon as a probe finds the server again, before the back-off and without Try again", async () => {
    const relay = await newRelay();
    const { page, effects } = await contact.open(width, relay.url);
    // The page's timers run only when the test moves them: the back-off (5 s) cannot be what resends.
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 1_000);
    const reached = relay.fail("drop", "/contact");
    await send(page);
    await page.getByText(CONNECTION_MESSAGES.failed).waitFor();
    expect(await page.evaluate(() => navigator.onLine)).toBe(true);
    relay.restore();
    await page.clock.runFor(PROBE_MS); // one probe: the server answers, and the press goes again at once
    await expect.poll(() => reached.reached, WAIT).toBe(2);
    await page.clock.resume();
    await sentFlash(page);
    expect(await effects()).toBe(1);
  });
});

/** A customer who has reached `step` of the intake, on a page of `width` px (and a second tab when asked). */
async function intakeAt(step: number, width: number) {
  const { orderId, token } = await paidOrder(uniqueAddress(`dropped-${width}`));
  await connectDb();
  await IntakeSubmission.create({
    order_id: orderId,
    furthest_step: step,
    business_name: "Bright Spark Electrical",
    contact_phone: "0400 123 999",
    business_type: "trades",
    business_description: "Licensed electricians for homes and businesses in Lismore.",
    service_area: "Lismore and the Northern Rivers",
    website_purpose: "lead_generation",
    main_cta: "Call for a free quote",
  });
  const cookie = await tokenCookie(token);
  /** `clock`: the page's timers run on Playwright's clock, so a test can move time on (autosave every 30 s). */
  const open = async (options: { clock?: boolean; javaScriptEnabled?: boolean; baseURL?: string } = {}) => {
    const { javaScriptEnabled = true, baseURL } = options;
    const page = await browser.newPage({ javaScriptEnabled, width, cookie, baseURL });
    if (options.clock) await page.clock.install();
    await page.goto(`/intake-form/${step}`, { waitUntil: "networkidle" });
    await page.getByText(`Step ${step} of 14`).waitFor();
    if (javaScriptEnabled) await scriptsRunning(page);
    return page;
  };
  return { orderId, open };
}
const draft = async (orderId: string) => (await IntakeSubmission.findOne({ order_id: orderId }).lean())!;
const copies = (page: Page) => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("copy:")));

describe.each(WIDTHS)("the intake form on a dropped link at %i px (JavaScript on)", (width) => {
  it("keeps step 1 when Next is pressed offline, unchangeable while it waits, and sends it once back online", async () => {
    const { orderId, open } = await intakeAt(1, width);
    const page = await open();
    await page.getByLabel(/^Trading name/).fill("Offline Electrical");
    await page.context().setOffline(true);
    await page.getByRole("button", { name: "Next Step" }).click();
    await page.getByText(CONNECTION_MESSAGES.failed).waitFor();
    expect(await page.getByText("Unexpected Application Error").count()).toBe(0);
    // While Next waits, the step cannot be changed (what was pressed is what is sent), and says so.
    await expectLocked(page, page.getByLabel(/^Trading name/));
    expect(await page.getByLabel(/^Trading name/).inputValue()).toBe("Offline Electrical");
    await screenshot(page, `dropped-link-intake-offline-${width}`);
    await page.context().setOffline(false);
    await page.getByText("Step 2 of 14").waitFor({ timeout: 30_000 });
    expect((await draft(orderId)).business_name).toBe("Offline Electrical");
  });

  for (const fault of ["drop", "cut"] as const) {
    it(`sends Next again after its answer was ${fault === "drop" ? "lost" : "cut off"}, once, as pressed`, async () => {
      const { orderId, open } = await intakeAt(1, width);
      const relay = await newRelay();
      const page = await open({ baseURL: relay.url });
      const reached = relay.fail(fault, "/intake-form/1");
      await page.getByLabel(/^Trading name/).fill("Lost Answer Electrical");
      await page.getByRole("button", { name: "Next Step" }).click();
      await page.getByText(CONNECTION_MESSAGES.failed).waitFor();
      expect(await page.getByText("Unexpected Application Error").count()).toBe(0);
      await expect.poll(async () => (await draft(orderId)).business_name).toBe("Lost Answer Electrical");
      await expectLocked(page, page.getByLabel(/^Trading name/));
      await restoreAndResend(page, relay, () => page.getByText("Step 2 of 14").waitFor({ timeout: 30_000 }));
      expect(reached.reached).toBe(2);
      expect((await draft(orderId)).business_name).toBe("Lost Answer Electrical");
    });
  }

  it("keeps the step when the next step's page comes back cut off, and opens it when the link is back", async () => {
    const { orderId, open } = await intakeAt(1, width);
    const relay = await newRelay();
    const page = await open({ baseURL: relay.url });
    relay.fail("cut", "/intake-form/2", { method: "GET" });
    await page.getByLabel(/^Trading name/).fill("Cut Page Electrical");
    await page.getByRole("button", { name: "Next Step" }).click();
    await page.getByText(CONNECTION_MESSAGES.failedPage).waitFor();
    expect(await page.getByText("Unexpected Application Error").count()).toBe(0);
    expect(await page.getByLabel(/^Trading name/).inputValue()).toBe("Cut Page Electrical");
    await screenshot(page, `dropped-link-intake-cut-page-${width}`);
    await restoreAndResend(page, relay, () => page.getByText("Step 2 of 14").waitFor({ timeout: 30_000 }));
    expect((await draft(orderId)).business_name).toBe("Cut Page Electrical");
  });

  it("keeps typing made while Add is in flight, and saves it with the next save", async () => {
    const { orderId, open } = await intakeAt(3, width);
    await IntakeSubmission.updateOne(
      { order_id: orderId },
      { $set: { services_list: [{ name: "Switchboard upgrades", description: "Done in a day" }] } },
    );
    const relay = await newRelay();
    const page = await open({ baseURL: relay.url, clock: true });
    const held = relay.fail("stall", "/intake-form/3"); // the Add's answer is held until the customer has typed
    await page.getByRole("group", { name: "Add a service" }).getByLabel("Service name").fill("Safety inspections");
    await page.getByRole("button", { name: "Add service" }).click();
    await expect.poll(() => held.reached, WAIT).toBe(1); // the server has the Add; its answer is held
    // While the Add is out, the customer rewrites the first service and picks a pricing approach.
    const first = page.getByRole("group", { name: "Service 1" });
    await first.getByLabel("Short description").fill("Same day, fully insured");
    await page
      .getByLabel(/pricing/i)
      .first()
      .selectOption("contact_for_quote");
    // The autosave's tick comes while the Add is out: it waits for the Add (a save of the list as the page still
    // shows it, one service, would be newer than the Add and take the added service away).
    await page.clock.fastForward(30_000);
    await page.waitForTimeout(500);
    expect(held.reached).toBe(1);
    relay.restore();
    await page.getByRole("group", { name: "Service 2" }).waitFor(); // the answer has arrived
    expect(await first.getByLabel("Short description").inputValue()).toBe("Same day, fully insured");
    expect(
      await page
        .getByLabel(/pricing/i)
        .first()
        .inputValue(),
    ).toBe("contact_for_quote");
    const stored = (await draft(orderId)).services_list as { name: string; description: string }[];
    expect(stored.map((s) => s.name)).toEqual(["Switchboard upgrades", "Safety inspections"]);
    expect(stored[0].description).toBe("Done in a day"); // the Add carried what was there when it left

    await first.getByLabel("Service name").press("Enter"); // the next save
    await expect
      .poll(async () => ((await draft(orderId)).services_list as { description: string }[])[0].description)
      .toBe("Same day, fully insured");
    expect((await draft(orderId)).pricing_approach).toBe("contact_for_quote");
  });

  it("shows what differs when the step was saved in another tab, instead of overwriting it", async () => {
    const { orderId, open } = await intakeAt(1, width);
    const first = await open();
    const second = await open();
    await first.getByLabel(/^Trading name/).fill("Changed in the first tab");
    await first.getByLabel(/^Trading name/).press("Enter"); // saves and shows the step again
    await expect.poll(async () => (await draft(orderId)).business_name).toBe("Changed in the first tab");

    await second.getByLabel(/^Contact phone/).fill("0400 000 111");
    await second.getByLabel(/^Contact phone/).press("Enter");
    await second.getByText(INTAKE_CONFLICT.title).waitFor();
    expect(await second.getByText("Saved: Changed in the first tab").count()).toBe(1);
    expect(await second.getByLabel(/^Contact phone/).inputValue()).toBe("0400 000 111");
    expect((await draft(orderId)).business_name).toBe("Changed in the first tab"); // not overwritten
    await screenshot(second, `dropped-link-intake-two-tabs-${width}`);

    await second.getByRole("button", { name: "Keep this page's answers" }).click();
    await expect.poll(async () => (await draft(orderId)).contact_phone).toBe("0400 000 111");
    expect((await draft(orderId)).business_name).toBe("Bright Spark Electrical");
  });
});

describe.each(WIDTHS)("an old copy on the device at %i px (JavaScript on)", (width) => {
  it("is never put back over a step saved since on another device: shows what differs, and keeps it only when asked", async () => {
    const { orderId, open } = await intakeAt(1, width);
    const phone = await open();
    await phone.getByLabel(/^Trading name/).fill("Typed on the phone");
    await expect.poll(() => copies(phone), WAIT).toHaveLength(1); // the copy is written; the tab is closed
    const phoneBrowser = phone.context();
    await phone.close();

    const laptop = await open();
    await laptop.getByLabel(/^Trading name/).fill("Changed on the laptop");
    await laptop.getByRole("button", { name: "Save & Exit" }).click();
    await expect.poll(async () => (await draft(orderId)).business_name, WAIT).toBe("Changed on the laptop");

    // The phone opens the step again and touches nothing.
    const again = await phoneBrowser.newPage();
    await again.clock.install();
    const autosaves: string[] = [];
    again.on("request", (r) => {
      if (r.method() === "POST" && r.postData()?.includes("autosave")) autosaves.push(r.url());
    });
    await again.goto("/intake-form/1", { waitUntil: "networkidle" });
    await again.getByText(INTAKE_CONFLICT.title).waitFor();
    expect(await again.getByText("Saved: Changed on the laptop").count()).toBe(1);
    expect(await again.getByText("This page: Typed on the phone").count()).toBe(1);
    expect(await again.getByText(RESTORED_MESSAGE).count()).toBe(0);
    expect(await again.getByLabel(/^Trading name/).inputValue()).toBe("Changed on the laptop");
    await screenshot(again, `dropped-link-intake-old-copy-${width}`);
    await again.clock.fastForward(30_000); // the autosave's tick: the old text is not in the boxes, nothing is sent

    await again.getByRole("button", { name: "Keep this page's answers" }).click();
    await expect.poll(async () => (await draft(orderId)).business_name, WAIT).toBe("Typed on the phone");
    expect((await draft(orderId)).contact_phone).toBe("0400 123 999");
    expect(autosaves).toEqual([]);
  });
});

describe.each(WIDTHS)("two quick Removes in a list at %i px", (width) => {
  const KEYWORDS = ["electrician lismore", "switchboard upgrade", "solar installer", "emergency electrician"];
  const keywords = async (orderId: string) => (await draft(orderId)).target_keywords as string[];
  /** Step 5 with four keywords, through a relay that holds the first Remove's answer until the test restores it. */
  async function listPage(js: boolean) {
    const { orderId, token } = await paidOrder(uniqueAddress(`removes-${width}`));
    await connectDb();
    await IntakeSubmission.create({ order_id: orderId, furthest_step: 5, target_keywords: KEYWORDS });
    const relay = await newRelay();
    const page = await browser.newPage({
      javaScriptEnabled: js,
      width,
      cookie: await tokenCookie(token),
      baseURL: relay.url,
    });
    recordRequests(page);
    if (js) await page.clock.install(); // the test moves the autosave's clock on
    await page.goto("/intake-form/5", { waitUntil: "networkidle" });
    if (js) await scriptsRunning(page);
    const held = relay.fail("stall", "/intake-form/5"); // the server has it, and the answer takes its time
    return { orderId, page, relay, held };
  }

  for (const [mode, js] of [
    ["JavaScript on", true],
    ["JavaScript off", false],
  ] as const) {
    it(`remove exactly the two items named, the second pressed before the first's answer (${mode})`, async () => {
      const { orderId, page, relay, held } = await listPage(js);
      // Without JavaScript, Playwright's element actions wait for the page a click starts to arrive; a person's
      // second click comes while the old page is still shown, so there the mouse presses where the buttons are.
      await page.getByRole("button", { name: "Remove keyword 3" }).scrollIntoViewIfNeeded();
      const boxes = new Map<string, { x: number; y: number; width: number; height: number } | null>();
      for (const name of ["Remove keyword 2", "Remove keyword 3"])
        boxes.set(name, await page.getByRole("button", { name }).boundingBox());
      const press = async (name: string) => {
        const box = boxes.get(name)!;
        if (js) await page.getByRole("button", { name }).click();
        else await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      };
      await press("Remove keyword 2");
      await expect.poll(() => held.reached, WAIT).toBe(1); // the server has it; its answer is held
      // (Without JavaScript the browser drops the first page load for the second: the first post must be out.)
      if (!js) await expect.poll(() => keywords(orderId)).not.toContain(KEYWORDS[1]);
      await press("Remove keyword 3"); // the old list is still on the screen
      // The autosave's tick while the first Remove is out sends nothing: the page still shows the old list, and a
      // save of it, newer than the Remove, would put keyword 2 back (it did, in whole-file runs that took 30 s).
      if (js) {
        await page.clock.fastForward(30_000);
        await page.waitForTimeout(500);
        expect(held.reached).toBe(1);
      }
      // With JavaScript the second Remove leaves once the first is answered; without, it replaced the first.
      relay.restore();
      // Both answers come after the relay is restored, one after the other (60 s: a busy machine, not the app).
      await expectEffect(page, `two-removes-${js ? "js" : "nojs"}-${width}`, () =>
        expect.poll(() => keywords(orderId), { timeout: 60_000 }).toEqual([KEYWORDS[0], KEYWORDS[3]]),
      );
      await expect
        .poll(() => page.getByRole("button", { name: /^Remove keyword/ }).count(), { timeout: 60_000 })
        .toBe(2);
      expect(await page.getByLabel("Keyword 1", { exact: true }).inputValue()).toBe(KEYWORDS[0]);
      expect(await page.getByLabel("Keyword 2", { exact: true }).inputValue()).toBe(KEYWORDS[3]);
      expect(await page.getByText(INTAKE_CONFLICT.title).count()).toBe(0);
      await screenshot(page, `intake-two-removes-${js ? "js" : "nojs"}-${width}`);
    });
  }
});

describe.each(WIDTHS)("intake autosave in two tabs at %i px (JavaScript on)", (width) => {
  it("says so and shows what differs when the other tab saved first, and reverts nothing", async () => {
    const { orderId, open } = await intakeAt(1, width);
    const first = await open();
    const second = await open({ clock: true });
    await first.getByLabel(/^Trading name/).fill("Saved in the first tab");
    await first.getByRole("button", { name: "Save & Exit" }).click(); // saves the step and leaves
    await expect.poll(async () => (await draft(orderId)).business_name).toBe("Saved in the first tab");

    // The second tab, opened before that save, goes on typing; its autosave comes 30 s later.
    await second.getByLabel(/^Service area/).fill("Ballina and Byron Bay");
    await second.clock.fastForward(30_000);
    await second.getByText(INTAKE_CONFLICT.title).waitFor();
    expect(await second.getByText("Saved: Saved in the first tab").count()).toBe(1);
    expect(await second.getByText("This page: Ballina and Byron Bay").count()).toBe(1);
    expect(await second.getByLabel(/^Service area/).inputValue()).toBe("Ballina and Byron Bay");
    // Nothing silently reverted, nothing overwritten.
    expect((await draft(orderId)).business_name).toBe("Saved in the first tab");
    expect((await draft(orderId)).service_area).toBe("Lismore and the Northern Rivers");
    await screenshot(second, `dropped-link-intake-two-tabs-autosave-${width}`);

    // Choosing the saved answers shows them; this page's typing is not sent.
    await second.getByRole("link", { name: "Show the saved answers" }).click();
    await second.getByText("Step 1 of 14").waitFor();
    expect(await second.getByLabel(/^Trading name/).inputValue()).toBe("Saved in the first tab");
  });
});

describe.each(WIDTHS)("keeping this page's answers after an autosave met another tab's save at %i px", (width) => {
  it("changes exactly the fields the notice listed, never a box this page left empty", async () => {
    const { orderId, open } = await intakeAt(1, width);
    const first = await open();
    const second = await open({ clock: true });
    await first.getByLabel(/^Trading name/).fill("Saved in the first tab");
    await first.getByLabel("Business hours").fill("Mon-Fri 7am-5pm");
    await first.getByRole("button", { name: "Save & Exit" }).click();
    await expect.poll(async () => (await draft(orderId)).business_hours, WAIT).toBe("Mon-Fri 7am-5pm");

    // The second tab's Business hours box is still empty: its autosave does not send it, so it is not compared.
    await second.getByLabel(/^Service area/).fill("Ballina and Byron Bay");
    await second.clock.fastForward(30_000);
    await second.getByText(INTAKE_CONFLICT.title).waitFor();
    expect(await second.getByText("Saved: Saved in the first tab").count()).toBe(1);
    expect(await second.getByText("Saved: Mon-Fri 7am-5pm").count()).toBe(0);

    await second.getByRole("button", { name: "Keep this page's answers" }).click();
    await expect.poll(async () => (await draft(orderId)).service_area, WAIT).toBe("Ballina and Byron Bay");
    expect((await draft(orderId)).business_name).toBe("Bright Spark Electrical"); // listed: this page's
    expect((await draft(orderId)).business_hours).toBe("Mon-Fri 7am-5pm"); // not listed: untouched
  });
});

describe.each(WIDTHS)("two tabs on one step at %i px (JavaScript off)", (width) => {
  it("answers the stale tab's Next with what differs, keeps its typing, and overwrites nothing until asked", async () => {
    const { orderId, open } = await intakeAt(1, width);
    const first = await open({ javaScriptEnabled: false });
    const second = await open({ javaScriptEnabled: false });
    await first.getByLabel(/^Trading name/).fill("Changed in the first tab");
    await first.getByRole("button", { name: "Next Step" }).click();
    await first.getByText("Step 2 of 14").waitFor();
    expect((await draft(orderId)).business_name).toBe("Changed in the first tab");

    // The second tab, opened before that save, posts its own change.
    await second.getByLabel(/^Contact phone/).fill("0400 000 111");
    await second.getByRole("button", { name: "Next Step" }).click();
    await second.getByText(INTAKE_CONFLICT.title).waitFor();
    expect(await second.getByText("Step 1 of 14").count()).toBe(1);
    expect(await second.getByText("Saved: Changed in the first tab").count()).toBe(1);
    expect(await second.getByText("This page: Bright Spark Electrical").count()).toBe(1);
    expect(await second.getByText("This page: 0400 000 111").count()).toBe(1);
    // What this tab typed is still in its boxes; the database has the first tab's save, untouched.
    expect(await second.getByLabel(/^Contact phone/).inputValue()).toBe("0400 000 111");
    expect(await second.getByLabel(/^Trading name/).inputValue()).toBe("Bright Spark Electrical");
    expect((await draft(orderId)).business_name).toBe("Changed in the first tab");
    expect((await draft(orderId)).contact_phone).toBe("0400 123 999");
    await screenshot(second, `dropped-link-intake-two-tabs-nojs-${width}`);

    // Asked to, it keeps this page's answers.
    await second.getByRole("button", { name: "Keep this page's answers" }).click();
    await expect.poll(async () => (await draft(orderId)).contact_phone).toBe("0400 000 111");
    expect((await draft(orderId)).business_name).toBe("Bright Spark Electrical");
    expect(await second.getByText(INTAKE_CONFLICT.title).count()).toBe(0);
  });
});

describe.each(WIDTHS)("intake autosave on a dropped link at %i px (JavaScript on)", (width) => {
  const autosaves = (page: Page) => {
    const seen = { count: 0 };
    page.on("request", (r) => {
      if (r.method() === "POST" && r.url().includes("/intake-form/1.data") && r.postData()?.includes("autosave"))
        seen.count++;
    });
    return seen;
  };

  it("retries an autosave refused with 503 with back-off, saying 'Not saved yet' until one lands", async () => {
    const { orderId, open } = await intakeAt(1, width);
    const page = await open({ clock: true });
    let refusals = 2;
    await page.route("**/intake-form/1.data*", async (route) => {
      if (route.request().method() !== "POST" || refusals-- <= 0) return route.continue();
      await route.fulfill({ status: 503, contentType: "text/html", body: "<h1>503 Service Unavailable</h1>" });
    });
    const seen = autosaves(page);
    await page.getByLabel(/^Trading name/).fill("Saved on the third try");
    await page.clock.fastForward(30_000); // the autosave's tick
    await page.getByText("Not saved yet").waitFor();
    expect(seen.count).toBe(1);
    await page.clock.fastForward(5_000); // the first back-off: refused again
    await expect.poll(() => seen.count).toBe(2);
    expect(await page.getByText("Not saved yet").count()).toBe(1);
    await page.clock.fastForward(15_000); // the second: it lands
    await page.getByText(/^Last saved /).waitFor();
    expect(seen.count).toBe(3);
    expect((await draft(orderId)).business_name).toBe("Saved on the third try");
  });

  it("holds an autosave while offline, keeps typing, and saves the newest text once back online", async () => {
    const { orderId, open } = await intakeAt(1, width);
    const page = await open({ clock: true });
    const name = page.getByLabel(/^Trading name/);
    await name.fill("Typed before the drop");
    await page.context().setOffline(true);
    await page.clock.fastForward(30_000);
    await page.getByText(CONNECTION_MESSAGES.failed).waitFor();
    await page.getByText("Not saved yet").waitFor();
    await name.fill("Typed while the autosave was held"); // typing during the held autosave
    await screenshot(page, `dropped-link-intake-autosave-offline-${width}`);
    await page.context().setOffline(false);
    // The resend waits for the browser to notice it is back online, then for the save: on a loaded
    // machine that took over vitest's default 1 s once (a full run at load 16).
    await expect
      .poll(async () => (await draft(orderId)).business_name, { timeout: 10_000 })
      .toBe("Typed before the drop");
    expect(await name.inputValue()).toBe("Typed while the autosave was held");
    // A later tick sends what was typed meanwhile (each poll moves the clock on: a tick that comes while the
    // resend's answer is still on its way skips, as it should, and the next one sends it).
    await expect
      .poll(async () => {
        await page.clock.fastForward(30_000);
        return (await draft(orderId)).business_name;
      })
      .toBe("Typed while the autosave was held");
  });
});

describe("a copy on the device (JavaScript on)", () => {
  it("restores a contact message after a reload, and forgets it once sent", async () => {
    const page = await freshContactPage(390);
    const name = `Copy ${Date.now()}`;
    await fillContact(page, name);
    await page.waitForTimeout(700); // the copy is written half a second after typing stops
    await page.reload({ waitUntil: "networkidle" });
    await page.getByText(RESTORED_MESSAGE).waitFor();
    expect(await page.getByLabel("Name").inputValue()).toBe(name);
    expect(await page.getByLabel(/^Message/).inputValue()).toContain("Hello from the farm");
    await send(page);
    await sentFlash(page);
    await page.reload({ waitUntil: "networkidle" });
    expect(await page.getByLabel("Name").inputValue()).toBe("");
    expect(await copies(page)).toEqual([]);
  });

  it("restores an intake step typed but not saved, per step, and drops it once the server has it", async () => {
    const { orderId, open } = await intakeAt(1, 1280);
    const relay = await newRelay();
    const page = await open({ baseURL: relay.url });
    await page.getByLabel(/^Trading name/).fill("Typed before the crash");
    await page.waitForTimeout(700);
    await page.reload({ waitUntil: "networkidle" });
    await page.getByText(RESTORED_MESSAGE).waitFor();
    expect(await page.getByLabel(/^Trading name/).inputValue()).toBe("Typed before the crash");
    // Step 2 is slow to come (held): the copy written half a second after the restore must not come back
    // once the server has step 1 (it did, on a busy machine).
    const next = relay.fail("stall", "/intake-form/2", { method: "GET" });
    await page.getByRole("button", { name: "Next Step" }).click();
    await expect.poll(() => next.reached, WAIT).toBe(1);
    await page.waitForTimeout(1_000);
    relay.restore();
    await page.getByText("Step 2 of 14").waitFor();
    expect((await draft(orderId)).business_name).toBe("Typed before the crash");
    expect(await copies(page)).toEqual([]);
  });
});
