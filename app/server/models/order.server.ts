import { randomUUID } from "node:crypto";
import mongoose from "mongoose";
import { ORDER_STATUSES } from "~/domain/order-status";
import { errorMessage, log } from "../log.server";
import { customerOrders } from "./customer-order.server";
import { recordOrderChange } from "./order-change.server";

const AddOnSchema = new mongoose.Schema(
  {
    id: { type: String, required: true },
    name: { type: String, required: true },
    price: { type: Number, required: true },
  },
  { _id: false },
);

const OrderSchema = new mongoose.Schema(
  {
    // A UUID, so the first 8 characters shown to people tell orders apart.
    _id: { type: String, default: () => randomUUID() },
    user_id: { type: String, default: null }, // null: a guest order, reached by its token
    email: { type: String, required: true, lowercase: true, trim: true },
    product_id: { type: String, default: "24-hour-website" }, // or a package id from /packages
    product_name: { type: String, default: "24-Hour Website" },
    // A package bought "With Maintenance": the plan that starts with it (the first month is in amount_total).
    maintenance_plan: { type: String, default: null },
    status: { type: String, enum: ORDER_STATUSES, default: "pending", required: true },
    amount_total: { type: Number, required: true, min: 0 }, // cents the buyer is asked to pay
    amount_paid: { type: Number, default: 0, min: 0 }, // cents Stripe confirmed
    currency: { type: String, default: "aud" },
    add_ons: { type: [AddOnSchema], default: [] },
    coupon_code: { type: String, default: null },
    // Bought with a coupon for some addresses by someone who did not prove the address: the
    // links go to it by e-mail only, never to the browser (the success page) nor to an account (no user_id).
    links_by_email_only: { type: Boolean, default: false },
    discount: { type: Number, default: 0, min: 0 },
    stripe_session_id: { type: String, default: null },
    stripe_payment_intent_id: { type: String, default: null },
    paid_at: { type: Date, default: null },
    draft_url: { type: String, default: null },
    // The delivery clock (app/domain/delivery-clock.ts), copied from its events in order_events:
    // started at the intake's first submission (or an admin's latest restart), due window_hours later.
    clock_started_at: { type: Date, default: null },
    clock_deadline: { type: Date, default: null },
    clock_window_hours: { type: Number, default: null, min: 0 },
    clock_restarts: { type: Number, default: 0, min: 0 },
    // Set once, when the first draft URL is saved while the clock runs: the Avg Delivery card's measure.
    draft_delivered_at: { type: Date, default: null },
    delivery_hours: { type: Number, default: null, min: 0 }, // clock start to first draft
    // A full refund (admin or Stripe's dashboard); the status becomes "refunded".
    refunded_at: { type: Date, default: null },
    amount_refunded: { type: Number, default: 0, min: 0 },
    stripe_refund_id: { type: String, default: null },
    data_deleted_at: { type: Date, default: null }, // personal data removed; the financial record stays
    intake_progress: { type: Number, default: 0, min: 0, max: 100 },
    // The intake's first submission: what "the intake is finished" means on every customer page.
    intake_submitted_at: { type: Date, default: null },
    // Revision rounds 1-3: enabled by an admin, then submitted once by the customer.
    revision_1_enabled: { type: Boolean, default: false },
    revision_1_feedback: { type: String, default: null },
    revision_1_submitted_at: { type: Date, default: null },
    revision_2_enabled: { type: Boolean, default: false },
    revision_2_feedback: { type: String, default: null },
    revision_2_submitted_at: { type: Date, default: null },
    revision_3_enabled: { type: Boolean, default: false },
    revision_3_feedback: { type: String, default: null },
    revision_3_submitted_at: { type: Date, default: null },
  },
  { collection: "orders", timestamps: { createdAt: "created_at", updatedAt: "updated_at" } as const },
);

// MongoDB's path to a user's orders, newest first (FerretDB's is customer_orders, kept by the hooks below). Admin (keyset pages on created_at, _id): all, by status, by
// e-mail prefix; the figures' status totals and recent window.
OrderSchema.index({ user_id: 1, created_at: -1 });
OrderSchema.index({ status: 1, created_at: -1, _id: -1 });
OrderSchema.index({ created_at: -1, _id: -1 });
OrderSchema.index({ email: 1, created_at: -1, _id: -1 });
OrderSchema.index({ stripe_session_id: 1 });
// The cron walks the orders being worked on in _id order (reminders).
OrderSchema.index({ status: 1, _id: 1 });
// The cron's clock alerts (undelivered clocks), the admin list's deadline filters and sort.
OrderSchema.index({ draft_delivered_at: 1, clock_deadline: 1 });
// charge.refunded webhooks find their order by payment intent.
OrderSchema.index({ stripe_payment_intent_id: 1 });

/** What the admin figures read of an order (the order digest, app/server/admin/order-digest.server.ts). */
export const DIGEST_FIELDS = [
  "status",
  "amount_paid",
  "created_at",
  "draft_delivered_at",
  "delivery_hours",
  "data_deleted_at",
] as const;
const DIGESTED = new Set<string>(DIGEST_FIELDS);

/** The orders a filter names by `_id` (one, or `$in`), or null when it names them otherwise. */
function idsOf(filter: Record<string, unknown> | undefined): string[] | null {
  const id = filter?._id;
  if (typeof id === "string") return [id];
  if (id && typeof id === "object") {
    const named = (id as { $eq?: unknown; $in?: unknown }).$eq ?? (id as { $in?: unknown }).$in;
    if (typeof named === "string") return [named];
    if (Array.isArray(named) && named.every((v) => typeof v === "string")) return named as string[];
  }
  return null;
}

/** True when an update may change a field the figures read (a replacement or a pipeline always may). */
function touchesDigest(update: unknown, upsert: boolean): boolean {
  if (!update || typeof update !== "object" || Array.isArray(update)) return true;
  return Object.entries(update).some(([key, value]) => {
    if (!key.startsWith("$")) return DIGESTED.has(key.split(".")[0]);
    if (key === "$setOnInsert" && !upsert) return false;
    return Boolean(value) && typeof value === "object" && Object.keys(value).some((f) => DIGESTED.has(f.split(".")[0]));
  });
}

/**
 * Every write through this model that can change the figures is noted in the change log before
 * the write's caller goes on (raw writes to the collection are not: use the model). A log that
 * cannot be written leaves the order as written: the digest rebuilds from the orders on a timer.
 */
const noteChange = async (ids: string[] | "all") => {
  if (ids !== "all" && ids.length === 0) return;
  try {
    await recordOrderChange(ids);
  } catch (error) {
    log("warn", "order_digest.change_not_logged", { reason: errorMessage(error) });
  }
};
OrderSchema.post("save", (doc: { _id: string }) => noteChange([doc._id]));
OrderSchema.post("insertMany", (docs: unknown) => noteChange((docs as { _id: string }[]).map((d) => d._id)));
OrderSchema.post(
  ["updateOne", "updateMany", "findOneAndUpdate", "replaceOne", "findOneAndReplace"],
  { document: false, query: true },
  function (this: mongoose.Query<unknown, unknown>) {
    const upsert = Boolean(this.getOptions().upsert);
    if (!touchesDigest(this.getUpdate(), upsert)) return;
    return noteChange(idsOf(this.getFilter()) ?? "all");
  },
);
OrderSchema.post(
  ["deleteOne", "deleteMany", "findOneAndDelete"],
  { document: false, query: true },
  function (this: mongoose.Query<unknown, unknown>) {
    return noteChange(idsOf(this.getFilter()) ?? "all");
  },
);

/** The customer an update gives the orders it matches: an id, null (none), or undefined when it leaves them. */
function customerSet(update: unknown): string | null | undefined {
  if (!update || typeof update !== "object" || Array.isArray(update)) return undefined;
  const { $set, $unset, ...fields } = update as Record<string, Record<string, unknown> | undefined>;
  for (const source of [fields, $set ?? {}]) if ("user_id" in source) return (source.user_id as string | null) ?? null;
  return $unset && "user_id" in $unset ? null : undefined;
}

// The customer's slots (customer-order.server.ts) follow `user_id` through every write the app makes: an order
// is put in its customer's slot before it names them, and taken out before it stops naming them.
OrderSchema.pre("save", async function () {
  if (this.user_id && (this.isNew || this.isModified("user_id"))) await customerOrders.add(this.user_id, this._id);
});
OrderSchema.pre("insertMany", async function (docs: unknown) {
  const owned = ([] as Record<string, unknown>[]).concat(docs as Record<string, unknown>[]).filter((d) => d.user_id);
  for (const doc of owned) doc._id ??= randomUUID(); // the default, given here so the slot can name it first
  await Promise.all(owned.map((doc) => customerOrders.add(String(doc.user_id), String(doc._id))));
});
OrderSchema.pre(
  ["updateOne", "updateMany"],
  { document: false, query: true },
  async function (this: mongoose.Query<unknown, { _id: string; user_id: string | null }>) {
    const userId = customerSet(this.getUpdate());
    if (userId === undefined) return;
    const filter = this.getFilter();
    let ids = idsOf(filter);
    if (!ids) {
      ids = (await this.model.find(filter, { _id: 1 }).lean<{ _id: string }[]>()).map((o) => o._id);
      // The write changes the orders put in slots here, not one that came to match the filter meanwhile.
      this.setQuery({ ...filter, _id: mongoose.trusted({ $in: ids }) });
    }
    for (const id of ids) {
      const before = await this.model.findById(id, { user_id: 1 }).lean<{ user_id: string | null }>();
      if (before?.user_id === userId) continue;
      if (before?.user_id) await customerOrders.remove(before.user_id, id);
      if (userId) await customerOrders.add(userId, id);
    }
  },
);

export const Order = mongoose.model("Order", OrderSchema);
