import { randomBytes } from "node:crypto";
import type { BrowserContext } from "playwright-core";
import { newTotpSecret, totpCode } from "~/domain/totp";
import { createUser, type AuthUser } from "~/server/auth.server";
import { sessionStorage } from "~/server/session.server";
import { enableSecondFactor } from "~/server/two-factor.server";

/**
 * A signed-in user for tests (the Epic Stack `login` fixture): creates the user
 * (and the admin role with `admin: true`) and a real server-side session, and
 * returns the session cookie as a browser would send it. Needs the database the
 * app under test reads (connectDb with the right MONGODB_URI first).
 *
 * An admin (or `secondFactor: true`) gets two-factor sign-in with a known key
 * (`totpSecret`, `code()` makes the code for now, `recoveryCodes`) and a session
 * that has just passed it: a full admin session, with fresh proof for 10 minutes.
 * `secondFactor: "password-only"` gives an admin the session a password alone
 * makes (the second factor still owed), which no admin page may answer.
 */
export async function signedInUser(
  options: {
    admin?: boolean;
    email?: string;
    password?: string;
    secondFactor?: boolean | "password-only";
    /** When the session's last code was entered (ms), to test fresh proof; default now. */
    verifiedAt?: number;
  } = {},
) {
  const email = options.email ?? `user-${randomBytes(5).toString("hex")}@example.test`;
  const password = options.password ?? `pw-${randomBytes(8).toString("hex")}`;
  const created: AuthUser = await createUser({ email, password, admin: options.admin });
  const enrol = options.secondFactor === undefined ? Boolean(options.admin) : options.secondFactor !== false;
  const totpSecret = enrol ? newTotpSecret() : null;
  const recoveryCodes = totpSecret ? await enableSecondFactor(created.id, totpSecret) : [];
  const user: AuthUser = { ...created, twoFactor: enrol };
  const storage = sessionStorage();
  const session = await storage.getSession();
  session.set("userId", user.id);
  if (options.admin) session.set("admin", true);
  if (enrol && options.secondFactor !== "password-only") session.set("verifiedAt", options.verifiedAt ?? Date.now());
  const setCookie = await storage.commitSession(session);
  const cookie = setCookie.split(";")[0]; // "__session=…"
  const code = (now = Date.now()) => {
    if (!totpSecret) throw new Error("This test user has no second factor");
    return totpCode(totpSecret, now);
  };
  return { user, email, password, cookie, totpSecret, recoveryCodes, code };
}

/** Puts a signed-in user's session cookie into a Playwright browser context. */
export async function addSessionCookie(context: BrowserContext, cookie: string, baseURL: string) {
  const [name, ...rest] = cookie.split("=");
  await context.addCookies([{ name, value: rest.join("="), url: baseURL }]);
}
