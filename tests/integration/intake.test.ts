import mongoose from "mongoose";
import { beforeAll, describe, expect, it } from "vitest";
import { IntakeSubmission, IntakeToken, Order, OutboxMessage, PrivacyAuditLog } from "~/server/models/index.server";
import { getStorage } from "~/server/storage.server";
import { MAX_COMPRESSION_RATIO } from "~/server/images.server";
import sharp from "sharp";
import { takeFlashes } from "~/server/flash.server";
import { LIST_SHAPE_MESSAGE } from "~/domain/intake/schemas";
import { getEnv } from "~/server/env.server";
import { consumeRateLimit } from "~/server/rate-limit.server";
import { PIXEL_LIMITS } from "~/server/intake/uploads.server";
import {
  adminRenewToken,
  checkToken,
  exchangeToken,
  hashToken,
  issueToken,
  newestToken,
  renewToken,
  requireTokenAccess,
  tokenSession,
} from "~/server/tokens.server";
import { action as entryAction } from "~/routes/intake-form";
import { loader as statusLoader } from "~/routes/order-status";
import { stepAction } from "~/server/intake/step.server";
import { loadSubmission, saveStep } from "~/server/intake/draft.server";
import { privacyAuditLog, privacyCounters } from "~/server/admin/privacy.server";
import { paidOrder, tokenCookie } from "../support/app-data";
import { useTestDatabase } from "../support/db";
import { APP_MAX_COMPRESSION_RATIO, gifBomb, withComment } from "../../scripts/bench/worst-images.mjs";

useTestDatabase();

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

/** A paid order and a browser holding its intake session cookie. */
async function customer() {
  const order = await paidOrder();
  return { ...order, tokenId: hashToken(order.token), cookie: await tokenCookie(order.token) };
}

type Reply = Response & {
  init?: { status?: number };
  data?: { notice?: string; result?: { error?: Record<string, string[]> } };
};
async function post(cookie: string, step: number, body: FormData | Record<string, string>) {
  const form = body instanceof FormData ? body : new URLSearchParams(body);
  const request = new Request(`http://localhost/intake-form/${step}`, {
    method: "POST",
    body: form,
    headers: { Cookie: cookie },
  });
  try {
    return (await stepAction({ request, params: {}, context: {} }, step)) as unknown as Reply;
  } catch (thrown) {
    return thrown as Reply;
  }
}
const status = (r: Reply) => r.init?.status ?? r.status;

/** The renewal button of the expired-link screen. */
async function renewPost(cookie: string) {
  const request = new Request("http://localhost/intake-form", {
    method: "POST",
    body: new URLSearchParams(),
    headers: { Cookie: cookie },
  });
  return (await entryAction({ request, params: {}, context: {} })) as Response;
}

/** The title of the flash message a redirect carries, as the next page would show it. */
async function flashTitle(response: Response): Promise<string | undefined> {
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith("__flash="));
  if (!cookie) return undefined;
  const { flashes } = await takeFlashes(
    new Request("http://localhost/", { headers: { Cookie: cookie.split(";")[0] } }),
  );
  return flashes.at(-1)?.title;
}

/** A step-4 post with files. */
function filesForm(fields: Record<string, string>, files: Record<string, File[]> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const [k, list] of Object.entries(files)) for (const f of list) form.append(k, f);
  return form;
}
const png = (name: string, bytes: Uint8Array = PNG) => new File([bytes as BlobPart], name, { type: "image/png" });
const reachStep = (orderId: string, step: number) =>
  IntakeSubmission.updateOne(
    { _id: orderId },
    { $set: { furthest_step: step }, $setOnInsert: { order_id: orderId } },
    { upsert: true },
  );

const basics = {
  businessName: "Acme Plumbing",
  contactEmail: "jo@acme.au",
  contactPhone: "0400 000 000",
  businessType: "trades",
  businessDescription: "Plumbing for the Northern Rivers.",
};

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
    expect(doc).toMatchObject({
      business_name: "Acme Plumbing",
      abn_acn: null,
      business_type: "trades",
      furthest_step: 2,
    });
    // The five basics, plus pages (Home and Contact are always included): 6 of 35.
    expect((await Order.findById(c.orderId).lean())?.intake_progress).toBe(Math.round((6 / 35) * 100));
  });

  it("answers a bad value with 400 and its message, saves nothing of it, and saves the step's valid answers", async () => {
    const r = await post(c.cookie, 1, {
      ...basics,
      businessName: "Changed",
      businessDescription: "short",
      intent: "next",
    });
    expect(status(r)).toBe(400);
    expect(r.data?.result?.error?.businessDescription).toEqual([
      "Please describe your business in at least 10 characters",
    ]);
    // The refused answer keeps its stored value; the valid one beside it is saved (a bad field no longer loses the step).
    const saved = await IntakeSubmission.findOne({ order_id: c.orderId }).lean();
    expect(saved?.business_description).toBe("Plumbing for the Northern Rivers.");
    expect(saved?.business_name).toBe("Changed");
    await post(c.cookie, 1, { ...basics, intent: "stay" }); // back as the tests after this one expect it
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
    expect((await sharp(stored!.body).metadata()).format).toBe("png"); // decoded and written out again
    expect(stored!.contentType).toBe("image/png");
  });
});

/** A draft with every step the submit needs. */
const complete = {
  business_name: "Acme",
  contact_email: "owner@acme.au",
  contact_phone: "0400 000 000",
  business_description: "We fix pipes.",
  website_purpose: "bookings",
  package_selected: "bold_creative",
  allow_showcase: false,
};

describe("a step's save of a draft the request read", () => {
  it("updates it in place, and creates it again with its defaults when it went after the read", async () => {
    const { orderId } = await paidOrder();
    await IntakeSubmission.create({ order_id: orderId, furthest_step: 1 });
    const before = await loadSubmission(orderId);
    await saveStep(orderId, 1, { businessName: "First Name Pty Ltd" }, 2, before);
    expect(await IntakeSubmission.findById(orderId).lean()).toMatchObject({
      business_name: "First Name Pty Ltd",
      furthest_step: 2,
    });

    // Removed between this request's read and its save (a data deletion, say): saved all the same, as a whole draft.
    const read = await loadSubmission(orderId);
    await IntakeSubmission.deleteOne({ _id: orderId });
    await saveStep(orderId, 1, { businessName: "Second Name Pty Ltd" }, 2, read);
    expect(await IntakeSubmission.findById(orderId).lean()).toMatchObject({
      order_id: orderId,
      business_name: "Second Name Pty Ltd",
      status: "draft",
      needs_contact_form: true,
    });
  });
});

describe("submitting the intake", () => {
  it("a customer who chose a by-hand build is logged as AI declined, and counted so, not as a consent", async () => {
    const before = await privacyCounters();
    const c = await customer();
    await IntakeSubmission.create({
      order_id: c.orderId,
      ...complete,
      contact_email: "owner@by-hand.example", // its own address: the next test counts mail to complete's
      furthest_step: 14,
      privacy_consent: { allowAIDataProcessing: false, aiOptOut: true, version: "1.0" },
      ai_processing_consent: false,
    });
    expect((await post(c.cookie, 14, { intent: "submit" })).status).toBe(303);
    expect(await PrivacyAuditLog.countDocuments({ order_id: c.orderId, action: "ai_declined" })).toBe(1);
    expect(await PrivacyAuditLog.countDocuments({ order_id: c.orderId, action: "consent_given" })).toBe(0);
    const after = await privacyCounters();
    expect(after.aiDeclined).toBe(before.aiDeclined + 1);
    expect(after.consents).toBe(before.consents);
    expect(after.aiEnabled).toBe(before.aiEnabled);
    const entry = (await privacyAuditLog()).rows.find((r) => r.orderId === c.orderId);
    expect(entry?.action).toBe("AI declined (by-hand build)");
  });

  it("posted 20 times at once gives one submitted document, one used token, one audit entry and one e-mail each way, and one 'Form Submitted!'", async () => {
    const c = await customer();
    await IntakeSubmission.create({ order_id: c.orderId, ...complete, furthest_step: 14 });
    const results = await Promise.all(Array.from({ length: 20 }, () => post(c.cookie, 14, { intent: "submit" })));
    const redirects = results.filter((r) => r.status === 303 && r.headers.get("Location") === "/intake-form");
    expect(redirects.length).toBeGreaterThanOrEqual(1);
    const titles = await Promise.all(redirects.map(flashTitle));
    expect(titles.filter((t) => t === "Form Submitted!")).toHaveLength(1);
    expect(titles.filter((t) => t !== "Form Submitted!").every((t) => t === "Form Updated!")).toBe(true);
    expect(await IntakeSubmission.countDocuments({ order_id: c.orderId })).toBe(1);
    expect(await IntakeSubmission.findOne({ order_id: c.orderId }).lean()).toMatchObject({ status: "submitted" });
    expect((await IntakeToken.findById(c.tokenId).lean())?.used).toBe(true);
    expect(await PrivacyAuditLog.countDocuments({ order_id: c.orderId, action: "consent_given" })).toBe(1);
    expect(await OutboxMessage.countDocuments({ key: `intake-notice:${c.tokenId}:0` })).toBe(1);
    // The confirmation goes to the buyer's address on the order, and to the step-1 contact address as it differs.
    // This order's mail only (other tests mail complete's contact address too), each under this submission's key.
    const mail = await OutboxMessage.find({ order_id: c.orderId, subject: "We've received your details" })
      .sort({ key: 1 })
      .lean();
    expect(mail.map((m) => [m.key, m.to])).toEqual([
      [`intake-confirmation:${c.tokenId}:0`, c.email],
      [`intake-confirmation:${c.tokenId}:0:1`, "owner@acme.au"],
    ]);
    expect(await OutboxMessage.countDocuments({ order_id: c.orderId, to: "owner@acme.au" })).toBe(1);
  });

  it("re-submitted through a link an admin reopened, 20 times at once: marks the link used, one isUpdate confirmation each way and one notice naming what changed, the clock's start kept", async () => {
    const c = await customer();
    // Its own contact address: the other tests count the mail sent to complete's.
    const contact = `owner-${c.orderId}@acme.au`;
    await IntakeSubmission.create({ order_id: c.orderId, ...complete, contact_email: contact, furthest_step: 14 });
    expect(await flashTitle(await post(c.cookie, 14, { intent: "submit" }))).toBe("Form Submitted!");
    const started = await Order.findById(c.orderId, { clock_started_at: 1, clock_deadline: 1 }).lean();
    expect(started?.clock_deadline).toBeInstanceOf(Date);
    // A used link shows the submitted screen; the admin reopens it, and the customer changes step 1 and submits again.
    expect((await post(c.cookie, 1, { ...basics, intent: "next" })).status).toBe(303);
    expect(await adminRenewToken(c.tokenId)).toBeInstanceOf(Date);
    expect(status(await post(c.cookie, 1, { ...basics, intent: "next" }))).toBe(303);
    const results = await Promise.all(Array.from({ length: 20 }, () => post(c.cookie, 14, { intent: "submit" })));
    const redirects = results.filter((r) => r.status === 303 && r.headers.get("Location") === "/intake-form");
    expect(redirects.length).toBeGreaterThanOrEqual(1);
    const titles = await Promise.all(redirects.map(flashTitle));
    expect(titles.filter(Boolean).length).toBeGreaterThanOrEqual(1);
    expect(titles.filter(Boolean).every((t) => t === "Form Updated!")).toBe(true);
    expect((await IntakeToken.findById(c.tokenId).lean())?.used).toBe(true);
    const updates = await OutboxMessage.find({ subject: "We've received your changes" }).lean();
    expect(
      updates
        .filter((m) => [c.email, "jo@acme.au"].includes(m.to))
        .map((m) => m.to)
        .sort(),
    ).toEqual([c.email, "jo@acme.au"].sort());
    const notices = await OutboxMessage.find({ key: mongoose.trusted({ $regex: `^intake-notice:${c.tokenId}:` }) })
      .sort({ key: 1 })
      .lean();
    expect(notices.map((m) => m.key)).toEqual([`intake-notice:${c.tokenId}:0`, `intake-notice:${c.tokenId}:1`]);
    expect(notices[1]!.subject).toBe("Intake updated: Acme Plumbing");
    expect(notices[1]!.text).toContain("What changed since the previous submission: Business Basics.");
    expect(notices[1]!.text).toContain("The update does not move the deadline.");
    expect(await PrivacyAuditLog.countDocuments({ order_id: c.orderId, action: "consent_given" })).toBe(2);
    expect(await Order.findById(c.orderId, { clock_started_at: 1, clock_deadline: 1 }).lean()).toEqual(started);
    // A post resent after the submission landed finds the link used: nothing more is sent.
    expect((await post(c.cookie, 14, { intent: "submit" })).status).toBe(303);
    expect(await OutboxMessage.countDocuments({ order_id: c.orderId, subject: "We've received your changes" })).toBe(2);
  });

  it("sends one confirmation when the contact address is the buyer's", async () => {
    const c = await customer();
    await IntakeSubmission.create({
      order_id: c.orderId,
      ...complete,
      contact_email: c.email.toUpperCase(),
      furthest_step: 14,
    });
    expect((await post(c.cookie, 14, { intent: "submit" })).status).toBe(303);
    expect(await OutboxMessage.countDocuments({ to: c.email })).toBe(2); // the payment e-mail and the confirmation
  });

  it("refuses to submit before the required steps are done, saying which", async () => {
    const c = await customer();
    await IntakeSubmission.create({ order_id: c.orderId, furthest_step: 14 }); // reached the end with steps left empty
    const r = await post(c.cookie, 14, { intent: "submit" });
    expect(status(r)).toBe(400);
    expect(r.data?.notice).toContain(
      "Please complete: Business Basics, Goals & Offer, Package & Payment, Privacy & Consent.",
    );
  });
});

describe("renewing an expired link", () => {
  const expire = (tokenId: string) =>
    IntakeToken.updateOne({ _id: tokenId }, { $set: { expires_at: new Date(Date.now() - 1000) } });

  it("extends it by 30 days, at most three times in all", async () => {
    const c = await customer();
    for (let i = 1; i <= 3; i++) {
      await expire(c.tokenId);
      expect(await renewToken(c.tokenId)).toBe(true);
      const token = await IntakeToken.findById(c.tokenId).lean();
      expect(token?.auto_renewed_count).toBe(i);
      expect(token!.expires_at.getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    }
    await expire(c.tokenId);
    expect(await renewToken(c.tokenId)).toBe(false);
    expect((await IntakeToken.findById(c.tokenId).lean())?.auto_renewed_count).toBe(3);
  });

  it("posted 20 times at once uses exactly one of the three renewals", async () => {
    const c = await customer();
    await expire(c.tokenId);
    const results = await Promise.all(Array.from({ length: 20 }, () => renewPost(c.cookie)));
    expect(results.every((r) => r.status === 303)).toBe(true);
    expect((await IntakeToken.findById(c.tokenId).lean())?.auto_renewed_count).toBe(1);
    expect(await Promise.all(results.map(flashTitle))).not.toContain(
      "Unable to renew access automatically. Please contact support.",
    );
  });
});

describe("step 4's files", () => {
  type Photo = { id: string; key: string; thumbKey: string; url: string; altText: string };
  const photosOf = async (orderId: string) =>
    ((await IntakeSubmission.findById(orderId).lean())?.photo_metadata ?? []) as Photo[];
  const exists = async (key: string) => Boolean(await getStorage().get(key));

  it("names photos by their id in this order's record: another order's photo can be neither removed nor adopted, nor an outside URL listed", async () => {
    const victim = await customer();
    await reachStep(victim.orderId, 4);
    await post(victim.cookie, 4, filesForm({ intent: "stay" }, { photos: [png("victim.png")] }));
    const [theirs] = await photosOf(victim.orderId);
    expect(await exists(theirs.key)).toBe(true);

    const attacker = await customer();
    await reachStep(attacker.orderId, 4);
    await post(attacker.cookie, 4, filesForm({ intent: "stay" }, { photos: [png("mine.png")] }));
    const [mine] = await photosOf(attacker.orderId);
    // The old attack: a row that names the victim's key and an outside URL, then Remove on it: refused outright.
    const rows = {
      "photoMetadata[0].id": theirs.id,
      "photoMetadata[0].altText": "x",
      "photoMetadata[1].id": mine.id,
      "photoMetadata[1].altText": "My shop",
    };
    const keyed = {
      ...rows,
      "photoMetadata[0].key": theirs.key,
      "photoMetadata[0].url": "https://evil.example/tracker.png",
    };
    expect(status(await post(attacker.cookie, 4, { ...keyed, intent: `remove:photoMetadata:${theirs.id}` }))).toBe(400);
    // Naming the victim's photo by its id: ignored, it is not in this order's record.
    await post(attacker.cookie, 4, { ...rows, intent: `remove:photoMetadata:${theirs.id}` });
    await post(attacker.cookie, 4, { ...rows, intent: "stay" });

    expect(await exists(theirs.key)).toBe(true);
    expect(await photosOf(victim.orderId)).toMatchObject([{ id: theirs.id, key: theirs.key }]);
    const after = await photosOf(attacker.orderId);
    expect(after).toMatchObject([{ id: mine.id, key: mine.key, url: mine.url, altText: "My shop" }]);
    expect(JSON.stringify(after)).not.toContain("evil.example");
    expect(JSON.stringify(after)).not.toContain(victim.orderId);
  });

  it("deletes a removed photo and a replaced logo from storage once the new record is saved", async () => {
    const c = await customer();
    await reachStep(c.orderId, 4);
    await post(
      c.cookie,
      4,
      filesForm({ intent: "stay" }, { logo: [png("old-logo.png")], photos: [png("a.png"), png("b.png")] }),
    );
    const before = await IntakeSubmission.findById(c.orderId).lean();
    const [a, b] = before!.photo_metadata as Photo[];
    const oldLogo = [before!.logo_key!, before!.logo_thumb_key!];
    expect(await exists(a.thumbKey)).toBe(true);

    const rows = { "photoMetadata[0].id": a.id, "photoMetadata[1].id": b.id };
    expect(status(await post(c.cookie, 4, { ...rows, intent: `remove:photoMetadata:${a.id}` }))).toBe(303);
    expect((await photosOf(c.orderId)).map((p) => p.id)).toEqual([b.id]);
    expect(await exists(a.key)).toBe(false);
    expect(await exists(a.thumbKey)).toBe(false);
    expect(await exists(b.key)).toBe(true);

    await post(
      c.cookie,
      4,
      filesForm({ "photoMetadata[0].id": b.id, intent: "stay" }, { logo: [png("new-logo.png")] }),
    );
    const after = await IntakeSubmission.findById(c.orderId).lean();
    expect(after!.logo_key).not.toBe(oldLogo[0]);
    expect(await exists(after!.logo_key!)).toBe(true);
    for (const key of oldLogo) expect(await exists(key)).toBe(false);
  });

  it("decodes every image: a 6 MB file with a PNG signature is refused with a message; GPS metadata is stripped; a small copy is kept", async () => {
    const c = await customer();
    await reachStep(c.orderId, 4);
    const fake = new Uint8Array(6 * 1024 * 1024);
    fake.set(PNG.subarray(0, 16));
    for (let i = 16; i < fake.length; i += 4096) fake[i] = (i * 7) & 0xff;
    const r = await post(c.cookie, 4, filesForm({ intent: "stay" }, { photos: [png("noise.png", fake)] }));
    expect(status(r)).toBe(400);
    expect(r.data?.notice).toBe(
      "noise.png could not be read as an image (it may be damaged). Please choose another file.",
    );
    expect(await photosOf(c.orderId)).toEqual([]);

    const withGps = await sharp({ create: { width: 2400, height: 1600, channels: 3, background: "#3a6" } })
      .jpeg()
      .withExif({ IFD0: { Make: "Phone" }, IFD3: { GPSLatitudeRef: "S", GPSLatitude: "28/1 48/1 0/1" } })
      .toBuffer();
    expect((await sharp(withGps).metadata()).exif).toBeTruthy();
    const ok = await post(
      c.cookie,
      4,
      filesForm({ intent: "stay" }, { photos: [new File([withGps as BlobPart], "van.jpg", { type: "image/jpeg" })] }),
    );
    expect(status(ok)).toBe(303);
    const [photo] = await photosOf(c.orderId);
    const stored = await getStorage().get(photo.key);
    const meta = await sharp(stored!.body).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.width).toBe(2400);
    const thumb = await getStorage().get(photo.thumbKey);
    expect(thumb!.contentType).toBe("image/webp");
    expect((await sharp(thumb!.body).metadata()).width).toBe(480);
    expect(thumb!.body.byteLength).toBeLessThan(50_000);
  });

  it("bounds each image's work: the first frame only, at most 4096 px stored, and over 50 megapixels refused from the header with a message, keeping what was typed", async () => {
    const c = await customer();
    await reachStep(c.orderId, 4);
    // The issue's upload: a 7000 x 7000 GIF of two frames, 67 KB, that took 24.5 s to process. It unpacks to 2,200
    // times its size, so it is now refused before decoding (429 past the hour's budget, with what was typed saved).
    const bomb = new File([gifBomb(7000, 7000, 2) as BlobPart], "bomb.gif", { type: "image/gif" });
    const refused = await post(
      c.cookie,
      4,
      filesForm({ "brandColors[0]": "Navy", intent: "stay" }, { photos: [bomb] }),
    );
    expect([status(refused), refused.data?.notice]).toEqual([
      400,
      "bomb.gif was not opened: it unpacks from 66 KB to 49 megapixels, far more than any photo or logo does. Please choose another copy of it (saved as an ordinary PNG or JPG).",
    ]);
    expect((await IntakeSubmission.findById(c.orderId).lean())?.brand_colors).toEqual(["Navy"]);
    // The same GIF with 20 KB of comment (1,700 times its size) is decoded: only its first frame, at most 4096 px.
    const padded = new File([withComment(gifBomb(7000, 7000, 2), 20_000) as BlobPart], "bomb.gif", {
      type: "image/gif",
    });
    expect(status(await post(c.cookie, 4, filesForm({ intent: "stay" }, { photos: [padded] })))).toBe(303);
    // The benchmarks pad their GIF bomb the same way, to the ratio they copy from the app (worst-images.mjs).
    expect(APP_MAX_COMPRESSION_RATIO).toBe(MAX_COMPRESSION_RATIO);
    const [photo] = await photosOf(c.orderId);
    const stored = (await getStorage().get(photo.key))!;
    // Its first frame, stored as a PNG (lossless, and far less work than writing a GIF again).
    expect([photo.key.split(".").pop(), stored.contentType]).toEqual(["png", "image/png"]);
    const meta = await sharp(stored.body, { animated: true }).metadata();
    expect(meta.format).toBe("png");
    expect(meta.pages ?? 1).toBe(1);
    expect([meta.width, meta.pageHeight ?? meta.height]).toEqual([4096, 4096]);

    // 8000 x 8000 (64 MP): more than any phone takes. Refused by name, and the step's text is saved.
    const huge = new File([gifBomb(8000, 8000) as BlobPart], "huge.gif", { type: "image/gif" });
    const r = await post(
      c.cookie,
      4,
      filesForm({ "photoMetadata[0].id": photo.id, "brandColors[0]": "Teal", intent: "stay" }, { photos: [huge] }),
    );
    expect(status(r)).toBe(400);
    expect(r.data?.notice).toBe(
      "huge.gif is 64 megapixels; images of up to 50 megapixels are accepted. Please choose a smaller copy.",
    );
    expect((await photosOf(c.orderId)).map((p) => p.id)).toEqual([photo.id]);
    expect((await IntakeSubmission.findById(c.orderId).lean())?.brand_colors).toEqual(["Teal"]);
  });

  it("answers 429 on the same form past the link's hour of image pixels, saving what was typed", async () => {
    const c = await customer();
    await reachStep(c.orderId, 4);
    await consumeRateLimit(PIXEL_LIMITS.link, c.orderId, new Date(), PIXEL_LIMITS.link.max);
    const r = await post(
      c.cookie,
      4,
      filesForm({ "brandColors[0]": "Teal", intent: "next" }, { photos: [png("shop.png")], logo: [png("logo.png")] }),
    );
    expect(status(r)).toBe(429);
    expect(r.data?.notice).toBe(
      [
        "logo.png was not added: we process up to 1,000 megapixels of images an hour for each intake form, and this hour's are used up. Please add it again in an hour, or continue without it for now.",
        "shop.png was not added: we process up to 1,000 megapixels of images an hour for each intake form, and this hour's are used up. Please add it again in an hour, or continue without it for now.",
      ].join(" "),
    );
    const saved = await IntakeSubmission.findById(c.orderId).lean();
    expect([saved?.brand_colors, saved?.photo_metadata ?? [], saved?.logo_key ?? null]).toEqual([["Teal"], [], null]);
  });

  it("stores a logo chosen with a post that comes back for photo alt text (scripts off), instead of dropping it", async () => {
    const c = await customer();
    await reachStep(c.orderId, 4);
    await post(c.cookie, 4, filesForm({ intent: "stay" }, { photos: [png("shop.png")] }));
    const [photo] = await photosOf(c.orderId);
    // Next with the photo's alt text left empty: refused for that field, but the logo that came with it is kept.
    const r = await post(
      c.cookie,
      4,
      filesForm(
        { "photoMetadata[0].id": photo.id, "photoMetadata[0].altText": "", brandColors: "", intent: "next" },
        { logo: [png("logo.png")] },
      ),
    );
    expect(status(r)).toBe(400);
    expect(r.data?.result?.error?.["photoMetadata[0].altText"]).toEqual(["Alt text is required"]);
    const doc = await IntakeSubmission.findById(c.orderId).lean();
    expect(doc?.logo_key).toMatch(new RegExp(`^logos/${c.orderId}/`));
    expect(await exists(doc!.logo_key!)).toBe(true);
    expect(doc?.furthest_step).toBe(4);
  });
});

describe("posts in shapes the form never sends", () => {
  const wrong: [number, Record<string, string>][] = [
    [3, { servicesList: "x" }],
    [3, { "servicesList[0]": "x" }],
    // One row without its number: Conform would read it as a list of one.
    [3, { "servicesList.name": "x" }],
    [6, { "reviewLinks.url": "https://example.com.au" }],
    [10, { "staffBios.name": "x" }],
    [4, { "brandColors.name": "x" }],
    [4, { photoMetadata: "x" }],
    [5, { "targetKeywords.a": "x" }],
    [5, { socialLinks: "x" }],
    [6, { "testimonials.name": "x" }],
    [6, { reviewLinks: "x" }],
    [8, { "keyPoints[0].a": "x" }],
    [10, { staffBios: "x" }],
    [10, { "videoUrls.a": "x" }],
  ];
  it.each(wrong)("step %i: %o is a 400 with a message, and nothing is saved", async (step, body) => {
    const c = await customer();
    await reachStep(c.orderId, 10);
    const r = await post(c.cookie, step, { ...body, intent: "next" });
    expect(status(r)).toBe(400);
    expect(Object.values(r.data?.result?.error ?? {}).flat()).toContain(LIST_SHAPE_MESSAGE);
    expect(Object.keys((await IntakeSubmission.findById(c.orderId).lean()) ?? {})).not.toContain("services_list_x");
  });
});

describe("the intake's intents", () => {
  it("submits only from the last step", async () => {
    const c = await customer();
    await IntakeSubmission.create({ order_id: c.orderId, ...complete, furthest_step: 14 });
    const r = await post(c.cookie, 3, { intent: "submit" });
    expect(status(r)).toBe(400);
    expect((await IntakeSubmission.findById(c.orderId).lean())?.status).toBe("draft");
    expect((await IntakeToken.findById(c.tokenId).lean())?.used).toBe(false);
  });

  it("refuses a jump beyond the steps and a remove of something malformed", async () => {
    const c = await customer();
    expect(status(await post(c.cookie, 1, { intent: "jump:99" }))).toBe(400);
    expect(status(await post(c.cookie, 1, { intent: "remove:servicesList:-1" }))).toBe(400);
  });
});

describe("list items by their own id", () => {
  type Draft = { target_keywords?: string[]; list_ids?: Record<string, string[]>; revision?: number };
  const draftOf = async (orderId: string) => (await IntakeSubmission.findById(orderId).lean()) as unknown as Draft;
  /** Step 5 as a page shows it: the stored keywords with their ids, what it is based on, and its writer. */
  async function page5(orderId: string, writer: string, seq?: number) {
    const d = await draftOf(orderId);
    const form: Record<string, string> = { primaryDomain: "acme.au", basedOn: String(d.revision ?? 0), writer };
    (d.target_keywords ?? []).forEach((k, i) => {
      form[`targetKeywords[${i}]`] = k;
      form[`listIds.targetKeywords[${i}]`] = d.list_ids!.targetKeywords[i];
    });
    if (seq !== undefined) form.seq = String(seq);
    return { form, ids: d.list_ids?.targetKeywords ?? [] };
  }
  async function withKeywords(keywords: string[]) {
    const c = await customer();
    await reachStep(c.orderId, 5);
    const form: Record<string, string> = { intent: "stay" };
    keywords.forEach((k, i) => (form[`targetKeywords[${i}]`] = k));
    expect(status(await post(c.cookie, 5, form))).toBe(303);
    return c;
  }

  it("gives each item an id that stays through saves, and a new item a new one", async () => {
    const c = await withKeywords(["plumber lismore", "blocked drains"]);
    const { form, ids } = await page5(c.orderId, "pageone1");
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
    await post(c.cookie, 5, { ...form, "targetKeywords[2]": "hot water", intent: "stay" });
    const after = await draftOf(c.orderId);
    expect(after.target_keywords).toEqual(["plumber lismore", "blocked drains", "hot water"]);
    expect(after.list_ids!.targetKeywords.slice(0, 2)).toEqual(ids);
    expect(after.list_ids!.targetKeywords[2]).toMatch(/^[a-z0-9]{12}$/);
  });

  it("removes exactly the two items two quick Removes name, posted from the same page (JavaScript off)", async () => {
    const c = await withKeywords(["a", "b", "c", "d"]);
    const { form, ids } = await page5(c.orderId, "jsoffpage1");
    // The second Remove leaves before the first one's answer came back: both carry the page as it was.
    expect(status(await post(c.cookie, 5, { ...form, intent: `remove:targetKeywords:${ids[1]}` }))).toBe(303);
    expect(status(await post(c.cookie, 5, { ...form, intent: `remove:targetKeywords:${ids[2]}` }))).toBe(303);
    const after = await draftOf(c.orderId);
    expect(after.target_keywords).toEqual(["a", "d"]);
    expect(after.list_ids!.targetKeywords).toEqual([ids[0], ids[3]]);
    // Removing an id that is already gone changes nothing.
    expect(status(await post(c.cookie, 5, { ...form, intent: `remove:targetKeywords:${ids[2]}` }))).toBe(303);
    expect((await draftOf(c.orderId)).target_keywords).toEqual(["a", "d"]);
  });

  it("keeps a Remove when an older autosave of the same page lands at once or after it (JavaScript on)", async () => {
    for (let round = 0; round < 3; round++) {
      const c = await withKeywords(["a", "b", "c"]);
      const { form, ids } = await page5(c.orderId, "jsonpage01", undefined);
      const autosave = { ...form, seq: "5", intent: "autosave" };
      const remove = { ...form, seq: "6", intent: `remove:targetKeywords:${ids[0]}` };
      const replies = await Promise.all([post(c.cookie, 5, autosave), post(c.cookie, 5, remove)]);
      expect(replies.map((r) => status(r) ?? 200)).toEqual([200, 303]); // an autosave's answer is a plain 200
      expect((await draftOf(c.orderId)).target_keywords).toEqual(["b", "c"]);
      await post(c.cookie, 5, autosave); // the autosave landing late: stale
      expect((await draftOf(c.orderId)).target_keywords).toEqual(["b", "c"]);
    }
  });

  it("refuses a Remove whose id is malformed, and ignores ids the server never gave", async () => {
    const c = await withKeywords(["a"]);
    const { form } = await page5(c.orderId, "pagezzzz1");
    expect(status(await post(c.cookie, 5, { ...form, intent: "remove:targetKeywords:NOTANID" }))).toBe(400);
    const forged = { ...form, "listIds.targetKeywords[0]": "zzzzzzzzzzzz", intent: "stay" };
    expect(status(await post(c.cookie, 5, forged))).toBe(303);
    const after = await draftOf(c.orderId);
    expect(after.target_keywords).toEqual(["a"]);
    expect(after.list_ids!.targetKeywords[0]).not.toBe("zzzzzzzzzzzz");
  });
});

describe("access tokens", () => {
  it("give each purpose its own token and cookie: the intake link never opens order status, nor the other way round", async () => {
    const c = await customer();
    expect((await checkToken(c.token, "intake")).state).toBe("valid");
    expect((await checkToken(c.token, "status")).state).toBe("invalid");
    expect((await checkToken(c.statusToken, "status")).state).toBe("valid");
    expect((await checkToken(c.statusToken, "intake")).state).toBe("invalid");
    await expect(tokenCookie(c.statusToken, "intake")).rejects.toThrow();
    // The intake cookie is not an order-status session, and a status session is not an intake one.
    const asStatus = new Request("http://localhost/order-status", { headers: { Cookie: c.cookie } });
    expect(await tokenSession(asStatus, "status")).toBeNull();
    const statusCookie = await tokenCookie(c.statusToken, "status");
    expect(statusCookie.startsWith("__status=")).toBe(true);
    expect(
      await requireTokenAccess(new Request("http://localhost/", { headers: { Cookie: statusCookie } }), "status"),
    ).toEqual({ orderId: c.orderId, tokenId: hashToken(c.statusToken) });
    const r = await post(statusCookie, 1, { ...basics, intent: "next" });
    expect(r.headers.get("Location")).toBe("/checkout");
    expect((await newestToken(c.orderId, "intake"))?.token._id).toBe(c.tokenId);
    expect((await newestToken(c.orderId, "status"))?.token._id).toBe(hashToken(c.statusToken));
  });

  it("send a browser without a status token to the order-status page, which answers itself rather than loop", async () => {
    // The page reads the token session itself (no requireTokenSession): it shows its own screen, never a redirect.
    const onPage = await statusLoader({
      request: new Request("http://localhost/order-status"),
      params: {},
      context: {},
    });
    expect(onPage).toEqual({ screen: "token-required" });
    const elsewhere = await requireTokenAccess(
      new Request("http://localhost/order-status/feedback", { method: "POST" }),
      "status",
    ).catch((r: Response) => r);
    expect(elsewhere).toMatchObject({ status: 302 });
    expect((elsewhere as Response).headers.get("Location")).toBe("/order-status");
    // No flash: the page's own card says 'Access Token Required', once.
    expect(await flashTitle(elsewhere as Response)).toBeUndefined();
  });

  it("send an order-status link that matches no order to the 'Order Not Found' card, without the token", async () => {
    const r = await exchangeToken(
      new Request(`http://localhost/order-status?access_token=${"x".repeat(43)}`),
      "x".repeat(43),
      "status",
    );
    expect(r.status).toBe(302);
    expect(r.headers.get("Location")).toBe("/order-status?link=unknown");
    expect(await flashTitle(r)).toBeUndefined();
  });

  it("issued again after TOKEN_SECRET was rotated, return the link whose hash was stored", async () => {
    const env = getEnv();
    const original = env.TOKEN_SECRETS;
    const orderId = `rotation-${Date.now()}`;
    try {
      env.TOKEN_SECRETS = ["a".repeat(32)];
      const first = await issueToken({ orderId, purpose: "intake", issueKey: `paid:${orderId}` });
      env.TOKEN_SECRETS = ["b".repeat(32), "a".repeat(32)]; // the new secret first, the old one kept
      expect(await issueToken({ orderId, purpose: "intake", issueKey: `paid:${orderId}` })).toBe(first);
      expect((await checkToken(first, "intake")).state).toBe("valid");
      // A new event is derived under the new secret; links already e-mailed keep working even once the old secret is gone.
      env.TOKEN_SECRETS = ["b".repeat(32)];
      expect((await checkToken(first, "intake")).state).toBe("valid");
      await expect(issueToken({ orderId, purpose: "intake", issueKey: `paid:${orderId}` })).rejects.toThrow(
        /no longer listed/,
      );
    } finally {
      env.TOKEN_SECRETS = original;
    }
  });
});
