import type { MetaFunction } from "@remix-run/node";
import { CallToAction, Section } from "~/components/marketing";
import { PageHero } from "~/components/PageHero";
import { ShowcaseCards } from "~/components/SiteMockup";
import { pageMeta } from "~/content/meta";
import { STATIC_PAGE } from "~/components/static-page";

/** Nothing on this page needs a script. */
export const handle = STATIC_PAGE;

export const meta: MetaFunction = () =>
  pageMeta(
    "Portfolio | 24-Hour Website",
    "Example websites we build for small businesses: a dog groomer, an electrician and an accountant.",
  );

export default function Showcase() {
  return (
    <>
      <PageHero
        title="Our Work"
        lead="Three example sites, each built the way we build yours: from the owner's own answers on our intake form, in 24 hours. Open one to click through the demo."
      />
      <Section title="Example Websites">
        <ShowcaseCards />
      </Section>
      <CallToAction
        title="Want One Like These?"
        text="Your first draft in 24 hours, for $300."
        primary={{ to: "/checkout", label: "Get Started" }}
      />
    </>
  );
}
