import { describe, expect, it } from "vitest";
import { RateLimitHit } from "~/server/models/index.server";
import { consumeRateLimit, rateLimitSubject } from "~/server/rate-limit.server";
import { useTestDatabase } from "../support/db";

useTestDatabase();

const LIMIT = { name: "test", max: 5, windowMs: 60 * 60_000 };

describe("rate limits (numbered slots, found by _id)", () => {
  it("gives 20 requests at once exactly the limit's 5 slots", async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => consumeRateLimit(LIMIT, "racer")));
    expect(results.filter(Boolean)).toHaveLength(LIMIT.max);
    expect(await consumeRateLimit(LIMIT, "racer")).toBe(false);
  });

  it("counts one caller's posts one after another, each in the next slot, and refuses the sixth", async () => {
    const now = new Date();
    const results = [];
    for (let i = 0; i < LIMIT.max + 2; i++) results.push(await consumeRateLimit(LIMIT, "walker", now));
    expect(results).toEqual([true, true, true, true, true, false, false]);
    const key = `${rateLimitSubject(LIMIT, "walker")}:${Math.floor(now.getTime() / LIMIT.windowMs)}`;
    expect((await RateLimitHit.find({ key }).lean()).map((h) => h._id).sort()).toEqual(
      [1, 2, 3, 4, 5].map((slot) => `${key}:${slot}`),
    );
    // Another caller, and the next window, start afresh.
    expect(await consumeRateLimit(LIMIT, "someone else", now)).toBe(true);
    expect(await consumeRateLimit(LIMIT, "walker", new Date(now.getTime() + LIMIT.windowMs))).toBe(true);
  });
});
