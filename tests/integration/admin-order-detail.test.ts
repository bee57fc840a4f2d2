import { randomUUID } from "node:crypto";
import mongoose from "mongoose";
import { beforeAll, describe, expect, it } from "vitest";
import * as detail from "~/routes/admin.orders.$orderId";
import { startClock } from "~/server/delivery-clock.server";
import {
  IntakeSubmission,
  IntakeToken,
  Order,
  OutboxMessage,
  PrivacyAuditLog,
  ReminderLog,
} from "~/server/models/index.server";
import { flashOf, get, paidOrderWithSession, post } from "../support/admin";
import { signedInUser } from "../support/auth";
import { useTestDatabase } from "../support/db";

useTestDatabase();

let cookie: string;
beforeAll(async () => {
  cookie = (await signedInUser({ admin: true })).cookie;
});

const send = (orderId: string, body: Record<string, string>) =>
  post(detail.action, `/admin/orders/${orderId}`, cookie, body, { orderId });
const load = async (orderId: string, tab = "") =>
  (await get(detail.loader, `/admin/orders/${orderId}${tab}`, cookie, { orderId })).data as Awaited<
    ReturnType<typeof detail.loader>
  >;

async function submitted(orderId: string, fields: Record<string, unknown> = {}) {
  await IntakeSubmission.create({
    order_id: orderId,
    status: "submitted",
    submitted_at: new Date(Date.now() - 20 * 3_600_000),
    business_name: "Bright Spark Electrical",
    business_description: "Licensed electricians in Lismore.",
    business_type: "trades",
    website_purpose: "lead_generation",
    contact_email: "private-owner@brightspark.test",
    contact_phone: "0400 123 999",
    testimonials: [{ author: "Private Person", text: "Great", rating: 5 }],
    ai_processing_consent: true,
    ...fields,
  });
}

describe("order detail", () => {
  it("is a 404 for an unknown or malformed id", async () => {
    expect((await get(detail.loader, "/admin/orders/x", cookie, { orderId: "x' || 1==1" })).status).toBe(404);
    const missing = randomUUID();
    expect((await get(detail.loader, `/admin/orders/${missing}`, cookie, { orderId: missing })).status).toBe(404);
  });

  it("shows what was sold: the product, each add-on at its price, the coupon and its discount, the total paid", async () => {
    const { orderId } = await paidOrderWithSession(`sold-${randomUUID()}@example.test`);
    // As checkout stores a 24-Hour Website with Priority and 2 Extra Pages and a 10% coupon (pricing.ts `quote`).
    await Order.updateOne(
      { _id: orderId },
      {
        $set: {
          add_ons: [
            { id: "priority-12hr", name: "Priority 12-Hour Delivery", price: 20_000 },
            { id: "extra-pages", name: "2 Extra Pages", price: 10_000 },
          ],
          coupon_code: "SAVE10",
          discount: 6_000,
          amount_total: 54_000,
          amount_paid: 54_000,
        },
      },
    );
    expect((await load(orderId)).sold).toMatchObject({
      rows: [
        { label: "24-Hour Website", amount: "$300.00" },
        { label: "Priority 12-Hour Delivery", amount: "$200.00" },
        { label: "2 Extra Pages", amount: "$100.00" },
        { label: "Coupon SAVE10", amount: "-$60.00" },
      ],
      total: { label: "Total paid (AUD)", amount: "$540.00" },
    });
  });

  it("shows the token card and says when the intake isn't done", async () => {
    const { orderId } = await paidOrderWithSession(`d-${randomUUID()}@example.test`);
    const d = await load(orderId);
    expect(d.token).toMatchObject({ state: "Valid", used: false });
    expect(d.token!.intakeUrl).toMatch(/\/intake-form\?token=/);
    expect(d.prompt.state).toBe("no-submission");
    expect(d.hasSubmission).toBe(false);
  });

  it("saves a draft URL, measuring the first delivery once", async () => {
    const { orderId } = await paidOrderWithSession(`d-${randomUUID()}@example.test`);
    await submitted(orderId);
    await startClock(orderId, new Date(Date.now() - 20 * 3_600_000)); // as the submission does
    const blank = await send(orderId, { intent: "save-draft-url", draftUrl: "   " });
    expect(await flashOf(blank)).toEqual({
      kind: "error",
      title: "URL Required",
      description: "Please enter a draft URL",
    });
    // Not a web address: answered on the form (400), naming why, with what was typed.
    expect(await send(orderId, { intent: "save-draft-url", draftUrl: "javascript:alert(1)" })).toMatchObject({
      data: {
        intent: "save-draft-url",
        value: "javascript:alert(1)",
        error: "Enter a web address starting with http:// or https://",
      },
      status: 400,
    });
    expect((await Order.findById(orderId).lean())!.draft_url).toBeNull();

    expect(await flashOf(await send(orderId, { intent: "save-draft-url", draftUrl: "drafts.example/bright" }))).toEqual(
      { kind: "success", title: "Draft URL Saved" },
    );
    const first = (await Order.findById(orderId).lean())!;
    expect(first.draft_url).toBe("https://drafts.example/bright");
    expect(first.delivery_hours).toBeCloseTo(20, 0);
    await send(orderId, { intent: "save-draft-url", draftUrl: "https://drafts.example/v2" });
    const second = (await Order.findById(orderId).lean())!;
    expect(second.draft_url).toBe("https://drafts.example/v2");
    expect(second.draft_delivered_at).toEqual(first.draft_delivered_at);
  });

  it("enables revision rounds up to the package's number, one e-mail per round, ever", async () => {
    const { orderId } = await paidOrderWithSession(`d-${randomUUID()}@example.test`, { product_id: "professional" });
    const toggle = (round: string, enabled: string) => send(orderId, { intent: "toggle-revision", round, enabled });
    const clicks = await Promise.all([toggle("1", "true"), toggle("1", "true"), toggle("1", "true")]);
    expect((await Promise.all(clicks.map(flashOf))).map((f) => f?.description).sort()).toEqual([
      "Round 1 enabled and customer notified.",
      "Round 1 enabled. The customer was e-mailed when it first opened, so no new e-mail was sent.",
      "Round 1 enabled. The customer was e-mailed when it first opened, so no new e-mail was sent.",
    ]);
    expect(await OutboxMessage.countDocuments({ key: `revision-opened:${orderId}:1` })).toBe(1);

    expect(await flashOf(await toggle("1", "false"))).toEqual({
      kind: "success",
      title: "Revision Disabled",
      description: "Round 1 disabled.",
    });
    expect((await Order.findById(orderId).lean())!.revision_1_enabled).toBe(false);
    // Re-enabled after a close: no second identical e-mail.
    expect((await flashOf(await toggle("1", "true")))?.description).toBe(
      "Round 1 enabled. The customer was e-mailed when it first opened, so no new e-mail was sent.",
    );
    expect(
      await OutboxMessage.countDocuments({ key: mongoose.trusted({ $regex: `^revision-opened:${orderId}:` }) }),
    ).toBe(1);

    // Professional includes two rounds: round 3 is refused and nothing changes.
    expect(await flashOf(await toggle("3", "true"))).toEqual({
      kind: "error",
      title: "Error",
      description: "This order's package includes 2 revision rounds.",
    });
    expect((await Order.findById(orderId).lean())!.revision_3_enabled).toBe(false);
    expect((await toggle("9", "true")).status).toBe(400);
  });

  it("renews the token for 30 days however often the customer renewed it themselves", async () => {
    const { orderId, tokenId } = await paidOrderWithSession(`d-${randomUUID()}@example.test`);
    await IntakeToken.updateOne(
      { _id: tokenId },
      { $set: { expires_at: new Date(Date.now() - 1000), auto_renewed_count: 3 } },
    );
    expect((await load(orderId)).token!.state).toBe("Expired");
    const answer = await send(orderId, { intent: "renew-token" });
    expect((await flashOf(answer))?.title).toBe("Token Renewed");
    const token = (await IntakeToken.findById(tokenId).lean())!;
    expect(token.expires_at.getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    expect(token.auto_renewed_count).toBe(3);
  });

  it("sends a reminder through the cron's rules, and not again so soon", async () => {
    const { orderId } = await paidOrderWithSession(`d-${randomUUID()}@example.test`);
    expect(await flashOf(await send(orderId, { intent: "send-reminder" }))).toEqual({
      kind: "success",
      title: "Reminder Sent",
      description: "Intake form reminder sent to customer.",
    });
    expect(await flashOf(await send(orderId, { intent: "send-reminder" }))).toEqual({
      kind: "info",
      title: "Notice",
      description: "Reminder not sent (limit reached or sent recently)",
    });
    expect(await ReminderLog.countDocuments({ order_id: orderId })).toBe(1);
  });

  it("generates an AI prompt with no private data, and records it in the privacy audit log", async () => {
    const { orderId } = await paidOrderWithSession(`d-${randomUUID()}@example.test`);
    await submitted(orderId);
    const view = await load(orderId, "?tab=ai-prompt");
    expect(view.prompt).toMatchObject({ state: "ready", tone: "red" });
    expect(await PrivacyAuditLog.countDocuments({ order_id: orderId, action: "ai_processing" })).toBe(0); // viewing changes nothing

    const answer = await send(orderId, { intent: "generate-prompt" });
    const prompt = (answer.data as { prompt: string }).prompt;
    expect(prompt).toContain("Bright Spark Electrical");
    for (const secret of ["private-owner@brightspark.test", "0400 123 999", "Private Person"])
      expect(prompt).not.toContain(secret);
    expect(await PrivacyAuditLog.countDocuments({ order_id: orderId, action: "ai_processing" })).toBe(1);

    const revision = await send(orderId, { intent: "revision-prompt", round: "1", notes: "  " });
    expect(revision.status).toBe(400);
    expect(JSON.stringify(revision.data)).toContain("Please enter revision notes before generating prompt");
    const good = await send(orderId, { intent: "revision-prompt", round: "1", notes: "Make the logo bigger" });
    expect((good.data as { prompt: string }).prompt).toContain("Make the logo bigger");
    expect(await PrivacyAuditLog.countDocuments({ order_id: orderId, action: "ai_processing" })).toBe(2);
  });

  it("never builds a prompt for a customer who opted out of AI processing", async () => {
    const { orderId } = await paidOrderWithSession(`d-${randomUUID()}@example.test`);
    await submitted(orderId, { ai_processing_consent: false });
    expect((await load(orderId)).prompt.state).toBe("opted-out");
    const answer = await send(orderId, { intent: "generate-prompt" });
    expect((await flashOf(answer))?.kind).toBe("error");
    expect(await PrivacyAuditLog.countDocuments({ order_id: orderId })).toBe(0);
  });

  it("edits intake data, ignoring (and naming) a JSON field that doesn't parse and saving the rest", async () => {
    const { orderId } = await paidOrderWithSession(`d-${randomUUID()}@example.test`);
    // As the intake stores a step with one platform given: the blank ones come back null.
    await submitted(orderId, {
      social_links: { facebook: "https://fb.example/spark", instagram: null, youtube: null, linkedin: null },
      brand_colors: ["red"],
    });
    const values = (await load(orderId, "?tab=edit-data")).editValues!;
    // What the form pre-fills is what it accepts: saved untouched, it is a success.
    const untouched = await send(orderId, { ...values, intent: "save-data" });
    expect(await flashOf(untouched)).toEqual({ kind: "success", title: "Saved Successfully" });
    expect((await IntakeSubmission.findOne({ order_id: orderId }).lean())!.social_links).toEqual({
      facebook: "https://fb.example/spark",
    });

    const partly = await send(orderId, {
      ...values,
      intent: "save-data",
      business_name: "Changed",
      brand_colors: "[navy",
    });
    expect(partly.status).toBe(200);
    expect(JSON.stringify(partly.data)).toContain("Brand colours: not valid JSON, so this change was ignored");
    expect(partly.data).toMatchObject({ ignored: ["Brand colours"] });
    const afterPartly = (await IntakeSubmission.findOne({ order_id: orderId }).lean())!;
    expect(afterPartly.business_name).toBe("Changed");
    expect(afterPartly.brand_colors).toEqual(["red"]);

    const good = await send(orderId, {
      ...values,
      intent: "save-data",
      business_name: "Bright Spark",
      brand_colors: '["navy","gold"]',
      headline: "Power you can trust",
    });
    expect(await flashOf(good)).toEqual({ kind: "success", title: "Saved Successfully" });
    expect(good.location).toBe(`/admin/orders/${orderId}?tab=edit-data`);
    const doc = (await IntakeSubmission.findOne({ order_id: orderId }).lean())!;
    expect(doc).toMatchObject({
      business_name: "Bright Spark",
      brand_colors: ["navy", "gold"],
      headline: "Power you can trust",
      contact_email: "private-owner@brightspark.test",
      ai_processing_consent: true,
    });
    expect((await Order.findById(orderId).lean())!.intake_progress).toBeGreaterThan(0);
  });

  it("answers an unknown intent with 400", async () => {
    const { orderId } = await paidOrderWithSession(`d-${randomUUID()}@example.test`);
    expect((await send(orderId, { intent: "drop-tables" })).status).toBe(400);
  });
});
