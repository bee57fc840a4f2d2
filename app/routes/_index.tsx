import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { CallToAction, CardGrid, Section, TestimonialsSection } from "~/components/marketing";
import { ShowcaseCards } from "~/components/SiteMockup";
import { PageHero } from "~/components/PageHero";
import { BENEFITS, SERVICES } from "~/content/marketing";
import { pageMeta } from "~/content/meta";
import { OFFER } from "~/content/offer";
import { STATIC_PAGE } from "~/components/static-page";

/** Nothing on this page needs a script. */
export const handle = STATIC_PAGE;

export const meta: MetaFunction = () =>
  pageMeta(
    "24-Hour Website from $300 | Northern Rivers NSW",
    "A professional 1-5 page small-business website for $300, first draft in 24 hours or a full refund. No lock-in.",
  );

export default function Home() {
  return (
    <>
      <PageHero
        eyebrow={OFFER.spots}
        title="Your Business Website, First Draft in 24 Hours"
        lead={`A professional website from ${OFFER.price} for ${OFFER.pages}, compared with ${OFFER.elsewhere} elsewhere. ${OFFER.noLockIn}.`}
      >
        <div className="actions">
          <Link to="/checkout" className="button button-primary">
            Get Started Today
          </Link>
          <Link to="/services" className="button">
            See All Services
          </Link>
        </div>
      </PageHero>

      <Section title="Why Small Businesses Choose Us">
        <CardGrid cards={BENEFITS} />
      </Section>

      <Section title="What We Do" tone="alt">
        <ul className="grid card-list">
          {SERVICES.map((s) => (
            <li key={s.title} className="card">
              <h3>{s.title}</h3>
              <p>{s.description}</p>
            </li>
          ))}
        </ul>
        <div className="actions">
          <Link to="/24-hour-website">More about the 24-Hour Website</Link>
          <Link to="/review-generation">More about Review Generation</Link>
          <Link to="/services">See All Services &amp; Pricing</Link>
        </div>
      </Section>

      <Section
        title="Our Work"
        lead="Three example sites, each built the way we build yours: from the owner's answers on our intake form, in 24 hours."
      >
        <ShowcaseCards />
        <div className="actions">
          <Link to="/showcase">See the Portfolio</Link>
        </div>
      </Section>

      <TestimonialsSection tone="alt" />

      <Section title="We're a Small Business Too">
        <p className="prose">
          We're a small team in the Northern Rivers. We know what it's like to juggle customers, quotes and paperwork,
          and we know a website shouldn't cost thousands or take months. So we built a better way: a fixed price, a fast
          turnaround, and people who pick up the phone.
        </p>
      </Section>

      <CallToAction
        title="Ready for a Website That Wins You Customers?"
        text={`${OFFER.guarantee}. ${OFFER.spots}.`}
        primary={{ to: "/checkout", label: "Get My Website Started" }}
        secondary={{ to: "/contact", label: "Talk to Us First" }}
      />
    </>
  );
}
