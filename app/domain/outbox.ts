/** The admin outbox page (/admin/outbox): its statuses, its one row action, its messages (the schemas of its filter and action: outbox.schema.ts, server only). */

export const OUTBOX_STATUS_LABELS = { pending: "Queued", sent: "Sent", failed: "Failed" } as const;

export const OUTBOX_INTENTS = { retry: "retry" } as const;

export const OUTBOX_MESSAGES = {
  retried: { title: "Retry Queued", description: "The message will be sent again in a moment." },
  notFailed: {
    title: "Not Retried",
    description: "Only a failed message can be retried; this one is queued or already sent.",
  },
} as const;
