import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import mongoose from "mongoose";
import { errorMessage, log } from "./log.server";
import { getStorage, type ObjectEntry } from "./storage.server";

/**
 * `npm run backup` and `npm run restore` (scripts/backup.ts, scripts/restore.ts): the whole database in
 * mongodump's directory format, which the stock `mongorestore --dir DIR` reads, plus a manifest of the
 * upload objects (which stay in the bucket: a backup copies the records of them, not the files).
 *
 *   DIR/manifest.json                 when, which database, whether point in time, counts, upload objects
 *   DIR/<db>/<collection>.bson        every document, as the server stores it, one after another
 *   DIR/<db>/<collection>.metadata.json   its indexes (canonical extended JSON, as mongodump writes)
 */

const { BSON } = mongoose.mongo;
const { EJSON } = BSON;

export type BackupManifest = {
  format: "rapid-website-backup/1";
  created_at: string;
  database: string;
  /** true: every collection read at one instant (MongoDB's snapshot reads); false: one after another. */
  point_in_time: boolean;
  collections: Record<string, number>;
  uploads: { storage: "s3" | "disk"; objects: ObjectEntry[] };
};

function database() {
  const db = mongoose.connection.db;
  if (!db) throw new Error("not connected to the database");
  return db;
}

/** The collections to copy: every one but the server's own (`system.*`). */
async function collectionNames(): Promise<string[]> {
  const found = await database().listCollections({}, { nameOnly: true }).toArray();
  return found
    .map((c) => c.name)
    .filter((name) => !name.startsWith("system."))
    .sort();
}

/**
 * A session whose reads all see one instant (MongoDB 5+), or null where the server has none (FerretDB,
 * this machine's tests): then each collection is read in turn, which is a consistent copy only while
 * nothing writes. Production copies from Atlas (MongoDB), where it is point in time.
 */
async function snapshotSession(probe: string | undefined) {
  if (!probe) return null;
  const session = mongoose.connection.getClient().startSession({ snapshot: true });
  try {
    await database().collection(probe).findOne({}, { session });
    return session;
  } catch (error) {
    await session.endSession();
    log("info", "backup.no_snapshot_reads", { reason: errorMessage(error).slice(0, 200) });
    return null;
  }
}

/** Writes a backup of the connected database and the upload objects' manifest into `dir` (made if missing). */
export async function writeBackup(dir: string): Promise<BackupManifest> {
  const db = database();
  const out = path.join(dir, db.databaseName);
  await mkdir(out, { recursive: true });
  const names = await collectionNames();
  const session = await snapshotSession(names[0]);
  const collections: Record<string, number> = {};
  try {
    for (const name of names) {
      const collection = db.collection(name);
      const file = createWriteStream(path.join(out, `${name}.bson`));
      let count = 0;
      const cursor = collection.find({}, { raw: true, sort: { _id: 1 }, ...(session ? { session } : {}) });
      for await (const raw of cursor as AsyncIterable<unknown>) {
        if (!file.write(raw as Uint8Array)) await once(file, "drain");
        count++;
      }
      file.end();
      await once(file, "finish");
      const indexes = await collection.indexes();
      const metadata = { indexes, uuid: "", collectionName: name, type: "collection", options: {} };
      await writeFile(path.join(out, `${name}.metadata.json`), EJSON.stringify(metadata, { relaxed: false }));
      collections[name] = count;
    }
  } finally {
    await session?.endSession();
  }
  const manifest: BackupManifest = {
    format: "rapid-website-backup/1",
    created_at: new Date().toISOString(),
    database: db.databaseName,
    point_in_time: Boolean(session),
    collections,
    uploads: { storage: getStorage().kind, objects: await getStorage().list() },
  };
  await writeFile(path.join(dir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  log("info", "backup.written", {
    dir,
    database: manifest.database,
    point_in_time: manifest.point_in_time,
    documents: Object.values(collections).reduce((a, b) => a + b, 0),
    upload_objects: manifest.uploads.objects.length,
  });
  return manifest;
}

/** Every document of a .bson file, one at a time (each starts with its own length), never the whole file. */
async function* bsonDocuments(file: string): AsyncGenerator<Uint8Array> {
  let pending: Buffer = Buffer.alloc(0);
  for await (const chunk of createReadStream(file)) {
    pending = pending.length ? Buffer.concat([pending, chunk as Buffer]) : (chunk as Buffer);
    while (pending.length >= 4) {
      const size = pending.readInt32LE(0);
      if (size < 5) throw new Error(`${file}: a document of ${size} bytes (the file is damaged)`);
      if (pending.length < size) break;
      yield pending.subarray(0, size);
      pending = pending.subarray(size);
    }
  }
  if (pending.length)
    throw new Error(`${file}: ${pending.length} bytes after the last whole document (the file is cut short)`);
}

export class DatabaseNotEmptyError extends Error {}

export type RestoreSummary = {
  database: string;
  from: string;
  collections: Record<string, number>;
  /** Objects the manifest lists that the bucket no longer has (deleted since the copy, by retention or a request). */
  missingUploads: string[];
  /** Orders with an upload listed in the manifest and gone from the bucket: their data was deleted after the copy. */
  ordersDeletedSince: string[];
};

const BATCH = 500;

/**
 * Loads a backup into the connected database, which must be empty (no documents in any collection) unless
 * `force`, which drops the collections the backup holds first. Documents go in as stored, then each
 * collection's indexes. Compares the upload manifest with the bucket and names what has gone since.
 */
export async function restoreBackup(dir: string, options: { force?: boolean } = {}): Promise<RestoreSummary> {
  const manifest = JSON.parse(await readFile(path.join(dir, "manifest.json"), "utf8")) as BackupManifest;
  if (manifest.format !== "rapid-website-backup/1") throw new Error(`${dir}/manifest.json is not a backup of this app`);
  const db = database();
  const from = path.join(dir, manifest.database);

  const present: string[] = [];
  for (const name of await collectionNames()) {
    const count = await db.collection(name).estimatedDocumentCount();
    if (count > 0) present.push(`${name} (${count})`);
  }
  if (present.length && !options.force)
    throw new DatabaseNotEmptyError(
      `The database ${db.databaseName} is not empty: ${present.slice(0, 5).join(", ")}${present.length > 5 ? ", ..." : ""}. ` +
        "Restore into an empty database, or pass --force to drop the collections the backup holds first.",
    );

  const files = (await readdir(from)).filter((f) => f.endsWith(".bson")).sort();
  const existing = new Set(await collectionNames());
  const collections: Record<string, number> = {};
  for (const file of files) {
    const name = file.slice(0, -".bson".length);
    if (existing.has(name)) await db.collection(name).drop();
    await db.createCollection(name);
    const collection = db.collection(name);
    let batch: Record<string, unknown>[] = [];
    let count = 0;
    for await (const raw of bsonDocuments(path.join(from, file))) {
      // Values keep their stored BSON types (an Int32 stays one, a Long a Long).
      batch.push(BSON.deserialize(raw, { promoteValues: false, bsonRegExp: true }));
      if (batch.length === BATCH) {
        await collection.insertMany(batch, { ordered: true });
        count += batch.length;
        batch = [];
      }
    }
    if (batch.length) await collection.insertMany(batch, { ordered: true });
    count += batch.length;
    collections[name] = count;

    const metadata = EJSON.parse(await readFile(path.join(from, `${name}.metadata.json`), "utf8")) as {
      indexes?: { key: Record<string, 1 | -1>; name: string; v?: unknown; ns?: unknown }[];
    };
    for (const { key, name: indexName, v: _v, ns: _ns, ...options } of metadata.indexes ?? []) {
      if (indexName === "_id_") continue;
      await collection.createIndex(key, { ...options, name: indexName });
    }
  }

  const stored = new Set((await getStorage().list()).map((o) => o.key));
  const missingUploads = manifest.uploads.objects.map((o) => o.key).filter((key) => !stored.has(key));
  // Upload keys are logos/{orderId}/… and photos/{orderId}/… (app/server/intake/uploads.server.ts).
  const ordersDeletedSince = [
    ...new Set(missingUploads.map((key) => /^(?:logos|photos)\/([^/]+)\//.exec(key)?.[1]).filter(Boolean)),
  ] as string[];
  const summary = {
    database: db.databaseName,
    from: manifest.created_at,
    collections,
    missingUploads,
    ordersDeletedSince,
  };
  log("info", "backup.restored", {
    database: summary.database,
    from: summary.from,
    documents: Object.values(collections).reduce((a, b) => a + b, 0),
    missing_uploads: missingUploads.length,
    orders_deleted_since: ordersDeletedSince.length,
  });
  return summary;
}
