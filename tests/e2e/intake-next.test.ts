import type { Page, Request } from "playwright-core";
import { describe, expect, it } from "vitest";
import { IntakeSubmission } from "~/server/models/index.server";
import { paidOrder, useAppDatabase } from "../support/app-data";
import { useBrowser } from "../support/browser";
import { uniqueAddress } from "../support/mailpit";

const browser = useBrowser();
useAppDatabase();

/**
 * Waits until step `step` shows and the code of the steps its Back and Next open has arrived: their
 * routes discovered (the page's one /__manifest request) and their modules preloaded
 * (NeighbourStepModules renders a modulepreload link for each, which the browser then fetches). A
 * press before that would fetch them after its post, which says nothing about the press itself.
 */
async function settled(page: Page, step: number) {
  await page.getByText(`Step ${step} of 14`).waitFor();
  const neighbours = [step - 1, step + 1].filter((n) => n >= 1 && n <= 14);
  await page.waitForFunction((neighbours) => {
    const links = [...document.body.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')];
    const named = (n: number) => links.some((link) => link.href.includes(`/intake-form_.${n}-`));
    const arrived = (link: HTMLLinkElement) =>
      performance.getEntriesByName(link.href).some((entry) => (entry as PerformanceResourceTiming).responseEnd > 0);
    return neighbours.every(named) && links.every(arrived);
  }, neighbours);
}

/**
 * The requests a press makes until the data of the step it opens has arrived (anything that page
 * needs before it can show is asked for by then), as "METHOD /path", then waits for that step to show
 * and its neighbours' code to arrive. The icon is left out: the browser asks for it again after the page has changed.
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
  await settled(page, opens);
  return requests.filter((r) => r !== "GET /favicon.svg");
}

/**
 * With JavaScript on, Next and Back cost what a page without JavaScript costs (the
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
    await settled(page, 7);

    const next = () => page.getByRole("button", { name: "Next Step" }).click();
    const back = () => page.getByRole("button", { name: "Back", exact: true }).click();
    expect(await requestsOf(page, next, 8)).toEqual(["POST /intake-form/7.data", "GET /intake-form/8.data"]);
    expect(await requestsOf(page, back, 7)).toEqual(["POST /intake-form/8.data", "GET /intake-form/7.data"]);

    // Step 13's module imports a chunk of its own (the privacy preview): a Back from 14 fetches neither.
    await page.goto("/intake-form/14");
    await settled(page, 14);
    expect(await requestsOf(page, back, 13)).toEqual(["POST /intake-form/14.data", "GET /intake-form/13.data"]);
  });
});
