import { Link } from "@remix-run/react";
import { BRIEF_MESSAGES, type BriefPart, type BriefValue, type BriefView } from "~/domain/admin/brief";

/** The Brief alone, for printing (`?tab=brief&print=1`): the order's number and package above it, no admin chrome. */
export function BriefPrintPage({
  brief,
  order,
}: {
  brief: BriefView;
  order: { id: string; shortId: string; productName: string };
}) {
  return (
    <div className="wrap section brief-print">
      <p className="hint">
        Order #{order.shortId} · {order.productName}
      </p>
      <BriefTab brief={brief} orderId={order.id} printView />
    </div>
  );
}

/**
 * The Brief tab: every intake answer by step in the customer's words (domain/admin/brief.ts). It prints
 * on A4 without the admin's chrome (admin.css, @media print); "Print brief" opens the brief alone
 * (`?tab=brief&print=1`), which works without JavaScript: the browser's own Print then prints it.
 */
export function BriefTab({ brief, orderId, printView }: { brief: BriefView; orderId: string; printView: boolean }) {
  if (brief.state === "deleted") return <p className="banner">{BRIEF_MESSAGES.deleted}</p>;
  if (brief.state === "no-submission") return <p className="empty">Customer hasn't completed the intake form yet</p>;
  return (
    <div className="brief">
      <h2>Brief</h2>
      <p className="no-print actions">
        {printView ? (
          <>
            <Link to={`/admin/orders/${orderId}?tab=brief`} className="button button-small">
              Back to the order
            </Link>{" "}
            <span className="hint">Use your browser&apos;s Print (Ctrl+P or ⌘P) to print it on A4.</span>
          </>
        ) : (
          <Link to={`/admin/orders/${orderId}?tab=brief&print=1`} className="button button-small">
            Print brief
          </Link>
        )}
      </p>
      {brief.resubmitted ? (
        <p className="banner" role="note">
          {BRIEF_MESSAGES.resubmitted(brief.changedCount)}
        </p>
      ) : null}
      {brief.steps.map((step) => (
        <section key={step.number} className="brief-step" aria-labelledby={`brief-step-${step.number}`}>
          <h3 id={`brief-step-${step.number}`}>
            Step {step.number}: {step.name}
            {step.changed ? <ChangedMark /> : null}
          </h3>
          {step.answers.length ? (
            <dl className="brief-answers">
              {step.answers.map((a) => (
                <div key={a.field} className={a.changed ? "brief-answer changed" : "brief-answer"}>
                  <dt>
                    {a.label}
                    {a.changed ? <ChangedMark /> : null}
                  </dt>
                  <dd>
                    <Value value={a.value} />
                  </dd>
                </div>
              ))}
            </dl>
          ) : (
            <p className="hint">{BRIEF_MESSAGES.noAnswers}</p>
          )}
        </section>
      ))}
    </div>
  );
}

function ChangedMark() {
  return (
    <>
      {" "}
      <span className="badge badge-changed">{BRIEF_MESSAGES.changed}</span>
    </>
  );
}

function Parts({ parts }: { parts: BriefPart[] }) {
  return (
    <dl className="brief-parts">
      {parts.map((p) => (
        <div key={p.label}>
          <dt>{p.label}</dt>
          <dd>
            <Value value={p.value} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

function Value({ value }: { value: BriefValue }) {
  switch (value.kind) {
    case "empty":
      return <span className="not-answered">{BRIEF_MESSAGES.empty}</span>;
    case "text":
      return <span className="brief-text">{value.text}</span>;
    case "link":
      return (
        <a href={value.href} rel="noopener noreferrer" target="_blank">
          {value.href}
        </a>
      );
    case "list":
      return (
        <ul>
          {value.items.map((item, i) => (
            <li key={i}>
              <Value value={item} />
            </li>
          ))}
        </ul>
      );
    case "group":
      return <Parts parts={value.parts} />;
    case "rows":
      return (
        <ol className="brief-rows">
          {value.rows.map((row, i) => (
            <li key={i}>
              <p className="brief-row-title">{row.title}</p>
              <Parts parts={row.parts} />
            </li>
          ))}
        </ol>
      );
  }
}
