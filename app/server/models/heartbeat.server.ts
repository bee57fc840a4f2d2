import mongoose from "mongoose";

/**
 * When something that must keep happening last happened, one document per thing, by _id: `cron` (the
 * scheduled job's last run, written by each run) and `cron-watch` (when the watch for it began: inserted
 * once, so a job that never ran is measured from the first app start on this database).
 */
const HeartbeatSchema = new mongoose.Schema(
  {
    _id: { type: String, required: true },
    at: { type: Date, required: true },
  },
  { collection: "heartbeats", versionKey: false },
);

export const Heartbeat = mongoose.model("Heartbeat", HeartbeatSchema);
