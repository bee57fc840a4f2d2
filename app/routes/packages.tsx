import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { PageHero } from "~/components/PageHero";
import { PACKAGE_MAINTENANCE_PLAN } from "~/content/maintenance";
import { pageMeta } from "~/content/meta";
import { formatCents } from "~/domain/money";
import { PACKAGE_COMPARISON, PACKAGES, packagePrice, WITH_MAINTENANCE_DISCOUNT_PERCENT } from "~/content/packages";
import { STATIC_PAGE } from "~/components/static-page";

/** Nothing on this page needs a script. */
export const handle = STATIC_PAGE;

export const meta: MetaFunction = () =>
  pageMeta(
    "Website Packages | 24-Hour Website",
    "Starter, Professional and Enterprise website packages, with or without maintenance.",
  );

/** ?billing=maintenance shows the with-maintenance prices: the toggle is two links, so it works without JavaScript. */
export function loader({ request }: LoaderFunctionArgs) {
  return { withMaintenance: new URL(request.url).searchParams.get("billing") === "maintenance" };
}

const dollars = (cents: number) => formatCents(cents).replace(/\.00$/, "");

export default function Packages() {
  const { withMaintenance } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHero
        title="Website Packages"
        lead="Starter, Professional and Enterprise websites, built fast, with or without monthly maintenance."
      />
      <div className="wrap section">
        <nav className="tabs" aria-label="Pricing">
          <Link
            to="?billing=one-time"
            className="tab"
            aria-current={withMaintenance ? undefined : "page"}
            replace
            preventScrollReset
          >
            One-Time
          </Link>
          <Link
            to="?billing=maintenance"
            className="tab"
            aria-current={withMaintenance ? "page" : undefined}
            replace
            preventScrollReset
          >
            With Maintenance <span className="badge">Save {WITH_MAINTENANCE_DISCOUNT_PERCENT}%</span>
          </Link>
        </nav>
        <ul className="grid card-list plan-list">
          {PACKAGES.map((pkg) => (
            <li key={pkg.id} className={`card plan${pkg.popular ? " popular" : ""}`}>
              <h2>
                {pkg.name} {pkg.popular ? <span className="badge">Most Popular</span> : null}
              </h2>
              <p>{pkg.description}</p>
              {/* The amount on one line, its terms on the next, in every card: the lists below start level. */}
              <p className="plan-price">
                {withMaintenance ? <s className="hint">{dollars(pkg.price)}</s> : null}{" "}
                <span className="price">{dollars(packagePrice(pkg, withMaintenance))}</span> AUD{" "}
                <span className="price-terms">
                  {withMaintenance
                    ? `+ ${dollars(PACKAGE_MAINTENANCE_PLAN.price)}/month ${PACKAGE_MAINTENANCE_PLAN.name} maintenance`
                    : "one time"}
                </span>
              </p>
              <div className="plan-features">
                <ul className="checklist">
                  {pkg.features.map((f) => (
                    <li key={f}>{f}</li>
                  ))}
                </ul>
                {pkg.limitations.length ? (
                  <ul className="not-included" aria-label={`Not included in ${pkg.name}`}>
                    {pkg.limitations.map((l) => (
                      <li key={l}>{l}</li>
                    ))}
                  </ul>
                ) : null}
              </div>
              <Link
                to={`/checkout?package=${pkg.id}${withMaintenance ? "&maintenance=1" : ""}`}
                className={`button${pkg.popular ? " button-primary" : ""}`}
                aria-label={`Get Started with ${pkg.name}`}
              >
                Get Started
              </Link>
            </li>
          ))}
        </ul>

        <h2 id="compare-heading" className="compare-heading">
          Compare packages
        </h2>
        <p className="hint scroll-hint">The table scrolls sideways: swipe it to see every package.</p>
        {/* A named region: where it scrolls, the browser lets a keyboard focus and scroll it. */}
        <div className="table-scroll" role="region" aria-labelledby="compare-heading">
          <table className="compare">
            <thead>
              <tr>
                <th scope="col">Feature</th>
                {PACKAGES.map((p) => (
                  <th key={p.id} scope="col">
                    {p.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {PACKAGE_COMPARISON.map((row) => (
                <tr key={row.feature}>
                  <th scope="row">{row.feature}</th>
                  {PACKAGES.map((p) => (
                    <td key={p.id}>{row.values[p.id]}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p>
          Not sure which suits you? <Link to="/contact">Contact us</Link> and we'll help you choose.
        </p>
      </div>
    </>
  );
}
