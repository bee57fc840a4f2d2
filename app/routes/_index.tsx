import type { MetaFunction } from "@remix-run/node";
import { PageHero } from "~/components/PageHero";
import { pageMeta } from "~/content/meta";

export const meta: MetaFunction = () => pageMeta("24-Hour Website from $300 | Northern Rivers NSW", "A professional 1-5 page website for $300, first draft within 24 hours. No lock-in contracts.");

export default function Page() {
  return <PageHero title="Your Business Website, Live in 24 Hours" lead="A professional 1-5 page website for $300, first draft within 24 hours. No lock-in contracts." />;
}
