import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Every form of the app answers a resent press (its first answer lost after the server acted) as it answered the
 * first (ARCHITECTURE.md rule 7). The list is every route module with an action, read from the
 * routes folder, so a new form fails here until it is entered below: either keyed (its effect runs through
 * `oncePerPost` and its page renders the press's key) or naturally idempotent, with the reason.
 */
const ROUTES = "app/routes";

/**
 * A keyed press: the module whose effect runs through oncePerPost, and the module that renders its key (or, for a
 * request the page's own code sends, `sends`: how that code puts the key in it).
 */
type Keyed = { effect: string; form: string; sends?: RegExp };
type Entry = { why: string; keyed?: Keyed[] };

const route = (file: string) => `${ROUTES}/${file}`;
const keyedIn = (file: string, form = file): Keyed => ({ effect: route(file), form: route(form) });

const FORMS: Record<string, Entry> = {
  "$.tsx": { why: "The not-found page: a post is answered 404 and changes nothing." },
  "admin._index.tsx": {
    why: "Bulk actions: the press is keyed (a resend says '2 sent' as the first did, not '0 sent').",
    keyed: [keyedIn("admin._index.tsx")],
  },
  "admin.coupons.$couponId.tsx": {
    why: "Delete is keyed (a resend says 'deleted', not 'not found'); Save sets the coupon's fields (a $set).",
    keyed: [keyedIn("admin.coupons.$couponId.tsx")],
  },
  "admin.coupons._index.tsx": {
    why: "Creating a coupon is keyed.",
    keyed: [{ effect: route("admin.coupons._index.tsx"), form: "app/components/admin/CouponForm.tsx" }],
  },
  "admin.orders.$orderId.tsx": {
    why:
      "Send Reminder is keyed (a resend says 'sent', not 'not sent'). The draft URL is a $set and its e-mail is " +
      "keyed per order (the answer names the URL that e-mail linked when another is saved); a revision round's " +
      "switch sets a state; renewing the link sets 30 days from now; Edit Data sets the fields; the prompts " +
      "change nothing.",
    keyed: [{ effect: route("admin.orders.$orderId.tsx"), form: "app/components/admin/IntakeAccessCard.tsx" }],
  },
  "admin.orders.$orderId_.refund.tsx": {
    why: "The refund is made once per order (Stripe's idempotency key refundKey, server/refunds.server.ts).",
  },
  "admin.orders.$orderId_.restart-clock.tsx": {
    why:
      "The post carries the restarts it saw, so a resend restarts nothing twice; the same admin's same words " +
      "find their own restart and are answered 'Clock restarted' as the first (server/delivery-clock.server.ts).",
  },
  "admin.outbox.tsx": { why: "Retry acts only on a failed message; a resend finds it queued ('Not Retried')." },
  "admin.payments.tsx": { why: "Accept and Resolve set an issue's state once." },
  "admin.privacy.delete.$orderId.tsx": { why: "Deleting an order's data is done once per order and recorded." },
  "admin.session.ts": { why: "Stay signed in: the post only moves the session's last sight to now; a resend, again." },
  "admin.security._index.tsx": { why: "Ending a session deletes it; a resend finds it gone." },
  "admin.security.reset.$userId.tsx": { why: "Resetting a second factor deletes the key and sessions: again, none." },
  "api.cron.reminders.ts": { why: "The cron: every reminder and alert is an insert under a unique key." },
  "auth.tsx": {
    why: "Sign-up is keyed; signing in only starts a session.",
    keyed: [keyedIn("auth.tsx")],
  },
  "auth_.forgot-password.tsx": { why: "Keyed: one link e-mailed.", keyed: [keyedIn("auth_.forgot-password.tsx")] },
  "auth_.reset-password.tsx": {
    why: "Keyed: a resend signs in as the first did (its password checked), not 'link has expired'.",
    keyed: [{ effect: route("auth_.reset-password.tsx"), form: "app/components/account.tsx" }],
  },
  "auth_.sign-out.tsx": { why: "Ends the session; a resend finds none and signs out again." },
  "auth_.two-factor.tsx": {
    why: "Keyed per session held: a resend finishes signing in as the first did, not an empty Sign In.",
    keyed: [keyedIn("auth_.two-factor.tsx")],
  },
  "auth_.two-factor_.setup.tsx": { why: "Starting, confirming and turning off set the account's second factor." },
  "auth_.verify.tsx": {
    why: "Confirming is keyed (a resend signs in, its password checked); a resend of 'send again' is rate-limited.",
    keyed: [{ effect: route("auth_.verify.tsx"), form: "app/components/account.tsx" }],
  },
  "checkout.tsx": { why: "Keyed: one pending order per press.", keyed: [keyedIn("checkout.tsx")] },
  "checkout_.offline.tsx": { why: "Settling a payment is idempotent per session id (the fulfilment's key)." },
  "contact.tsx": { why: "Keyed: one message, one e-mail.", keyed: [keyedIn("contact.tsx")] },
  "dashboard.orders.$orderId.export.ts": { why: "A download: changes nothing." },
  "dashboard.tsx": {
    why: "Feedback and Continue are keyed (server/revisions.server.ts, server/intake/continue.server.ts).",
    keyed: [
      { effect: "app/server/revisions.server.ts", form: "app/components/orders.tsx" },
      { effect: "app/server/intake/continue.server.ts", form: "app/components/orders.tsx" },
    ],
  },
  "intake-form.tsx": { why: "Renewing an expired link: a resend finds it valid and goes on." },
  "intake-form_.upload.ts": {
    why: "Each file carries the key the page made for it, in every part and try (components/intake/upload-sender.tsx).",
    keyed: [
      { effect: route("intake-form_.upload.ts"), form: "app/components/intake/upload-sender.tsx", sends: /\?key=\$\{/ },
    ],
  },
  "maintenance.tsx": { why: "Subscribing holds one checkout per account (holdPlanCheckout); Manage opens a portal." },
  "maintenance_.test-checkout.tsx": { why: "The offline plan checkout: the page's key (pageKey) makes it once." },
  "maintenance_.test-portal.tsx": { why: "Cancelling a plan sets its state." },
  "order-status.export.ts": { why: "A download: changes nothing." },
  "order-status.tsx": {
    why: "Feedback, Continue and the deletion request are keyed; renewing sets a new expiry from now.",
    keyed: [
      keyedIn("order-status.tsx"),
      { effect: "app/server/revisions.server.ts", form: "app/components/orders.tsx" },
    ],
  },
  "webhooks.stripe.ts": { why: "Stripe's retries: every event is recorded once by its id." },
};
// The 14 intake steps share server/intake/step.server.ts: a save is ordered by its stamp (a resend is stale).
for (let n = 1; n <= 14; n++)
  FORMS[`intake-form_.${n}.tsx`] = { why: "A step save sets the step's answers, ordered by the page's save stamp." };

const hasAction = (source: string) =>
  /export (async )?function action\b|export const action\b|export \{[^}]*\baction\b[^}]*\}/.test(source);
const read = (file: string) => readFileSync(file, "utf8");

describe("every form answers a resent press as it answered the first", () => {
  const withAction = readdirSync(ROUTES)
    .filter((file) => hasAction(read(join(ROUTES, file))))
    .sort();

  it("lists every route with an action, and no other", () => {
    expect(withAction.length).toBeGreaterThan(30);
    expect(withAction.filter((file) => !(file in FORMS))).toEqual([]);
    expect(Object.keys(FORMS).filter((file) => !withAction.includes(file))).toEqual([]);
  });

  it.each(Object.entries(FORMS))("%s: keyed where it says so, with a reason either way", (_file, entry) => {
    expect(entry.why.length).toBeGreaterThan(10);
    for (const { effect, form, sends } of entry.keyed ?? []) {
      expect(read(effect), `${effect} runs its effect through oncePerPost`).toMatch(/oncePerPost(<[^>]+>)?\(/);
      expect(read(form), `${form} renders the press's key`).toMatch(sends ?? /<FormKey \/>|FORM_KEY_FIELD/);
    }
  });
});
