import mongoose from "mongoose";
import { connectDb } from "~/server/db.server";
import { RateLimitHit } from "~/server/models/index.server";
import { rateLimitSubject, type RateLimit } from "~/server/rate-limit.server";

/** How the app sees a browser test's address (scripts/server.mjs on 127.0.0.1, no proxy trusted in tests). */
export const BROWSER_ADDRESSES = ["127.0.0.1", "::ffff:127.0.0.1", "::1"];

/**
 * Every browser test posts from 127.0.0.1, so the whole suite shares each per-address limit: the checkout's 30
 * coupon checks and payments an hour are used up by the e2e files together, whatever order they run in (the
 * receipt's JavaScript-on purchase was refused "Too many attempts" late in a full run). Forgets the counts of
 * `subjects` (from rateLimitSubject) and nothing else; the limit tests use their own loopback addresses.
 */
export async function forgetLimits(subjects: string[]) {
  await connectDb();
  await RateLimitHit.deleteMany({ key: mongoose.trusted({ $regex: `^(${subjects.join("|")}):` }) });
}

/** A browser's posts start under each of `limits` (per-address limits) after this. */
export const clearBrowserLimits = (...limits: RateLimit[]) =>
  forgetLimits(limits.flatMap((limit) => BROWSER_ADDRESSES.map((a) => rateLimitSubject(limit, a))));
