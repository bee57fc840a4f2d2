import mongoose from "mongoose";

/**
 * One document per reminder sent: inserting it is the act of sending. `key`
 * names the reminder (order, kind, round and window; see reminderKey in
 * domain/reminders), so two cron runs, or a run and an admin's click, send it
 * once. The order detail page shows these as the reminder history.
 */
const ReminderLogSchema = new mongoose.Schema(
  {
    key: { type: String, required: true, unique: true },
    order_id: { type: String, required: true },
    kind: { type: String, required: true },
    round: { type: Number, default: null }, // the revision round, for revision reminders
    slot: { type: Number, default: 1 }, // the how-manieth reminder of this kind
    source: { type: String, enum: ["cron", "admin"], required: true },
    actor: { type: String, default: null }, // the admin's e-mail, for 'admin'
  },
  { collection: "reminder_log", timestamps: { createdAt: "sent_at", updatedAt: false } as const },
);

ReminderLogSchema.index({ order_id: 1, sent_at: -1 });

export const ReminderLog = mongoose.model("ReminderLog", ReminderLogSchema);
