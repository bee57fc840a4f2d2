import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { CallToAction, CardGrid, Checklist, Faq, Section, TestimonialsSection } from "~/components/marketing";
import { PageHero } from "~/components/PageHero";
import { FAQ, STEPS } from "~/content/marketing";
import { pageMeta } from "~/content/meta";
import { INCLUDED, OFFER } from "~/content/offer";
import { STATIC_PAGE } from "~/components/static-page";

/** Nothing on this page needs a script. */
export const handle = STATIC_PAGE;

export const meta: MetaFunction = () => [
  ...pageMeta(
    "The 24-Hour Website: $300 for 1-5 Pages",
    "A professional 1-5 page website for $300, first draft in 24 hours or a full refund. Hosting and 3 revisions included.",
  ),
  { tagName: "link", rel: "canonical", href: "/24-hour-website" },
];

/** The 24-Hour Website offer. Also served at /rapid-website, where checkout links back to. */
export default function TwentyFourHourWebsite() {
  return (
    <>
      <PageHero
        eyebrow={OFFER.spots}
        title="Your Website, First Draft in 24 Hours"
        lead={`A professional ${OFFER.pagesBefore} website for a flat ${OFFER.price}, compared with ${OFFER.elsewhere} elsewhere.`}
      >
        <p className="price">
          {OFFER.price} <small>AUD, one-off</small>
        </p>
        <div className="actions">
          <Link to="/checkout" className="button button-primary">
            Get My 24-Hour Website
          </Link>
          <a href="#how-it-works" className="button">
            How It Works
          </a>
        </div>
      </PageHero>

      <div className="wrap">
        <p className="banner">
          Our guarantee: your first draft within 24 hours of receiving your details, or a full refund.
        </p>
      </div>

      <Section title="How It Works" id="how-it-works">
        <CardGrid cards={STEPS} numbered />
      </Section>

      <Section title="What You Get" tone="alt">
        <Checklist
          items={[
            ...INCLUDED,
            "No lock-in contracts or hidden fees",
            "Site live within 24 hours once content is supplied",
          ]}
        />
      </Section>

      <TestimonialsSection />

      <Section title="Frequently Asked Questions" tone="alt">
        <Faq items={FAQ} />
      </Section>

      <CallToAction
        title="Get Your Website Tomorrow"
        text={`${OFFER.price} for ${OFFER.pages}. ${OFFER.guarantee}.`}
        primary={{ to: "/checkout", label: "Get Started Now" }}
        secondary={{ to: "/contact", label: "Ask a Question" }}
      />
    </>
  );
}
