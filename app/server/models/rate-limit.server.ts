import mongoose from "mongoose";

/**
 * One document per counted request. A limit of N per window has slots 1..N in
 * each window, and a hit is an insert whose _id names its slot
 * (`limit:client:window:slot`), so however many requests race, at most N
 * inserts succeed (ARCHITECTURE.md rule 7). `at` lets the cron purge old hits.
 */
const RateLimitHitSchema = new mongoose.Schema(
  {
    _id: { type: String, required: true },
    key: { type: String, required: true }, // `limit:client:window`
    at: { type: Date, required: true, default: () => new Date() },
  },
  { collection: "rate_limit_hits" },
);

RateLimitHitSchema.index({ key: 1 });
RateLimitHitSchema.index({ at: 1 });

export const RateLimitHit = mongoose.model("RateLimitHit", RateLimitHitSchema);
