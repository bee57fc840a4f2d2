import { beforeAll, describe, expect, it } from "vitest";
import { fulfilOrder } from "~/server/fulfilment.server";
import { checkToken, renewToken, startIntakeSession } from "~/server/intake.server";
import { IntakeSubmission, IntakeToken, Order, OutboxMessage, PrivacyAuditLog } from "~/server/models/index.server";
import { getStorage } from "~/server/storage.server";
import { action as stepAction } from "~/routes/intake-form_.$step";
import { useTestDatabase } from "../support/db";

useTestDatabase();

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

/** A paid order and a browser holding its intake session cookie. */
async function customer() {
  const order = await Order.create({ email: `c${Date.now()}${Math.random()}@example.test`, amount_total: 30000 });
  const { token } = await fulfilOrder({ orderId: order._id, sessionId: `cs_${order._id}`, amountPaid: 30000 });
  const state = await checkToken(token);
  if (state.state !== "valid") throw new Error("token not valid");
  const setCookie = await startIntakeSession(new Request("http://localhost/"), state.token);
  return { orderId: order._id, tokenId: String(state.token._id), cookie: setCookie.split(";")[0] };
}

type Reply = Response & { init?: { status?: number }; data?: { notice?: string; result?: { error?: Record<string, string[]> } } };
async function post(cookie: string, step: number, body: FormData | Record<string, string>) {
  const form = body instanceof FormData ? body : new URLSearchParams(body);
  const request = new Request(`http://localhost/intake-form/${step}`, { method: "POST", body: form, headers: { Cookie: cookie } });
  try {
    return (await stepAction({ request, params: { step: String(step) }, context: {} })) as unknown as Reply;
  } catch (thrown) {
    return thrown as Reply;
  }
}
const status = (r: Reply) => r.init?.status ?? r.status;

const basics = { businessName: "Acme Plumbing", contactEmail: "jo@acme.au", contactPhone: "0400 000 000", businessType: "trades", businessDescription: "Plumbing for the Northern Rivers." };

describe("intake step posts", () => {
  let c: Awaited<ReturnType<typeof customer>>;
  beforeAll(async () => {
    c = await customer();
  });

  it("refuses a request without an intake session", async () => {
    const r = await post("", 1, { ...basics, intent: "next" });
    expect(r.status).toBe(302);
    expect(r.headers.get("Location")).toBe("/checkout");
  });

  it("saves a good step, moves on, and updates the order's progress", async () => {
    const r = await post(c.cookie, 1, { ...basics, abnAcn: "", intent: "next" });
    expect(r.status).toBe(303);
    expect(r.headers.get("Location")).toBe("/intake-form/2");
    const doc = await IntakeSubmission.findOne({ order_id: c.orderId }).lean();
    expect(doc).toMatchObject({ business_name: "Acme Plumbing", abn_acn: null, business_type: "trades", furthest_step: 2 });
    // The five basics, plus pages (Home and Contact are always included): 6 of 35.
    expect((await Order.findById(c.orderId).lean())?.intake_progress).toBe(Math.round((6 / 35) * 100));
  });

  it("answers a bad value with 400 and its message, and saves nothing of it", async () => {
    const r = await post(c.cookie, 1, { ...basics, businessName: "Changed", businessDescription: "short", intent: "next" });
    expect(status(r)).toBe(400);
    expect(r.data?.result?.error?.businessDescription).toEqual(["Description must be at least 10 characters"]);
    expect((await IntakeSubmission.findOne({ order_id: c.orderId }).lean())?.business_name).toBe("Acme Plumbing");
  });

  it("refuses an unknown intent and a step beyond the furthest reached", async () => {
    expect(status(await post(c.cookie, 1, { ...basics, intent: "delete-everything" }))).toBe(400);
    const r = await post(c.cookie, 2, { websitePurpose: "bookings", intent: "jump:9" });
    expect(r.headers.get("Location")).toBe("/intake-form/2");
    // Posting straight to a step not yet reached saves nothing and skips nothing.
    const direct = await post(c.cookie, 9, { legalPagesDisclaimer: "on", needsPrivacyPolicy: "on", intent: "next" });
    expect(direct.headers.get("Location")).toBe("/intake-form/2");
    const doc = await IntakeSubmission.findOne({ order_id: c.orderId }).lean();
    expect(doc?.needs_privacy_policy ?? null).toBeNull();
    expect(doc?.furthest_step).toBe(2);
  });

  it("stores an uploaded logo and photo in S3 under the order, and refuses a file that is not what it claims", async () => {
    await IntakeSubmission.updateOne({ order_id: c.orderId }, { $set: { furthest_step: 4 } }); // reached step 4
    const form = new FormData();
    form.set("intent", "stay");
    form.append("logo", new File([PNG], "logo.png", { type: "image/png" }));
    form.append("photos", new File([PNG], "shop.png", { type: "image/png" }));
    form.append("photos", new File(["<html>not an image</html>"], "fake.jpg", { type: "image/jpeg" }));
    const r = await post(c.cookie, 4, form);
    expect(status(r)).toBe(400);
    expect(r.data?.notice).toBe("fake.jpg is not a PNG, JPG, WebP or GIF image.");
    const doc = await IntakeSubmission.findOne({ order_id: c.orderId }).lean();
    expect(doc?.logo_key).toMatch(new RegExp(`^logos/${c.orderId}/[0-9a-f]{24}\\.png$`));
    expect(doc?.photo_metadata).toHaveLength(1);
    const photo = doc!.photo_metadata[0] as { key: string; placement: string };
    expect(photo.key).toMatch(new RegExp(`^photos/${c.orderId}/`));
    expect(photo.placement).toBe("gallery");
    const stored = await getStorage().get(doc!.logo_key!);
    expect(Buffer.from(stored!.body).equals(PNG)).toBe(true);
    expect(stored!.contentType).toBe("image/png");
  });
});

describe("submitting the intake", () => {
  it("posted ten times at once gives one submitted document, one used token, one audit entry and one e-mail each way", async () => {
    const c = await customer();
    await IntakeSubmission.create({
      order_id: c.orderId,
      business_name: "Acme",
      contact_email: "owner@acme.au",
      contact_phone: "0400 000 000",
      business_description: "We fix pipes.",
      website_purpose: "bookings",
      package_selected: "bold_creative",
      allow_showcase: false,
      furthest_step: 14,
    });
    const results = await Promise.all(Array.from({ length: 10 }, () => post(c.cookie, 14, { intent: "submit" })));
    const redirects = results.filter((r) => r.status === 303 && r.headers.get("Location") === "/intake-form");
    expect(redirects.length).toBeGreaterThanOrEqual(1);
    expect(await IntakeSubmission.countDocuments({ order_id: c.orderId })).toBe(1);
    expect(await IntakeSubmission.findOne({ order_id: c.orderId }).lean()).toMatchObject({ status: "submitted" });
    expect((await IntakeToken.findById(c.tokenId).lean())?.used).toBe(true);
    expect(await PrivacyAuditLog.countDocuments({ order_id: c.orderId, action: "consent_given" })).toBe(1);
    expect(await OutboxMessage.countDocuments({ to: "owner@acme.au" })).toBe(1);
    expect(await OutboxMessage.countDocuments({ key: `intake-notice:${c.tokenId}` })).toBe(1);
  });

  it("refuses to submit before the required steps are done, saying which", async () => {
    const c = await customer();
    await IntakeSubmission.create({ order_id: c.orderId, furthest_step: 14 }); // reached the end with steps left empty
    const r = await post(c.cookie, 14, { intent: "submit" });
    expect(status(r)).toBe(400);
    expect(r.data?.notice).toContain("Please complete: Business Basics, Goals & Offer, Package & Payment, Privacy & Consent.");
  });
});

describe("renewing an expired link", () => {
  it("extends it once by 30 days however many clicks race, and at most three times in all", async () => {
    const c = await customer();
    await IntakeToken.updateOne({ _id: c.tokenId }, { $set: { expires_at: new Date(Date.now() - 1000) } });
    expect((await Promise.all(Array.from({ length: 10 }, () => renewToken(c.tokenId)))).every(Boolean)).toBe(true);
    const token = await IntakeToken.findById(c.tokenId).lean();
    expect(token?.auto_renewed_count).toBe(1);
    expect(token!.expires_at.getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    await renewToken(c.tokenId);
    await renewToken(c.tokenId);
    expect(await renewToken(c.tokenId)).toBe(false);
    expect((await IntakeToken.findById(c.tokenId).lean())?.auto_renewed_count).toBe(3);
  });
});
