import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { CallToAction, CardGrid, Checklist, Section } from "~/components/marketing";
import { PageHero } from "~/components/PageHero";
import { REVIEW_BENEFITS, REVIEW_FEATURES } from "~/content/marketing";
import { pageMeta } from "~/content/meta";
import { OFFER } from "~/content/offer";
import { STATIC_PAGE } from "~/components/static-page";

/** Nothing on this page needs a script. */
export const handle = STATIC_PAGE;

export const meta: MetaFunction = () =>
  pageMeta(
    "Review Generation | 24-Hour Website",
    "Automated SMS and e-mail review requests, private filtering of negative feedback, Google and Facebook reviews.",
  );

const HOW = [
  { title: "You Finish a Job", description: "Add your customer's name and number, or connect your booking system." },
  { title: "We Ask for a Review", description: "Your customer gets a friendly SMS or e-mail asking how it went." },
  {
    title: "Happy Customers Post",
    description: "Happy customers go straight to Google or Facebook to leave a review.",
  },
  {
    title: "Unhappy Ones Talk to You",
    description: "Negative feedback comes to you privately, so you can fix it first.",
  },
];

export default function ReviewGeneration() {
  return (
    <>
      <PageHero
        title="Get More 5-Star Reviews, Automatically"
        lead="Turn happy customers into Google and Facebook reviews that bring in new work."
      >
        <div className="actions">
          <Link to="/contact" className="button button-primary">
            Book a Free {OFFER.demoMinutes}-Minute Demo
          </Link>
          <a href="#how-it-works" className="button">
            How It Works
          </a>
        </div>
      </PageHero>
      <Section title="Why Reviews Matter">
        <CardGrid cards={REVIEW_BENEFITS} />
      </Section>
      <Section title="How It Works" id="how-it-works" tone="alt">
        <CardGrid cards={HOW} numbered />
      </Section>
      <Section title="What's Included">
        <Checklist items={REVIEW_FEATURES} />
      </Section>
      <CallToAction
        title="See It in Action"
        text={`Book a free ${OFFER.demoMinutes}-minute demo and we'll show you how it works for your business.`}
        primary={{ to: "/contact", label: "Book My Free Demo" }}
      />
    </>
  );
}
