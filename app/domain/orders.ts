import { revisionRoundsFor } from "~/content/packages";
import { isPaid } from "./order-status";

/**
 * How a customer sees an order (spec 2: dashboard and order status): its short
 * id, status badge, build timeline, intake completeness, access-link state and
 * revision rounds. Pure: the pages hand in plain records.
 */

export const FEEDBACK_MIN = 10;
export const FEEDBACK_MAX = 5000;
export const ROUNDS = [1, 2, 3] as const;
export type Round = (typeof ROUNDS)[number];

/** Order ids are shown as their first 8 characters. */
export const shortId = (id: string) => id.slice(0, 8);

export type StatusTone = "green" | "yellow" | "blue" | "red" | "grey";
/** Customer pages: paid and completed green, pending yellow, in progress blue, failed and cancelled red. */
export function statusTone(status: string): StatusTone {
  switch (status) {
    case "paid":
    case "completed":
      return "green";
    case "pending":
      return "yellow";
    case "in_progress":
      return "blue";
    case "failed":
    case "cancelled":
      return "red";
    default:
      return "grey";
  }
}

/** An order whose payment went through (it may have moved on since). */

export type OrderView = {
  status: string;
  product_id?: string | null;
  intake_progress: number;
  intake_submitted_at?: Date | string | null;
  draft_url?: string | null;
  revision_1_enabled?: boolean | null;
  revision_1_feedback?: string | null;
  revision_1_submitted_at?: Date | string | null;
  revision_2_enabled?: boolean | null;
  revision_2_feedback?: string | null;
  revision_2_submitted_at?: Date | string | null;
  revision_3_enabled?: boolean | null;
  revision_3_feedback?: string | null;
  revision_3_submitted_at?: Date | string | null;
};

export type TimelineStep = { label: string; done: boolean };

/**
 * The one meaning of "the intake is finished" on every customer page: the customer pressed Submit.
 * It drives the timeline's Intake Form step, the progress shown and 'Intake form completed!'.
 */
export const intakeFinished = (order: Pick<OrderView, "intake_submitted_at">) => Boolean(order.intake_submitted_at);

/**
 * The build timeline by the spec's rules: Payment Received (paid), Intake Form
 * (submitted: see intakeFinished), Draft In Progress and Draft Delivered (a draft link exists),
 * Revisions (the last included round submitted), Final Launch (completed).
 * Empty for an order that is not paid: the timeline shows only then.
 */
export function timeline(order: OrderView): TimelineStep[] {
  if (!isPaid(order.status)) return [];
  const draft = Boolean(order.draft_url);
  const lastRound = revisionRoundsFor(order.product_id);
  return [
    { label: "Payment Received", done: true },
    { label: "Intake Form", done: intakeFinished(order) },
    { label: "Draft In Progress", done: draft },
    { label: "Draft Delivered", done: draft },
    { label: "Revisions", done: Boolean(roundOf(order, lastRound).submittedAt) },
    { label: "Final Launch", done: order.status === "completed" },
  ];
}

export type RoundState = "locked" | "available" | "completed";
export type RoundView = {
  round: Round;
  state: RoundState;
  feedback: string | null;
  submittedAt: Date | null;
  /** What a locked round tells the customer. */
  note: string;
};

export const ROUND_NOTES = {
  /** Round 1 before any draft: there is no "next" draft yet. */
  firstDraft: "We'll open this round when your first draft is ready.",
  waiting: "We'll open this round when your next draft is ready.",
  projectComplete: "Your project is complete, so no more rounds will open. Need a change? Contact us.",
  refunded: "Your order was refunded in full, so no more rounds will open.",
} as const;

function roundOf(order: OrderView, round: Round) {
  const feedback = order[`revision_${round}_feedback`] ?? null;
  const at = order[`revision_${round}_submitted_at`] ?? null;
  return { enabled: Boolean(order[`revision_${round}_enabled`]), feedback, submittedAt: at ? new Date(at) : null };
}

/**
 * The rounds this order's product includes, each Locked (not enabled by us yet),
 * Available (enabled, no feedback) or Completed (feedback given; read-only). A
 * refunded order's rounds are closed: none is Available (the server refuses its feedback).
 */
export function revisionRounds(order: OrderView): RoundView[] {
  const refunded = order.status === "refunded";
  return ROUNDS.slice(0, revisionRoundsFor(order.product_id)).map((round) => {
    const r = roundOf(order, round);
    const state: RoundState = r.submittedAt ? "completed" : r.enabled && !refunded ? "available" : "locked";
    const note = refunded
      ? ROUND_NOTES.refunded
      : order.status === "completed"
        ? ROUND_NOTES.projectComplete
        : round === 1 && !order.draft_url
          ? ROUND_NOTES.firstDraft
          : ROUND_NOTES.waiting;
    return { round, state, feedback: r.feedback, submittedAt: r.submittedAt, note };
  });
}

export const ROUND_LABELS: Record<RoundState, string> = {
  locked: "Locked",
  available: "Available",
  completed: "Completed",
};

export const REVISION_MESSAGES = {
  submitted: {
    title: "Feedback Submitted!",
    description: "Thanks: we'll start on your changes and let you know when they're ready.",
  },
  tooShort: `Feedback must be at least ${FEEDBACK_MIN} characters`,
  tooLong: `Feedback must be less than ${FEEDBACK_MAX} characters`,
  notOpen: "This revision round is not open for feedback.",
  already: "Feedback for this round was already submitted.",
} as const;

export const ORDER_STATUS_MESSAGES = {
  notFound: {
    title: "Order Not Found",
    description: "We couldn't find an order for this link. It may be mistyped or out of date.",
  },
  renewed: { title: "Access Renewed!", description: "Your intake form access has been extended for 30 more days." },
  renewFailed: "Failed to renew access. Please try again.",
  deletionRequested: {
    title: "Deletion Requested",
    description: "We've recorded your request and will delete your data. We'll e-mail you when it's done.",
  },
} as const;

/** The buttons of the dashboard and order status forms. */
export const ORDER_INTENTS = {
  feedback: "feedback",
  renewAccess: "renew-access",
  renewLink: "renew-link",
  requestDeletion: "request-deletion",
  continueIntake: "continue-intake",
} as const;

/**
 * "Continue your intake form": offered while a paid order's intake is unfinished, and never for
 * an order that was refunded (its link is closed) or whose data was deleted.
 */
export const canContinueIntake = (
  order: Pick<OrderView, "status" | "intake_submitted_at"> & { data_deleted_at?: Date | string | null },
) => isPaid(order.status) && !intakeFinished(order) && !order.data_deleted_at;

export const CONTINUE_INTAKE_MESSAGES = {
  button: "Continue your intake form",
  linkSent: (email: string, days: number) => ({
    title: "New link sent",
    description: `Your intake form link no longer works, so we've e-mailed a new one to ${email}. It works for ${days} days.`,
  }),
  tooMany: {
    title: "Link not sent",
    description:
      "We've already e-mailed you new links to your intake form today. Please use the newest one, or contact us.",
  },
  nothing: { title: "Nothing to continue", description: "This order's intake form is already submitted." },
} as const;

/** Each feedback form's id, so a page with several shows the errors on the one that was posted. */
export const feedbackFormId = (orderId: string, round: number) => `feedback-${shortId(orderId)}-${round}`;
