import * as z from "./zod";

/** The admin outbox page (/admin/outbox): its filter, its one row action, its messages. */

export const OUTBOX_STATUS_LABELS = { pending: "Queued", sent: "Sent", failed: "Failed" } as const;
export type OutboxStatusName = keyof typeof OUTBOX_STATUS_LABELS;

/** The filter form (GET): a status. Anything else is ignored; the page's cursor (`?before=`) is read by app/domain/paging.ts. */
export const OutboxFilterSchema = z.object({
  status: z.catch(z.optional(z.enum(["pending", "sent", "failed"])), undefined),
});

export const OUTBOX_INTENTS = { retry: "retry" } as const;

/** The row action: Retry one failed message, named by its id. */
export const OutboxActionSchema = z.object({
  intent: z.literal(OUTBOX_INTENTS.retry),
  messageId: z.string().check(z.regex(/^[0-9a-f]{24}$/, "Unknown message")),
});

export const OUTBOX_MESSAGES = {
  retried: { title: "Retry Queued", description: "The message will be sent again in a moment." },
  notFailed: {
    title: "Not Retried",
    description: "Only a failed message can be retried; this one is queued or already sent.",
  },
} as const;
