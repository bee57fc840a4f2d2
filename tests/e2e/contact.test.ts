import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { APP_URL, JS_MODES, screenshot, slowLink, useBrowser } from "../support/browser";
import { expectLocked } from "../support/dropped-link";
import { messageText } from "../support/mailpit";

const browser = useBrowser();

async function fill(page: Page, values: { name?: string; email?: string; phone?: string; message?: string }) {
  if (values.name !== undefined) await page.getByLabel("Name").fill(values.name);
  if (values.email !== undefined) await page.getByLabel("Email").fill(values.email);
  if (values.phone !== undefined) await page.getByLabel("Phone (optional)").fill(values.phone);
  if (values.message !== undefined) await page.getByLabel(/^Message/).fill(values.message);
}

const send = (page: Page) => page.getByRole("button", { name: "Send Message" }).click();
/** The alert's message (the spec's sentence); a second line lists every field that failed. */
const alertText = async (page: Page) => {
  await page.getByRole("alert").waitFor();
  return page.getByRole("alert").locator("p").first().textContent();
};
/** The field's own message, among what its aria-describedby names (a hint or a count may be named too). */
const fieldError = (page: Page, label: string | RegExp) =>
  page.getByLabel(label).evaluate((el) =>
    (el.getAttribute("aria-describedby") ?? "")
      .split(" ")
      .map((id) => document.getElementById(id))
      .filter((d) => d?.classList.contains("field-error"))
      .map((d) => d!.textContent)
      .join(" "),
  );

async function findMail(subject: string) {
  const api = process.env.MAILPIT_API_URL!;
  for (let i = 0; i < 75; i++) {
    const res = await fetch(`${api}/api/v1/search?query=${encodeURIComponent(`subject:"${subject}"`)}`);
    const { messages } = (await res.json()) as { messages: { ID: string; To: { Address: string }[] }[] };
    if (messages.length) return messages;
    await new Promise((r) => setTimeout(r, 200));
  }
  return [];
}

describe.each(JS_MODES)("the contact form with %s", (mode, javaScriptEnabled) => {
  it("shows the first failing message and each field's own message, keeping what was typed", async () => {
    const page = await browser.newPage({ javaScriptEnabled });
    await page.goto("/contact");
    await send(page);
    expect(await alertText(page)).toBe("Name is required");
    expect(await page.getByRole("alert").textContent()).toContain("Check these fields: Name, Email, Message.");
    expect(await fieldError(page, "Name")).toBe("Name is required");
    expect(await fieldError(page, "Email")).toBe("Invalid email address");
    expect(await fieldError(page, /^Message/)).toBe("Message is required");

    await fill(page, {
      name: "Jo Citizen",
      email: "not-an-email",
      phone: "0400 000 000 000 000 0",
      message: "Hello there",
    });
    await send(page);
    expect(await alertText(page)).toBe("Invalid email address");
    expect(await fieldError(page, "Phone (optional)")).toBe("Phone must be less than 20 characters");
    expect(await page.getByLabel("Name").inputValue()).toBe("Jo Citizen");
    expect(await page.getByLabel(/^Message/).inputValue()).toBe("Hello there");
    await screenshot(page, `contact-errors-${javaScriptEnabled ? "js" : "nojs"}`);

    await fill(page, {
      name: "x".repeat(101),
      email: `${"a".repeat(250)}@ex.au`,
      phone: "",
      message: "y".repeat(1001),
    });
    await send(page);
    expect(await alertText(page)).toBe("Name must be less than 100 characters");
    expect(await fieldError(page, "Email")).toBe("Email must be less than 255 characters");
    expect(await fieldError(page, /^Message/)).toBe("Message must be less than 1000 characters");
  });

  it("sends a good message to the business inbox, clears the form and says so", async () => {
    const page = await browser.newPage({ javaScriptEnabled });
    await page.goto("/contact");
    const name = `Pat ${mode} ${Date.now()}`;
    await fill(page, {
      name,
      email: "pat@example.test",
      phone: "0400 111 222",
      message: "Can you build a site for my bakery?",
    });
    if (javaScriptEnabled) expect(await page.getByText("35/1000").isVisible()).toBe(true);
    await send(page);
    await page.getByRole("status").filter({ hasText: "Message sent!" }).waitFor();
    expect(await page.getByRole("status").textContent()).toContain(
      "Message sent! We'll get back to you within 24 hours.",
    );
    expect(page.url()).toBe(`${APP_URL}/contact`);
    expect(await page.getByLabel("Name").inputValue()).toBe("");
    expect(await page.getByLabel(/^Message/).inputValue()).toBe("");

    const [mail] = await findMail(`New enquiry from ${name}`);
    expect(mail.To[0].Address).toBe("hello@northernriverswebsites.com.au");
    const body = await messageText(mail.ID);
    expect(body.ReplyTo[0].Address).toBe("pat@example.test");
    expect(body.Text).toContain("Can you build a site for my bakery?");
    expect(body.Text).toContain("0400 111 222");
  });

  it.runIf(javaScriptEnabled)(
    "keeps the sent form locked until the page its answer leads to is drawn, so nothing typed there is lost",
    async () => {
      const page = await browser.newPage({ javaScriptEnabled });
      await page.goto("/contact");
      const name = `Pat slow ${Date.now()}`;
      await fill(page, { name, email: "pat@example.test", message: "Sent once, on a slow link." });
      // A link slow enough that the page the answer leads to is still on its way (3 s) after the post's answer.
      const fullSpeed = await slowLink(page, 3_000);
      let pageDataCame = false;
      page.on("response", (r) => {
        if (r.request().method() === "GET" && new URL(r.url()).pathname === "/contact.data") pageDataCame = true;
      });
      const answered = page.waitForResponse(
        (r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/contact.data",
      );
      await send(page);
      expect((await answered).status()).toBe(202); // the action's redirect
      // The answer came and the next page has not: the form still says it is being sent and takes no typing
      // (drawn afresh when the page comes, it would throw that typing away).
      const message = page.getByLabel(/^Message/);
      await expectLocked(page, message);
      expect(pageDataCame).toBe(false);
      await page.getByRole("status").filter({ hasText: "Message sent!" }).waitFor({ timeout: 30_000 });
      await fullSpeed();
      // The page came: the form is empty and open for the next message, and the message went once.
      expect(await message.inputValue()).toBe("");
      await message.fill("A second question.");
      expect(await message.inputValue()).toBe("A second question.");
      expect(await findMail(`New enquiry from ${name}`)).toHaveLength(1);
    },
    60_000,
  );

  it("refuses a message whose hidden robot-trap box was filled, with a clear message", async () => {
    const page = await browser.newPage({ javaScriptEnabled });
    await page.goto("/contact");
    await fill(page, { name: "Bot", email: "bot@example.test", message: "Buy now" });
    await page.locator("#fax_number").fill("12345", { force: true });
    await send(page);
    expect(await alertText(page)).toContain("looks automated");
    expect(await page.getByLabel("Name").inputValue()).toBe("Bot");
  });
});
