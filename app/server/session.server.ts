import { createHash, randomBytes } from "node:crypto";
import { createCookie, createSessionStorage } from "@remix-run/node";
import mongoose from "mongoose";
import { DAY_MS } from "~/domain/dates";
import { cookieOptions, readCookie, readSession } from "./cookies.server";
import { Session } from "./models/index.server";

/** A session ends 30 days after sign-in however busy it is, or after 7 days unused. */
export const SESSION_ABSOLUTE_MS = 30 * DAY_MS;
export const SESSION_IDLE_MS = 7 * DAY_MS;
/** A session with admin rights is shorter: 12 hours at most, 30 minutes unused. */
export const ADMIN_SESSION_ABSOLUTE_MS = 12 * 60 * 60_000;
export const ADMIN_SESSION_IDLE_MS = 30 * 60_000;
/** last_seen_at is written at most this often, so a page view is not a database write. */
const TOUCH_MS = 60 * 60_000;
const ADMIN_TOUCH_MS = 60_000;

export type SessionData = {
  userId: string;
  /** When a second-factor code was last entered in this session (ms), if ever. */
  verifiedAt?: number;
  /** The account had admin rights at sign-in: the shorter limits apply (kept on the document too). */
  admin?: boolean;
  /** Where the session was started, for the admin's sessions list. */
  userAgent?: string;
  address?: string;
};

const limitsOf = (admin: boolean | undefined | null) =>
  admin
    ? { absolute: ADMIN_SESSION_ABSOLUTE_MS, idle: ADMIN_SESSION_IDLE_MS, touch: ADMIN_TOUCH_MS }
    : { absolute: SESSION_ABSOLUTE_MS, idle: SESSION_IDLE_MS, touch: TOUCH_MS };

type SessionRecord = {
  admin?: boolean | null;
  expires_at?: Date | null;
  last_seen_at?: Date | null;
  created_at?: Date;
};

/** When a stored session ends if left idle from now on (ms): its idle end, or its absolute end if sooner. */
function endOf(doc: SessionRecord): number {
  const lastSeen = (doc.last_seen_at ?? doc.created_at ?? new Date(0)).getTime();
  const idleEnd = lastSeen + limitsOf(doc.admin).idle;
  return doc.expires_at ? Math.min(doc.expires_at.getTime(), idleEnd) : idleEnd;
}

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
        const id = randomBytes(24).toString("base64url");
        const now = Date.now();
        await Session.create({
          _id: id,
          data: { ...data },
          user_id: data.userId ?? null,
          admin: Boolean(data.admin),
          expires_at: new Date(now + limitsOf(data.admin).absolute),
          last_seen_at: new Date(now),
        });
        return id;
      },
      async readData(id) {
        const doc = await Session.findById(id).lean();
        if (!doc) return null;
        const now = Date.now();
        if (endOf(doc) <= now) {
          await Session.deleteOne({ _id: id });
          return null;
        }
        const lastSeen = (doc.last_seen_at ?? doc.created_at ?? new Date(0)).getTime();
        if (now - lastSeen > limitsOf(doc.admin).touch)
          await Session.updateOne({ _id: id }, { $set: { last_seen_at: new Date(now) } });
        return doc.data as SessionData;
      },
      async updateData(id, data) {
        // Never an upsert: a session deleted on the server (signed out, timed out) stays gone.
        await Session.updateOne({ _id: id }, { $set: { data, user_id: data.userId ?? null } });
      },
      async deleteData(id) {
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
 * The session record this request's cookie names, as stored (an ended one too, until the next read deletes it),
 * without touching it; null for no cookie, a forged one or no record.
 */
async function sessionRecord(request: Request) {
  const id = await sessionIdOfRequest(request);
  return id ? Session.findById(id).lean() : null;
}

const sessionIdOfRequest = async (request: Request) => {
  const id = await readCookie(createCookie(SESSION_COOKIE, cookieOptions(SESSION_COOKIE)), request);
  return typeof id === "string" ? id : null;
};

/**
 * Whose admin session this request's cookie names, ended or not, read without touching it: `{ userId }` of the admin
 * account when its record is still there, `{ userId: null }` for a cookie of ours whose record is gone (purged);
 * null for no cookie of ours, or a record that is no admin's.
 */
export async function adminOfSessionCookie(request: Request): Promise<{ userId: string | null } | null> {
  const id = await sessionIdOfRequest(request);
  if (!id) return null;
  const doc = await Session.findById(id).lean();
  if (!doc) return { userId: null };
  return doc.admin && doc.user_id ? { userId: doc.user_id } : null;
}

/** When this request's session ends if left idle from now on (ms since 1970), or null with no live session. */
export async function sessionEndsAt(request: Request): Promise<number | null> {
  const doc = await sessionRecord(request);
  const end = doc ? endOf(doc) : 0;
  return end > Date.now() ? end : null;
}

/**
 * A fresh session for `userId` (a new id: whatever id the browser held before
 * sign-in, or before a second-factor code, is never promoted), ending the old
 * one. Returns its Set-Cookie header.
 */
export async function rotateSession(
  request: Request,
  userId: string,
  extra: { verifiedAt?: number; admin?: boolean } = {},
): Promise<string> {
  const old = await getSession(request);
  if (old.id) await sessionStorage().destroySession(old);
  const session = await sessionStorage().getSession();
  session.set("userId", userId);
  if (extra.verifiedAt) session.set("verifiedAt", extra.verifiedAt);
  if (extra.admin) session.set("admin", true);
  session.set("userAgent", (request.headers.get("User-Agent") ?? "").slice(0, 300));
  session.set("address", (request.headers.get("x-client-address") ?? "").slice(0, 64));
  return sessionStorage().commitSession(session);
}

/** Records a second-factor code entered now in this session (same id); returns its Set-Cookie header. */
export async function markVerified(request: Request): Promise<string> {
  const session = await getSession(request);
  session.set("verifiedAt", Date.now());
  return sessionStorage().commitSession(session);
}

/** The id of the session a Set-Cookie header carries (to keep that one when ending the others). */
export async function sessionIdOf(setCookie: string): Promise<string | undefined> {
  const session = await sessionStorage().getSession(setCookie.split(";")[0]);
  return session.id || undefined;
}

/** Ends every session of a user (after a password reset or a second-factor change), or all but one. */
export async function endAllSessions(userId: string, exceptSessionId?: string) {
  await Session.deleteMany(
    exceptSessionId ? { user_id: userId, _id: mongoose.trusted({ $ne: exceptSessionId }) } : { user_id: userId },
  );
}

/** A session's handle in the sessions list: never its id (the id is the bearer secret the cookie carries). */
const handleOf = (sessionId: string) => createHash("sha256").update(sessionId).digest("base64url").slice(0, 22);

/** A user's live sessions, newest first, marking the one this request came with. */
export async function listSessions(userId: string, currentSessionId: string | undefined) {
  const docs = await Session.find({ user_id: userId }).sort({ created_at: -1 }).limit(100).lean();
  const now = Date.now();
  return docs
    .filter((doc) => endOf(doc) > now)
    .map((doc) => {
      const data = (doc.data ?? {}) as Partial<SessionData>;
      return {
        handle: handleOf(doc._id),
        current: doc._id === currentSessionId,
        admin: Boolean(doc.admin),
        secondFactor: typeof data.verifiedAt === "number",
        userAgent: data.userAgent || null,
        address: data.address || null,
        startedAt: (doc.created_at ?? new Date(0)).toISOString(),
        lastSeenAt: (doc.last_seen_at ?? doc.created_at ?? new Date(0)).toISOString(),
        expiresAt: doc.expires_at ? doc.expires_at.toISOString() : null,
      };
    });
}

/** Ends one of a user's sessions by its handle; false when it is not theirs (or already ended). */
export async function endSessionByHandle(userId: string, handle: string): Promise<boolean> {
  const docs = await Session.find({ user_id: userId }, { _id: 1 }).limit(100).lean();
  const doc = docs.find((d) => handleOf(d._id) === handle);
  if (!doc) return false;
  await Session.deleteOne({ _id: doc._id });
  return true;
}
