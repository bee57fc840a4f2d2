import { Link } from "@remix-run/react";
import { formatCents } from "~/domain/money";
import { formatDateTime } from "~/domain/dates";
import type { AlertKind } from "~/domain/delivery-clock";

export type ClockEventView = {
  id: string;
  kind: string;
  at: string;
  deadline: string | null;
  alert: AlertKind | null;
  note: string | null;
  actorEmail: string | null;
  draftUrl: string | null;
  amount: number | null;
  source: string | null;
};

export type ClockView = {
  kind: "not-started" | "running" | "overdue" | "delivered" | "refunded" | "data-deleted";
  summary: string;
  startedAt: string | null;
  deadline: string | null;
  windowHours: number | null;
  deliveredAt: string | null;
  refundedAt: string | null;
  amountRefunded: number;
  runs: boolean;
  refundDue: boolean;
  /** Why a refund is not due, said beside the Refund button; null when it is due. */
  refundNotDue: string | null;
  refundable: boolean;
  events: ClockEventView[];
};

/** One history line in words. */
function eventText(e: ClockEventView): string {
  const due = e.deadline ? `, due ${formatDateTime(e.deadline)}` : "";
  switch (e.kind) {
    case "started":
      return `Clock started: intake form submitted${due}`;
    case "restarted":
      return `Clock restarted by ${e.actorEmail ?? "an admin"}${due}. Missing: ${e.note ?? ""}`;
    case "delivered":
      return "First draft delivered; the customer was e-mailed the link";
    case "alert":
      return e.alert === "overdue" ? "Business alerted: overdue" : "Business alerted: a quarter of the window left";
    case "refunded":
      return `Refunded ${formatCents(e.amount ?? 0)} ${e.source === "stripe" ? "in Stripe's dashboard" : `by ${e.actorEmail ?? "an admin"}`}: ${e.note ?? ""}`;
    default:
      return e.kind;
  }
}

const TONE: Record<ClockView["kind"], string> = {
  "not-started": "grey",
  running: "green",
  overdue: "red",
  delivered: "green",
  refunded: "grey",
  "data-deleted": "grey",
};

/** The order page's Delivery Clock: deadline and time left, delivery, Refund due, and the clock's history. */
export function DeliveryClockCard({ orderId, clock }: { orderId: string; clock: ClockView }) {
  return (
    <section className="card" aria-labelledby="clock-heading">
      <h2 id="clock-heading">Delivery Clock</h2>
      <p>
        {/* A state in a badge; the sentence before the clock starts as text (in a badge it wrapped into a capsule). */}
        {clock.kind === "not-started" ? (
          <span className="hint">{clock.summary}</span>
        ) : (
          <span className={`status status-${TONE[clock.kind]}`}>{clock.summary}</span>
        )}{" "}
        {clock.refundDue && !clock.refundedAt ? <span className="status status-red">Refund due</span> : null}
      </p>
      <dl className="facts">
        {clock.windowHours ? (
          <>
            <dt>Window</dt>
            <dd>{clock.windowHours} hours</dd>
          </>
        ) : null}
        {clock.startedAt ? (
          <>
            <dt>Started</dt>
            <dd>{formatDateTime(clock.startedAt)}</dd>
          </>
        ) : null}
        {clock.deadline ? (
          <>
            <dt>Due by</dt>
            <dd>{formatDateTime(clock.deadline)}</dd>
          </>
        ) : null}
        {clock.deliveredAt ? (
          <>
            <dt>Delivered</dt>
            <dd>{formatDateTime(clock.deliveredAt)}</dd>
          </>
        ) : null}
        {clock.refundedAt ? (
          <>
            <dt>Refunded</dt>
            <dd>
              {formatCents(clock.amountRefunded)} on {formatDateTime(clock.refundedAt)}
            </dd>
          </>
        ) : null}
      </dl>
      <p className="actions">
        {clock.runs ? (
          <Link to={`/admin/orders/${orderId}/restart-clock`} className="button button-small">
            Restart clock
          </Link>
        ) : null}
        {clock.refundable ? (
          <Link
            to={`/admin/orders/${orderId}/refund`}
            className={`button button-small${clock.refundDue ? " button-danger" : ""}`}
          >
            Refund
          </Link>
        ) : null}
        {clock.refundable && clock.refundNotDue ? <span className="hint">{clock.refundNotDue}.</span> : null}
      </p>
      {clock.events.length ? (
        <>
          <h3>Clock history</h3>
          <ul className="history">
            {clock.events.map((e) => (
              <li key={e.id}>
                <span className="hint">{formatDateTime(e.at)}</span> {eventText(e)}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
