import { CLOCK_MESSAGES } from "./delivery-clock";
import * as z from "./zod";

/** Restart the clock: what is missing (sent to the customer), and the restart count the form was rendered with. */
export const RestartClockSchema = z.object({
  missing: z
    .string({ error: CLOCK_MESSAGES.missingRequired })
    .check(z.trim(), z.minLength(1, CLOCK_MESSAGES.missingRequired), z.maxLength(1000, CLOCK_MESSAGES.tooLong)),
  restarts: z.coerce.number().check(z.int(), z.gte(0), z.lte(100)),
});

/** A refund's reason (audited, never sent to Stripe). */
export const RefundSchema = z.object({
  reason: z
    .string({ error: CLOCK_MESSAGES.reasonRequired })
    .check(z.trim(), z.minLength(1, CLOCK_MESSAGES.reasonRequired), z.maxLength(1000, CLOCK_MESSAGES.tooLong)),
});
