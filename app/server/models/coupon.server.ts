import mongoose from "mongoose";

const CouponSchema = new mongoose.Schema(
  {
    code: { type: String, required: true, unique: true, uppercase: true, trim: true },
    discount_type: { type: String, enum: ["percentage", "fixed"], required: true },
    discount_value: { type: Number, required: true, min: 1 }, // percent 1-100, or cents
    max_uses: { type: Number, default: null, min: 1 }, // null: unlimited
    valid_until: { type: Date, default: null },
    active: { type: Boolean, default: true },
    allowed_emails: { type: [String], default: [] },
    allowed_domains: { type: [String], default: [] },
  },
  { collection: "coupons", timestamps: { createdAt: "created_at", updatedAt: "updated_at" } as const },
);

CouponSchema.index({ created_at: -1, _id: -1 }); // the admin list, keyset pages

export const Coupon = mongoose.model("Coupon", CouponSchema);

/**
 * One document per use of a coupon. A coupon with max_uses N has slots 1..N;
 * a use is an insert under unique (coupon_id, slot), so uses can never exceed N
 * even when checkouts race. An order uses a coupon at most once (unique order_id).
 * times_used is the count of these documents. A use reserved for a checkout that
 * fails or expires is deleted, freeing its slot.
 */
const CouponRedemptionSchema = new mongoose.Schema(
  {
    coupon_id: { type: String, required: true },
    slot: { type: String, required: true }, // "1".."N", or the order id for unlimited coupons
    order_id: { type: String, required: true, unique: true },
    status: { type: String, enum: ["reserved", "used"], default: "reserved" },
  },
  { collection: "coupon_redemptions", timestamps: { createdAt: "created_at", updatedAt: false } as const },
);

CouponRedemptionSchema.index({ coupon_id: 1, slot: 1 }, { unique: true });
// The cron's purge of reservations for checkouts never paid.
CouponRedemptionSchema.index({ status: 1, created_at: 1 });

export const CouponRedemption = mongoose.model("CouponRedemption", CouponRedemptionSchema);
