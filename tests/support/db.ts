import { randomBytes } from "node:crypto";
import { afterAll, beforeAll } from "vitest";
import { connectDb, disconnectDb } from "~/server/db.server";
import { ensureIndexes } from "~/server/models/index.server";

/** The test services' MongoDB-protocol server, without a database name. */
export function mongoBase(): string {
  const uri = new URL(process.env.MONGODB_URI!);
  return `${uri.protocol}//${uri.host}`;
}

/**
 * Gives this test file a database of its own, with every index built, and drops
 * it afterwards. Returns a getter for the connection.
 */
export function useTestDatabase() {
  const name = `t_${randomBytes(6).toString("hex")}`;
  let conn: Awaited<ReturnType<typeof connectDb>>;
  beforeAll(async () => {
    process.env.MONGODB_URI = `${mongoBase()}/${name}`;
    conn = await connectDb(process.env.MONGODB_URI);
    await ensureIndexes();
  });
  afterAll(async () => {
    await conn?.connection.dropDatabase().catch(() => {});
    await disconnectDb();
  });
  return () => conn;
}
