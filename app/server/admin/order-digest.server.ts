import { randomUUID } from "node:crypto";
import type { FigureRow } from "~/domain/admin/figures";
import type { FilterFacts } from "~/domain/admin/order-filters";
import { isDuplicateKeyError } from "../db.server";
import { errorMessage, log } from "../log.server";
import { Order, OrderChange, OrderChangeMark } from "../models/index.server";
import { GENERATION_MARK } from "../models/order-change.server";
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
 * The digest is built by one pass over the orders: at the first view, when the log was emptied
 * or restored (its generation mark differs), when too much changed since the last view to read
 * it change by change, and every REBUILD_MS in the background, which also mends a change whose
 * log entry could not be written. The app builds it at start (startOrderDigest), and it catches
 * up every REFRESH_MS, so a view after a quiet hour finds it current.
 */

/** An order as the digest keeps it: the figures' fields, and what the list's filters and sorts read. */
export type DigestRow = FigureRow & FilterFacts;

const PROJECTION = Object.fromEntries(DIGEST_FIELDS.map((f) => [f, 1]));
const REFRESH_MS = 60_000;
const REBUILD_MS = 30 * 60_000;
/** Beyond this many entries or orders to read, one pass over the orders is cheaper. */
const MAX_ENTRIES = 200;
const MAX_ORDERS = 500;

type Digest = {
  /** The log's generation when the digest was built. */
  generation: string;
  rows: Map<string, DigestRow>;
  /** Per process: the last entry of its log read into the digest. */
  read: Map<string, number>;
  builtAt: number;
};

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
async function build(): Promise<Digest> {
  const marks = await readMarks();
  const generation = marks.generation ?? (await nameGeneration());
  const rows = new Map<string, DigestRow>();
  for await (const d of orders().find({}, { projection: PROJECTION, batchSize: 1000 })) rows.set(d._id, toRow(d));
  return { generation, rows, read: new Map(marks.processes.map((p) => [p._id, p.seq])), builtAt: Date.now() };
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
  return digest;
}

let digest: Digest | null = null;
let running: Promise<Digest> | null = null;
let queued: Promise<Digest> | null = null;
let rebuildWanted = false;
let timer: NodeJS.Timeout | null = null;

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
  const rebuild = rebuildWanted || !digest;
  rebuildWanted = false;
  running = (async () => {
    digest = rebuild || !digest ? await build() : await catchUp(digest);
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
    if (digest && Date.now() - digest.builtAt > REBUILD_MS) rebuildWanted = true;
    update().catch((error) => log("warn", "order_digest.refresh_failed", { reason: errorMessage(error) }));
  }, REFRESH_MS);
  timer.unref();
}

/**
 * Builds the digest now, in the background, so the first admin view after a start does not wait
 * for the pass over every order (the app calls it once at start, beside the database connection).
 */
export function startOrderDigest(): void {
  startTimer();
  update().catch((error) => log("warn", "order_digest.refresh_failed", { reason: errorMessage(error) }));
}

/**
 * Every order's figure fields, current with every write made through the Order model before
 * this call (the first call, and one after the log was emptied, make one pass over the orders).
 */
export async function orderDigest(): Promise<ReadonlyMap<string, DigestRow>> {
  return (await update()).rows;
}
