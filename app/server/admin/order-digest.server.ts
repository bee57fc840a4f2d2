import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { FigureRow } from "~/domain/admin/figures";
import { lastSydneyHour } from "~/domain/dates";
import type { FilterFacts } from "~/domain/admin/order-filters";
import { isDuplicateKeyError } from "../db.server";
import { errorMessage, log } from "../log.server";
import { Order, OrderChange, OrderChangeMark, OrderDigestSnapshot } from "../models/index.server";
import { GENERATION_MARK } from "../models/order-change.server";
import { SNAPSHOT_HEAD } from "../models/order-digest-snapshot.server";
import { DIGEST_FIELDS } from "../models/order.server";

/**
 * The order digest: what the admin figures and the orders list's filters read of every order (status,
 * amounts, dates, the address and the delivery clock), held
 * in this process's memory and kept current from the orders' change log
 * (models/order-change.server.ts). On FerretDB every query scans its collection (ARCHITECTURE.md
 * rule 7), about 1.2 s for 10,000 orders, so the orders page cannot read every order on each view;
 * with the digest a view reads the log's marks and the orders that changed since the last view,
 * each by `_id`, and the figures are counted from memory (exact at the moment of the view: the
 * 30-day periods and the chart's weeks are counted then, from the orders' own dates).
 *
 * The digest is built by one pass over the orders: when the log was emptied or restored (its
 * generation mark differs), when too much changed since the last view to read it change by change,
 * and once a day in the background at MENDING_HOUR, the business's quietest hour, which mends what the log
 * could miss: a raw write to the collection, or a change noted by a process that stopped before its entry was
 * written (a process that lives writes a failed entry again: models/order-change.server.ts). A pass reads every
 * order (about 5 s at 10,000 on SQLite; one in the background rests between batches, so the views meanwhile keep
 * most of the machine, and logs "order_digest.rebuilt"), so no view waits for one at start: the app starts from
 * the snapshot the last process wrote (models/order-digest-snapshot.server.ts), caught up from the log like any
 * view, and makes its own pass in the background, swapped in when done. Only a database with no snapshot yet (a
 * first start) waits for the first pass. The digest
 * catches up every REFRESH_MS, so a view after a quiet hour finds it current, and is written as the
 * snapshot after each pass and at most every SNAPSHOT_MS while orders change.
 */

/** An order as the digest keeps it: the figures' fields, and what the list's filters and sorts read. */
export type DigestRow = FigureRow & FilterFacts;

const PROJECTION = Object.fromEntries(DIGEST_FIELDS.map((f) => [f, 1]));
const REFRESH_MS = 60_000;
/**
 * The hour (Sydney) of the daily pass that mends what the log missed. A pass over 100,000 orders takes minutes and
 * made the customers' pages a little slower meanwhile; every 30 minutes, that was an eighth of the working day.
 */
const MENDING_HOUR = 3;
/** Beyond this many entries or orders to read, one pass over the orders is cheaper. */
const MAX_ENTRIES = 200;
const MAX_ORDERS = 500;
const SNAPSHOT_MS = 5 * 60_000;
/** Orders per snapshot chunk (a chunk is one document: about 250 KB). */
const CHUNK_ROWS = 2000;
/** Orders a pass reads per batch from the database. */
const BATCH = 1000;
/**
 * A pass in the background reads smaller batches (each is decoded in one stretch that holds up every request
 * meanwhile) and rests GENTLE_REST times as long as each batch took, so the views keep most of the machine.
 */
const GENTLE_BATCH = 200;
const GENTLE_REST = 2;

type Digest = {
  /** The log's generation when the digest was built. */
  generation: string;
  rows: Map<string, DigestRow>;
  /** Per process: the last entry of its log read into the digest. */
  read: Map<string, number>;
  builtAt: number;
  /** Counts the catch-ups that changed a row (what a snapshot was written from). */
  version: number;
  /** This digest among the process's digests (a pass or a snapshot loaded makes a new one). */
  serial: number;
};
let serials = 0;

type OrderDoc = {
  _id: string;
  status: string;
  amount_paid?: number | null;
  created_at?: Date | null;
  draft_delivered_at?: Date | null;
  delivery_hours?: number | null;
  data_deleted_at?: Date | null;
  email?: string | null;
  clock_deadline?: Date | null;
  refunded_at?: Date | null;
};

const toRow = (d: OrderDoc): DigestRow => ({
  _id: d._id,
  status: d.status,
  amount_paid: d.amount_paid ?? 0,
  created_at: d.created_at ?? new Date(0),
  draft_delivered_at: d.draft_delivered_at ?? null,
  delivery_hours: d.delivery_hours ?? null,
  data_deleted_at: d.data_deleted_at ?? null,
  email: d.email ?? "",
  clock_deadline: d.clock_deadline ?? null,
  refunded_at: d.refunded_at ?? null,
});

const orders = () =>
  Order.collection as unknown as {
    find(filter: object, options: object): AsyncIterable<OrderDoc>;
    findOne(filter: object, options: object): Promise<OrderDoc | null>;
  };

type Marks = { generation: string | null; processes: { _id: string; seq: number }[] };

/** Every mark: one small collection (one document per process that wrote), read whole. */
async function readMarks(): Promise<Marks> {
  const all = await OrderChangeMark.find({}, { seq: 1, generation: 1 }).lean();
  const generation = all.find((m) => m._id === GENERATION_MARK)?.generation ?? null;
  return {
    generation,
    processes: all.filter((m) => m._id !== GENERATION_MARK).map((m) => ({ _id: m._id, seq: m.seq })),
  };
}

/** The log's generation, named now if it has none (the first name written wins). */
async function nameGeneration(): Promise<string> {
  try {
    await OrderChangeMark.create({ _id: GENERATION_MARK, generation: randomUUID(), at: new Date() });
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
  }
  const mark = await OrderChangeMark.findById(GENERATION_MARK, { generation: 1 }).lean();
  if (!mark?.generation) throw new Error("The order change log has no generation");
  return mark.generation;
}

/**
 * One pass over the orders. The marks are read first: an entry written after them is read at
 * the next catch-up (reading an order again is harmless), and the writes behind every entry
 * up to them are done, so the pass sees them.
 */
async function build({ gently = false } = {}): Promise<Digest> {
  const marks = await readMarks();
  const generation = marks.generation ?? (await nameGeneration());
  const rows = new Map<string, DigestRow>();
  let batchStart = performance.now();
  const batchSize = gently ? GENTLE_BATCH : BATCH;
  for await (const d of orders().find({}, { projection: PROJECTION, batchSize })) {
    rows.set(d._id, toRow(d));
    if (gently && rows.size % batchSize === 0) {
      // At 100,000 orders a pass is about 30 s of scanning, and about three times that resting.
      await sleep(GENTLE_REST * (performance.now() - batchStart));
      batchStart = performance.now();
    }
  }
  return {
    generation,
    rows,
    read: new Map(marks.processes.map((p) => [p._id, p.seq])),
    builtAt: Date.now(),
    version: 0,
    serial: ++serials,
  };
}

/** Reads the entries written since `digest` last read the log, and the orders they name, by `_id`. */
async function catchUp(digest: Digest): Promise<Digest> {
  const marks = await readMarks();
  if (marks.generation !== digest.generation) return build();
  const keys: string[] = [];
  for (const p of marks.processes) {
    const from = digest.read.get(p._id) ?? 0;
    if (p.seq < from) return build(); // that process's log went back: a restored database
    for (let n = from + 1; n <= p.seq && keys.length <= MAX_ENTRIES; n++) keys.push(`${p._id}:${n}`);
  }
  if (keys.length > MAX_ENTRIES) return build();
  const entries = await Promise.all(keys.map((k) => OrderChange.findById(k, { ids: 1, all: 1 }).lean()));
  // A missing entry was purged before this process read it; `all`: changes not known one by one.
  if (entries.some((e) => !e || e.all)) return build();
  const ids = new Set(entries.flatMap((e) => e!.ids));
  if (ids.size > MAX_ORDERS) return build();
  const docs = await Promise.all([...ids].map((id) => orders().findOne({ _id: id }, { projection: PROJECTION })));
  // Applied at once, after every read: a view never counts half a catch-up.
  [...ids].forEach((id, i) => {
    const d = docs[i];
    if (d) digest.rows.set(id, toRow(d));
    else digest.rows.delete(id);
  });
  for (const p of marks.processes) digest.read.set(p._id, Math.max(p.seq, digest.read.get(p._id) ?? 0));
  if (ids.size) digest.version++;
  return digest;
}

/** A row as a snapshot stores it: its fields in DIGEST_FIELDS' order, dates as milliseconds. */
type PackedRow = [
  string,
  string,
  number,
  number,
  number | null,
  number | null,
  number | null,
  string,
  number | null,
  number | null,
];
const ms = (d: Date | null | undefined) => (d ? d.getTime() : null);
const at = (n: number | null) => (n === null ? null : new Date(n));
const packRow = (r: DigestRow): PackedRow => [
  r._id,
  r.status,
  r.amount_paid,
  r.created_at.getTime(),
  ms(r.draft_delivered_at),
  r.delivery_hours ?? null,
  ms(r.data_deleted_at),
  r.email,
  ms(r.clock_deadline),
  ms(r.refunded_at),
];
const unpackRow = (p: PackedRow): DigestRow => ({
  _id: p[0],
  status: p[1],
  amount_paid: p[2],
  created_at: new Date(p[3]),
  draft_delivered_at: at(p[4]),
  delivery_hours: p[5],
  data_deleted_at: at(p[6]),
  email: p[7],
  clock_deadline: at(p[8]),
  refunded_at: at(p[9]),
});

type Head = { snapshot: string; chunks: number; generation: string; read: { process: string; seq: number }[] };
const snapshots = () =>
  OrderDigestSnapshot.collection as unknown as {
    insertOne(doc: object): Promise<unknown>;
    replaceOne(filter: object, doc: object, options: object): Promise<unknown>;
    deleteOne(filter: object): Promise<unknown>;
    findOne(filter: object, options?: object): Promise<(Partial<Head> & { rows?: string }) | null>;
  };
const chunkId = (snapshot: string, n: number) => `${snapshot}:${n}`;

/** The last snapshot, caught up to nothing yet; null when there is none of this log's generation (or it went away). */
async function loadSnapshot(): Promise<Digest | null> {
  const [marks, head] = await Promise.all([readMarks(), snapshots().findOne({ _id: SNAPSHOT_HEAD })]);
  if (!head?.snapshot || !marks.generation || head.generation !== marks.generation) return null;
  const snapshot = head.snapshot;
  const chunks = await Promise.all(
    Array.from({ length: head.chunks ?? 0 }, (_, n) => snapshots().findOne({ _id: chunkId(snapshot, n) })),
  );
  if (chunks.some((c) => !c?.rows)) return null; // replaced by another process meanwhile: its chunks are gone
  const rows = new Map<string, DigestRow>();
  for (const chunk of chunks)
    for (const packed of JSON.parse(chunk!.rows!) as PackedRow[]) rows.set(packed[0], unpackRow(packed));
  const read = new Map((head.read ?? []).map((r) => [r.process, r.seq]));
  return { generation: marks.generation, rows, read, builtAt: Date.now(), version: 0, serial: ++serials };
}

/**
 * Writes `rows` as the snapshot: its chunks, then the head naming them, then the old chunks go. Each chunk is
 * packed as it is written, so the event loop is never held for more than a chunk's rows.
 */
async function writeSnapshot(head: Omit<Head, "snapshot" | "chunks">, rows: DigestRow[]) {
  const snapshot = randomUUID();
  const chunks = Math.ceil(rows.length / CHUNK_ROWS);
  for (let n = 0; n < chunks; n++)
    await snapshots().insertOne({
      _id: chunkId(snapshot, n),
      // As JSON text: FerretDB stores no arrays inside arrays.
      rows: JSON.stringify(rows.slice(n * CHUNK_ROWS, (n + 1) * CHUNK_ROWS).map(packRow)),
      at: new Date(),
    });
  const before = await snapshots().findOne({ _id: SNAPSHOT_HEAD });
  await snapshots().replaceOne({ _id: SNAPSHOT_HEAD }, { ...head, snapshot, chunks, at: new Date() }, { upsert: true });
  if (before?.snapshot && before.snapshot !== snapshot)
    for (let n = 0; n < (before.chunks ?? 0); n++) await snapshots().deleteOne({ _id: chunkId(before.snapshot, n) });
}

let digest: Digest | null = null;
let running: Promise<Digest> | null = null;
let queued: Promise<Digest> | null = null;
let timer: NodeJS.Timeout | null = null;
/** A pass made in the background, swapped in by the next update. */
let fresh: Digest | null = null;
let rebuilding = false;
/** What the last snapshot was written from, and when. */
let written: { digest: Digest; version: number; at: number } | null = null;
let writing: Promise<void> | null = null;

const warn = (event: string) => (error: unknown) => log("warn", event, { reason: errorMessage(error) });

/** Writes the digest as the snapshot, in the background: after a pass, else when it changed and SNAPSHOT_MS passed. */
function snapshotSoon(d: Digest) {
  const pass = written?.digest !== d;
  if (writing || (!pass && (written!.version === d.version || Date.now() - written!.at < SNAPSHOT_MS))) return;
  written = { digest: d, version: d.version, at: Date.now() };
  // Listed now: a later catch-up puts other rows in the map (a row itself is never changed, only replaced).
  const rows = [...d.rows.values()];
  const read = [...d.read].map(([process, seq]) => ({ process, seq }));
  const started = performance.now();
  writing = writeSnapshot({ generation: d.generation, read }, rows)
    .then(() =>
      log("info", "order_digest.snapshot_written", {
        orders: rows.length,
        ms: Math.round(performance.now() - started),
      }),
    )
    .catch(warn("order_digest.snapshot_failed"))
    .finally(() => {
      writing = null;
    });
}

/** A pass over every order in the background; views go on with the digest they have until it is done. */
function rebuildInBackground() {
  if (rebuilding) return;
  rebuilding = true;
  const started = performance.now();
  build({ gently: true })
    .then((built) => {
      fresh = built;
      log("info", "order_digest.rebuilt", { orders: built.rows.size, ms: Math.round(performance.now() - started) });
    })
    .catch(warn("order_digest.refresh_failed"))
    .finally(() => {
      rebuilding = false;
    });
}

function update(): Promise<Digest> {
  if (running) {
    // A catch-up under way may have read the marks before the caller's own write: queue one more.
    queued ??= running
      .catch(() => undefined)
      .then(() => {
        queued = null;
        return update();
      });
    return queued;
  }
  running = (async () => {
    if (fresh) [digest, fresh] = [fresh, null];
    if (!digest) {
      const loaded = await loadSnapshot().catch((error) => {
        warn("order_digest.snapshot_unread")(error);
        return null;
      });
      // What was just read is not written again (its catch-up is, with the next changes, after SNAPSHOT_MS).
      if (loaded) written = { digest: loaded, version: 0, at: Date.now() };
      digest = loaded ? await catchUp(loaded) : await build();
      // From a snapshot: this process's own pass, in the background (a restore may have brought back an old one).
      if (digest === loaded) rebuildInBackground();
    } else digest = await catchUp(digest);
    snapshotSoon(digest);
    startTimer();
    return digest;
  })().finally(() => {
    running = null;
  });
  return running;
}

function startTimer() {
  if (timer) return;
  timer = setInterval(() => {
    if (digest && digest.builtAt < lastSydneyHour(new Date(), MENDING_HOUR).getTime()) rebuildInBackground();
    update().catch(warn("order_digest.refresh_failed"));
  }, REFRESH_MS);
  timer.unref();
}

/**
 * Loads the digest now (from the snapshot, or by a pass on a first start), so the first admin view after a start
 * waits for neither (the app calls it once at start, beside the database connection).
 */
export function startOrderDigest(): void {
  startTimer();
  update().catch(warn("order_digest.refresh_failed"));
}

/**
 * Every order's figure fields, current with every write made through the Order model before
 * this call (the first call, and one after the log was emptied, make one pass over the orders).
 */
export async function orderDigest(): Promise<ReadonlyMap<string, DigestRow>> {
  return (await orderDigestStamped()).rows;
}

/**
 * The digest's rows as orderDigest gives them, and a stamp that changes whenever they do: what is worked out
 * from the rows may be kept under it (admin/orders.server.ts).
 */
export async function orderDigestStamped(): Promise<{ rows: ReadonlyMap<string, DigestRow>; stamp: string }> {
  const d = await update();
  return { rows: d.rows, stamp: `${d.serial}.${d.version}` };
}

/**
 * What a process starting now would serve its first view from: the snapshot (once the one being written is
 * done), caught up from the log; null without one. For tests/integration/order-digest.test.ts.
 */
export async function digestFromSnapshot(): Promise<ReadonlyMap<string, DigestRow> | null> {
  await writing;
  const loaded = await loadSnapshot();
  return loaded && (await catchUp(loaded)).rows;
}
