import { describe, expect, it } from "vitest";
import { MAINTENANCE_PLANS } from "~/content/maintenance";
import { findPackage, PACKAGES, packagePrice, revisionRoundsFor } from "~/content/packages";
import { authAlert, safeRedirect } from "~/domain/account";
import { AuthSchema } from "~/domain/account.schema";
import { FeedbackSchema } from "~/domain/orders.schema";
import { quote } from "~/domain/pricing";
import { accessState } from "~/domain/tokens";
import { customerCompleteness, intakeCompleteMessage, intakeProgress, submittedLine } from "~/domain/completeness";
import {
  intakeFinished,
  ROUND_NOTES,
  revisionRounds,
  shortId,
  statusTone,
  timeline,
  type OrderView,
} from "~/domain/orders";
import type { StoredSubmission } from "~/domain/intake/data";
import { statusText } from "~/domain/order-status";
import { latestState } from "~/domain/subscriptions";

const DAY = 86_400_000;
const order = (fields: Partial<OrderView> = {}): OrderView => ({
  status: "paid",
  intake_progress: 0,
  product_id: "24-hour-website",
  ...fields,
});
const done = (o: OrderView) => Object.fromEntries(timeline(o).map((s) => [s.label, s.done]));

describe("the build timeline", () => {
  it("shows only for paid orders", () => {
    expect(timeline(order({ status: "pending" }))).toEqual([]);
    expect(timeline(order({ status: "failed" }))).toEqual([]);
    expect(timeline(order({ status: "cancelled" }))).toEqual([]);
    expect(timeline(order()).map((s) => s.label)).toEqual([
      "Payment Received",
      "Intake Form",
      "Draft In Progress",
      "Draft Delivered",
      "Revisions",
      "Final Launch",
    ]);
  });

  it("marks each step by the spec's rule", () => {
    expect(done(order())).toEqual({
      "Payment Received": true,
      "Intake Form": false,
      "Draft In Progress": false,
      "Draft Delivered": false,
      Revisions: false,
      "Final Launch": false,
    });
    const drafted = done(order({ intake_submitted_at: new Date(), draft_url: "https://draft.example" }));
    expect(drafted["Intake Form"]).toBe(true);
    expect(drafted["Draft In Progress"]).toBe(true);
    expect(drafted["Draft Delivered"]).toBe(true);
    // Finished means submitted: every item filled but not sent is not done.
    expect(done(order({ intake_progress: 100 }))["Intake Form"]).toBe(false);
    // Revisions: done when the last round the product includes is submitted (3 for the 24-Hour Website).
    expect(done(order({ revision_2_submitted_at: new Date() })).Revisions).toBe(false);
    expect(done(order({ revision_3_submitted_at: new Date() })).Revisions).toBe(true);
    expect(done(order({ product_id: "starter", revision_1_submitted_at: new Date() })).Revisions).toBe(true);
    expect(done(order({ status: "completed" }))["Final Launch"]).toBe(true);
  });
});

describe("a submitted intake is submitted, which is not 100%", () => {
  it("drives the timeline and the submitted line, never the percentages", () => {
    expect(intakeFinished(order())).toBe(false);
    expect(intakeFinished(order({ intake_submitted_at: "2026-11-23T10:00:00Z" }))).toBe(true);
    expect(done(order({ intake_submitted_at: new Date() }))["Intake Form"]).toBe(true);
    expect(submittedLine(true)).toBe("Submitted: we have your intake form.");
    expect(submittedLine(false)).toBe("Not submitted yet.");
  });

  it("gives one sparse submitted intake the same figures on every page: 35 items for admin and dashboard, 20 for order status", () => {
    const sparse = {
      status: "submitted" as const,
      business_name: "Acme",
      contact_email: "a@b.au",
      contact_phone: "0400",
      website_purpose: "bookings",
      package_selected: "modern",
    };
    // 5 of 35 items; 5 of 20: the same intake, each page's own definition, neither 100.
    expect(intakeProgress(sparse)).toBe(14);
    expect(customerCompleteness(sparse)).toBe(25);
    expect(intakeCompleteMessage(customerCompleteness(sparse))).toBeNull();
    expect(intakeCompleteMessage(100)).toBe("Intake form completed! We're building your website now.");
  });
});

describe("revision rounds", () => {
  it("say the project is complete when a completed order's round is locked", () => {
    expect(revisionRounds(order({ draft_url: "https://draft.example.au" })).map((r) => r.note)).toEqual(
      Array(3).fill(ROUND_NOTES.waiting),
    );
    const closed = revisionRounds(order({ status: "completed", revision_1_enabled: true }));
    expect(closed.map((r) => r.state)).toEqual(["available", "locked", "locked"]);
    expect(closed[1].note).toBe("Your project is complete, so no more rounds will open. Need a change? Contact us.");
  });

  it("wait for the first draft, not the next, before any draft exists", () => {
    const notes = revisionRounds(order()).map((r) => r.note);
    expect(notes).toEqual([ROUND_NOTES.firstDraft, ROUND_NOTES.waiting, ROUND_NOTES.waiting]);
    expect(ROUND_NOTES.firstDraft).toBe("We'll open this round when your first draft is ready.");
  });

  it("are Locked, Available or Completed, as many as the product includes", () => {
    const rounds = revisionRounds(
      order({
        revision_1_enabled: true,
        revision_1_feedback: "Bigger logo please",
        revision_1_submitted_at: new Date(),
        revision_2_enabled: true,
      }),
    );
    expect(rounds.map((r) => r.state)).toEqual(["completed", "available", "locked"]);
    expect(revisionRounds(order({ product_id: "starter" }))).toHaveLength(1);
    expect(revisionRounds(order({ product_id: "professional" }))).toHaveLength(2);
    expect(revisionRoundsFor("enterprise")).toBe(3);
  });

  it("take feedback of 10 to 5000 characters, with the spec's messages", () => {
    const parse = (feedback: string) => FeedbackSchema.safeParse({ round: "1", feedback });
    expect(parse("   short   ").error?.issues[0].message).toBe("Feedback must be at least 10 characters");
    expect(parse("x".repeat(5001)).error?.issues[0].message).toBe("Feedback must be less than 5000 characters");
    expect(parse("x".repeat(5000)).success).toBe(true);
    expect(FeedbackSchema.safeParse({ round: "4", feedback: "long enough text" }).success).toBe(false);
  });
});

describe("customer completeness (out of 20)", () => {
  it("counts filled items as a rounded percent", () => {
    expect(customerCompleteness(null)).toBe(0);
    expect(
      customerCompleteness({
        business_name: "Acme",
        contact_email: "a@b.au",
        contact_phone: "0400",
        needs_contact_form: false,
      }),
    ).toBe(20);
    // Any value in each field: only whether it is filled counts (the values are not the form's options).
    const full = {
      business_name: "A",
      contact_email: "a@b.au",
      contact_phone: "1",
      business_description: "d",
      website_purpose: "bookings",
      services_list: [{ name: "x", price: undefined }],
      brand_colors: ["#000"],
      logo_url: "u",
      uploaded_photos: ["p"],
      pages_needed: ["Home"],
      headline: "h",
      testimonials: [{ text: "t" }],
      primary_domain: "a.au",
      target_keywords: ["k"],
      social_links: { facebook: "f" },
      needs_contact_form: true,
      package_selected: "p",
      style_preference: "s",
      main_cta: "c",
      business_hours: "9-5",
    };
    expect(customerCompleteness(full as StoredSubmission)).toBe(100);
    expect(
      customerCompleteness({ ...full, social_links: { facebook: "" }, brand_colors: [] } as StoredSubmission),
    ).toBe(90);
  });
});

describe("intake access state", () => {
  const now = new Date("2026-03-10T12:00:00Z");
  const at = (ms: number, used = false) => ({ expires_at: new Date(now.getTime() + ms), used });
  it("is Expired at 0 days or fewer, Expiring Soon at 1-3 days, Active otherwise", () => {
    expect(accessState(null, now)).toBe("none");
    expect(accessState(at(-1), now)).toBe("expired");
    expect(accessState(at(0), now)).toBe("expired");
    expect(accessState(at(2 * 60 * 60_000), now)).toBe("expiring"); // 2 hours: rounds up to 1 day
    expect(accessState(at(3 * DAY), now)).toBe("expiring");
    expect(accessState(at(3 * DAY + 1), now)).toBe("active");
    expect(accessState(at(10 * DAY, true), now)).toBe("submitted");
  });
});

describe("order display", () => {
  it("shows ids as 8 characters and statuses in upper case with colours", () => {
    expect(shortId("0f8fad5b-d9cb-469f-a165-70867728950e")).toBe("0f8fad5b");
    expect(statusText("in_progress")).toBe("IN PROGRESS");
    expect(["paid", "pending", "in_progress", "completed", "cancelled", "failed"].map(statusTone)).toEqual([
      "green",
      "yellow",
      "blue",
      "green",
      "red",
      "red",
    ]);
  });
});

describe("package and plan prices", () => {
  it("are the spec's, and 15% off rounded to the dollar with maintenance", () => {
    expect(PACKAGES.map((p) => p.price)).toEqual([99_700, 199_700, 399_700]);
    expect(PACKAGES.map((p) => packagePrice(p, true))).toEqual([84_700, 169_700, 339_700]);
    expect(packagePrice(findPackage("starter")!, false)).toBe(99_700);
    expect(MAINTENANCE_PLANS.map((p) => [p.id, p.price])).toEqual([
      ["essentials", 4_900],
      ["professional", 14_900],
      ["enterprise", 29_900],
    ]);
    expect(MAINTENANCE_PLANS.filter((p) => p.popular).map((p) => p.id)).toEqual(["professional"]);
  });

  it("carry 'With Maintenance' into one checkout: the package once at 15% off, plus the first $49 month, never discounted", () => {
    const q = quote({
      packageId: "starter",
      addOnIds: [],
      withMaintenance: true,
      coupon: { code: "HALF", discount_type: "percentage", discount_value: 50 },
    });
    expect(q.product.price).toBe(84_700);
    expect(q.maintenance).toMatchObject({ planId: "essentials", price: 4_900 });
    expect(q.discount).toBe(42_350);
    expect(q.total).toBe(84_700 - 42_350 + 4_900);
    // The 24-Hour Website has no maintenance option.
    expect(quote({ addOnIds: [], withMaintenance: true }).maintenance).toBeNull();
  });
});

describe("sign-in forms", () => {
  const messages = (value: Record<string, string>) =>
    AuthSchema.safeParse(value).error?.issues.map((i) => i.message) ?? [];
  it("use the spec's messages", () => {
    // Empty fields: one alert with the spec's words, and each field's own message once.
    expect(messages({ intent: "sign-in", email: "", password: "" })).toEqual([
      "Enter your email address",
      "Enter a password",
    ]);
    expect(authAlert({ email: ["Enter your email address"], password: ["Enter a password"] })).toBe(
      "Missing Information: Please provide email and password",
    );
    expect(authAlert({ password: ["Enter a password"] })).toBe(
      "Missing Information: Please provide email and password",
    );
    expect(authAlert({ email: ["Invalid email address"] })).toBe("Invalid email address");
    expect(messages({ intent: "sign-up", email: "a@b.au", password: "12345" })).toEqual([
      "Weak Password: Password must be at least 6 characters",
    ]);
    expect(messages({ intent: "sign-up", email: "a@b.au", password: "123456" })).toEqual([]);
    expect(AuthSchema.safeParse({ intent: "delete-account", email: "a@b.au", password: "123456" }).success).toBe(false);
  });

  it("redirect only to a path on this site", () => {
    expect(safeRedirect("/maintenance?x=1")).toBe("/maintenance?x=1");
    for (const bad of [
      "https://evil.example",
      "//evil.example",
      "/\\evil.example",
      "javascript:alert(1)",
      "/a\nb",
      "/\u3000/evil.com",
      "/caf\u00e9",
      "/a b",
      "/\t/evil.com",
      "/./\\evil.com",
      "",
      null,
    ]) {
      expect(safeRedirect(bad)).toBe("/dashboard");
    }
  });
});

describe("subscription state from facts", () => {
  const fact = (status: string, seconds: number) => ({
    stripe_subscription_id: "sub_1",
    status,
    observed_at: new Date(seconds * 1000),
  });
  it("takes the newest fact whatever order they arrived in, and cancelled is final", () => {
    expect(latestState([fact("past_due", 20), fact("active", 10)])?.status).toBe("past_due");
    expect(latestState([fact("active", 10), fact("past_due", 20)])?.status).toBe("past_due");
    expect(latestState([fact("canceled", 30), fact("active", 40)])?.status).toBe("canceled");
    expect(latestState([])).toBeNull();
  });
});
