import { User, UserRole } from "../models/index.server";
import { endAllSessions } from "../session.server";
import { removeSecondFactor } from "../two-factor.server";
import { recordAdminAction, type Actor } from "./audit.server";

/** The admin security page's records: who the admins are, and resetting another admin's second factor. */

/** Every admin, with whether their second factor is set up (a handful of rows). */
export async function listAdmins() {
  const roles = await UserRole.find({ role: "admin" }, { user_id: 1 }).limit(200).lean();
  const users = await Promise.all(
    roles.map((r) => User.findById(r.user_id, { email: 1, two_factor_enabled_at: 1 }).lean()),
  );
  return users
    .filter((u) => u !== null)
    .map((u) => ({
      id: String(u._id),
      email: u.email,
      twoFactorSince: u.two_factor_enabled_at ? u.two_factor_enabled_at.toISOString() : null,
    }))
    .sort((a, b) => a.email.localeCompare(b.email));
}

/** An admin account by id, or null (anyone else is not this page's business). */
export async function findAdmin(userId: string) {
  if (!/^[0-9a-f]{24}$/.test(userId) || !(await UserRole.exists({ user_id: userId, role: "admin" }))) return null;
  const user = await User.findById(userId, { email: 1, two_factor_enabled_at: 1 }).lean();
  return user ? { id: userId, email: user.email, twoFactor: Boolean(user.two_factor_enabled_at) } : null;
}

/**
 * Resets another admin's second factor (lost phone and recovery codes): their
 * key and codes are deleted and their sessions end, so their next sign-in sets
 * it up again. Audited.
 */
export async function resetAdminSecondFactor(actor: Actor, target: { id: string; email: string }) {
  await removeSecondFactor(target.id);
  await endAllSessions(target.id);
  await recordAdminAction(actor, "two_factor.reset", { type: "user", id: target.id }, { email: target.email });
}
