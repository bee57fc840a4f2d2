import { createCookieSessionStorage } from "@remix-run/node";
import mongoose from "mongoose";
import { intakeProgress, storedFields, type IntakeData } from "~/domain/intake/data";
import { INTAKE_MESSAGES } from "~/domain/intake/steps";
import { aiSafeData, privacySummary } from "~/domain/privacy";
import { claimOnce, connectDb, isDuplicateKeyError } from "./db.server";
import { cookieOptions } from "./cookies.server";
import { getEnv } from "./env.server";
import { redirectWithFlash } from "./flash.server";
import { hashToken } from "./intake-tokens.server";
import { log } from "./log.server";
import { intakeConfirmation, intakeNotice } from "./mail/messages.server";
import { queueMail } from "./mail/outbox.server";
import { IntakeSubmission, IntakeToken, Order, PrivacyAuditLog } from "./models/index.server";
import { getStorage } from "./storage.server";
import { MAX_PHOTOS, storeUploads } from "./uploads.server";

const DAY_MS = 86_400_000;
export const RENEWAL_DAYS = 30;
/** How many times a customer may renew their own link; after that, support renews it. */
export const MAX_SELF_RENEWALS = 3;

type TokenDoc = { _id: unknown; order_id: string; expires_at: Date; used: boolean; auto_renewed_count: number };
export type TokenState = { state: "invalid" } | { state: "expired" | "used" | "valid"; token: TokenDoc };

function stateOf(token: TokenDoc | null, now = new Date()): TokenState {
  if (!token) return { state: "invalid" };
  if (token.used) return { state: "used", token };
  if (token.expires_at.getTime() <= now.getTime()) return { state: "expired", token };
  return { state: "valid", token };
}

/** What an e-mailed token is now: unknown, expired, used (submitted) or valid. */
export async function checkToken(raw: string): Promise<TokenState> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(raw)) return { state: "invalid" };
  await connectDb();
  return stateOf(await IntakeToken.findOne({ token_hash: hashToken(raw) }).lean());
}

/* The intake session: after the link is opened, a signed cookie names the token, so URLs carry no secret. */

type IntakeSessionData = { tokenId: string; orderId: string };
let storage: ReturnType<typeof createCookieSessionStorage<IntakeSessionData>> | undefined;
function intakeStorage() {
  if (!storage) {
    storage = createCookieSessionStorage<IntakeSessionData>({ cookie: cookieOptions("__intake", { maxAge: 60 * 60 * 24 * 60 }) });
  }
  return storage;
}

/** Starts an intake session for this token's order; returns the Set-Cookie header. */
export async function startIntakeSession(request: Request, token: TokenDoc): Promise<string> {
  const session = await intakeStorage().getSession(request.headers.get("Cookie"));
  session.set("tokenId", String(token._id));
  session.set("orderId", token.order_id);
  await IntakeToken.updateOne({ _id: token._id }, { $set: { last_accessed: new Date() } });
  return intakeStorage().commitSession(session);
}

/** The token named by this browser's intake session, as it is now. */
export async function sessionToken(request: Request): Promise<TokenState | null> {
  const session = await intakeStorage().getSession(request.headers.get("Cookie"));
  const tokenId = session.get("tokenId");
  if (!tokenId || !mongoose.isValidObjectId(tokenId)) return null;
  await connectDb();
  const token = await IntakeToken.findById(tokenId).lean();
  if (!token || token.order_id !== session.get("orderId")) return null;
  return stateOf(token);
}

export type IntakeAccess = { orderId: string; tokenId: string };

/**
 * First line of every intake step's loader and action: a valid intake session,
 * or a redirect that explains why not. Only this order's submission is reachable.
 */
export async function requireIntakeAccess(request: Request): Promise<IntakeAccess> {
  const state = await sessionToken(request);
  if (!state || state.state === "invalid") {
    throw await redirectWithFlash(request, "/checkout", { kind: "error", ...INTAKE_MESSAGES.accessDenied });
  }
  // Expired or submitted: the intake page explains and offers what can be done.
  if (state.state !== "valid") throw new Response(null, { status: 303, headers: { Location: "/intake-form" } });
  return { orderId: state.token.order_id, tokenId: String(state.token._id) };
}

/**
 * Extends an expired (or soon expiring) link by 30 days, at most MAX_SELF_RENEWALS
 * times. The Nth renewal is claimed by a unique key, so racing clicks renew once.
 */
export async function renewToken(tokenId: string, now = new Date()): Promise<boolean> {
  await connectDb();
  const token = await IntakeToken.findById(tokenId).lean();
  if (!token || token.used) return false;
  const next = token.auto_renewed_count + 1;
  if (next > MAX_SELF_RENEWALS) return false;
  if (await claimOnce(`renew:${tokenId}:${next}`)) {
    await IntakeToken.updateOne(
      { _id: tokenId },
      { $set: { expires_at: new Date(now.getTime() + RENEWAL_DAYS * DAY_MS), auto_renewed_count: next } },
    );
    log("info", "intake.token_renewed", { order_id: token.order_id, renewal: next });
  }
  return true;
}

/* The submission */

export async function loadSubmission(orderId: string) {
  await connectDb();
  return IntakeSubmission.findOne({ order_id: orderId }).lean();
}

/**
 * Saves one step's fields to the order's draft submission (created on the first
 * save; unique per order) and updates the order's intake_progress.
 */
export async function saveStep(orderId: string, step: number, values: IntakeData, reached: number, extra: Record<string, unknown> = {}) {
  await connectDb();
  const set = { ...storedFields(step, values), ...extra };
  const update = { $set: set, $max: { furthest_step: reached } };
  try {
    await IntakeSubmission.updateOne({ order_id: orderId }, update, { upsert: true });
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    // Two first saves raced to create the draft; the loser updates the winner's.
    await IntakeSubmission.updateOne({ order_id: orderId }, update);
  }
  const doc = await IntakeSubmission.findOne({ order_id: orderId }).lean();
  await Order.updateOne({ _id: orderId }, { $set: { intake_progress: intakeProgress(doc) } });
  return doc;
}

/**
 * Submits the intake: stores what AI may see and the consent, marks the token
 * used, writes the consent audit entry and queues the two e-mails. Posted twice,
 * or ten times at once, it has one effect: each piece is keyed by the token.
 */
export async function submitIntake(access: IntakeAccess): Promise<"submitted" | "updated"> {
  await connectDb();
  const doc = await IntakeSubmission.findOne({ order_id: access.orderId }).lean();
  if (!doc) throw new Error("Nothing to submit");
  const wasSubmitted = Boolean(doc.submitted_at);
  const data = doc as unknown as Record<string, unknown>;
  await IntakeSubmission.updateOne(
    { order_id: access.orderId },
    {
      $set: {
        status: "submitted",
        submitted_at: new Date(),
        ai_safe_data: aiSafeData(data),
        privacy_summary: privacySummary(data),
      },
      $max: { furthest_step: 15 },
    },
  );
  await IntakeToken.updateOne({ _id: access.tokenId }, { $set: { used: true, used_at: new Date() } });

  const order = await Order.findById(access.orderId).lean();
  try {
    await PrivacyAuditLog.create({
      key: `consent:${access.tokenId}`,
      action: "consent_given",
      order_id: access.orderId,
      privacy_level: doc.privacy_level ?? "standard",
    });
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
  }
  const customer = doc.contact_email ?? order?.email;
  const businessName = doc.business_name ?? "your business";
  if (customer) {
    await queueMail({ key: `intake-confirmation:${access.tokenId}`, to: customer, ...intakeConfirmation({ businessName, updated: wasSubmitted }) });
  }
  await queueMail({
    key: `intake-notice:${access.tokenId}`,
    to: getEnv().BUSINESS_EMAIL,
    replyTo: customer,
    ...intakeNotice({ businessName, orderId: access.orderId, updated: wasSubmitted }),
  });
  log("info", "intake.submitted", { order_id: access.orderId, updated: wasSubmitted });
  return wasSubmitted ? "updated" : "submitted";
}

/** The e-mail the order was paid with (prefills the intake's contact e-mail). */
export async function orderEmail(orderId: string): Promise<string | undefined> {
  await connectDb();
  return (await Order.findById(orderId, { email: 1 }).lean())?.email;
}

/** Removes item `index` of a list field before saving; a removed photo's file is deleted too. */
export async function removeListItem(values: IntakeData, remove: { field: string; index: number }, before: Record<string, unknown> | null) {
  if (!Array.isArray(values[remove.field])) return;
  const list = [...(values[remove.field] as unknown[])];
  const [removed] = list.splice(remove.index, 1);
  values[remove.field] = list;
  const url = (removed as { url?: string } | undefined)?.url;
  const key = url && ((before?.photo_metadata as { url: string; key?: string }[]) ?? []).find((p) => p.url === url)?.key;
  if (key) await getStorage().delete(key).catch((error) => log("warn", "upload.delete_failed", { reason: String(error) }));
}

/**
 * Step 4's files: a logo (only when no logo link is given) and photos, each
 * checked and stored now. Existing photos keep their stored details; new ones
 * get the spec's defaults. Problems are added to `problems`; returns how many
 * photos were added.
 */
export async function applyBrandingUploads(
  orderId: string,
  form: FormData,
  values: IntakeData,
  before: Record<string, unknown> | null,
  extra: Record<string, unknown>,
  problems: string[],
): Promise<number> {
  const existing = (before?.photo_metadata as Record<string, unknown>[]) ?? [];
  const kept = ((values.photoMetadata as Record<string, unknown>[]) ?? [])
    .map((row) => ({ ...existing.find((p) => p.url === row.url), ...row }))
    .filter((p) => p.key);
  values.photoMetadata = kept;

  const typedUrl = values.logoUrl as string | undefined;
  delete values.logoUrl;
  if (typedUrl) {
    Object.assign(extra, { logo_url: typedUrl, logo_key: null });
  } else {
    const logo = await storeUploads(orderId, "logo", form.getAll("logo").slice(0, 1));
    problems.push(...logo.errors);
    if (logo.stored[0]) Object.assign(extra, { logo_url: logo.stored[0].url, logo_key: logo.stored[0].key });
    else if (!before?.logo_key) extra.logo_url = null;
  }

  const photos = await storeUploads(orderId, "photos", form.getAll("photos"), MAX_PHOTOS - kept.length);
  problems.push(...photos.errors);
  for (const p of photos.stored) kept.push({ ...p, altText: "", placement: "gallery", crop: "landscape", priority: "medium" });
  return photos.stored.length;
}
