import { getFormProps, getTextareaProps, useForm, type SubmissionResult } from "~/components/useForm";
import { Form, useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { FormAlert, FormKey } from "~/components/forms";
import type { FormRules } from "~/domain/form-rules";
import { formatDateTime } from "~/domain/dates";
import { statusText } from "~/domain/order-status";
import { useIsPending } from "~/components/hooks";
import {
  CONTINUE_INTAKE_MESSAGES,
  FEEDBACK_MAX,
  feedbackFormId,
  ORDER_INTENTS,
  ROUND_LABELS,
  statusTone,
  type RoundView,
  type TimelineStep,
} from "~/domain/orders";
import { SendStatus } from "~/components/connection";
import { forgetDeviceCopy, RESTORED_MESSAGE, useDeviceCopy } from "~/components/useDeviceCopy";

/** Pieces of the customer's view of an order, shared by /dashboard and /order-status. */

export function StatusBadge({ status }: { status: string }) {
  return <span className={`status status-${statusTone(status)}`}>{statusText(status)}</span>;
}

/** "Continue your intake form": opens the form, or has a new link e-mailed (the page then says so). */
export function ContinueIntakeButton({ orderId }: { orderId?: string }) {
  const sending = useIsPending({ intent: ORDER_INTENTS.continueIntake });
  return (
    <Form method="post" className="continue-intake">
      <FormKey />
      {orderId ? <input type="hidden" name="orderId" value={orderId} /> : null}
      <button
        type="submit"
        name="intent"
        value={ORDER_INTENTS.continueIntake}
        className="button button-primary"
        disabled={sending}
      >
        {CONTINUE_INTAKE_MESSAGES.button}
      </button>
      <SendStatus />
    </Form>
  );
}

export function ProgressBar({ label, percent }: { label: string; percent: number }) {
  return (
    <div className="progress-bar">
      <p>
        {label}: <strong>{percent}%</strong>
      </p>
      <progress max={100} value={percent} aria-label={label}>
        {percent}%
      </progress>
    </div>
  );
}

export function OrderTimeline({ steps }: { steps: TimelineStep[] }) {
  if (steps.length === 0) return null;
  return (
    <ol className="timeline" aria-label="Progress of your website">
      {steps.map((step) => (
        <li key={step.label} className={step.done ? "done" : undefined}>
          <span aria-hidden="true">{step.done ? "✓" : "○"}</span> {step.label}
          <span className="visually-hidden">{step.done ? " (done)" : " (not yet)"}</span>
        </li>
      ))}
    </ol>
  );
}

export type FeedbackReply = { formId: string; result: SubmissionResult<string[]> } | undefined;

/** Revision Rounds: Locked, Available (with the feedback form) or Completed (read-only, Submitted badge). */
export function RevisionRounds({
  orderId,
  copyKey,
  rounds,
  reply,
  withOrderId,
  heading: Heading = "h3",
}: {
  orderId: string;
  /** h2 where the rounds are a card of their own (order status), h3 inside an order's card (dashboard). */
  heading?: "h2" | "h3";
  /** Names this order's copies on the device (server/form-keys.server.ts deviceCopyKey). */
  copyKey: string;
  rounds: RoundView[];
  reply: FeedbackReply;
  withOrderId: boolean;
}) {
  // The open round's feedback is kept on this device as it is typed, until the server has it
  // (here, not in the form: a sent form is replaced by the read-only round, and the copy must go).
  const open = rounds.find((r) => r.state === "available");
  const copyOf = (round: number) => `feedback:${copyKey}:${round}`;
  const { restored } = useDeviceCopy(open ? feedbackFormId(orderId, open.round) : "", open ? copyOf(open.round) : null);
  // A round sent elsewhere (another tab or device) leaves no copy here.
  const sent = rounds.filter((r) => r.state === "completed").map((r) => copyOf(r.round));
  useEffect(() => sent.forEach(forgetDeviceCopy), [sent.join()]); // eslint-disable-line react-hooks/exhaustive-deps -- by content
  return (
    <section className="revision-rounds" aria-label="Revision Rounds">
      <Heading>Revision Rounds</Heading>
      <ul className="card-list">
        {rounds.map((r) => (
          <li key={r.round} className="round">
            <p>
              <strong>Revision {r.round}</strong>{" "}
              <span className={`badge round-${r.state}`}>{ROUND_LABELS[r.state]}</span>
            </p>
            {r.state === "completed" ? (
              <>
                <p className="badges">
                  <span className="badge">Submitted</span>
                  {r.submittedAt ? <span className="hint">{formatDateTime(r.submittedAt)}</span> : null}
                </p>
                {/* Sent feedback is text to read, not a box to scroll: all of it shows, in its own lines. */}
                <p id={`${feedbackFormId(orderId, r.round)}-read`} className="visually-hidden">
                  Your feedback for revision {r.round}
                </p>
                <blockquote
                  className="feedback-sent"
                  aria-labelledby={`${feedbackFormId(orderId, r.round)}-read`}
                  role="group"
                >
                  {r.feedback ?? ""}
                </blockquote>
              </>
            ) : r.state === "available" ? (
              <FeedbackForm
                orderId={orderId}
                round={r.round}
                reply={reply}
                withOrderId={withOrderId}
                restored={restored}
              />
            ) : (
              <p className="hint">{r.note}</p>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

function FeedbackForm({
  orderId,
  round,
  reply,
  withOrderId,
  restored,
}: {
  orderId: string;
  round: number;
  reply: FeedbackReply;
  withOrderId: boolean;
  restored: boolean;
}) {
  const id = feedbackFormId(orderId, round);
  const sending = useIsPending({ intent: ORDER_INTENTS.feedback });
  // The page that shows the form (order status, dashboard) hands its rules over from its loader.
  const { feedbackRules } = useLoaderData<{ feedbackRules: FormRules }>();
  const [form, fields] = useForm({
    id,
    lastResult: reply?.formId === id ? reply.result : undefined,
    rules: feedbackRules,
    shouldRevalidate: "onInput",
  });
  const [length, setLength] = useState(() => String(fields.feedback.initialValue ?? "").length);
  return (
    <Form method="post" {...getFormProps(form)} noValidate>
      <FormAlert message={form.errors?.[0] ?? fields.feedback.errors?.[0]} />
      {restored ? <p className="flash flash-info">{RESTORED_MESSAGE}</p> : null}
      <input type="hidden" name="formId" value={id} />
      <FormKey />
      <input type="hidden" name="round" value={round} />
      {withOrderId ? <input type="hidden" name="orderId" value={orderId} /> : null}
      <label htmlFor={fields.feedback.id}>What would you like changed in revision {round}?</label>
      <textarea
        {...getTextareaProps(fields.feedback)}
        rows={5}
        aria-required="true"
        onInput={(e) => setLength(e.currentTarget.value.length)}
      />
      <p className={`hint${length > FEEDBACK_MAX ? " over" : ""}`}>
        Between 10 and {FEEDBACK_MAX} characters. You can send feedback once per round.
      </p>
      <button
        type="submit"
        name="intent"
        value={ORDER_INTENTS.feedback}
        className="button button-primary"
        disabled={sending}
      >
        {sending ? "Sending..." : "Submit Feedback"}
      </button>
      <SendStatus />
    </Form>
  );
}
