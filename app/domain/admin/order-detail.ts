import * as z from "../zod";
import { RoundSchema } from "../orders";

/** The order detail page's tabs, each a URL (?tab=...). */
export const DETAIL_TABS = [
  { id: "ai-prompt", label: "AI Prompt" },
  { id: "edit-data", label: "Edit Data" },
  { id: "revision-1", label: "Revision 1" },
  { id: "revision-2", label: "Revision 2" },
  { id: "revision-3", label: "Revision 3" },
] as const;
export type DetailTab = (typeof DETAIL_TABS)[number]["id"];

export function parseDetailTab(value: string | null): DetailTab {
  return DETAIL_TABS.find((t) => t.id === value)?.id ?? "ai-prompt";
}

export const DRAFT_URL_MESSAGES = {
  required: "Please enter a draft URL",
  scheme: "Enter a web address starting with http:// or https://",
  tooLong: "The draft URL must be at most 2000 characters",
} as const;

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

/** The toggle's label (spec 2 section 2). */
export function revisionToggleLabel(round: number): string {
  return round === 3 ? "Enable Revision 3 Form (Final)" : `Enable Revision ${round} Form`;
}

/** Order ids are UUIDs; anything else is not an order. */
export const ORDER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
