import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";
import { redirect } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { connectDb } from "./db.server";
import { redirectWithFlash } from "./flash.server";
import { User, UserRole } from "./models/index.server";
import { getSession, sessionStorage } from "./session.server";

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

export type AuthUser = { id: string; email: string; fullName: string | null; isAdmin: boolean };

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

export class InvalidCredentialsError extends Error {
  constructor() {
    super("Invalid email or password");
  }
}

/** Looks a user up by e-mail and password; the same error for an unknown e-mail and a wrong password. */
export async function verifyLogin(email: string, password: string): Promise<AuthUser> {
  await connectDb();
  const user = await User.findOne({ email: email.trim().toLowerCase() }).lean();
  if (!user || !(await verifyPassword(password, user.password_hash))) throw new InvalidCredentialsError();
  return toAuthUser(user);
}

async function toAuthUser(user: { _id: unknown; email: string; full_name?: string | null }): Promise<AuthUser> {
  const id = String(user._id);
  const admin = await UserRole.exists({ user_id: id, role: "admin" });
  return { id, email: user.email, fullName: user.full_name ?? null, isAdmin: Boolean(admin) };
}

export const authenticator = new Authenticator<AuthUser>();
authenticator.use(
  new FormStrategy(async ({ form }) => verifyLogin(String(form.get("email") ?? ""), String(form.get("password") ?? ""))),
  "password",
);

/** Starts a session for `user` and redirects; remix-auth v4 leaves committing the session to us. */
export async function signIn(request: Request, user: AuthUser, to: string) {
  const session = await getSession(request);
  session.set("userId", user.id);
  return redirect(to, { headers: { "Set-Cookie": await sessionStorage().commitSession(session) } });
}

export async function signOut(request: Request, to = "/") {
  const session = await getSession(request);
  return redirect(to, { headers: { "Set-Cookie": await sessionStorage().destroySession(session) } });
}

/** The signed-in user, or null. Roles are read fresh on every request, so revoking admin takes effect at once. */
export async function getUser(request: Request): Promise<AuthUser | null> {
  const session = await getSession(request);
  const userId = session.get("userId");
  if (typeof userId !== "string") return null;
  await connectDb();
  const user = await User.findById(userId).lean();
  return user ? toAuthUser(user) : null;
}

/** First line of every signed-in loader and action. */
export async function requireUser(request: Request): Promise<AuthUser> {
  const user = await getUser(request);
  if (!user) {
    const url = new URL(request.url);
    throw redirect(`/auth?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
  }
  return user;
}

/** First line of every admin loader and action (spec 2 section 6). */
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

/** Creates a user (and, with admin: true, the admin role); used by sign-up, the seed and create-admin scripts. */
export async function createUser(input: { email: string; password: string; fullName?: string | null; admin?: boolean }) {
  await connectDb();
  const user = await User.create({
    email: input.email,
    password_hash: await hashPassword(input.password),
    full_name: input.fullName ?? undefined,
  });
  if (input.admin) await UserRole.create({ user_id: String(user._id), role: "admin" });
  return toAuthUser(user);
}
