import { RoundSchema } from "../orders.schema";
import * as z from "../zod";
import { DRAFT_URL_MESSAGES } from "./order-detail";

/**
 * The draft URL (spec 2 section 5: non-empty after trimming, no other format check).
 * Because it becomes a link, only web addresses are stored: a bare host gets https://.
 */
export const DraftUrlSchema = z.object({
  draftUrl: z
    .pipe(
      z
        .string({ error: DRAFT_URL_MESSAGES.required })
        .check(z.trim(), z.minLength(1, DRAFT_URL_MESSAGES.required), z.maxLength(2000, DRAFT_URL_MESSAGES.tooLong)),
      z.transform((s: string) => (/^[a-z][a-z0-9+.-]*:/i.test(s) ? s : `https://${s}`)),
    )
    .check(z.refine((s) => /^https?:\/\/[^\s]+$/i.test(s), DRAFT_URL_MESSAGES.scheme)),
});

export const RevisionToggleSchema = z.object({
  round: RoundSchema,
  enabled: z.pipe(
    z.enum(["true", "false"]),
    z.transform((v) => v === "true"),
  ),
});

export const RevisionRoundSchema = z.object({ round: RoundSchema });
