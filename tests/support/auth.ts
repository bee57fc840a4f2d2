import { randomBytes } from "node:crypto";
import type { BrowserContext } from "playwright-core";
import { createUser, type AuthUser } from "~/server/auth.server";
import { sessionStorage } from "~/server/session.server";

/**
 * A signed-in user for tests (the Epic Stack `login` fixture): creates the user
 * (and the admin role with `admin: true`) and a real server-side session, and
 * returns the session cookie as a browser would send it. Needs the database the
 * app under test reads (connectDb with the right MONGODB_URI first).
 */
export async function signedInUser(options: { admin?: boolean; email?: string; password?: string } = {}) {
  const email = options.email ?? `user-${randomBytes(5).toString("hex")}@example.test`;
  const password = options.password ?? `pw-${randomBytes(8).toString("hex")}`;
  const user: AuthUser = await createUser({ email, password, admin: options.admin });
  const storage = sessionStorage();
  const session = await storage.getSession();
  session.set("userId", user.id);
  const setCookie = await storage.commitSession(session);
  const cookie = setCookie.split(";")[0]; // "__session=…"
  return { user, email, password, cookie };
}

/** Puts a signed-in user's session cookie into a Playwright browser context. */
export async function addSessionCookie(context: BrowserContext, cookie: string, baseURL: string) {
  const [name, ...rest] = cookie.split("=");
  await context.addCookies([{ name, value: rest.join("="), url: baseURL }]);
}
