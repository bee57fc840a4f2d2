import mongoose from "mongoose";
import { getEnv } from "./env.server";
import { OnceKey } from "./models/once-key.server";

// Filters only match fields we name: an unknown path in a filter is an error, not a silent full scan.
mongoose.set("strictQuery", true);
// Every object that reaches a filter becomes $eq, so request values can never smuggle in operators.
// Operators our own code writes are wrapped in mongoose.trusted().
mongoose.set("sanitizeFilter", true);

export const DEFAULT_MONGODB_URI = "mongodb://127.0.0.1:27017/rapid-website";

declare global {
  // One connection per process, kept across dev rebuilds.
  var __db: Promise<typeof mongoose> | undefined;
}

/** Connects once; later calls share the same connection. */
export function connectDb(uri = getEnv().MONGODB_URI ?? DEFAULT_MONGODB_URI): Promise<typeof mongoose> {
  if (!globalThis.__db) {
    globalThis.__db = mongoose
      .connect(uri, { serverSelectionTimeoutMS: 5000, autoIndex: true })
      .catch((error) => {
        globalThis.__db = undefined;
        throw error;
      });
  }
  return globalThis.__db;
}

export async function disconnectDb() {
  if (globalThis.__db) {
    globalThis.__db = undefined;
    await mongoose.disconnect();
  }
}

/** True when the database answers a ping. */
export async function pingDb(): Promise<boolean> {
  try {
    const conn = await connectDb();
    await conn.connection.db!.admin().ping();
    return true;
  } catch {
    return false;
  }
}

const UNAVAILABLE = new Set([
  "MongoServerSelectionError",
  "MongooseServerSelectionError",
  "MongoNetworkError",
  "MongoNetworkTimeoutError",
  "MongoNotConnectedError",
  "MongoTopologyClosedError",
  "MongoPoolClearedError",
]);

/**
 * True when an error means the database cannot be reached right now (down,
 * restarting, network), as opposed to a bug or a bad query: the request can be
 * answered with 503 and tried again later.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (UNAVAILABLE.has(e.name)) return true;
    // mongoose queues commands while it reconnects, then gives up with this message.
    if (e.name === "MongooseError" && /buffering timed out/.test(e.message)) return true;
  }
  return false;
}

/** E11000: the insert lost a race for a unique key, which is how exactly-once effects say "already done". */
export function isDuplicateKeyError(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && (error as { code?: number }).code === 11000;
}

/** Claims an idempotency key: true for the one call that claimed it, false for every other. */
export async function claimOnce(key: string): Promise<boolean> {
  await connectDb();
  try {
    await OnceKey.create({ _id: key });
    return true;
  } catch (error) {
    if (isDuplicateKeyError(error)) return false;
    throw error;
  }
}
