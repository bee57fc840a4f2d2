import { DAY_MS, HOUR_MS } from "~/domain/dates";
import { hashLinkToken, findLink, issueLink, spendLink } from "./account-links.server";
import { allowPasswordGuess, normalizeEmail, toAuthUser, type AuthUser } from "./auth.server";
import { claimGuestOrders } from "./customer-orders.server";
import { isDuplicateKeyError } from "./db.server";
import { absoluteUrl } from "./env.server";
import { log } from "./log.server";
import { accountExists, confirmEmail } from "./mail/messages.server";
import { queueMail } from "./mail/outbox.server";
import { findUserByEmail, User, UserRole } from "./models/index.server";
import { hashPassword, verifyPassword } from "./passwords.server";
import { consumeRateLimit, type RateLimit } from "./rate-limit.server";

/**
 * Accounts: creating one (sign-up, the seed and create-admin scripts) and
 * confirming its address by a single-use e-mailed link. No answer here tells a
 * visitor whether an address has an account.
 */

export const SIGN_UP_LIMITS = {
  address: { name: "sign-up:address", max: 10, windowMs: HOUR_MS },
  account: { name: "sign-up:account", max: 3, windowMs: HOUR_MS },
} satisfies Record<string, RateLimit>;

/** "Send the link again" from the dashboard: a few a day is plenty, and it mails only the account's own address. */
export const RESEND_LIMIT: RateLimit = { name: "verify-resend:account", max: 5, windowMs: DAY_MS };

const VERIFY_VALID_DAYS = 7;

/** Counts one attempt against both limits; false when either is used up. */
async function withinLimits(limits: { address: RateLimit; account: RateLimit }, address: string, email: string) {
  const [byAddress, byAccount] = await Promise.all([
    consumeRateLimit(limits.address, address),
    consumeRateLimit(limits.account, email),
  ]);
  return byAddress && byAccount;
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
    const hour = Math.floor(Date.now() / HOUR_MS);
    const existing = await findUserByEmail(email);
    await queueMail({
      key: `account-exists:${email}:${hour}`,
      to: email,
      about: existing ? { userId: String(existing._id) } : {},
      ...accountExists({ signInUrl: absoluteUrl("/auth"), resetUrl: absoluteUrl("/auth/forgot-password") }),
    });
  }
  return true;
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
