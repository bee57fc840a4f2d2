import { describe, expect, it } from "vitest";
import {
  ForgotPasswordSchema,
  ResetPasswordSchema,
  SignInSchema,
  SignUpSchema,
  VerifyEmailSchema,
} from "~/domain/account.schema";
import { CouponFormSchema } from "~/domain/admin/coupons.schema";
import { EditDataSchema } from "~/domain/admin/edit-data.schema";
import { RevisionPromptSchema } from "~/domain/ai-prompt.schema";
import { CheckoutSchema } from "~/domain/checkout.schema";
import { ContactSchema } from "~/domain/contact.schema";
import { RefundSchema, RestartClockSchema } from "~/domain/delivery-clock.schema";
import { checkForm, type FieldRule, type FormRules } from "~/domain/form-rules";
import { STEP_SCHEMAS, stepSchema, type Mode } from "~/domain/intake/schemas";
import { FeedbackSchema } from "~/domain/orders.schema";
import { CodeSchema, EnrolSchema } from "~/domain/two-factor.schema";
import type * as z from "~/domain/zod";
import { formRules, parseWithZod } from "~/server/form-rules.server";

/**
 * The browser checks a form with the rules `formRules` derives from the form's Zod schema (by reading the
 * schema's definition); the server parses the post with the schema itself. Over every schema a page is given
 * rules for (all 14 intake steps in both modes included), inputs made from each rule (empty, spaces only, one
 * character too short or too long, not matching a pattern, a number off either end, a fraction, letters where a
 * number goes, and values that keep the rule) get the same first message per field from both, for every field the
 * rules cover: there is no known difference. A Zod upgrade that
 * changed how a check is stored would make the rules miss it, and this fails.
 */

const SCHEMAS: [string, z.ZodMiniType][] = [
  ["contact", ContactSchema],
  ["checkout", CheckoutSchema],
  ["sign-in", SignInSchema],
  ["sign-up", SignUpSchema],
  ["forgot password", ForgotPasswordSchema],
  ["reset password", ResetPasswordSchema],
  ["verify e-mail", VerifyEmailSchema],
  ["two-factor code", CodeSchema],
  ["two-factor enrolment", EnrolSchema],
  ["feedback", FeedbackSchema],
  ["coupon", CouponFormSchema],
  ["edit data", EditDataSchema],
  ["revision prompt", RevisionPromptSchema],
  ["refund", RefundSchema],
  ["restart clock", RestartClockSchema],
  ...STEP_SCHEMAS.flatMap((_, i) =>
    (["draft", "next"] as Mode[]).map((mode): [string, z.ZodMiniType] => [
      `intake step ${i + 1} (${mode})`,
      stepSchema(i + 1, mode),
    ]),
  ),
];

/** A rule's path as a posted name: a list's rule as its first row's box. */
const postedName = (path: string) => path.replace(/\[\]/g, "[0]");

/** Values each rule of a field refuses, and values it keeps. */
function samples(rule: FieldRule): string[] {
  const values = ["", "   "];
  if (rule.minLength) values.push("x".repeat(Math.max(rule.minLength[0] - 1, 0)), "x".repeat(rule.minLength[0]));
  if (rule.maxLength) values.push("x".repeat(rule.maxLength[0]), "x".repeat(rule.maxLength[0] + 1));
  if (rule.maxLength && rule.trim) values.push(` ${"x".repeat(rule.maxLength[0])} `);
  if (rule.patterns?.length) values.push("not valid ~ @@", "a@b.co", "https://example.com", "#12AB34", "123456");
  for (const bound of [rule.min, rule.max]) {
    if (bound) values.push(String(bound[0] - 1), String(bound[0]), String(bound[0] + 1), `${bound[0]}.5`);
  }
  if (rule.number || rule.whole) values.push("abc", "1.5", " 2 ", "1e1", "Infinity");
  return values;
}

/** Every message a field's rules can give. */
const messagesOf = (rule: FieldRule) =>
  [rule.required, rule.minLength?.[1], rule.maxLength?.[1], rule.number, rule.whole, rule.min?.[1], rule.max?.[1]]
    .concat(rule.patterns?.map((pattern) => pattern[2]))
    .filter((message): message is string => Boolean(message));

/** The base posts: no intent, and each button the rules know of. */
function intentsOf(rules: FormRules): (string | undefined)[] {
  return [undefined, ...Object.keys(rules.intents ?? {})];
}

type Difference = { name: string; value: string; browser: string | null; server: string | null };
const uniqueDifferences = (list: Difference[]) => [...new Map(list.map((d) => [JSON.stringify(d), d])).values()];

/** The first message per field as the server's parse gives it and as the browser's check gives it, on `names`. */
function compare(schema: z.ZodMiniType, rules: FormRules, entries: Record<string, string>, names: string[]) {
  const data = new FormData();
  for (const [name, value] of Object.entries(entries)) data.set(name, value);
  const parsed = parseWithZod(data, { schema });
  const serverErrors = (parsed.status === "error" ? parsed.error : null) ?? {};
  const browserErrors = checkForm(rules, data) ?? {};
  const pick = (errors: Record<string, string[] | null | undefined>) =>
    Object.fromEntries(names.flatMap((name) => (errors[name]?.length ? [[name, errors[name][0]]] : [])));
  return { server: pick(serverErrors), browser: pick(browserErrors) };
}

describe("form rules: the browser refuses and accepts what the server does, for every schema", () => {
  it.each(SCHEMAS)("%s", (label, schema) => {
    const rules = formRules(schema);
    const covered = [
      ...Object.keys(rules.fields),
      ...Object.values(rules.intents ?? {}).flatMap((needs) => Object.keys(needs).filter(Boolean)),
    ].map(postedName);
    const differences: Difference[] = [];
    for (const intent of intentsOf(rules)) {
      const base: Record<string, string> = intent ? { intent } : {};
      const empty = compare(schema, rules, base, covered);
      expect(empty.browser, `${label}, intent ${intent}`).toEqual(empty.server);
      for (const [path, rule] of Object.entries(rules.fields)) {
        const name = postedName(path);
        for (const value of samples(rule)) {
          const { server, browser } = compare(schema, rules, { ...base, [name]: value }, [name]);
          // A server-only check (a choice from a list, a rule across fields) is not the browser's to say.
          if (browser[name] === undefined && !messagesOf(rule).includes(server[name] ?? "")) continue;
          if (browser[name] !== server[name])
            differences.push({ name, value, browser: browser[name] ?? null, server: server[name] ?? null });
        }
      }
    }
    expect(uniqueDifferences(differences)).toEqual([]);
  });
});
