import { OUTBOX_INTENTS } from "./outbox";
import * as z from "./zod";

/** The filter form (GET): a status. Anything else is ignored; the page's cursor (`?before=`) is read by app/domain/paging.ts. */
export const OutboxFilterSchema = z.object({
  status: z.catch(z.optional(z.enum(["pending", "sent", "failed"])), undefined),
});

/** The row action: Retry one failed message, named by its id. */
export const OutboxActionSchema = z.object({
  intent: z.literal(OUTBOX_INTENTS.retry),
  messageId: z.string().check(z.regex(/^[0-9a-f]{24}$/, "Unknown message")),
});
