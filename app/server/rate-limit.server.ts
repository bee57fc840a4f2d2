import { createHash } from "node:crypto";
import { isDuplicateKeyError } from "./db.server";
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

/** What one limit counts for one caller (its window's number follows): the caller is hashed before it is stored. */
export const rateLimitSubject = (limit: RateLimit, who: string) =>
  `${limit.name}:${createHash("sha256").update(who).digest("hex").slice(0, 32)}`;

/**
 * Counts this request against the limit (as `count` slots: work of varying size, like an image's pixels); false
 * when the caller is over it. Slots a refused request took stay taken: its work was refused, not undone.
 * Windows are fixed (the hour, for an hourly limit) and each holds numbered
 * slots 1..max: taking one is an insert under its unique _id, so 20 requests
 * at once against a limit of 5 get exactly 5 slots, never more.
 *
 * Where to start is found by _id lookups, never by counting the window's hits:
 * on FerretDB a count is a scan of every hit stored (every visitor's, for a
 * day), which the soak measured growing with each post. A first post tries slot
 * 1 at once; a caller who has posted before looks its slots up by _id (a binary
 * search: slots are taken from the lowest free one up), then inserts from the
 * first free one. The lookups are a head start only; the inserts hold the limit.
 */
export async function consumeRateLimit(limit: RateLimit, who: string, now = new Date(), count = 1): Promise<boolean> {
  const window = Math.floor(now.getTime() / limit.windowMs);
  const key = `${rateLimitSubject(limit, who)}:${window}`;
  const take = async (slot: number) => {
    try {
      await RateLimitHit.create({ _id: `${key}:${slot}`, key, at: now });
      return true;
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      return false;
    }
  };
  let taken = (await take(1)) ? 1 : 0;
  let low = 2;
  if (!taken) {
    // Slot 1 is taken: the first free slot lies in 2..max+1 (max+1: every slot taken).
    let high = limit.max + 1;
    while (low < high) {
      const middle = Math.floor((low + high) / 2);
      if (await RateLimitHit.exists({ _id: `${key}:${middle}` })) low = middle + 1;
      else high = middle;
    }
  }
  for (let slot = low; taken < count && slot <= limit.max; slot++) if (await take(slot)) taken++;
  return taken >= count;
}
