import type { Cookie, CookieOptions, SessionData, SessionStorage } from "@remix-run/node";
import { getEnv } from "./env.server";
import { noteCookieRead } from "./private-response.server";

/**
 * The one cookie policy: HttpOnly, SameSite=Lax, Secure in production (not in the
 * local production run on plain http://localhost, LOCAL_STANDINS), signed
 * with SESSION_SECRET. Every cookie the app sets is built from this. SESSION_SECRET
 * may list several secrets, newest first: new cookies are signed with the first,
 * cookies signed with any of them are still read (rotation without sign-outs).
 */
export function cookieOptions(
  name: string,
  extra: Omit<CookieOptions, "httpOnly" | "sameSite" | "secure" | "secrets"> = {},
) {
  const env = getEnv();
  return {
    name,
    path: "/",
    ...extra,
    httpOnly: true,
    sameSite: "lax" as const,
    secure: env.NODE_ENV === "production" && !env.LOCAL_STANDINS,
    secrets: env.SESSION_SECRETS,
  };
}

/**
 * A cookie session's data; a forged or unreadable cookie is an empty session, never an error. `name` is the
 * session's cookie: reading it makes the answer private (app/server/private-response.server.ts).
 */
export async function readSession<D extends SessionData, F extends SessionData>(
  storage: SessionStorage<D, F>,
  request: Request,
  name: string,
) {
  noteCookieRead(name, request);
  try {
    return await storage.getSession(request.headers.get("Cookie"));
  } catch {
    return storage.getSession(null);
  }
}

/**
 * A cookie's value, or null when it is missing, forged or unreadable: a
 * cookie the server cannot trust is treated as no cookie, never as an error.
 */
export async function readCookie(cookie: Cookie, request: Request): Promise<unknown> {
  noteCookieRead(cookie.name, request);
  try {
    return (await cookie.parse(request.headers.get("Cookie"))) ?? null;
  } catch {
    return null;
  }
}
