import { FEEDBACK_MAX, FEEDBACK_MIN, REVISION_MESSAGES, ROUNDS } from "./orders";
import * as z from "./zod";

/** A revision round posted by a form ("1", "2" or "3"), parsed to the `Round` it names. */
export const RoundSchema = z.pipe(z.coerce.number(), z.literal(ROUNDS));

/** The feedback form, shared by the dashboard and the order status page. */
export const FeedbackSchema = z.object({
  round: RoundSchema,
  feedback: z
    .string({ error: REVISION_MESSAGES.tooShort })
    .check(
      z.trim(),
      z.minLength(FEEDBACK_MIN, REVISION_MESSAGES.tooShort),
      z.maxLength(FEEDBACK_MAX, REVISION_MESSAGES.tooLong),
    ),
});
