import { HOUR_MS, DAY_MS, MINUTE_MS } from "~/domain/dates";
import { endResetLinks, findLink, hashLinkToken, issueLink, spendLink } from "./account-links.server";
import { normalizeEmail, toAuthUser, type AuthUser } from "./auth.server";
import { claimGuestOrders } from "./customer-orders.server";
import { absoluteUrl } from "./env.server";
import { errorMessage, log } from "./log.server";
import { passwordReset } from "./mail/messages.server";
import { queueMail } from "./mail/outbox.server";
import { findUserByEmail, User } from "./models/index.server";
import { hashPassword } from "./passwords.server";
import { consumeRateLimit, type RateLimit } from "./rate-limit.server";
import { endAllSessions } from "./session.server";

/**
 * Password reset by a single-use e-mailed link. No answer here tells a visitor
 * whether an address has an account.
 */

/** Forgot password: its own limits, so failed sign-ins never close it; the owner's inbox gets at most `mail` a day. */
export const RESET_LIMITS = {
  address: { name: "reset:address", max: 10, windowMs: HOUR_MS },
  accountFromAddress: { name: "reset:account-address", max: 3, windowMs: HOUR_MS },
  mail: { name: "reset:mail", max: 10, windowMs: DAY_MS },
} satisfies Record<string, RateLimit>;

export const RESET_VALID_MINUTES = 60;

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
  const user = await findUserByEmail(email);
  if (!user) return;
  if (!(await consumeRateLimit(RESET_LIMITS.mail, String(user._id)))) {
    log("warn", "auth.reset_mail_capped", { user_id: String(user._id) });
    return;
  }
  const token = await issueLink("reset", { id: String(user._id), email }, RESET_VALID_MINUTES * MINUTE_MS);
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
