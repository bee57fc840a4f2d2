import mongoose from "mongoose";
import { getEnv } from "./env.server";
import { errorMessage, log } from "./log.server";
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

/**
 * Connects once; later calls share the same connection. The app connects at start
 * (startDb, from entry.server.tsx); scripts and tests, which start their own
 * processes, call this first. Server functions never call it: mongoose holds
 * their queries until the connection is open.
 */
export function connectDb(uri = getEnv().MONGODB_URI ?? DEFAULT_MONGODB_URI): Promise<typeof mongoose> {
  if (!globalThis.__db) {
    globalThis.__db = mongoose
      .connect(uri, { serverSelectionTimeoutMS: 5000, autoIndex: true })
      .then((connected) => {
        watchConnectionFailures(connected.connection.getClient());
        return connected;
      })
      .catch((error) => {
        globalThis.__db = undefined;
        throw error;
      });
  }
  return globalThis.__db;
}

/**
 * The app's one connection, opened when it starts. A database not up yet is tried
 * again every 2 s; queries meanwhile wait for it (mongoose buffers them for 10 s,
 * then they fail as unavailable: a 503, see isDatabaseUnavailable).
 */
export function startDb(retryMs = 2_000): void {
  connectDb().catch((error) => {
    log("error", "db.connect_failed", { reason: errorMessage(error), retry_ms: retryMs });
    setTimeout(() => startDb(retryMs), retryMs).unref();
  });
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
    const db = mongoose.connection.db;
    if (!db) return false; // not connected (yet): startDb keeps trying
    await db.admin().ping();
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
  // The driver's server or client object was closed under an operation waiting for a connection.
  "MongoServerClosedError",
  "MongoClientClosedError",
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
    if (e.name === "MongoServerError" && isShuttingDown(e)) return true;
    // The driver marks an error it would retry on another connection.
    if (hasLabel(e, "RetryableWriteError") || hasLabel(e, "ResetPool")) return true;
    if (isDatabaseSocketError(e)) return true;
  }
  return false;
}

/**
 * A socket's own error, unwrapped. When the server closes a connection while a command waits to be
 * written, the driver (mongodb 7.5, Connection.writeCommand waiting for 'drain') passes the socket's
 * error up as it is: "write EPIPE", "This socket has been ended by the other party". A CI run beside
 * a busy machine answered two page loads 500 with it while FerretDB stopped. Such an error names no
 * service, so it counts as the database's only when one of the database's connections failed just
 * before (the driver's pool closed it on an error, or cleared itself): in every reproduction the
 * failure was seen within a millisecond before the error reached the query.
 */
const SOCKET_ERROR_CODES = new Set(["EPIPE", "ECONNRESET"]);
const CONNECTION_FAILURE_WINDOW_MS = 10_000;
let connectionFailedAt = Number.NEGATIVE_INFINITY;

function isDatabaseSocketError(error: Error): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return (
    typeof code === "string" &&
    SOCKET_ERROR_CODES.has(code) &&
    Date.now() - connectionFailedAt < CONNECTION_FAILURE_WINDOW_MS
  );
}

function watchConnectionFailures(client: ReturnType<typeof mongoose.connection.getClient>): void {
  client.on("connectionClosed", (event) => {
    if (event.reason === "error" || event.reason === "stale") connectionFailedAt = Date.now();
  });
  client.on("connectionPoolCleared", () => {
    connectionFailedAt = Date.now();
  });
}

function hasLabel(error: Error, label: string): boolean {
  const labels = (error as { errorLabels?: unknown }).errorLabels;
  return Array.isArray(labels) && labels.includes(label);
}

/**
 * MongoDB's codes for a server going away (InterruptedAtShutdown, ShutdownInProgress,
 * PrimarySteppedDown, NotWritablePrimary, and the network's own): the server answered, but
 * only to say that it cannot serve now.
 */
const SHUTDOWN_CODES = new Set([6, 7, 89, 91, 189, 9001, 10107, 11600, 11602, 13435, 13436]);

/**
 * FerretDB cancels the queries in flight when it is stopped and answers them with an internal
 * error (code 1) that says "context canceled" (or SQLite's "database is closed") before it
 * closes the connection. One CI run of tests/fault/fault-database-restart.test.ts saw one 500
 * while FerretDB stopped (once in about 20 runs; not reproduced by hand): these are the answers
 * a stopping server can give that were not classed as unavailable. The test now prints the
 * answer's body and the app's warnings, so another one names itself.
 */
function isShuttingDown(error: Error): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === "number" && SHUTDOWN_CODES.has(code)) return true;
  return code === 1 && /context canceled|database is closed/.test(error.message);
}

/**
 * The driver's own recovery, watched. After a database restart the driver normally sees the
 * server again within a second. About once in six FerretDB restarts (the fault test
 * tests/fault/fault-database-restart.test.ts) it never does: its server monitor stops
 * checking, and every query fails server selection with the closed connection's old error,
 * until the process restarts (mongoose#14715 reports the same against MongoDB). So: once
 * queries have failed as unavailable for RECYCLE_AFTER_MS, a fresh connection asks the
 * server; if it answers and the shared connection still fails SETTLE_MS later (longer than a
 * server selection), the shared connection is closed and opened again. A server that is
 * really down is left alone, and a driver that recovers by itself is never touched.
 */
const RECYCLE_AFTER_MS = 15_000;
const SETTLE_MS = 7_000;
let failing: { since: number; last: number } | null = null;
let recycling = false;

/** Counts a query that failed because the database could not be reached (see isDatabaseUnavailable). */
export function noteDatabaseUnavailable(now = Date.now()): void {
  // A pause of 10 s without failures ends a run of them.
  if (!failing || now - failing.last > 10_000) failing = { since: now, last: now };
  else failing.last = now;
  if (!recycling && now - failing.since >= RECYCLE_AFTER_MS) void recycleIfStuck();
}

async function recycleIfStuck(): Promise<void> {
  recycling = true;
  try {
    const probe = mongoose.createConnection(getEnv().MONGODB_URI ?? DEFAULT_MONGODB_URI, {
      serverSelectionTimeoutMS: 2_000,
    });
    try {
      await probe.asPromise();
    } catch {
      return; // really down: the driver will reconnect when it is back
    } finally {
      await probe.close().catch(() => {});
    }
    const answeredAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    if (!failing || failing.last < answeredAt + 1_000) return; // the shared connection recovered by itself
    log("warn", "db.reconnect", {
      reason: `queries still fail as unavailable ${SETTLE_MS / 1000} s after the server answered a fresh connection`,
    });
    failing = null;
    await disconnectDb().catch(() => {});
    await connectDb().catch(() => {});
  } finally {
    recycling = false;
  }
}

/** E11000: the insert lost a race for a unique key, which is how exactly-once effects say "already done". */
export function isDuplicateKeyError(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && (error as { code?: number }).code === 11000;
}

/** Claims an idempotency key: true for the one call that claimed it, false for every other. */
export async function claimOnce(key: string): Promise<boolean> {
  try {
    // One insert, no mongoose document built for it (the claim is the hottest write: every intake save takes one).
    await OnceKey.collection.insertOne({ _id: key as never, created_at: new Date() });
    return true;
  } catch (error) {
    if (isDuplicateKeyError(error)) return false;
    throw error;
  }
}
