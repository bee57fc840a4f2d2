import { randomUUID } from "node:crypto";
import mongoose from "mongoose";
import { ORDER_STATUSES } from "~/domain/order-status";
import { errorMessage, log } from "../log.server";
import { customerOrders, emailOrders, emailOwner } from "./customer-order.server";
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

/**
 * What the admin figures and the orders list's filters read of an order (the order digest,
 * app/server/admin/order-digest.server.ts).
 */
export const DIGEST_FIELDS = [
  "status",
  "amount_paid",
  "created_at",
  "draft_delivered_at",
  "delivery_hours",
  "data_deleted_at",
  "email",
  "clock_deadline",
  "refunded_at",
] as const;
/**
 * What the admin's orders list shows of an order beyond the digest's fields. A write to any of these is noted
 * in the change log too, so a row the list keeps between views (admin/orders.server.ts) is as current as the digest.
 */
export const LISTED_FIELDS = [
  "user_id",
  "currency",
  "stripe_payment_intent_id",
  "product_name",
  "clock_started_at",
  "add_ons",
  "coupon_code",
  "discount",
] as const;
const NOTED = new Set<string>([...DIGEST_FIELDS, ...LISTED_FIELDS]);

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

/** True when an update may change a field the figures or the list read (a replacement or a pipeline always may). */
function touchesDigest(update: unknown, upsert: boolean): boolean {
  if (!update || typeof update !== "object" || Array.isArray(update)) return true;
  return Object.entries(update).some(([key, value]) => {
    if (!key.startsWith("$")) return NOTED.has(key.split(".")[0]);
    if (key === "$setOnInsert" && !upsert) return false;
    return Boolean(value) && typeof value === "object" && Object.keys(value).some((f) => NOTED.has(f.split(".")[0]));
  });
}

/**
 * Every write through this model that can change the figures is noted in the change log before
 * the write's caller goes on (raw writes to the collection are not: use the model). An entry that
 * cannot be written leaves the order as written: it is written again shortly (order-change.server.ts), and the
 * digest's daily pass over the orders mends what a process that stopped meanwhile left out.
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

/**
 * The lists an order is in by `_id` (customer-order.server.ts), each following one field: the owner whose
 * list a value puts the order in, or null for none. Its customer's orders, and the orders of its e-mail address.
 */
const LISTED = [
  { field: "user_id", list: customerOrders, owner: (value: unknown) => (value ? String(value) : null) },
  {
    field: "email",
    list: emailOrders,
    owner: (value: unknown) => (typeof value === "string" ? emailOwner(value) : null),
  },
] as const;
type Values = Record<string, unknown>;

/** The listed fields a write sets (null when it unsets them), from a document or an update. */
function listedSet(update: unknown): Values {
  if (!update || typeof update !== "object" || Array.isArray(update)) return {};
  const { $set, $unset, ...fields } = update as Record<string, Values | undefined>;
  const set: Values = {};
  for (const { field } of LISTED) {
    if ($unset && field in $unset) set[field] = null;
    for (const source of [fields, $set ?? {}]) if (field in source) set[field] = source[field] ?? null;
  }
  return set;
}

/** Puts the order in the lists its new values name, after taking it out of those its stored values named. */
async function relist(id: string, after: Values, before: Values | null) {
  for (const { field, list, owner } of LISTED) {
    if (!(field in after)) continue;
    const [from, to] = [owner(before?.[field]), owner(after[field])];
    if (from === to) continue;
    if (from) await list.remove(from, id);
    if (to) await list.add(to, id);
  }
}

// The order's lists follow `user_id` and `email` through every write the app makes: an order is put in a list
// before it names the list's owner, and taken out before it stops naming them.
OrderSchema.pre("save", async function () {
  const changed = LISTED.filter(({ field }) => this.isNew || this.isModified(field)).map(({ field }) => field);
  if (!changed.length) return;
  const before = this.isNew
    ? null
    : await Order.findById(this._id, Object.fromEntries(changed.map((f) => [f, 1]))).lean();
  await relist(this._id, Object.fromEntries(changed.map((f) => [f, this.get(f)])), before);
});
OrderSchema.pre("insertMany", async function (docs: unknown) {
  const added = ([] as Values[]).concat(docs as Values[]);
  for (const doc of added) doc._id ??= randomUUID(); // the default, given here so a list can name it first
  await Promise.all(added.map((doc) => relist(String(doc._id), listedSet(doc), null)));
});
OrderSchema.pre(
  ["updateOne", "updateMany"],
  { document: false, query: true },
  async function (this: mongoose.Query<unknown, Values>) {
    const set = listedSet(this.getUpdate());
    if (!Object.keys(set).length) return;
    const filter = this.getFilter();
    let ids = idsOf(filter);
    if (!ids) {
      ids = (await this.model.find(filter, { _id: 1 }).lean<{ _id: string }[]>()).map((o) => o._id);
      // The write changes the orders put in lists here, not one that came to match the filter meanwhile.
      this.setQuery({ ...filter, _id: mongoose.trusted({ $in: ids }) });
    }
    const fields = Object.fromEntries(Object.keys(set).map((f) => [f, 1]));
    for (const id of ids) await relist(id, set, await this.model.findById(id, fields).lean<Values>());
  },
);

export const Order = mongoose.model("Order", OrderSchema);
