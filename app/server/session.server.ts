import { randomBytes } from "node:crypto";
import { createSessionStorage } from "@remix-run/node";
import { connectDb } from "./db.server";
import { cookieOptions, readSession } from "./cookies.server";
import { Session } from "./models/index.server";

/** A session ends 30 days after sign-in however busy it is, or after 7 days unused. */
export const SESSION_ABSOLUTE_MS = 30 * 86_400_000;
export const SESSION_IDLE_MS = 7 * 86_400_000;
/** last_seen_at is written at most this often, so a page view is not a database write. */
const TOUCH_MS = 60 * 60_000;

type SessionData = { userId: string };

let storage: ReturnType<typeof createSessionStorage<SessionData>> | undefined;
const SESSION_COOKIE = "__session";

/**
 * Sign-in sessions, stored in the database so they can be revoked and timed
 * out on the server; the signed cookie carries only a random id.
 */
export function sessionStorage() {
  if (!storage) {
    storage = createSessionStorage<SessionData>({
      cookie: cookieOptions(SESSION_COOKIE, { maxAge: SESSION_ABSOLUTE_MS / 1000 }),
      async createData(data) {
        await connectDb();
        const id = randomBytes(24).toString("base64url");
        const now = Date.now();
        await Session.create({
          _id: id,
          data: { ...data },
          user_id: data.userId ?? null,
          expires_at: new Date(now + SESSION_ABSOLUTE_MS),
          last_seen_at: new Date(now),
        });
        return id;
      },
      async readData(id) {
        await connectDb();
        const doc = await Session.findById(id).lean();
        if (!doc) return null;
        const now = Date.now();
        const lastSeen = (doc.last_seen_at ?? doc.created_at ?? new Date(0)).getTime();
        if ((doc.expires_at && doc.expires_at.getTime() <= now) || lastSeen + SESSION_IDLE_MS <= now) {
          await Session.deleteOne({ _id: id });
          return null;
        }
        if (now - lastSeen > TOUCH_MS) await Session.updateOne({ _id: id }, { $set: { last_seen_at: new Date(now) } });
        return doc.data as SessionData;
      },
      async updateData(id, data) {
        // Never an upsert: a session deleted on the server (signed out, timed out) stays gone.
        await connectDb();
        await Session.updateOne({ _id: id }, { $set: { data, user_id: data.userId ?? null } });
      },
      async deleteData(id) {
        await connectDb();
        await Session.deleteOne({ _id: id });
      },
    });
  }
  return storage;
}

/** The sign-in session; a forged or unreadable cookie is no session, never an error. */
export function getSession(request: Request) {
  return readSession(sessionStorage(), request, SESSION_COOKIE);
}

/**
 * A fresh session for `userId` (a new id: whatever id the browser held before
 * sign-in is never promoted), ending the old one. Returns its Set-Cookie header.
 */
export async function rotateSession(request: Request, userId: string): Promise<string> {
  const old = await getSession(request);
  if (old.id) await sessionStorage().destroySession(old);
  const session = await sessionStorage().getSession();
  session.set("userId", userId);
  return sessionStorage().commitSession(session);
}

/** Ends every session of a user (after a password reset). */
export async function endAllSessions(userId: string) {
  await connectDb();
  await Session.deleteMany({ user_id: userId });
}
