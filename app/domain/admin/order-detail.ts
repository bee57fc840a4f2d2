import { formatDateTime } from "../dates";
import { formatCents } from "../money";
import { countOf } from "../words";
import type { Round } from "../orders";

/** The order detail page's actions: each form's `intent` button names one. */
export const ORDER_INTENT = {
  saveDraftUrl: "save-draft-url",
  toggleRevision: "toggle-revision",
  renewToken: "renew-token",
  sendReminder: "send-reminder",
  saveData: "save-data",
  generatePrompt: "generate-prompt",
  revisionPrompt: "revision-prompt",
} as const;

/** The AI Prompt tab's words for a customer who opted out of AI (no prompt is built: domain/ai-prompt.ts). */
export const AI_OPT_OUT_MESSAGE =
  "The customer opted out of AI processing, so no AI prompt is built for this order. Build the site from the brief by hand.";

/** The revision prompt generator's notes (a revision tab): their limit and message (schema: ai-prompt.schema.ts). */
export const REVISION_NOTES_MAX = 5000;
export const REVISION_PROMPT_MESSAGES = {
  notesRequired: "Please enter revision notes before generating prompt",
} as const;

/** The order detail page's tabs, each a URL (?tab=...). */
export const DETAIL_TABS = [
  { id: "brief", label: "Brief" },
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

/** The tab of one revision round. */
export const revisionTab = (round: Round) => `revision-${round}` as const;

/** The revision round a tab shows, or null for the other tabs. */
export function tabRound(tab: DetailTab): Round | null {
  return tab === "revision-1" ? 1 : tab === "revision-2" ? 2 : tab === "revision-3" ? 3 : null;
}

export const DRAFT_URL_MESSAGES = {
  required: "Please enter a draft URL",
  scheme: "Enter a web address starting with http:// or https://",
  tooLong: "The draft URL must be at most 2000 characters",
} as const;

/** What every admin page about one order says when there is no such order. */
export const ORDER_NOT_FOUND = "Order not found";

/**
 * The data tabs' standing hints. The loader sends them with the page's data, so the admin pages' script does
 * not carry them (the 97 KB budget of ARCHITECTURE rule 8).
 */
export const DATA_TAB_HINTS = {
  prompt:
    "The prompt holds only what the customer agreed AI may see: no contact details, staff, reviews or tracking ids. Each generation is recorded in the privacy audit log.",
  editData:
    "Lists are JSON: a change to one is saved only when its text is valid JSON (otherwise that change is ignored and the rest is saved). The files themselves and the customer's consent are not edited here; each photo's details are, at the end.",
};
export type DataTabHints = typeof DATA_TAB_HINTS;

/** The flash messages (title and description) of the order detail page's actions. */
export const DETAIL_MESSAGES = {
  draftSaved: { title: "Draft URL Saved" },
  /** The first-draft e-mail went out with an earlier URL: the saved one is not in the customer's inbox. */
  draftEmailedOther: (emailed: string) =>
    `The customer's first-draft e-mail linked ${emailed}, the URL saved first; it is not sent again. Tell them the new link if they need it.`,
  urlRequired: { title: "URL Required", description: DRAFT_URL_MESSAGES.required },
  tokenRenewed: (expires: Date) => ({
    title: "Token Renewed",
    description: `Access now runs until ${formatDateTime(expires)}.`,
  }),
  renewFailed: "Failed to renew token. Please try again.",
  noToken: "This order has no intake link yet: send a reminder to issue one.",
  notFound: ORDER_NOT_FOUND,
  saveError: "Save Error",
  editSaveError: "Error Saving",
  noPrompt: "No prompt",
  revisionError: "Error",
  nothingChanged: "Nothing was changed. Please try again.",
} as const;

/** The admin's revision toggle: what it says when it worked, and why it may refuse. */
export const ADMIN_REVISION_MESSAGES = {
  enabled: (round: Round) => ({
    title: "Revision Enabled",
    description: `Round ${round} enabled and customer notified.`,
  }),
  /** Opened again (or clicked twice): the customer already has this round's one e-mail. */
  alreadyNotified: (round: Round) => ({
    title: "Revision Enabled",
    description: `Round ${round} enabled. The customer was e-mailed when it first opened, so no new e-mail was sent.`,
  }),
  disabled: (round: Round) => ({ title: "Revision Disabled", description: `Round ${round} disabled.` }),
  notIncluded: (rounds: number) => `This order's package includes ${rounds} revision round${rounds === 1 ? "" : "s"}.`,
  notFound: ORDER_NOT_FOUND,
} as const;

/**
 * The toast for a draft URL the schema refused as empty (spec 2 section 5: "URL Required"): missing, or
 * nothing left after trimming, told by the Zod issue's path and code; null for any other refusal, which
 * the page says on the field, keeping what was typed.
 */
export function draftUrlToast(issue: {
  path: readonly PropertyKey[];
  code: string;
}): { title: string; description: string } | null {
  const empty = issue.code === "invalid_type" || issue.code === "too_small";
  return issue.path[0] === "draftUrl" && empty ? DETAIL_MESSAGES.urlRequired : null;
}

/** The toggle's label (spec 2 section 2). */
export function revisionToggleLabel(round: number): string {
  return round === 3 ? "Enable Revision 3 Form (Final)" : `Enable Revision ${round} Form`;
}

/** Order ids are UUIDs; anything else is not an order. */
export const ORDER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The order id of an admin page's URL (`$orderId`); anything that is not one is that page's 404. */
export function orderIdParam(params: { orderId?: string }): string {
  const id = params.orderId ?? "";
  if (!ORDER_ID.test(id)) throw new Response(ORDER_NOT_FOUND, { status: 404 });
  return id;
}

/**
 * The order's admin history in sentences (never a stored key such as "revision.1.enabled"): each recorded
 * action (server/admin/audit.server.ts) as people read it, from its details; an action not listed here
 * shows its code.
 */
type Details = Record<string, unknown>;
const when = (value: unknown) => (typeof value === "string" && value ? formatDateTime(value) : null);
const REVISION_ACTION = /^revision\.([123])\.(enabled|disabled)$/;
export const HISTORY_MESSAGES: Record<string, (d: Details) => string> = {
  "order.draft_url": () => "Draft URL saved",
  "token.renewed": (d) =>
    when(d.expires_at) ? `Intake link renewed until ${when(d.expires_at)}` : "Intake link renewed",
  "submission.edited": (d) =>
    typeof d.fields === "number" ? `Intake data edited (${countOf(d.fields, "field")})` : "Intake data edited",
  "ai_prompt.generated": () => "AI prompt generated",
  "revision_prompt.generated": (d) =>
    d.round ? `Revision ${String(d.round)} prompt generated` : "Revision prompt generated",
  "clock.restarted": (d) =>
    when(d.deadline) ? `Delivery clock restarted, first draft now due ${when(d.deadline)}` : "Delivery clock restarted",
  "order.refunded": (d) => (typeof d.amount === "number" ? `Refunded ${formatCents(d.amount)}` : "Refunded"),
  "order.status": (d) => `Status set to ${String(d.status ?? "").replace(/_/g, " ")}`,
  "order.reminder": () => "Intake reminder sent",
  "payment_issue.accepted": () => "Payment accepted and order fulfilled",
  "payment_issue.resolved": () => "Payment issue marked resolved",
  "file.downloaded": (d) => (d.file ? `${String(d.file)} downloaded (full size)` : "File downloaded"),
  "files.downloaded": (d) =>
    typeof d.files === "number" ? `All files downloaded (${countOf(d.files, "file")})` : "All files downloaded",
  "data.deleted": (d) => (d.reason ? `Customer's data deleted (${String(d.reason)})` : "Customer's data deleted"),
};

/** One history entry's sentence: "Revision round 1 enabled", "Draft URL saved". */
export function historySentence(action: string, details: Details = {}): string {
  const revision = REVISION_ACTION.exec(action);
  if (revision) return `Revision round ${revision[1]} ${revision[2]}`;
  return HISTORY_MESSAGES[action]?.(details) ?? action;
}
