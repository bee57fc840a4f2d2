import mongoose from "mongoose";

/**
 * One document per reminder sent. `key` names the reminder (order, kind and
 * window), so the cron route and an admin's button cannot send it twice.
 */
const ReminderLogSchema = new mongoose.Schema(
  {
    key: { type: String, required: true, unique: true },
    order_id: { type: String, required: true },
    kind: { type: String, required: true },
    source: { type: String, enum: ["cron", "admin"], required: true },
  },
  { collection: "reminder_log", timestamps: { createdAt: "sent_at", updatedAt: false } as const },
);

ReminderLogSchema.index({ order_id: 1, sent_at: -1 });

export const ReminderLog = mongoose.model("ReminderLog", ReminderLogSchema);
