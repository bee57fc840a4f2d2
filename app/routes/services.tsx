import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { CallToAction, Checklist, Section } from "~/components/marketing";
import { PageHero } from "~/components/PageHero";
import { SERVICES } from "~/content/marketing";
import { pageMeta } from "~/content/meta";
import { STATIC_PAGE } from "~/components/static-page";

/** Nothing on this page needs a script. */
export const handle = STATIC_PAGE;

export const meta: MetaFunction = () =>
  pageMeta(
    "Services & Pricing | 24-Hour Website",
    "24-hour websites from $300, multi-page business sites, eCommerce stores and review generation for small businesses.",
  );

export default function Services() {
  return (
    <>
      <PageHero
        title="Choose What Works for Your Business"
        lead="Fast, fixed-price websites and tools that help small businesses win more customers."
      />
      <Section title="Our Services">
        <ul className="grid card-list">
          {SERVICES.map((s) => (
            <li key={s.title} className="card">
              <h3>{s.title}</h3>
              <p>{s.description}</p>
              <Checklist items={s.features} />
              <Link to={s.link} className="button button-primary">
                {s.button}
              </Link>
            </li>
          ))}
        </ul>
      </Section>
      <CallToAction
        title="Not Sure Which Option Is Right for You?"
        text="Tell us about your business and we'll recommend the simplest thing that works. No pressure, no jargon."
        primary={{ to: "/contact", label: "Talk to Us" }}
      />
    </>
  );
}
