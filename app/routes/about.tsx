import type { MetaFunction } from "@remix-run/node";
import { CallToAction, CardGrid, Section } from "~/components/marketing";
import { PageHero } from "~/components/PageHero";
import { VALUES } from "~/content/marketing";
import { pageMeta } from "~/content/meta";
import { OFFER } from "~/content/offer";
import { STATIC_PAGE } from "~/components/static-page";

/** Nothing on this page needs a script. */
export const handle = STATIC_PAGE;

export const meta: MetaFunction = () =>
  pageMeta(
    "About Us | 24-Hour Website",
    "A small Northern Rivers web-design business building fast, affordable websites for local small businesses.",
  );

export default function About() {
  return (
    <>
      <PageHero
        title="We're a Small Business Too"
        lead="A small web-design team in the Northern Rivers of NSW, building websites for people like us."
      />
      <Section title="Our Story">
        <div className="prose">
          <p>
            We started after watching too many local tradies and shop owners get quoted thousands of dollars and months
            of waiting for a simple website. Most small businesses don't need a complicated site. They need a clear,
            fast, professional one that makes the phone ring.
          </p>
          <p>
            So we built a process that gets you there in a day: one simple form, proven layouts, and a real person who
            builds your site and listens to your feedback.
          </p>
        </div>
      </Section>
      <Section title="Our Promise" tone="alt">
        <p className="prose">
          {OFFER.guarantee}. Up to {OFFER.revisionRounds} rounds of revisions, a website you own, and{" "}
          {OFFER.noLockIn.toLowerCase()}.
        </p>
      </Section>
      <Section title="What We Stand For">
        <CardGrid cards={VALUES} />
      </Section>
      <CallToAction
        title="Ready to Get Started?"
        text="Tell us about your business. We answer every enquiry within 24 hours."
        primary={{ to: "/contact", label: "Contact Us" }}
      />
    </>
  );
}
