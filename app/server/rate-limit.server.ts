import { createHash } from "node:crypto";
import mongoose from "mongoose";
import { connectDb } from "./db.server";
import { RateLimitHit } from "./models/index.server";

export type RateLimit = { name: string; max: number; windowMs: number };

/** Public forms: at most `max` posts per client address per window. */
export const CONTACT_LIMIT: RateLimit = { name: "contact", max: 5, windowMs: 60 * 60_000 };
/** Coupon checks and payment starts: generous for a buyer, a wall for a code-guessing script. */
export const CHECKOUT_LIMIT: RateLimit = { name: "checkout", max: 30, windowMs: 60 * 60_000 };

/** The client's address as our own proxy saw it; hashed before it is stored. */
export function clientAddress(request: Request): string {
  return request.headers.get("x-client-address") ?? "unknown";
}

/**
 * Counts this request against the limit. Hits are inserts and the count is
 * derived, so concurrent requests can overshoot by at most the number racing,
 * never lose count. Returns false when the caller is over the limit.
 */
export async function consumeRateLimit(limit: RateLimit, who: string, now = new Date()): Promise<boolean> {
  await connectDb();
  const key = `${limit.name}:${createHash("sha256").update(who).digest("hex").slice(0, 32)}`;
  const since = new Date(now.getTime() - limit.windowMs);
  const used = await RateLimitHit.countDocuments({ key, at: mongoose.trusted({ $gt: since }) });
  if (used >= limit.max) return false;
  await RateLimitHit.create({ key, at: now });
  return true;
}
