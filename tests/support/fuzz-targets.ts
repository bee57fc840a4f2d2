import { CheckoutSchema } from "~/domain/checkout.schema";
import { HONEYPOT_FIELD } from "~/domain/contact";
import { ContactSchema } from "~/domain/contact.schema";
import { PaymentIssueFormSchema } from "~/domain/admin/payments.schema";
import { RefundSchema, RestartClockSchema } from "~/domain/delivery-clock.schema";
import { stepSchema } from "~/domain/intake/schemas";
import { TOTAL_STEPS } from "~/domain/intake/steps";
import { OutboxActionSchema } from "~/domain/outbox.schema";

/**
 * Every form the fuzz test (tests/integration/fuzz.test.ts) posts malformed
 * bodies to. To cover a new form, add one line: its path, what a visitor needs
 * to reach it (a signed-in session, an intake session), and its field names
 * (from its Zod schema where it has one), so generated bodies mix real field
 * names with hostile ones.
 */
/** "unconfirmed": a signed-in account whose address is not confirmed yet (it may start no plan). */
/** "signed-out admin": an admin whose session idled out, whose posts are kept for after sign-in. */
export type FuzzNeed = "intake" | "user" | "unconfirmed" | "admin" | "signed-out admin";
export type FuzzTarget = { path: string; needs?: FuzzNeed; fields: string[]; multipart?: boolean };

/** The field names a Zod object schema (possibly wrapped in refinements, pipes or transforms) declares. */
export function schemaFields(schema: unknown, depth = 0): string[] {
  const s = schema as {
    shape?: Record<string, unknown>;
    _zod?: { def?: { in?: unknown; innerType?: unknown; schema?: unknown } };
  };
  if (s?.shape) return Object.keys(s.shape);
  const def = s?._zod?.def;
  if (!def || depth > 6) return [];
  return schemaFields(def.in ?? def.innerType ?? def.schema, depth + 1);
}

/** Names the intake's list editors post (rows and nested keys), beyond the schemas' top-level keys. */
const INTAKE_NESTED = [
  "servicesList[0].name",
  "servicesList[1].price",
  "servicesList[0].showPricing",
  "brandColors[0]",
  "brandColors.name",
  "photoMetadata[0].altText",
  "photoMetadata[0].key",
  "photoMetadata[0].url",
  "photoMetadata[3].placement",
  "testimonials[0].text",
  "staffBios[0].name",
  "socialLinks.facebook",
  "intent",
];

const intakeFields = [
  ...new Set([
    ...Array.from({ length: TOTAL_STEPS }, (_, i) => schemaFields(stepSchema(i + 1, "draft"))).flat(),
    ...INTAKE_NESTED,
  ]),
];

const ACCOUNT_FIELDS = ["intent", "email", "password", "fullName", "redirectTo", "token"];
const CUSTOMER_FIELDS = ["intent", "orderId", "round", "feedback", "plan", "priceId", "confirm", "formKey"];
const ADMIN_FIELDS = [
  "intent",
  "orderIds",
  "orderId",
  "action",
  "code",
  "discount_type",
  "discount_value",
  "max_uses",
  "valid_until",
  "allowed_emails",
  "confirm",
];

export const FUZZ_TARGETS: FuzzTarget[] = [
  { path: "/contact", fields: [...schemaFields(ContactSchema), HONEYPOT_FIELD] },
  { path: "/checkout", fields: [...schemaFields(CheckoutSchema), "maintenance"] },
  { path: "/checkout/offline", fields: ["session_id", "intent"] },
  { path: "/intake-form", needs: "intake", fields: [] },
  ...Array.from({ length: TOTAL_STEPS }, (_, i): FuzzTarget => ({
    path: `/intake-form/${i + 1}`,
    needs: "intake",
    fields: intakeFields,
    multipart: i + 1 === 4,
  })),
  // Step 4's files sent one at a time by the page with JavaScript.
  { path: "/intake-form/upload", needs: "intake", fields: ["logo", "photos"], multipart: true },
  { path: "/webhooks/stripe", fields: ["type", "data"] },
  { path: "/api/cron/reminders", fields: ["intent"] },
  { path: "/admin/outbox", needs: "admin", fields: schemaFields(OutboxActionSchema) },
  {
    path: "/admin/orders/00000000-0000-4000-8000-000000000000",
    needs: "admin",
    fields: ["intent", "draftUrl", "photos[0].id", "photos[0].altText", "photos[0].placement"],
  },
  { path: "/order-status/export", fields: [] },
  { path: "/dashboard/orders/00000000-0000-4000-8000-000000000000/export", needs: "user", fields: [] },
  { path: "/admin/payments", needs: "admin", fields: [...schemaFields(PaymentIssueFormSchema), "intent"] },
  // Accounts, the customer side and the rest of the back office.
  { path: "/auth", fields: ACCOUNT_FIELDS },
  { path: "/auth/forgot-password", fields: ACCOUNT_FIELDS },
  { path: "/auth/reset-password", fields: ACCOUNT_FIELDS },
  { path: "/auth/verify", fields: ACCOUNT_FIELDS },
  { path: "/auth/sign-out", needs: "user", fields: ["intent"] },
  { path: "/dashboard", needs: "user", fields: CUSTOMER_FIELDS },
  { path: "/order-status", fields: CUSTOMER_FIELDS },
  { path: "/maintenance", needs: "user", fields: CUSTOMER_FIELDS },
  { path: "/maintenance", needs: "unconfirmed", fields: CUSTOMER_FIELDS },
  { path: "/maintenance/test-checkout", needs: "unconfirmed", fields: [...CUSTOMER_FIELDS, "pageKey"] },
  { path: "/maintenance/test-checkout", needs: "user", fields: [...CUSTOMER_FIELDS, "pageKey"] },
  { path: "/maintenance/test-portal", needs: "user", fields: CUSTOMER_FIELDS },
  { path: "/checkout", needs: "unconfirmed", fields: [...schemaFields(CheckoutSchema), "maintenance"] },
  { path: "/auth/two-factor", needs: "user", fields: ["intent", "code", "redirectTo"] },
  { path: "/auth/two-factor/setup", needs: "user", fields: ["intent", "code", "redirectTo"] },
  { path: "/admin", needs: "admin", fields: ADMIN_FIELDS },
  { path: "/admin/session", needs: "admin", fields: ["intent"] },
  { path: "/admin/session", needs: "signed-out admin", fields: ["intent"] },
  {
    path: "/admin/orders/00000000-0000-4000-8000-000000000000",
    needs: "signed-out admin",
    fields: ["intent", "business_name", "services_list", "password", "code", "formKey"],
  },
  { path: "/admin/coupons", needs: "signed-out admin", fields: ADMIN_FIELDS },
  { path: "/admin/coupons", needs: "admin", fields: ADMIN_FIELDS },
  { path: "/admin/coupons/000000000000000000000000", needs: "admin", fields: ADMIN_FIELDS },
  { path: "/admin/privacy", needs: "admin", fields: ADMIN_FIELDS },
  { path: "/admin/privacy/delete/00000000-0000-4000-8000-000000000000", needs: "admin", fields: ADMIN_FIELDS },
  {
    path: "/admin/orders/00000000-0000-4000-8000-000000000000/refund",
    needs: "admin",
    fields: [...schemaFields(RefundSchema), "intent"],
  },
  {
    path: "/admin/orders/00000000-0000-4000-8000-000000000000/restart-clock",
    needs: "admin",
    fields: [...schemaFields(RestartClockSchema), "intent"],
  },
];

/**
 * The hostile requests found in security reviews, replayed exactly on every fuzz run (beside the generated ones): each must be
 * answered below 500. `body` is urlencoded; `status` is the answer it must get, where the issue fixed one.
 */
export type FuzzKnownCase = { method: "GET" | "POST"; path: string; needs?: FuzzNeed; body?: string; status?: number };
export const FUZZ_KNOWN_CASES: FuzzKnownCase[] = [
  // Item 3: any intent but start, confirm and disable, or an empty body, was a 500.
  { method: "POST", path: "/auth/two-factor/setup", needs: "user", body: "", status: 400 },
  { method: "POST", path: "/auth/two-factor/setup", needs: "user", body: "intent=refund", status: 400 },
  { method: "POST", path: "/auth/two-factor/setup", needs: "user", body: "intent=start&intent=x", status: 303 },
  // Item 7: `?_data=` requests wrote error lines.
  { method: "GET", path: "/?_data=root", status: 400 },
  { method: "GET", path: "/showcase/x?_data=routes/nope", status: 400 },
  // "Continue your intake form" for no order, a made-up one, and without the status link.
  { method: "POST", path: "/dashboard", needs: "user", body: "intent=continue-intake", status: 404 },
  {
    method: "POST",
    path: "/dashboard",
    needs: "user",
    body: "intent=continue-intake&orderId=00000000-0000-4000-8000-000000000000&formKey=aaaaaaaaaaaaaaaaaaaaaa",
    status: 404,
  },
  { method: "POST", path: "/order-status", body: "intent=continue-intake&orderId=1", status: 303 },
];

/** Values a real visitor might send for an intent field, and some they would not. */
export const FUZZ_INTENTS = [
  "next",
  "back",
  "stay",
  "save-exit",
  "autosave",
  "submit",
  "jump:3",
  "jump:99",
  "remove:servicesList:0",
  "remove:photoMetadata:999",
  "pay",
  "cancel",
  "update",
  "apply-coupon",
  "remove-coupon",
  "refund",
  "retry",
  "send-reminder",
  "accept",
  "resolve",
  "restart",
  "subscribe",
  "manage",
  "resend",
  "confirm",
  "verify",
  "continue-intake",
  "",
];

/**
 * Values from past cases that answered 5xx or did harm: redirect targets that are not plain
 * same-site paths, an order's own id and other customers' addresses typed where the contact address goes.
 */
export const FUZZ_ISSUE_VALUES = [
  "/%E3%80%80/evil.com",
  "/\u3000/evil.com",
  "//evil.com",
  "/\\evil.com",
  "/%2F/evil.com",
  "https://evil.example/",
  "/dashboard\r\nSet-Cookie: x=1",
  "hello@rapidwebsite.example",
  "00000000-0000-4000-8000-000000000000",
  "1",
];

/**
 * Pages whose query string the fuzz test's GETs fill with FUZZ_ISSUE_VALUES and hostile strings
 * (`GET /auth?redirectTo=/%E3%80%80/evil.com` once answered 500 when signed in), each as every kind of visitor.
 */
export const FUZZ_GET_TARGETS: { path: string; params: string[] }[] = [
  { path: "/auth", params: ["redirectTo", "tab"] },
  { path: "/auth/two-factor", params: ["redirectTo"] },
  { path: "/auth/two-factor/setup", params: ["redirectTo"] },
  { path: "/auth/reset-password", params: ["token"] },
  { path: "/auth/verify", params: ["token"] },
  { path: "/checkout", params: ["package", "maintenance", "addOns", "coupon"] },
  { path: "/order-success", params: ["session_id"] },
  { path: "/order-status", params: ["access_token"] },
  { path: "/intake-form", params: ["token"] },
  { path: "/maintenance", params: ["subscribed"] },
  { path: "/maintenance/test-checkout", params: ["plan"] },
  { path: "/maintenance/test-portal", params: ["plan"] },
  { path: "/dashboard", params: ["order"] },
  { path: "/admin", params: ["q", "status", "from", "to", "before", "clock", "sort"] },
  { path: "/admin/coupons", params: ["before"] },
  { path: "/admin/privacy", params: ["tab", "before"] },
  { path: "/admin/outbox", params: ["status", "before"] },
  { path: "/admin/orders/00000000-0000-4000-8000-000000000000", params: ["tab", "print", "historyBefore"] },
  { path: "/uploads/photos/00000000-0000-4000-8000-000000000000/000000000000000000000000.png", params: ["x"] },
  { path: "/admin/orders/00000000-0000-4000-8000-000000000000/files.zip", params: ["x"] },
  {
    path: "/admin/orders/00000000-0000-4000-8000-000000000000/files/photos/00000000-0000-4000-8000-000000000000/000000000000000000000000.png",
    params: ["x"],
  },
];
