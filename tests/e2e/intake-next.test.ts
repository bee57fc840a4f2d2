import { describe, expect, it } from "vitest";
import { IntakeSubmission } from "~/server/models/index.server";
import { paidOrder, useAppDatabase } from "../support/app-data";
import { useBrowser } from "../support/browser";
import { uniqueAddress } from "../support/mailpit";

const browser = useBrowser();
useAppDatabase();

/**
 * Issue 20 item 8: with JavaScript on, Next and Back cost what a page without JavaScript costs (the
 * post, then the next page), never a /__manifest round trip to look up the next step's route first:
 * the step page has every step's route discovered while the person reads (StepRoutes in
 * components/intake/StepPage.tsx). How long it takes is scripts/bench/intake-next.mjs's to measure.
 */
describe("an intake step's Next and Back with JavaScript on", () => {
  it("ask for no route lookup: the post, then the next step's data and its module", async () => {
    const { orderId, token } = await paidOrder(uniqueAddress("intake-next"));
    await IntakeSubmission.create({ order_id: orderId, furthest_step: 8, pages_needed: ["Home", "Contact"] });
    const page = await browser.newPage({ javaScriptEnabled: true });
    await page.goto(`/intake-form?token=${token}`);
    await page.getByText("Step 8 of 14").waitFor();
    await page.goto("/intake-form/7");
    await page.getByText("Step 7 of 14").waitFor();
    await page.waitForLoadState("networkidle"); // hydrated, its routes discovered

    const requests: string[] = [];
    page.on("request", (request) => requests.push(`${request.method()} ${new URL(request.url()).pathname}`));
    await page.getByRole("button", { name: "Next Step" }).click();
    await page.getByText("Step 8 of 14").waitFor();
    await page.waitForLoadState("networkidle");
    expect(requests.filter((r) => r.includes("/__manifest"))).toEqual([]);
    expect(requests).toContain("POST /intake-form/7.data");
    expect(requests).toContain("GET /intake-form/8.data");
    expect(requests.some((r) => /^GET \/build\/routes\/intake-form_\.8-\w+\.js$/.test(r))).toBe(true);

    requests.length = 0;
    await page.getByRole("button", { name: "Back", exact: true }).click();
    await page.getByText("Step 7 of 14").waitFor();
    await page.waitForLoadState("networkidle");
    expect(requests.filter((r) => r.includes("/__manifest"))).toEqual([]);
    expect(requests).toContain("POST /intake-form/8.data");
    expect(requests).toContain("GET /intake-form/7.data");
  });
});
