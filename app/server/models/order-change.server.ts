import { randomUUID } from "node:crypto";
import mongoose from "mongoose";
import { isDuplicateKeyError } from "../db.server";
import { log } from "../log.server";

/**
 * The orders' change log: which orders changed what the admin figures read (the order digest,
 * app/server/admin/order-digest.server.ts, keeps those figures in memory and reads this log to
 * stay current instead of scanning every order on each view).
 *
 * Each process writes its own numbered entries, `<process>:<n>` for n = 1, 2, 3, ..., one at a
 * time, and then moves its mark (`order_change_marks`, `_id` = the process) to the last number
 * written. So every entry up to a mark exists, a reader finds each one by `_id` (ARCHITECTURE.md
 * rule 7: no scan of the log, no counter shared between processes), and a write of ours is in
 * the log before the call that made it returns. The mark `generation` names the log itself: a
 * database emptied or restored has none, and a reader then rebuilds from the orders.
 */
const OrderChangeSchema = new mongoose.Schema(
  {
    _id: { type: String, required: true },
    /** The orders that changed; empty with `all`: some orders changed, which ones is not known. */
    ids: { type: [String], default: [] },
    all: { type: Boolean, default: false },
    at: { type: Date, required: true },
  },
  { collection: "order_changes", versionKey: false },
);
// The cron's purge of old entries (retention.server.ts).
OrderChangeSchema.index({ at: 1 });

const OrderChangeMarkSchema = new mongoose.Schema(
  {
    _id: { type: String, required: true },
    /** A process's mark: its last entry written. */
    seq: { type: Number, default: 0 },
    /** The mark `generation`: a random name given to the log when a reader first finds it missing. */
    generation: { type: String, default: null },
    at: { type: Date, required: true },
  },
  { collection: "order_change_marks", versionKey: false },
);
// The cron's purge of the marks of processes long silent (retention.server.ts).
OrderChangeMarkSchema.index({ at: 1 });

export const OrderChange = mongoose.model("OrderChange", OrderChangeSchema);
export const OrderChangeMark = mongoose.model("OrderChangeMark", OrderChangeMarkSchema);

/** The mark that names the log (see above). */
export const GENERATION_MARK = "generation";

/** This process's name in the log, and the number of its last entry. */
const PROCESS = randomUUID();
let written = 0;

type Batch = { ids: Set<string>; all: boolean; done: { resolve: () => void; reject: (e: unknown) => void }[] };
let waiting: Batch | null = null;
let writing = false;
/**
 * Changes whose entry could not be written (the database refused or was away): they go into the next entry, and
 * one is tried for them alone after a pause (doubling from RETRY_FIRST_MS to RETRY_MAX_MS), so a change is not left
 * to the digest's daily pass while this process lives. Their callers were told it failed.
 */
let unwritten: { ids: Set<string>; all: boolean } | null = null;
/** The most orders an entry names (24-character ids: about 30 KB). */
const MAX_IDS = 1000;
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 60_000;
let retryMs = RETRY_FIRST_MS;
let retry: NodeJS.Timeout | null = null;

function keepUnwritten(batch: Batch) {
  unwritten ??= { ids: new Set(), all: false };
  for (const id of batch.ids) unwritten.ids.add(id);
  unwritten.all ||= batch.all;
  if (retry) return;
  retry = setTimeout(() => {
    retry = null;
    if (unwritten) recordOrderChange([]).catch(() => undefined); // a failure keeps them again and waits longer
  }, retryMs);
  retry.unref();
  retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
}

/**
 * Notes in the log that these orders changed (`"all"`: some orders, not known which), and
 * resolves once the entry and this process's mark are written. Changes noted while an entry is
 * being written go together into the next one, so a burst of writes costs two or three entries,
 * not one each, and nothing waits on a shared counter.
 */
export function recordOrderChange(ids: string[] | "all"): Promise<void> {
  return new Promise((resolve, reject) => {
    waiting ??= { ids: new Set(), all: false, done: [] };
    if (ids === "all") waiting.all = true;
    else for (const id of ids) waiting.ids.add(id);
    waiting.done.push({ resolve, reject });
    if (!writing) void writeWaiting();
  });
}

async function writeWaiting() {
  writing = true;
  try {
    while (waiting) {
      const batch = waiting;
      waiting = null;
      const late = unwritten;
      unwritten = null;
      if (late) {
        for (const id of late.ids) batch.ids.add(id);
        batch.all ||= late.all;
      }
      try {
        const at = new Date();
        // Past MAX_IDS an entry says "all" (a reader makes one pass for that many anyway): it stays far from a
        // document's size limit, so no entry is refused for its size and then carried into every later one.
        const all = batch.all || batch.ids.size > MAX_IDS;
        const entry = { ids: all ? [] : [...batch.ids], all, at };
        for (;;) {
          const n = written + 1;
          try {
            await OrderChange.create({ _id: `${PROCESS}:${n}`, ...entry });
            written = n;
            break;
          } catch (error) {
            // Number n was written by an earlier attempt whose answer was lost: it stands, take the next.
            if (!isDuplicateKeyError(error)) throw error;
            written = n;
          }
        }
        await OrderChangeMark.updateOne({ _id: PROCESS }, { $set: { seq: written, at } }, { upsert: true });
        retryMs = RETRY_FIRST_MS;
        if (late) log("info", "order_digest.change_logged_late", { orders: late.ids.size, all: late.all });
        for (const d of batch.done) d.resolve();
      } catch (error) {
        keepUnwritten(batch);
        for (const d of batch.done) d.reject(error);
      }
    }
  } finally {
    writing = false;
  }
}
