import { randomBytes } from "node:crypto";
import { createSessionStorage } from "@remix-run/node";
import { connectDb } from "./db.server";
import { cookieOptions, readSession } from "./cookies.server";
import { Session } from "./models/index.server";

const SESSION_DAYS = 30;

type SessionData = { userId: string };

let storage: ReturnType<typeof createSessionStorage<SessionData>> | undefined;

/**
 * Sign-in sessions, stored in the database (so they can be revoked); the signed
 * cookie carries only a random id.
 */
export function sessionStorage() {
  if (!storage) {
    storage = createSessionStorage<SessionData>({
      cookie: cookieOptions("__session", { maxAge: SESSION_DAYS * 24 * 60 * 60 }),
      async createData(data, expires) {
        await connectDb();
        const id = randomBytes(24).toString("base64url");
        await Session.create({ _id: id, data: { ...data }, user_id: data.userId, expires_at: expires });
        return id;
      },
      async readData(id) {
        await connectDb();
        const doc = await Session.findById(id).lean();
        if (!doc) return null;
        if (doc.expires_at && doc.expires_at < new Date()) {
          await Session.deleteOne({ _id: id });
          return null;
        }
        return doc.data as SessionData;
      },
      async updateData(id, data, expires) {
        await connectDb();
        await Session.updateOne({ _id: id }, { $set: { data, user_id: data.userId ?? null, expires_at: expires ?? null } }, { upsert: true });
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
  return readSession(sessionStorage(), request);
}
