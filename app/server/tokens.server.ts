/**
 * Access tokens: the secret in an e-mailed link, and the cookie it becomes.
 * One home for issuing, hashing, states, renewal and the token -> cookie exchange.
 *
 *   issueToken({ orderId, purpose, issueKey })   the raw token for an event (a payment, a
 *                                                reminder), issued once however often it runs
 *   checkToken(raw, purpose)                     { state: "invalid" } or { state, token } with
 *                                                state "valid" | "expired" | "used"
 *   exchangeToken(request, raw, purpose)         the response for a GET that carries a token:
 *                                                a redirect to the purpose's page, without the
 *                                                token in the URL, setting the purpose's cookie
 *   openTokenSession(request, token, purpose)   the same redirect and cookie for a stored token the
 *                                                caller may open (the order's owner or link holder)
 *   tokenSession(request, purpose)               the token this browser's cookie names, as it
 *                                                is now (or null)
 *   requireTokenSession(request, purpose)        first line of the purpose's entry page: a known
 *                                                token (valid, expired or used) or a thrown redirect
 *   requireTokenAccess(request, purpose)         first line of every other loader and action:
 *                                                { orderId, tokenId } of a valid token, or a thrown redirect
 *   newestToken(orderId, purpose)                the order's token in use (spec: newest per order),
 *                                                with its state: for the admin's token card and the
 *                                                order-status page's intake access card
 *   renewToken(tokenId)                          a customer's renewal (at most 3, raced safely)
 *   adminRenewToken(tokenId)                     support's renewal (not counted)
 *   markTokenUsed(tokenId)                       after the intake is submitted
 *
 * Purposes: "intake" (/intake-form?token=…) and "status" (/order-status?access_token=…).
 * Each has its own tokens and its own cookie, so one never opens the other's page.
 *
 * A token is HMAC-SHA256(TOKEN_SECRET, purpose + issue key): derived, so a retried
 * payment or reminder recomputes the same link for its idempotent e-mail, while the
 * database stores only SHA-256(token) as the document's `_id`. TOKEN_SECRET is its own
 * secret (not SESSION_SECRET), and may list older secrets after the newest: links
 * already e-mailed never depend on it (they are checked by hash), and a retry after a
 * rotation finds the token that was stored under an older secret instead of
 * returning a link whose hash was never stored.
 */
import { createHash, createHmac } from "node:crypto";
import { createCookieSessionStorage, redirect } from "@remix-run/node";
import mongoose from "mongoose";
import { INTAKE_MESSAGES } from "~/domain/intake/steps";
import {
  addDays,
  EXPIRING_SOON_DAYS,
  MAX_SELF_RENEWALS,
  RENEWAL_DAYS,
  TOKEN_PATTERN,
  TOKEN_VALID_DAYS,
  tokenState,
  type TokenPurpose,
  UNKNOWN_LINK,
} from "~/domain/tokens";
import { cookieOptions, readSession } from "./cookies.server";
import { notePrivateRead } from "./private-response.server";
import { claimOnce, isDuplicateKeyError } from "./db.server";
import { getEnv } from "./env.server";
import { redirectWithFlash, type Flash } from "./flash.server";
import { log } from "./log.server";
import { IntakeToken } from "./models/index.server";
import { orderTokens, tokenList } from "./models/intake-token.server";

export type TokenDoc = {
  _id: string;
  order_id: string;
  purpose: string;
  issue_key: string;
  expires_at: Date;
  created_at: Date;
  used: boolean;
  auto_renewed_count: number;
  reopened?: number;
};
export type KnownTokenState = { state: "expired" | "used" | "valid"; token: TokenDoc };
export type TokenState = { state: "invalid" } | KnownTokenState;
export type TokenAccess = { orderId: string; tokenId: string };

/** Where each purpose lives, and where a browser without access is sent (with the spec's message). */
const PURPOSES: Record<
  TokenPurpose,
  { cookie: string; home: string; denied: { to: string; flash?: Flash }; invalid: { to: string; flash?: Flash } }
> = {
  intake: {
    cookie: "__intake",
    home: "/intake-form",
    denied: { to: "/checkout", flash: { kind: "error", ...INTAKE_MESSAGES.accessDenied } },
    invalid: { to: "/checkout", flash: { kind: "error", ...INTAKE_MESSAGES.invalidLink } },
  },
  status: {
    cookie: "__status",
    home: "/order-status",
    // Its card says 'Access Token Required' already: a flash would say it twice.
    denied: { to: "/order-status" },
    // An unknown link is an order the page cannot load: its own 'Order Not Found' card says so, once.
    invalid: { to: `/order-status?link=${UNKNOWN_LINK}` },
  },
};

/** SHA-256 of the token, hex: the stored token's `_id`. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

function deriveToken(secret: string, purpose: TokenPurpose, issueKey: string): string {
  return createHmac("sha256", secret).update(`${purpose}-token:${issueKey}`).digest("base64url");
}

/**
 * Issues the token of `purpose` for the event named by issueKey, once: running it
 * again (a retry, a race, a later page view) stores nothing new and returns the
 * same token, even after TOKEN_SECRET was rotated (while the old secret is listed).
 */
export async function issueToken(input: {
  orderId: string;
  purpose: TokenPurpose;
  issueKey: string;
  days?: number;
  now?: Date;
}): Promise<string> {
  const candidates = getEnv().TOKEN_SECRETS.map((secret) => deriveToken(secret, input.purpose, input.issueKey));
  try {
    await IntakeToken.create({
      _id: hashToken(candidates[0]),
      order_id: input.orderId,
      purpose: input.purpose,
      issue_key: input.issueKey,
      expires_at: addDays(input.now ?? new Date(), input.days ?? TOKEN_VALID_DAYS[input.purpose]),
    });
    return candidates[0];
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
  }
  // Already issued for this event: by this secret (a retry or a race) or an older one (rotated since).
  const stored = await IntakeToken.find(
    { _id: mongoose.trusted({ $in: candidates.map(hashToken) }) },
    { _id: 1 },
  ).lean();
  const token = candidates.find((t) => stored.some((s) => s._id === hashToken(t)));
  if (!token)
    throw new Error(
      `The ${input.purpose} token for ${input.issueKey} was issued under a TOKEN_SECRET no longer listed`,
    );
  return token;
}

/**
 * The token a stored link was issued as, derived again from its event (tokens are never
 * stored), without a write: for showing a link that exists. Null when it was issued under a
 * TOKEN_SECRET no longer listed.
 */
export function linkToken(doc: Pick<TokenDoc, "_id" | "purpose" | "issue_key">): string | null {
  const purpose = doc.purpose as TokenPurpose;
  const candidates = getEnv().TOKEN_SECRETS.map((secret) => deriveToken(secret, purpose, doc.issue_key));
  return candidates.find((token) => hashToken(token) === doc._id) ?? null;
}

function stateOf(token: TokenDoc | null, purpose: TokenPurpose, now = new Date()): TokenState {
  if (!token || token.purpose !== purpose) return { state: "invalid" };
  return { state: tokenState(token, now), token };
}

async function findToken(tokenId: string): Promise<TokenDoc | null> {
  return IntakeToken.findById(tokenId).lean<TokenDoc>();
}

/** What an e-mailed token is now, for this purpose: unknown (or another purpose's), expired, used or valid. */
export async function checkToken(raw: string, purpose: TokenPurpose): Promise<TokenState> {
  notePrivateRead();
  if (!TOKEN_PATTERN.test(raw)) return { state: "invalid" };
  return stateOf(await findToken(hashToken(raw)), purpose);
}

/** The order's token in use for `purpose` (the newest issued), as it is now; null when none was issued. */
export async function newestToken(orderId: string, purpose: TokenPurpose): Promise<KnownTokenState | null> {
  // Each of the order's tokens by `_id` (models/intake-token.server.ts): no scan of everyone's tokens.
  const tokens = await Promise.all(
    (await orderTokens.members(tokenList(orderId, purpose))).map((id) => IntakeToken.findById(id).lean<TokenDoc>()),
  );
  const [token] = tokens
    .flatMap((t) => (t?.order_id === orderId && t.purpose === purpose ? [t] : []))
    .sort((a, b) => b.created_at.getTime() - a.created_at.getTime());
  return token ? { state: tokenState(token), token } : null;
}

/* The token session: after the link is opened, a signed cookie names the token, so URLs carry no secret. */

type TokenSessionData = { tokenId: string; orderId: string };
const storages = new Map<TokenPurpose, ReturnType<typeof createCookieSessionStorage<TokenSessionData>>>();
function storageFor(purpose: TokenPurpose) {
  let storage = storages.get(purpose);
  if (!storage) {
    storage = createCookieSessionStorage<TokenSessionData>({
      cookie: cookieOptions(PURPOSES[purpose].cookie, { maxAge: 60 * 60 * 24 * 60 }),
    });
    storages.set(purpose, storage);
  }
  return storage;
}

/**
 * The answer to a GET that carries a token: the purpose's page without the token
 * in the address (history, logs and Referer never see it), with the cookie set;
 * or, for an unknown token, the spec's message on the purpose's fallback page.
 */
export async function exchangeToken(request: Request, raw: string, purpose: TokenPurpose): Promise<Response> {
  const state = await checkToken(raw, purpose);
  const config = PURPOSES[purpose];
  if (state.state === "invalid")
    return config.invalid.flash
      ? redirectWithFlash(request, config.invalid.to, config.invalid.flash)
      : new Response(null, { status: 302, headers: { Location: config.invalid.to } });
  return openTokenSession(request, state.token, purpose);
}

/**
 * The purpose's page, with this browser's cookie naming `token`: what opening its e-mailed link does, and what
 * "Continue your intake form" does for a caller the route has already found may see the order (its owner or its
 * status link's holder). 303 after a form post, 302 after a GET.
 */
export async function openTokenSession(
  request: Request,
  token: TokenDoc,
  purpose: TokenPurpose,
  status: 302 | 303 = 302,
): Promise<Response> {
  const config = PURPOSES[purpose];
  const storage = storageFor(purpose);
  const session = await readSession(storage, request, config.cookie);
  session.set("tokenId", token._id);
  session.set("orderId", token.order_id);
  await IntakeToken.updateOne({ _id: token._id }, { $set: { last_accessed: new Date() } });
  return new Response(null, {
    status,
    headers: { Location: config.home, "Set-Cookie": await storage.commitSession(session) },
  });
}

/** The token named by this browser's cookie for `purpose`, as it is now; null without one. */
export async function tokenSession(request: Request, purpose: TokenPurpose): Promise<TokenState | null> {
  const session = await readSession(storageFor(purpose), request, PURPOSES[purpose].cookie);
  const tokenId = session.get("tokenId");
  if (typeof tokenId !== "string" || !/^[0-9a-f]{64}$/.test(tokenId)) return null;
  const token = await findToken(tokenId);
  if (!token || token.order_id !== session.get("orderId")) return null;
  return stateOf(token, purpose);
}

/**
 * First line of the purpose's entry page (/intake-form, /order-status), which shows
 * expired and used links a screen of their own: the token this browser holds, or a
 * thrown redirect with the spec's message when it holds none.
 */
export async function requireTokenSession(request: Request, purpose: TokenPurpose): Promise<KnownTokenState> {
  const state = await tokenSession(request, purpose);
  if (!state || state.state === "invalid") {
    const { to, flash } = PURPOSES[purpose].denied;
    throw flash ? await redirectWithFlash(request, to, flash) : redirect(to);
  }
  return state;
}

/**
 * First line of every other loader and action behind a token: a valid token of
 * this purpose, or a thrown redirect that explains why not (an expired or used
 * link goes to the entry page). Only this order is reachable.
 */
export async function requireTokenAccess(request: Request, purpose: TokenPurpose): Promise<TokenAccess> {
  const state = await requireTokenSession(request, purpose);
  if (state.state !== "valid") throw new Response(null, { status: 303, headers: { Location: PURPOSES[purpose].home } });
  return { orderId: state.token.order_id, tokenId: state.token._id };
}

/** The once-key of a link's Nth renewal by its customer (slots 1 to MAX_SELF_RENEWALS). */
export const renewalKey = (tokenId: string, slot: number) => `renew:${tokenId}:${slot}`;

/**
 * A customer's renewal of an expired or soon-expiring link: 30 more days, at most
 * MAX_SELF_RENEWALS times. The Nth renewal is a numbered slot insert, and the slot
 * number comes from the same read that found the link expiring, so clicks that race
 * use one slot between them. True when the link now works (renewed by this call or
 * a racing one); false when it cannot be renewed here (unknown, used, or no renewals left).
 */
export async function renewToken(tokenId: string, now = new Date()): Promise<boolean> {
  const token = await findToken(tokenId);
  if (!token || token.used) return false;
  if (token.expires_at.getTime() > addDays(now, EXPIRING_SOON_DAYS).getTime()) return true; // renewed meanwhile, or not due
  const slot = token.auto_renewed_count + 1;
  if (slot > MAX_SELF_RENEWALS) return false;
  if (await claimOnce(renewalKey(tokenId, slot))) {
    await IntakeToken.updateOne(
      { _id: tokenId },
      { $set: { expires_at: addDays(now, RENEWAL_DAYS), auto_renewed_count: slot } },
    );
    log("info", "token.renewed", { order_id: token.order_id, purpose: token.purpose, renewal: slot });
  }
  return true;
}

/** Support's renewal from the admin: 30 days from now, not counted against the customer's three; reopens a submitted form. */
export async function adminRenewToken(tokenId: string, now = new Date()): Promise<Date | null> {
  const token = await findToken(tokenId);
  if (!token) return null;
  const expiresAt = addDays(now, RENEWAL_DAYS);
  await IntakeToken.updateOne(
    { _id: tokenId },
    // A used link reopened is a new opening: its next submission is a submission of its own.
    { $set: { expires_at: expiresAt, used: false, used_at: null }, ...(token.used ? { $inc: { reopened: 1 } } : {}) },
  );
  log("info", "token.renewed_by_admin", { order_id: token.order_id, purpose: token.purpose });
  return expiresAt;
}

/** Marks a token used (the intake was submitted); its link then shows the submitted screen. */
export async function markTokenUsed(tokenId: string) {
  await IntakeToken.updateOne({ _id: tokenId }, { $set: { used: true, used_at: new Date() } });
}
