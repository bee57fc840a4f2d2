import { isRouteErrorResponse, Link, useRouteError, type ErrorResponse } from "@remix-run/react";
import type { ReactNode } from "react";

export type StatusHandler = (info: { error: ErrorResponse }) => ReactNode;

/** What a visitor is told for the 4xx answers a route can give; a page may pass its own for any status. */
const CLIENT_ERRORS: Record<number, { title: string; lead: string }> = {
  400: { title: "Something in that request wasn't right", lead: "Please go back, check the form and try again." },
  401: { title: "Please sign in", lead: "You need to sign in to see this page." },
  403: { title: "Access denied", lead: "You don't have access to this page." },
  405: { title: "That can't be done here", lead: "Please use the buttons on the page." },
  413: { title: "That was too large", lead: "Please send less at once, or smaller files." },
  429: { title: "Too many requests", lead: "Please wait a little and try again." },
};

function ClientError({ error }: { error: ErrorResponse }) {
  const known = CLIENT_ERRORS[error.status] ?? { title: "Something went wrong", lead: "Please go back and try again." };
  const detail = typeof error.data === "string" && error.data && error.data !== error.statusText ? error.data : null;
  return (
    <section className="hero">
      <div className="wrap">
        <h1>{error.statusText || known.title}</h1>
        <p className="lead">{detail ?? known.lead}</p>
        <p>
          <Link to="/" className="button">
            Return to Home
          </Link>{" "}
          <Link to="/contact">Contact us</Link> if you need a hand.
        </p>
      </div>
    </section>
  );
}

/** A real failure of ours (a 5xx or a thrown error): the spec's fallback screen, with status and text, never a stack. */
function UnexpectedError({ status, text }: { status: number; text: string }) {
  return (
    <section className="hero">
      <div className="wrap">
        <h1>Unexpected Application Error!</h1>
        <p className="lead">
          {status}
          {text ? ` ${text}` : ""}
        </p>
        <p>
          <Link to="/" className="button">
            Return to Home
          </Link>{" "}
          Please try again, or <Link to="/contact">contact us</Link> if it keeps happening.
        </p>
      </div>
    </section>
  );
}

/**
 * The error boundary every route can use (Epic Stack's GeneralErrorBoundary):
 * a handler per status the route wants to word itself (`statusHandlers`), a
 * plain page per 4xx otherwise, and the spec's 'Unexpected Application Error!'
 * only for real server failures.
 */
export function GeneralErrorBoundary({ statusHandlers = {} }: { statusHandlers?: Record<number, StatusHandler> }) {
  const error = useRouteError();
  if (isRouteErrorResponse(error)) {
    const handler = statusHandlers[error.status];
    if (handler) return <>{handler({ error })}</>;
    if (error.status < 500) return <ClientError error={error} />;
    return (
      <UnexpectedError
        status={error.status}
        text={error.statusText || (typeof error.data === "string" ? error.data : "")}
      />
    );
  }
  // In production Remix replaces server error messages with a generic one; no stack is ever shown.
  return <UnexpectedError status={500} text={error instanceof Error ? error.message : ""} />;
}
