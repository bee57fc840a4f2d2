import { REVISION_NOTES_MAX, REVISION_PROMPT_MESSAGES } from "./admin/order-detail";
import * as z from "./zod";

/** The revision prompt generator's notes, parsed by the server (the browser checks the rules derived from it). */
export const RevisionPromptSchema = z.object({
  notes: z
    .string({ error: REVISION_PROMPT_MESSAGES.notesRequired })
    .check(
      z.trim(),
      z.minLength(1, REVISION_PROMPT_MESSAGES.notesRequired),
      z.maxLength(REVISION_NOTES_MAX, `Notes must be at most ${REVISION_NOTES_MAX} characters`),
    ),
});
