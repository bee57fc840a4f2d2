import mongoose from "mongoose";

/** One document per counted request; the limiter counts a key's hits in its window. */
const RateLimitHitSchema = new mongoose.Schema(
  {
    key: { type: String, required: true },
    at: { type: Date, required: true, default: () => new Date() },
  },
  { collection: "rate_limit_hits" },
);

RateLimitHitSchema.index({ key: 1, at: -1 });
RateLimitHitSchema.index({ at: 1 });

export const RateLimitHit = mongoose.model("RateLimitHit", RateLimitHitSchema);
