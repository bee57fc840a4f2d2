import mongoose from "mongoose";
import { couponRecord } from "~/domain/admin/coupons";
import type { CouponFormValue } from "~/domain/admin/coupons.schema";
import { couponBadge, type CouponBadge } from "~/domain/pricing";
import { formatCents } from "~/domain/money";
import type { Page, PageCursor } from "~/domain/paging";
import { isDuplicateKeyError } from "../db.server";
import { Coupon, CouponRedemption } from "../models/index.server";
import { keysetPage } from "../paging.server";
import { recordAdminAction, type Actor } from "./audit.server";

export type CouponRow = {
  id: string;
  code: string;
  discount: string;
  maxUses: number | null;
  timesUsed: number;
  validUntil: string | null;
  active: boolean;
  /** Active, Expired, Used up or Inactive: checkout's own rule, now. */
  badge: CouponBadge;
  allowedEmails: string[];
  allowedDomains: string[];
};

/** One page of the coupon list (the first page is what the list showed before it paged). */
export const COUPON_LIST_LIMIT = 200;

/** Uses per coupon, from the redemption records (one $group, one accumulator). */
async function usesByCoupon(ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await CouponRedemption.aggregate<{ _id: string; n: number }>([
    { $match: { coupon_id: { $in: ids } } },
    { $group: { _id: "$coupon_id", n: { $sum: 1 } } },
  ]);
  return new Map(rows.map((r) => [r._id, r.n]));
}

/** A stored coupon as read: an older document (or one written by hand) may lack any optional field. */
type CouponDoc = {
  _id: unknown;
  code: string;
  discount_type: string;
  discount_value: number;
  max_uses?: number | null;
  valid_until?: Date | null;
  active?: boolean | null;
  allowed_emails?: string[] | null;
  allowed_domains?: string[] | null;
};

/** One page of coupons after `cursor`, newest first, each with its times used. */
export async function listCoupons(
  input: { cursor?: PageCursor | null; pageSize?: number } = {},
): Promise<Page<CouponRow>> {
  const page = await keysetPage<CouponDoc>(Coupon, {
    field: "created_at",
    cursor: input.cursor ?? null,
    pageSize: input.pageSize ?? COUPON_LIST_LIMIT,
  });
  const uses = await usesByCoupon(page.rows.map((d) => String(d._id)));
  const now = new Date();
  return {
    ...page,
    rows: page.rows.map((d) => ({
      id: String(d._id),
      code: d.code,
      discount: d.discount_type === "percentage" ? `${d.discount_value}% off` : `${formatCents(d.discount_value)} off`,
      maxUses: d.max_uses ?? null,
      timesUsed: uses.get(String(d._id)) ?? 0,
      validUntil: d.valid_until ? d.valid_until.toISOString() : null,
      active: d.active !== false,
      badge: couponBadge(
        { active: d.active !== false, valid_until: d.valid_until ?? null, max_uses: d.max_uses ?? null },
        { now, timesUsed: uses.get(String(d._id)) ?? 0 },
      ),
      allowedEmails: d.allowed_emails ?? [],
      allowedDomains: d.allowed_domains ?? [],
    })),
  };
}

export async function findCoupon(id: string) {
  if (!mongoose.isValidObjectId(id)) return null;
  return Coupon.findById(id).lean();
}

export type CouponSaveResult = { ok: true; id: string } | { ok: false; reason: "code-taken" | "not-found" };

export async function createCoupon(value: CouponFormValue, actor: Actor): Promise<CouponSaveResult> {
  try {
    const doc = await Coupon.create(couponRecord(value));
    await recordAdminAction(actor, "coupon.created", { type: "coupon", id: String(doc._id) }, { code: doc.code });
    return { ok: true, id: String(doc._id) };
  } catch (error) {
    if (isDuplicateKeyError(error)) return { ok: false, reason: "code-taken" };
    throw error;
  }
}

/** Edits keep the coupon's id, so its redemption records (and times used) stay with it. */
export async function updateCoupon(id: string, value: CouponFormValue, actor: Actor): Promise<CouponSaveResult> {
  try {
    const result = await Coupon.updateOne({ _id: id }, { $set: couponRecord(value) });
    if (result.matchedCount === 0) return { ok: false, reason: "not-found" };
  } catch (error) {
    if (isDuplicateKeyError(error)) return { ok: false, reason: "code-taken" };
    throw error;
  }
  await recordAdminAction(actor, "coupon.updated", { type: "coupon", id }, { code: value.code });
  return { ok: true, id };
}

/**
 * Deletes a coupon nobody has used. A used one is deactivated instead, so the
 * orders that used it keep their redemption history. Deleting twice is harmless.
 */
export async function deleteCoupon(id: string, actor: Actor): Promise<"deleted" | "deactivated" | "not-found"> {
  const coupon = await Coupon.findById(id).lean();
  if (!coupon) return "not-found";
  if (await CouponRedemption.exists({ coupon_id: id })) {
    await Coupon.updateOne({ _id: id }, { $set: { active: false } });
    await recordAdminAction(actor, "coupon.deactivated", { type: "coupon", id }, { code: coupon.code });
    return "deactivated";
  }
  await Coupon.deleteOne({ _id: id });
  await recordAdminAction(actor, "coupon.deleted", { type: "coupon", id }, { code: coupon.code });
  return "deleted";
}
