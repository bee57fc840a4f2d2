import type { Page, Request } from "playwright-core";
import { describe, expect, it } from "vitest";
import { IntakeSubmission } from "~/server/models/index.server";
import { paidOrder, useAppDatabase } from "../support/app-data";
import { useBrowser } from "../support/browser";
import { uniqueAddress } from "../support/mailpit";

const browser = useBrowser();
useAppDatabase();

/**
 * The requests a press makes until the data of the step it opens has arrived (anything that page
 * needs before it can show is asked for by then), as "METHOD /path", then waits for that step to show
 * and settle. The icon is left out: the browser asks for it again after the page has changed.
 */
async function requestsOf(page: Page, press: () => Promise<void>, opens: number) {
  const requests: string[] = [];
  let arrived: () => void;
  const dataArrived = new Promise<void>((resolve) => (arrived = resolve));
  let done = false;
  const note = (request: Request) => {
    if (!done) requests.push(`${request.method()} ${new URL(request.url()).pathname}`);
  };
  const finished = (request: Request) => {
    if (new URL(request.url()).pathname !== `/intake-form/${opens}.data` || request.method() !== "GET") return;
    done = true; // events come in the page's order: what the step asks for once it shows comes after
    arrived();
  };
  page.on("request", note);
  // Remix may stop reading the data once it has decoded it: then the request ends as "failed".
  page.on("requestfinished", finished);
  page.on("requestfailed", finished);
  await press();
  await dataArrived;
  page.off("request", note);
  page.off("requestfinished", finished);
  page.off("requestfailed", finished);
  await page.getByText(`Step ${opens} of 14`).waitFor();
  await page.waitForLoadState("networkidle");
  return requests.filter((r) => r !== "GET /favicon.svg");
}

/**
 * Issue 20 item 8: with JavaScript on, Next and Back cost what a page without JavaScript costs (the
 * post, then the next page), never a round trip only to look something up: no /__manifest (every
 * step's route is discovered while the person reads: StepRoutes in components/intake/StepPage.tsx)
 * and no route module or chunk (the steps next to this one are preloaded:
 * components/intake/NeighbourStepModules.tsx). How long it takes is scripts/bench/intake-next.mjs's
 * to measure.
 */
describe("an intake step's Next and Back with JavaScript on", () => {
  it("make two requests, the post and the next step's data: no route lookup, no module fetched after the post", async () => {
    const { orderId, token } = await paidOrder(uniqueAddress("intake-next"));
    await IntakeSubmission.create({ order_id: orderId, furthest_step: 14, pages_needed: ["Home", "Contact"] });
    const page = await browser.newPage({ javaScriptEnabled: true });
    await page.goto(`/intake-form?token=${token}`);
    await page.goto("/intake-form/7");
    await page.getByText("Step 7 of 14").waitFor();
    await page.waitForLoadState("networkidle"); // hydrated, its routes discovered, its neighbours' code preloaded

    const next = () => page.getByRole("button", { name: "Next Step" }).click();
    const back = () => page.getByRole("button", { name: "Back", exact: true }).click();
    expect(await requestsOf(page, next, 8)).toEqual(["POST /intake-form/7.data", "GET /intake-form/8.data"]);
    expect(await requestsOf(page, back, 7)).toEqual(["POST /intake-form/8.data", "GET /intake-form/7.data"]);

    // Step 13's module imports a chunk of its own (the privacy preview): a Back from 14 fetches neither.
    await page.goto("/intake-form/14");
    await page.getByText("Step 14 of 14").waitFor();
    await page.waitForLoadState("networkidle");
    expect(await requestsOf(page, back, 13)).toEqual(["POST /intake-form/14.data", "GET /intake-form/13.data"]);
  });
});
