import mongoose from "mongoose";

/**
 * One document per migration of stored documents, under the migration's id: inserted by the one process
 * that claims it (two instances starting at once race for the insert; the unique _id lets one win,
 * docs/architecture.md rule 7), then marked finished. See app/server/migrations.server.ts.
 */
const MigrationSchema = new mongoose.Schema(
  {
    _id: { type: String, required: true },
    started_at: { type: Date, required: true },
    finished_at: { type: Date, default: null },
    // What the migration reported (how many documents it changed), for the log and the operator.
    result: { type: String, default: null },
  },
  { collection: "migrations", versionKey: false },
);

export const Migration = mongoose.model("Migration", MigrationSchema);
