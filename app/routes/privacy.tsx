import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { PageHero } from "~/components/PageHero";
import { BUSINESS } from "~/content/site";
import { pageMeta } from "~/content/meta";
import { STATIC_PAGE } from "~/components/static-page";

/** Nothing on this page needs a script. */
export const handle = STATIC_PAGE;

export const meta: MetaFunction = () =>
  pageMeta(
    "Privacy Policy | 24-Hour Website",
    "How we collect, use, protect and delete your information, including the limited data we send to AI tools.",
  );

export default function Privacy() {
  return (
    <>
      <PageHero title="Privacy Policy" lead="How we collect, use and protect your information." />
      <div className="wrap section prose">
        <h2>What we collect</h2>
        <p>
          When you order a website we collect what you give us in the checkout and the intake form: your contact
          details, your business details, the content for your website, and any logo and photos you upload. Payments are
          handled by Stripe; we never see or store your card number.
        </p>
        <h2>How we use AI, and what it sees</h2>
        <p>We may use AI tools to help draft your website. Before anything is sent, every field is classed as:</p>
        <ul>
          <li>
            <strong>Public</strong>: information meant for your website anyway, such as your business name, description,
            services, headline and style. This may be sent to AI as it is.
          </li>
          <li>
            <strong>Protected</strong>: details such as your address, service area, hours, ABN/ACN, legal name, domain,
            keywords, competitors and social links. These are generalised or obscured before they are sent: your
            location becomes a broad region (well-known places like the Northern Rivers, Gold Coast or Brisbane are
            kept; anything else becomes "Local area"), and your ABN or ACN is replaced by the text "Registered
            Australian business".
          </li>
          <li>
            <strong>Private</strong>: your personal contact name, e-mail and phone numbers, staff bios, testimonials,
            review links, analytics and tracking ids, and any additional notes. These are never sent to AI.
          </li>
        </ul>
        <p>
          Anything not listed is left out. You see a preview of exactly what would be sent before anything is generated.
        </p>
        <h2>Your choices</h2>
        <ul>
          <li>Choose how long we keep your data: 30 days, 1 year, or permanently.</li>
          <li>Opt out of AI processing; we will build your site by hand.</li>
          <li>Ask us to delete your data at any time, and we will delete it permanently.</li>
        </ul>
        <h2>Contact</h2>
        <p>
          For any privacy question or request, e-mail <a href={`mailto:${BUSINESS.email}`}>{BUSINESS.email}</a> or use
          our <Link to="/contact">contact form</Link>.
        </p>
      </div>
    </>
  );
}
