import { describe, expect, it } from "vitest";
import { FORM_MESSAGES, TEXT_FORM_MAX_BYTES } from "~/server/forms.server";
import { APP_URL, expectNoSeriousA11yViolations, JS_MODES, screenshot, useBrowser } from "../support/browser";
import { loopbackAddress, postForm } from "../support/http";
import { uniqueAddress } from "../support/mailpit";

const browser = useBrowser();

/** Pays through the offline test checkout over HTTP, as another browser would have; returns the success page's path. */
async function paidElsewhere(): Promise<string> {
  const from = loopbackAddress();
  const start = await postForm(
    "/checkout",
    `intent=pay&email=${encodeURIComponent(uniqueAddress("elsewhere"))}&terms=on`,
    { from },
  );
  const cookie = ([] as string[])
    .concat(start.headers["set-cookie"] ?? [])
    .map((c) => c.split(";")[0])
    .join("; ");
  const sessionId = new URL(String(start.headers.location), APP_URL).searchParams.get("session_id")!;
  const paid = await postForm("/checkout/offline", `session_id=${sessionId}&intent=pay`, { from, cookie });
  return String(paid.headers.location);
}

describe.each(JS_MODES)("with %s", (mode, javaScriptEnabled) => {
  const slug = mode.replace(/\s/g, "-");

  it("the success page opened in a browser that did not pay says the link was e-mailed, and shows no link", async () => {
    const success = await paidElsewhere();
    for (const width of [1280, 390]) {
      const page = await browser.newPage({ javaScriptEnabled, width });
      await page.goto(success);
      await page.getByRole("heading", { name: "Payment Successful!" }).waitFor();
      expect(await page.getByRole("main").textContent()).toContain("We've e-mailed you a link to your intake form");
      expect(await page.getByRole("link", { name: "Go to Intake Form" }).count()).toBe(0);
      await screenshot(page, `order-success-elsewhere-${slug}-${width}`);
      if (width === 1280 && javaScriptEnabled) await expectNoSeriousA11yViolations(page); // axe runs as a script
    }
  });
});

describe("a form too large to accept", () => {
  it("with JavaScript off, answers 413 with a page that says the limit", async () => {
    const page = await browser.newPage({ javaScriptEnabled: false });
    await page.goto("/contact");
    await page.getByLabel("Name").fill("Sam");
    await page.getByLabel("Email").fill("sam@example.test");
    await page.getByLabel(/^Message/).fill("a".repeat(70_000));
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST"),
      page.getByRole("button", { name: "Send Message" }).click(),
    ]);
    expect(response.status()).toBe(413);
    await page.getByText(FORM_MESSAGES.tooLarge(TEXT_FORM_MAX_BYTES)).waitFor();
    await screenshot(page, "form-too-large");
    // The page is the root error boundary; axe (a script) cannot run with JavaScript off, and with it on
    // the form's own validation stops a message this long before it is sent.
  });
});
