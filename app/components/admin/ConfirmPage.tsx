import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useIsPending } from "~/components/hooks";
import { AdminHeader, type AdminTab } from "./AdminTabs";

/**
 * An admin confirmation page (refund, restart the delivery clock, delete an order's data, reset a
 * second factor): the admin header, an optional way back, and one card with its heading, what will
 * happen and the form that does it.
 */
export function ConfirmPage({
  title = "Admin Panel",
  current,
  back,
  heading,
  children,
}: {
  title?: string;
  current: AdminTab;
  back?: { to: string; label: string };
  heading: ReactNode;
  children: ReactNode;
}) {
  return (
    <>
      <AdminHeader title={title} current={current} />
      <div className="wrap section admin-page">
        {back ? (
          <p>
            <Link to={back.to}>{back.label}</Link>
          </p>
        ) : null}
        <section className="card confirm" aria-labelledby="confirm-heading">
          <h2 id="confirm-heading">{heading}</h2>
          {children}
        </section>
      </div>
    </>
  );
}

/**
 * A confirmation's buttons: Cancel (a link back) and the one submit button that does it, named by
 * its `intent`, disabled and relabelled while its post is under way.
 */
export function ConfirmActions({
  cancelTo,
  intent,
  label,
  pendingLabel,
  danger = true,
}: {
  cancelTo: string;
  intent: string;
  label: string;
  pendingLabel: string;
  danger?: boolean;
}) {
  const pending = useIsPending({ intent });
  return (
    <div className="actions">
      <Link to={cancelTo} className="button">
        Cancel
      </Link>
      <button
        type="submit"
        name="intent"
        value={intent}
        className={danger ? "button button-danger" : "button"}
        disabled={pending}
      >
        {pending ? pendingLabel : label}
      </button>
    </div>
  );
}
