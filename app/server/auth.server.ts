import { randomBytes } from "node:crypto";
import { redirect } from "@remix-run/node";
import mongoose from "mongoose";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { AUTH_MESSAGES, REDIRECT_MAX_LENGTH, safeRedirect } from "~/domain/account";
import { ADMIN_SESSION_MESSAGES } from "~/domain/admin/session";
import { MINUTE_MS } from "~/domain/dates";
import { isFresh, TWO_FACTOR_MESSAGES } from "~/domain/two-factor";
import { keepRefusedPost } from "./admin/kept-posts.server";
import { claimGuestOrders } from "./customer-orders.server";
import { redirectWithFlash, type Flash } from "./flash.server";
import { log } from "./log.server";
import { findUserByEmail, User, UserRole } from "./models/index.server";
import { hashPassword, verifyPassword } from "./passwords.server";
import { clientAddress, consumeRateLimit, type RateLimit } from "./rate-limit.server";
import { adminOfSessionCookie, getSession, rotateSession, sessionStorage } from "./session.server";
import { startEnrolment } from "./two-factor.server";

/**
 * Sign-in: the password (remix-auth's form strategy) within its limits, the
 * session it starts, and the guards every signed-in loader starts with. No
 * answer here tells a visitor whether an address has an account. Sign-up and
 * the confirmation link are accounts.server.ts's, the reset link
 * password-reset.server.ts's, both made by account-links.server.ts.
 */

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
 * that account waits SLOW_SIGN_IN_MS first, and the right password still gets in. docs/limits.md lists them all
 * (sign-up's are in accounts.server.ts, the reset link's in password-reset.server.ts).
 */
export const SIGN_IN_LIMITS = {
  address: { name: "sign-in:address", max: 20, windowMs: 15 * MINUTE_MS },
  accountFromAddress: { name: "sign-in:account-address", max: 10, windowMs: 15 * MINUTE_MS },
  account: { name: "sign-in:account", max: 30, windowMs: 15 * MINUTE_MS },
} satisfies Record<string, RateLimit>;
export const SLOW_SIGN_IN_MS = 2_000;

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

/** Compared against when the e-mail has no account, so both answers take as long. */
let decoyHash: Promise<string> | undefined;

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/**
 * One password guess at `email` from `address` (sign-in and the confirmation page): throws TooManyAttemptsError
 * when this address is over its limits; slows, never refuses, an account guessed at from everywhere.
 */
export async function allowPasswordGuess(email: string, address: string) {
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

export type UserDoc = {
  _id: unknown;
  email: string;
  full_name?: string | null;
  email_verified_at?: Date | null;
  two_factor_enabled_at?: Date | null;
};

export async function toAuthUser(user: UserDoc): Promise<AuthUser> {
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
  const user = await findUserByEmail(normalized);
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
      // goes with the session: on a shared computer the next person sees none of it.
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
  return userOf(request, await signInState(request), flash, back);
}

/** requireUser's answer to a sign-in state: the user, or the redirect thrown to the code step or to /auth. */
async function userOf(
  request: Request,
  state: SignInState,
  flash: Flash = { kind: "info", ...AUTH_MESSAGES.signIn },
  back?: string,
  init: { headers?: HeadersInit } = {},
): Promise<AuthUser> {
  if (state.kind === "signed-in") return state.user;
  const to = encodeURIComponent(back ?? backTo(request));
  if (state.kind === "pending") {
    const step = state.user.twoFactor ? "/auth/two-factor" : "/auth/two-factor/setup";
    throw redirect(`${step}?redirectTo=${to}`, { status: 303 });
  }
  throw await redirectWithFlash(request, `/auth?redirectTo=${to}`, flash, { status: 303, ...init });
}

/**
 * requireUser for an admin post: one whose admin session has ended (30 minutes idle while the admin typed) is kept
 * for that admin (or, its record purged, the next admin to sign in from this browser), and sign-in comes back to
 * the page it was sent from (server/admin/kept-posts.server.ts). A post without a cookie of ours, or with a
 * customer's, is not kept. The ended session's record is read first: reading the session deletes it.
 */
async function requireUserKeepingPost(request: Request): Promise<AuthUser> {
  const ended = await adminOfSessionCookie(request);
  const state = await signInState(request);
  if (state.kind !== "none" || !ended) return userOf(request, state);
  const kept = await keepRefusedPost(request, ended.userId);
  if (!kept) return userOf(request, state);
  return userOf(
    request,
    state,
    { kind: "info", ...AUTH_MESSAGES.signIn, description: ADMIN_SESSION_MESSAGES.keptUntilSignIn },
    kept.back,
    {
      headers: { "Set-Cookie": kept.setCookie },
    },
  );
}

/**
 * First line of every admin loader and action (spec 2 section 6). An admin
 * session exists only past the second factor (requireUser sends a password-only
 * one to the code step or to enrolment).
 */
export async function requireAdmin(request: Request): Promise<AuthUser> {
  const user = request.method === "POST" ? await requireUserKeepingPost(request) : await requireUser(request);
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

/**
 * A resent press of a link's password form whose first answer was lost (the link is spent by then): the
 * account the first press signed in, when the resend carries that account's password; otherwise null.
 */
export async function resentLinkUser(userId: string, password: string): Promise<AuthUser | null> {
  const doc = await User.findById(userId).lean();
  if (!doc?.password_hash || !(await verifyPassword(password, doc.password_hash))) return null;
  return toAuthUser(doc);
}
