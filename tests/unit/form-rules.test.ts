import { describe, expect, it } from "vitest";
import { SignUpSchema } from "~/domain/account.schema";
import { CheckoutSchema } from "~/domain/checkout.schema";
import { ContactSchema } from "~/domain/contact.schema";
import { checkForm } from "~/domain/form-rules";
import { FeedbackSchema } from "~/domain/orders.schema";
import { formRules, parseWithZod } from "~/server/form-rules.server";
import type * as z from "~/domain/zod";

const form = (entries: Record<string, string | undefined>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(entries)) if (value !== undefined) data.set(name, value);
  return data;
};

/** The first message per field, as the server's parse gives it and as the browser's check gives it. */
function both(schema: z.ZodMiniType, entries: Record<string, string | undefined>) {
  const data = form(entries);
  const server = parseWithZod(data, { schema });
  const serverErrors = Object.fromEntries(
    Object.entries(("error" in server ? server.error : null) ?? {})
      .filter(([, m]) => m?.length)
      .map(([name, m]) => [name, m![0]]),
  );
  const browser = Object.fromEntries(
    Object.entries(checkForm(formRules(schema), data) ?? {}).map(([name, m]) => [name, m[0]]),
  );
  return { server: serverErrors, browser };
}

describe("form rules: the browser's check says what the server's schema says", () => {
  it.each([
    {},
    { name: "   ", email: "not-an-address", message: "hi" },
    { name: "Al", email: "al@example.com", phone: "1".repeat(21), message: "x".repeat(1001) },
    { name: "x".repeat(101), email: `${"a".repeat(250)}@example.com`, message: "Hello" },
    { name: "Al", email: "al@example.com", message: "Hello there" },
  ])("contact form %#", (entries) => {
    const { server, browser } = both(ContactSchema, entries);
    expect(browser).toEqual(server);
  });

  it.each([
    { intent: "sign-up" },
    { intent: "sign-up", email: "a@b.co", password: "12345" },
    { intent: "sign-up", email: "a@b.co", password: "123456", fullName: "n".repeat(101) },
  ])("sign-up form %#", (entries) => {
    const { server, browser } = both(SignUpSchema, entries);
    expect(browser).toEqual(server);
  });

  it.each([{ round: "1", feedback: "too short" }, { round: "1", feedback: "f".repeat(5001) }, { round: "1" }])(
    "feedback form %#",
    (entries) => {
      const { server, browser } = both(FeedbackSchema, entries);
      expect(browser).toEqual(server);
    },
  );

  it("checkout: paying needs the e-mail and the terms, applying a coupon needs a code (the spec's words)", () => {
    for (const entries of [{ intent: "pay" }, { intent: "pay", email: "a@b.co" }, { intent: "apply-coupon" }]) {
      const { server, browser } = both(CheckoutSchema, entries);
      expect(browser).toEqual(server);
    }
    expect(checkForm(formRules(CheckoutSchema), form({ intent: "update" }))).toBeNull();
  });

  it("rules are plain data (they travel in the loader's JSON) and are derived once per schema", () => {
    const rules = formRules(ContactSchema);
    expect(JSON.parse(JSON.stringify(rules))).toEqual(rules);
    expect(formRules(ContactSchema)).toBe(rules);
    expect(rules.fields.email?.patterns?.[0]?.[2]).toBe("Invalid email address");
  });
});
