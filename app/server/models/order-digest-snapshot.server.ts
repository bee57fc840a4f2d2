import mongoose from "mongoose";

/**
 * The order digest as a process last wrote it (app/server/admin/order-digest.server.ts), so a process that starts
 * serves the admin's first view from it instead of waiting for a pass over every order. Read by `_id` only
 * (ARCHITECTURE.md rule 7): the head (`_id` "head") names the snapshot's chunks, `<snapshot>:0`, `<snapshot>:1`, ...,
 * each holding up to 2,000 orders' rows, and the change log's position the rows include. A new snapshot's chunks are
 * written before the head names them; the chunks of the snapshot it replaced are deleted after. Derived data: a
 * restore may bring an old one back, and the digest's pass at start replaces it within minutes.
 */
const OrderDigestSnapshotSchema = new mongoose.Schema(
  {
    _id: { type: String, required: true },
    /** The head: the snapshot whose chunks hold the rows, how many, and the log they were read from. */
    snapshot: { type: String },
    chunks: { type: Number },
    generation: { type: String },
    /** The head: per writing process, the last change-log entry the rows include. */
    read: { type: [{ _id: false, process: String, seq: Number }], default: undefined },
    /** A chunk: its rows as JSON text, each row an array (see order-digest.server.ts, `packRow`). */
    rows: { type: String },
    at: { type: Date, required: true },
  },
  { collection: "order_digest_snapshots", versionKey: false },
);

export const OrderDigestSnapshot = mongoose.model("OrderDigestSnapshot", OrderDigestSnapshotSchema);

/** The head's `_id`. */
export const SNAPSHOT_HEAD = "head";
