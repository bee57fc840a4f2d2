import mongoose from "mongoose";
import {
  COUPON_MESSAGES,
  couponProblem,
  isRestrictedCoupon,
  normalizeCouponCode,
  type CouponRecord,
  type CouponTerms,
} from "~/domain/pricing";
import { isDuplicateKeyError } from "./db.server";
import { Coupon, CouponRedemption } from "./models/index.server";

type CouponDoc = CouponRecord & { _id: unknown };

export type CouponCheck =
  | { ok: true; coupon: CouponTerms & { id: string; maxUses: number | null; restricted: boolean } }
  | { ok: false; message: string };

function toRecord(doc: Record<string, unknown> | null): CouponDoc | null {
  if (!doc) return null;
  return {
    _id: doc._id,
    code: String(doc.code),
    discount_type: doc.discount_type as CouponRecord["discount_type"],
    discount_value: Number(doc.discount_value),
    active: doc.active !== false, // an older document without the field: the schema default
    valid_until: (doc.valid_until as Date | null) ?? null,
    max_uses: (doc.max_uses as number | null) ?? null,
    allowed_emails: (doc.allowed_emails as string[]) ?? [],
    allowed_domains: (doc.allowed_domains as string[]) ?? [],
  };
}

/** Uses taken: reservations for checkouts in progress plus completed uses. */
export async function timesUsed(couponId: string): Promise<number> {
  return CouponRedemption.countDocuments({ coupon_id: couponId });
}

/** Checks a code for this buyer now: the coupon's terms, or the reason it can't be used. */
export async function validateCoupon(code: string, email?: string | null, now = new Date()): Promise<CouponCheck> {
  const normalized = normalizeCouponCode(code);
  if (!normalized) return { ok: false, message: COUPON_MESSAGES.empty };
  const coupon = toRecord(await Coupon.findOne({ code: normalized }).lean());
  const used = coupon ? await timesUsed(String(coupon._id)) : 0;
  const problem = couponProblem(coupon, { email, now, timesUsed: used });
  if (problem || !coupon) return { ok: false, message: problem ?? COUPON_MESSAGES.notValid };
  return {
    ok: true,
    coupon: {
      id: String(coupon._id),
      code: coupon.code,
      discount_type: coupon.discount_type,
      discount_value: coupon.discount_value,
      maxUses: coupon.max_uses,
      restricted: isRestrictedCoupon(coupon),
    },
  };
}

/**
 * Takes one use of a coupon for an order, before the buyer pays. A use is an
 * insert under unique (coupon, slot): a coupon with N uses has slots 1..N, so
 * however many checkouts race, at most N succeed. Returns false when no slot is free.
 */
export async function reserveCouponUse(input: {
  couponId: string;
  maxUses: number | null;
  orderId: string;
  /** "used" when a payment takes the use: a cancel frees only reservations. */
  status?: "reserved" | "used";
}): Promise<boolean> {
  const status = input.status ?? "reserved";
  if (input.maxUses == null) {
    try {
      await CouponRedemption.create({
        coupon_id: input.couponId,
        slot: `order:${input.orderId}`,
        order_id: input.orderId,
        status,
      });
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error; // this order already holds its use
    }
    return true;
  }
  const held = await CouponRedemption.find({ coupon_id: input.couponId }, { slot: 1, order_id: 1 }).lean();
  // This order holds a use already (a racing payment of the same checkout took it a moment ago).
  if (held.some((r) => r.order_id === input.orderId)) return true;
  const taken = new Set(held.map((r) => r.slot));
  for (let slot = 1; slot <= input.maxUses; slot++) {
    if (taken.has(String(slot))) continue;
    try {
      await CouponRedemption.create({ coupon_id: input.couponId, slot: String(slot), order_id: input.orderId, status });
      return true;
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      // Another checkout took this slot a moment ago (or this order already holds one): try the next.
      if (await CouponRedemption.exists({ order_id: input.orderId })) return true;
    }
  }
  // Every slot looked taken: by other orders, or by this one since the read above.
  return Boolean(await CouponRedemption.exists({ order_id: input.orderId }));
}

/** Frees an order's reserved use (its checkout failed or expired). A completed use is never freed. */
export async function releaseCouponUse(orderId: string) {
  await CouponRedemption.deleteOne({ order_id: orderId, status: "reserved" });
}

/**
 * A paid order always holds its coupon use: its reservation becomes a completed
 * use, and a reservation that was freed meanwhile (a cancel racing the payment)
 * is taken again. Returns false only when no slot is free any more, or the
 * coupon is gone: the caller honours the payment and records the over-redemption.
 * Payments and cancels of one checkout racing each other (each cancel frees the
 * reservation, each payment takes it back) are not an over-redemption: the last
 * check before saying false is whether this order holds a use after all.
 */
export async function keepCouponUse(orderId: string, code: string): Promise<boolean> {
  const confirm = async () =>
    (await CouponRedemption.updateOne({ order_id: orderId }, { $set: { status: "used" } })).matchedCount > 0;
  if (await confirm()) return true;
  const coupon = await Coupon.findOne({ code: normalizeCouponCode(code) }).lean();
  if (!coupon) return false;
  const couponId = String(coupon._id);
  const maxUses = coupon.max_uses ?? null;
  // Each round either keeps a use or sees one freed by a racing cancel of this
  // same checkout; a few rounds outlast any number of those (each cancel frees once).
  for (let round = 0; round < KEEP_ROUNDS; round++) {
    if (await reserveCouponUse({ couponId, maxUses, orderId, status: "used" })) {
      if (await confirm()) return true;
      continue; // the use we saw was a reservation a cancel freed a moment later
    }
    if (await confirm()) return true;
    // Over-redeemed only when other orders hold every slot; otherwise a slot was freed meanwhile: try again.
    const others = await CouponRedemption.countDocuments({
      coupon_id: couponId,
      order_id: mongoose.trusted({ $ne: orderId }),
    });
    if (maxUses != null && others >= maxUses) return false;
  }
  return confirm();
}

const KEEP_ROUNDS = 5;

export { COUPON_MESSAGES };
