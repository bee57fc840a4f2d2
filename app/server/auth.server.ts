import { createHash, randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";
import { redirect } from "@remix-run/node";
import mongoose from "mongoose";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { AUTH_MESSAGES, REDIRECT_MAX_LENGTH, safeRedirect } from "~/domain/account";
import { DAY_MS } from "~/domain/dates";
import { isFresh, TWO_FACTOR_MESSAGES } from "~/domain/two-factor";
import { claimOnce, isDuplicateKeyError } from "./db.server";
import { absoluteUrl } from "./env.server";
import { redirectWithFlash, type Flash } from "./flash.server";
import { errorMessage, log } from "./log.server";
import { accountExists, confirmEmail, passwordReset } from "./mail/messages.server";
import { queueMail } from "./mail/outbox.server";
import { AccountToken, Order, User, UserRole } from "./models/index.server";
import { notePrivateRead } from "./private-response.server";
import { clientAddress, consumeRateLimit, type RateLimit } from "./rate-limit.server";
import { endAllSessions, getSession, rotateSession, sessionStorage } from "./session.server";
import { startEnrolment } from "./two-factor.server";

/**
 * Accounts: passwords, sign-in and sign-up (remix-auth's form strategy), the
 * session helpers every signed-in loader starts with, e-mail confirmation and
 * password reset by single-use e-mailed links. No answer here tells a visitor
 * whether an address has an account.
 */

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

export type AuthUser = {
  id: string;
  email: string;
  fullName: string | null;
  isAdmin: boolean;
  emailVerified: boolean;
  /** Two-factor sign-in is on for this account. */
  twoFactor: boolean;
};

/*
 * Limits (OWASP ASVS 2.2.1): an attacker may slow an account, never lock its owner out. The hard limits fall on
 * the guesser: per client address, and per account from one address (the e-mail typed, whether or not it has an
 * account). Guesses at one account from every address together only slow it: past `account`, each sign-in for
 * that account waits SLOW_SIGN_IN_MS first, and the right password still gets in. The README lists them all.
 */
const MINUTE = 60_000;
export const SIGN_IN_LIMITS = {
  address: { name: "sign-in:address", max: 20, windowMs: 15 * MINUTE },
  accountFromAddress: { name: "sign-in:account-address", max: 10, windowMs: 15 * MINUTE },
  account: { name: "sign-in:account", max: 30, windowMs: 15 * MINUTE },
} satisfies Record<string, RateLimit>;
export const SLOW_SIGN_IN_MS = 2_000;
export const SIGN_UP_LIMITS = {
  address: { name: "sign-up:address", max: 10, windowMs: 60 * MINUTE },
  account: { name: "sign-up:account", max: 3, windowMs: 60 * MINUTE },
} satisfies Record<string, RateLimit>;
/** Forgot password: its own limits, so failed sign-ins never close it; the owner's inbox gets at most `mail` a day. */
export const RESET_LIMITS = {
  address: { name: "reset:address", max: 10, windowMs: 60 * MINUTE },
  accountFromAddress: { name: "reset:account-address", max: 3, windowMs: 60 * MINUTE },
  mail: { name: "reset:mail", max: 10, windowMs: 24 * 60 * MINUTE },
} satisfies Record<string, RateLimit>;

/** "Send the link again" from the dashboard: a few a day is plenty, and it mails only the account's own address. */
export const RESEND_LIMIT: RateLimit = { name: "verify-resend:account", max: 5, windowMs: 24 * 60 * MINUTE };

export const RESET_VALID_MINUTES = 60;
const VERIFY_VALID_DAYS = 7;

export class InvalidCredentialsError extends Error {
  constructor() {
    super(AUTH_MESSAGES.invalid);
  }
}
export class TooManyAttemptsError extends Error {
  constructor() {
    super(AUTH_MESSAGES.tooMany);
  }
}

/** scrypt with a random salt: "scrypt$<salt>$<hash>" (base64url). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, 64);
  return `scrypt$${salt.toString("base64url")}$${hash.toString("base64url")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const actual = await scryptAsync(password, Buffer.from(salt, "base64url"), expected.length);
  return timingSafeEqual(actual, expected);
}

/** Compared against when the e-mail has no account, so both answers take as long. */
let decoyHash: Promise<string> | undefined;

const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** Counts one attempt against both limits; false when either is used up. */
async function withinLimits(limits: { address: RateLimit; account: RateLimit }, address: string, email: string) {
  const [byAddress, byAccount] = await Promise.all([
    consumeRateLimit(limits.address, address),
    consumeRateLimit(limits.account, email),
  ]);
  return byAddress && byAccount;
}

/**
 * One password guess at `email` from `address` (sign-in and the confirmation page): throws TooManyAttemptsError
 * when this address is over its limits; slows, never refuses, an account guessed at from everywhere.
 */
async function allowPasswordGuess(email: string, address: string) {
  const [byAddress, fromAddress, byAccount] = await Promise.all([
    consumeRateLimit(SIGN_IN_LIMITS.address, address),
    consumeRateLimit(SIGN_IN_LIMITS.accountFromAddress, `${email}\n${address}`),
    consumeRateLimit(SIGN_IN_LIMITS.account, email),
  ]);
  if (!byAddress || !fromAddress) throw new TooManyAttemptsError();
  if (!byAccount) {
    log("warn", "auth.sign_in_slowed");
    await new Promise((resolve) => setTimeout(resolve, SLOW_SIGN_IN_MS));
  }
}

type UserDoc = {
  _id: unknown;
  email: string;
  full_name?: string | null;
  email_verified_at?: Date | null;
  two_factor_enabled_at?: Date | null;
};

async function toAuthUser(user: UserDoc): Promise<AuthUser> {
  const id = String(user._id);
  const admin = await UserRole.exists({ user_id: id, role: "admin" });
  return {
    id,
    email: user.email,
    fullName: user.full_name ?? null,
    isAdmin: Boolean(admin),
    emailVerified: Boolean(user.email_verified_at),
    twoFactor: Boolean(user.two_factor_enabled_at),
  };
}

/** Admins always need the second factor; a customer who turned it on does too. */
export const needsSecondFactor = (user: AuthUser) => user.isAdmin || user.twoFactor;

/**
 * Checks an e-mail and password, within the limits. The same error, after the
 * same work, for an unknown e-mail and a wrong password.
 */
export async function verifyLogin(email: string, password: string, address = "unknown"): Promise<AuthUser> {
  const normalized = normalizeEmail(email);
  await allowPasswordGuess(normalized, address);
  const user = await User.findOne({ email: normalized }).lean();
  decoyHash ??= hashPassword(randomBytes(16).toString("hex"));
  const ok = await verifyPassword(password, user?.password_hash ?? (await decoyHash));
  if (!user || !ok) {
    log("info", "auth.sign_in_failed");
    throw new InvalidCredentialsError();
  }
  await claimGuestOrders(user);
  return toAuthUser(user);
}

export const authenticator = new Authenticator<AuthUser>();
authenticator.use(
  new FormStrategy(async ({ form, request }) =>
    verifyLogin(String(form.get("email") ?? ""), String(form.get("password") ?? ""), clientAddress(request)),
  ),
  "password",
);

/**
 * After the password (or a reset or confirmation link): a fresh session (a new
 * id) and on to `to`. An account that needs a second factor gets a session that
 * opens nothing yet and goes to the code step (an admin without one, to set it
 * up: the key is made here, on the post, so the page that shows it changes nothing).
 */
export async function signIn(request: Request, user: AuthUser, to: string, flash?: Flash) {
  if (needsSecondFactor(user)) {
    const cookie = await rotateSession(request, user.id, { admin: user.isAdmin });
    if (!user.twoFactor) await startEnrolment(user.id);
    const next = user.twoFactor ? "/auth/two-factor" : "/auth/two-factor/setup";
    return redirect(`${next}?redirectTo=${encodeURIComponent(to)}`, {
      status: 303,
      headers: { "Set-Cookie": cookie },
    });
  }
  const cookie = await rotateSession(request, user.id);
  if (flash) return redirectWithFlash(request, to, flash, { status: 303, headers: { "Set-Cookie": cookie } });
  return redirect(to, { status: 303, headers: { "Set-Cookie": cookie } });
}

/**
 * A second-factor code was just entered (at sign-in, at enrolment, or as fresh
 * proof): a fresh session id again, now carrying the proof's time, and on to `to`.
 */
export async function completeSecondFactor(
  request: Request,
  user: Pick<AuthUser, "id" | "isAdmin">,
  to: string,
  flash?: Flash,
  init: { headers?: HeadersInit } = {},
) {
  const cookie = await rotateSession(request, user.id, { verifiedAt: Date.now(), admin: user.isAdmin });
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", cookie);
  if (flash) return redirectWithFlash(request, to, flash, { status: 303, headers });
  return redirect(to, { status: 303, headers });
}

/** Ends this browser's session on the server and clears its cookie. */
export async function signOut(request: Request, to = "/") {
  const session = await getSession(request);
  return redirectWithFlash(
    request,
    to,
    { kind: "info", ...AUTH_MESSAGES.signedOut },
    {
      status: 303,
      // Everything this site kept in the browser (the copies of forms not yet sent, components/useDeviceCopy.ts)
      // goes with the session: on a shared computer the next person sees none of it (issue 35 item 8).
      headers: { "Set-Cookie": await sessionStorage().destroySession(session), "Clear-Site-Data": '"storage"' },
    },
  );
}

/**
 * Who this request is from. "pending": the password was right but the second
 * factor is still to come (the account needs one and this session has no code
 * yet); such a session opens nothing but the code step. Roles are read fresh on
 * every request, so revoking admin takes effect at once.
 */
export type SignInState =
  | { kind: "none" }
  | { kind: "pending"; user: AuthUser; sessionId: string }
  | { kind: "signed-in"; user: AuthUser; sessionId: string; verifiedAt: number | null };

export async function signInState(request: Request): Promise<SignInState> {
  const session = await getSession(request);
  const userId = session.get("userId");
  if (typeof userId !== "string" || !mongoose.isValidObjectId(userId)) return { kind: "none" };
  const doc = await User.findById(userId).lean();
  if (!doc) return { kind: "none" };
  const user = await toAuthUser(doc);
  const verifiedAt = session.get("verifiedAt");
  const proven = typeof verifiedAt === "number" ? verifiedAt : null;
  if (needsSecondFactor(user) && proven === null) return { kind: "pending", user, sessionId: session.id };
  return { kind: "signed-in", user, sessionId: session.id, verifiedAt: proven };
}

/** The signed-in user (past the second factor when the account has one), or null. */
export async function getUser(request: Request): Promise<AuthUser | null> {
  const state = await signInState(request);
  return state.kind === "signed-in" ? state.user : null;
}

/** Where a refused request goes back to after signing in. */
function backTo(request: Request) {
  const url = new URL(request.url);
  const here = request.method === "GET" ? url.pathname + url.search : url.pathname;
  // A query too long to carry through sign-in (it answered with a 27 KB Location header) is left behind.
  if (here.length <= REDIRECT_MAX_LENGTH) return here;
  return url.pathname.length <= REDIRECT_MAX_LENGTH ? url.pathname : "/dashboard";
}

/**
 * First line of every signed-in loader and action. A session still owing its second factor is sent to it; a
 * visitor is sent to /auth with `flash`, to come back to `back` (by default this page; a post comes back to its
 * page without the query).
 */
export async function requireUser(
  request: Request,
  flash: Flash = { kind: "info", ...AUTH_MESSAGES.signIn },
  back?: string,
): Promise<AuthUser> {
  const state = await signInState(request);
  if (state.kind === "signed-in") return state.user;
  const to = encodeURIComponent(back ?? backTo(request));
  if (state.kind === "pending") {
    const step = state.user.twoFactor ? "/auth/two-factor" : "/auth/two-factor/setup";
    throw redirect(`${step}?redirectTo=${to}`, { status: 303 });
  }
  throw await redirectWithFlash(request, `/auth?redirectTo=${to}`, flash, { status: 303 });
}

/**
 * First line of every admin loader and action (spec 2 section 6). An admin
 * session exists only past the second factor (requireUser sends a password-only
 * one to the code step or to enrolment).
 */
export async function requireAdmin(request: Request): Promise<AuthUser> {
  const user = await requireUser(request);
  if (!user.isAdmin) {
    throw await redirectWithFlash(request, "/dashboard", {
      kind: "error",
      title: "Access Denied",
      description: "You don't have admin privileges",
    });
  }
  return user;
}

/**
 * Fresh proof before a destructive action: a code entered in this session within
 * the last 10 minutes. Otherwise the admin is sent to enter one, and from there
 * back to `returnTo`: the same confirmation, with what was typed in its query.
 * Call it after requireAdmin and before anything changes.
 */
export async function requireFreshProof(request: Request, returnTo: string) {
  const state = await signInState(request);
  if (state.kind === "signed-in" && isFresh(state.verifiedAt, Date.now())) return;
  throw await redirectWithFlash(
    request,
    `/auth/two-factor?redirectTo=${encodeURIComponent(safeRedirect(returnTo, "/admin"))}`,
    { kind: "info", ...TWO_FACTOR_MESSAGES.freshProof },
    { status: 303 },
  );
}

/** Creates a user (and, with admin: true, the admin role); used by sign-up, the seed and create-admin scripts. */
export async function createUser(input: {
  email: string;
  password: string;
  fullName?: string | null;
  admin?: boolean;
  verified?: boolean;
}) {
  const user = await User.create({
    email: input.email,
    password_hash: await hashPassword(input.password),
    full_name: input.fullName || undefined,
    email_verified_at: input.verified || input.admin ? new Date() : null,
  });
  if (input.admin) await UserRole.create({ user_id: String(user._id), role: "admin" });
  return toAuthUser(user);
}

/**
 * Sign-up. Answers the same way whether or not the address has an account: a
 * new address gets an account and a confirmation link; a known one gets an
 * e-mail saying so (with sign-in and reset links). Nobody is signed in until the
 * address is confirmed, so an account can't be used by someone who only typed
 * another person's address. Returns false when over the limits.
 */
export async function signUp(
  input: { email: string; password: string; fullName?: string },
  address: string,
): Promise<boolean> {
  const email = normalizeEmail(input.email);
  if (!(await withinLimits(SIGN_UP_LIMITS, address, email))) return false;
  try {
    const user = await createUser({ email, password: input.password, fullName: input.fullName });
    await sendConfirmation(user);
    log("info", "auth.signed_up", { user_id: user.id });
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    const hour = Math.floor(Date.now() / (60 * MINUTE));
    const existing = await User.findOne({ email }, { _id: 1 }).lean();
    await queueMail({
      key: `account-exists:${email}:${hour}`,
      to: email,
      about: existing ? { userId: String(existing._id) } : {},
      ...accountExists({ signInUrl: absoluteUrl("/auth"), resetUrl: absoluteUrl("/auth/forgot-password") }),
    });
  }
  return true;
}

/* Single-use links (confirmation and reset) */

const hashLinkToken = (token: string) => createHash("sha256").update(token).digest("hex");

async function issueLink(
  purpose: "reset" | "verify",
  user: { id: string; email: string },
  validMs: number,
): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const link = await AccountToken.create({
    _id: hashLinkToken(token),
    purpose,
    user_id: user.id,
    email: user.email,
    expires_at: new Date(Date.now() + validMs),
  });
  // A new reset link ends every older one: only the newest e-mail works.
  if (purpose === "reset")
    await endResetLinks(user.id, { created_at: mongoose.trusted({ $lt: link.get("created_at") as Date }) });
  return token;
}

/** Ends the account's live reset links (those matching `which`). */
async function endResetLinks(userId: string, which: Record<string, unknown> = {}) {
  await AccountToken.updateMany(
    { user_id: userId, purpose: "reset", used_at: null, ...which },
    { $set: { used_at: new Date() } },
  );
}

/** "Send the link again": a new confirmation link for a signed-in, unconfirmed account, within its limit. */
export async function resendConfirmation(user: AuthUser): Promise<boolean> {
  if (user.emailVerified) return true;
  if (!(await consumeRateLimit(RESEND_LIMIT, user.id))) return false;
  await sendConfirmation(user);
  return true;
}

/** Sends the link that confirms the account's address. */
async function sendConfirmation(user: { id: string; email: string }) {
  const token = await issueLink("verify", user, VERIFY_VALID_DAYS * DAY_MS);
  await queueMail({
    key: `verify:${hashLinkToken(token)}`,
    to: user.email,
    about: { userId: user.id },
    ...confirmEmail({ url: absoluteUrl(`/auth/verify?token=${token}`) }),
  });
}

/** A link's record when it is for this purpose, unexpired and unused; null otherwise. */
export async function findLink(purpose: "reset" | "verify", token: string) {
  notePrivateRead(); // a page that reads a link's token holds it
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const link = await AccountToken.findById(hashLinkToken(token)).lean();
  if (!link || link.purpose !== purpose || link.used_at || link.expires_at.getTime() <= Date.now()) return null;
  return link;
}

/**
 * What the page an e-mailed link opens needs: the link's token from the address and whether it can
 * still be used. Opening the link changes nothing (mail scanners open links); its form uses it.
 */
export async function linkPage(request: Request, purpose: "reset" | "verify") {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token, usable: Boolean(await findLink(purpose, token)) };
}

/** Uses a link once: true for the one request that claimed it. */
async function spendLink(linkId: string): Promise<boolean> {
  if (!(await claimOnce(`account-token:${linkId}`))) return false;
  await AccountToken.updateOne({ _id: linkId }, { $set: { used_at: new Date() } });
  return true;
}

/**
 * Password reset, step 1: e-mails a single-use link that works for an hour to
 * the address, if it has an account. The caller says the same either way, and
 * the answer's timing must not tell either: the request waits only for the work
 * both cases share (the limits); finding the account, issuing the link and
 * queueing the e-mail run after it has answered (`done`, which never rejects;
 * a failure is logged, and the visitor can ask again). Returns null when over the
 * limits.
 */
export async function requestPasswordReset(rawEmail: string, address: string): Promise<{ done: Promise<void> } | null> {
  const email = normalizeEmail(rawEmail);
  const [byAddress, fromAddress] = await Promise.all([
    consumeRateLimit(RESET_LIMITS.address, address),
    consumeRateLimit(RESET_LIMITS.accountFromAddress, `${email}\n${address}`),
  ]);
  if (!byAddress || !fromAddress) return null;
  const done = sendResetLink(email).catch((error: unknown) =>
    log("error", "auth.reset_failed", { reason: errorMessage(error) }),
  );
  return { done };
}

async function sendResetLink(email: string) {
  const user = await User.findOne({ email }).lean();
  if (!user) return;
  if (!(await consumeRateLimit(RESET_LIMITS.mail, String(user._id)))) {
    log("warn", "auth.reset_mail_capped", { user_id: String(user._id) });
    return;
  }
  const token = await issueLink("reset", { id: String(user._id), email }, RESET_VALID_MINUTES * MINUTE);
  await queueMail({
    key: `reset:${hashLinkToken(token)}`,
    to: email,
    about: { userId: String(user._id) },
    ...passwordReset({ url: absoluteUrl(`/auth/reset-password?token=${token}`), validMinutes: RESET_VALID_MINUTES }),
  });
  log("info", "auth.reset_requested", { user_id: String(user._id) });
}

/**
 * Password reset, step 2: sets the new password once per link, ends every
 * other session of the account and confirms the address (the link proved it).
 * Returns the user to sign in, or null when the link is not usable.
 */
export async function resetPassword(token: string, password: string): Promise<AuthUser | null> {
  const link = await findLink("reset", token);
  if (!link || !(await spendLink(link._id))) return null;
  await endResetLinks(link.user_id); // using one ends every other

  const user = await User.findById(link.user_id).lean();
  if (!user || user.email !== link.email) return null;
  await User.updateOne(
    { _id: link.user_id },
    { $set: { password_hash: await hashPassword(password), email_verified_at: user.email_verified_at ?? new Date() } },
  );
  await endAllSessions(link.user_id);
  log("info", "auth.password_reset", { user_id: link.user_id });
  const updated = { ...user, email_verified_at: user.email_verified_at ?? new Date() };
  await claimGuestOrders(updated);
  return toAuthUser(updated);
}

/**
 * A resent press of a link's password form whose first answer was lost (the link is spent by then): the
 * account the first press signed in, when the resend carries that account's password; otherwise null.
 */
export async function resentLinkUser(userId: string, password: string): Promise<AuthUser | null> {
  const doc = await User.findById(userId).lean();
  if (!doc?.password_hash || !(await verifyPassword(password, doc.password_hash))) return null;
  return toAuthUser(doc);
}

/**
 * Confirms the address: the link proves the inbox, the password proves the
 * account, so someone who signed up with another person's address can't have
 * it confirmed by that person's click. Null when the link or password is wrong
 * (the link stays usable after a wrong password). Each password tried counts
 * against the account's sign-in limits, as on /auth (TooManyAttemptsError).
 */
export async function verifyEmail(token: string, password: string, address = "unknown"): Promise<AuthUser | null> {
  const link = await findLink("verify", token);
  if (!link) return null;
  await allowPasswordGuess(link.email, address);
  const user = await User.findById(link.user_id).lean();
  if (!user || user.email !== link.email || !(await verifyPassword(password, user.password_hash))) return null;
  if (!(await spendLink(link._id))) return null;
  const verifiedAt = user.email_verified_at ?? new Date();
  await User.updateOne({ _id: link.user_id }, { $set: { email_verified_at: verifiedAt } });
  const verified = { ...user, email_verified_at: verifiedAt };
  await claimGuestOrders(verified);
  log("info", "auth.email_verified", { user_id: link.user_id });
  return toAuthUser(verified);
}

/**
 * Guest orders (bought with this e-mail while signed out) join the account,
 * but only once the account has proven the address. Idempotent.
 */
export async function claimGuestOrders(user: UserDoc) {
  if (!user.email_verified_at) return;
  await Order.updateMany({ email: user.email, user_id: null }, { $set: { user_id: String(user._id) } });
}
