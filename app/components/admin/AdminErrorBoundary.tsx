import { Link } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/GeneralErrorBoundary";

/**
 * An admin page's error boundary: a record that does not exist (404) gets its
 * own page with the way back to its list; every other status the general one.
 */
export function AdminErrorBoundary({ notFound, back }: { notFound: string; back: { to: string; label: string } }) {
  return (
    <GeneralErrorBoundary
      statusHandlers={{
        404: () => (
          <section className="admin-hero">
            <div className="wrap">
              <h1>{notFound}</h1>
              <p className="lead">
                There is nothing at this address: it may have been mistyped, or the record removed.
              </p>
              <p>
                <Link to={back.to} className="button">
                  {back.label}
                </Link>
              </p>
            </div>
          </section>
        ),
      }}
    />
  );
}
