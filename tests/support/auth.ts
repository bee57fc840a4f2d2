import { randomBytes } from "node:crypto";
import type { BrowserContext, Page } from "playwright-core";
import { newTotpSecret, totpCode } from "~/domain/totp";
import { createUser } from "~/server/accounts.server";
import { SIGN_IN_LIMITS, type AuthUser } from "~/server/auth.server";
import { rateLimitSubject } from "~/server/rate-limit.server";
import { connectDb } from "~/server/db.server";
import { sessionStorage } from "~/server/session.server";
import { enableSecondFactor } from "~/server/two-factor.server";
import { beforeAll } from "vitest";
import { APP_URL, type useBrowser } from "./browser";
import { BROWSER_ADDRESSES, forgetLimits } from "./rate-limits";

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
 *
 * The account's address is confirmed (as a customer's is once they open the e-mailed link);
 * `confirmed: false` gives an account that signed up and has not confirmed yet.
 */
export async function signedInUser(
  options: {
    admin?: boolean;
    email?: string;
    password?: string;
    secondFactor?: boolean | "password-only";
    /** The address is confirmed; default true. */
    confirmed?: boolean;
    /** When the session's last code was entered (ms), to test fresh proof; default now. */
    verifiedAt?: number;
  } = {},
) {
  await connectDb();
  const email = options.email ?? `user-${randomBytes(5).toString("hex")}@example.test`;
  const password = options.password ?? `pw-${randomBytes(8).toString("hex")}`;
  const created: AuthUser = await createUser({
    email,
    password,
    admin: options.admin,
    verified: options.confirmed ?? true,
  });
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

/**
 * Every browser test signs in from 127.0.0.1, so the whole suite shares the per-address sign-in limit (20 in
 * 15 minutes): whatever order the files run in, a page sign-in (the sign-in form, or the confirmation page's
 * password) starts under it after this. Clears that address's sign-in counts and, given the e-mail, the
 * account's; nothing of other addresses (the limit tests use their own loopback addresses).
 */
export async function clearSignInLimit(email?: string) {
  const subjects = BROWSER_ADDRESSES.flatMap((address) => [
    rateLimitSubject(SIGN_IN_LIMITS.address, address),
    ...(email ? [rateLimitSubject(SIGN_IN_LIMITS.accountFromAddress, `${email.toLowerCase()}\n${address}`)] : []),
  ]);
  if (email) subjects.push(rateLimitSubject(SIGN_IN_LIMITS.account, email.toLowerCase()));
  await forgetLimits(subjects);
}

/** Signs in through the sign-in form as a person does (under the suite's shared limit: clearSignInLimit). */
export async function signInOnPage(page: Page, email: string, password: string, redirectTo?: string) {
  await clearSignInLimit(email);
  await page.goto(redirectTo ? `/auth?redirectTo=${encodeURIComponent(redirectTo)}` : "/auth");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
}

/**
 * The admin's pages of a browser test file: signs in one admin (with the second factor) before the file's tests,
 * and opens each page with their session; with JavaScript the page may read and write the clipboard (copy buttons).
 */
export function useAdminPages(browser: ReturnType<typeof useBrowser>) {
  let cookie: string;
  beforeAll(async () => {
    await connectDb();
    cookie = (await signedInUser({ admin: true })).cookie;
  });
  return async (javaScriptEnabled: boolean, width = 1280): Promise<Page> => {
    const page = await browser.newPage({ javaScriptEnabled, width, cookie });
    if (javaScriptEnabled)
      await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: APP_URL });
    return page;
  };
}
