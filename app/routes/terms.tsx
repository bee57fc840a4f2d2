import type { MetaFunction } from "@remix-run/node";
import { PageHero } from "~/components/PageHero";
import { pageMeta } from "~/content/meta";
import { OFFER } from "~/content/offer";
import { STATIC_PAGE } from "~/components/static-page";

/** Nothing on this page needs a script. */
export const handle = STATIC_PAGE;

export const meta: MetaFunction = () =>
  pageMeta(
    "Terms of Service | 24-Hour Website",
    "The terms of our 24-Hour Website service: the 24-hour guarantee, revision rounds, disputes and governing law.",
  );

export default function Terms() {
  return (
    <>
      <PageHero title="Terms of Service" lead="Last updated: 16 March 2020" />
      <div className="wrap section prose">
        <h2>The 24-hour guarantee</h2>
        <p>
          We deliver the first draft of your website within 24 hours. The 24 hours start when we have confirmed that we
          have received all the materials we need from you. If we miss it, you get a full refund.
        </p>
        <h2>The first draft</h2>
        <p>The first draft is a functional website built from the details you provided, ready for your feedback.</p>
        <h2>Revisions</h2>
        <p>Your order includes up to {OFFER.revisionRounds} rounds of revisions after the first draft.</p>
        <h2>Price and ownership</h2>
        <p>
          The price is the fixed price shown at checkout, in Australian dollars. The first month of hosting is included.
          Once paid, the website is yours. There are no lock-in contracts.
        </p>
        <h2>Disputes</h2>
        <p>
          If a dispute arises, both parties agree to meet within 7 days to try to resolve it in good faith, and not to
          start litigation until 21 days have passed since that meeting was requested.
        </p>
        <h2>Governing law</h2>
        <p>These terms are governed by the laws of New South Wales, Australia.</p>
      </div>
    </>
  );
}
