import { Form } from "@remix-run/react";
import { useIsPending } from "~/components/hooks";
import { FormKey } from "~/components/forms";
import { ORDER_INTENT } from "~/domain/admin/order-detail";
import { TOKEN_BANNERS } from "~/domain/admin/token";
import { formatDateTime } from "~/domain/dates";
import type { AdminTokenState } from "~/domain/tokens";

export type IntakeAccess = {
  state: AdminTokenState;
  used: boolean;
  expiresAt: string;
  timeLeft: string | null;
  intakeUrl: string | null;
};

/** The order page's intake cards: the link's state (renew, send a reminder), then how far the form is filled in. */
export function IntakeAccessCard({
  token,
  progress,
  dataDeleted,
}: {
  token: IntakeAccess | null;
  progress: number;
  dataDeleted: boolean;
}) {
  const busy = useIsPending();
  return (
    <>
      <section className="card" aria-labelledby="token-heading">
        <h2 id="token-heading">Intake Access</h2>
        {token ? (
          <>
            <p>
              <span
                className={`status status-${token.state === "Valid" ? "green" : token.state === "Expired" ? "red" : "yellow"}`}
              >
                {token.state}
              </span>{" "}
              <span className="badge badge-muted">{token.used ? "Used" : "Unused"}</span>
            </p>
            <p className="hint">
              {token.timeLeft
                ? `Expires ${formatDateTime(token.expiresAt)} (${token.timeLeft} left)`
                : `Expired ${formatDateTime(token.expiresAt)}`}
            </p>
            {TOKEN_BANNERS[token.state] ? (
              <p className="banner" role="status">
                {TOKEN_BANNERS[token.state]}
              </p>
            ) : null}
            <Form method="post">
              <button
                type="submit"
                name="intent"
                value={ORDER_INTENT.renewToken}
                className="button button-small"
                disabled={busy}
              >
                Renew Token (30 days)
              </button>
            </Form>
          </>
        ) : (
          <p>
            <span className="status status-grey">No Token</span>
          </p>
        )}
        <Form method="post" className="actions">
          <FormKey />
          <button
            type="submit"
            name="intent"
            value={ORDER_INTENT.sendReminder}
            className="button button-small"
            disabled={busy || dataDeleted}
          >
            Send Reminder
          </button>
        </Form>
      </section>

      <section className="card" aria-labelledby="progress-heading">
        <h2 id="progress-heading">Intake Form Progress</h2>
        <p>
          <strong>{progress}%</strong> complete
        </p>
        <progress max={100} value={progress} aria-labelledby="progress-heading" />
        {token?.intakeUrl ? (
          <p>
            <a href={token.intakeUrl} target="_blank" rel="noreferrer noopener" className="button button-small">
              View Intake Form
            </a>
          </p>
        ) : null}
      </section>
    </>
  );
}
