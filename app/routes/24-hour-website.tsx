import type { MetaFunction } from "@remix-run/node";
import { PageHero } from "~/components/PageHero";
import { pageMeta } from "~/content/meta";

export const meta: MetaFunction = () => pageMeta("The 24-Hour Website: $300, 1-5 Pages", "A professional 1-5 page website for $300, first draft in 24 hours or a full refund.");

export default function Page() {
  return <PageHero title="Your Website, First Draft in 24 Hours" lead="A professional 1-5 page website for $300, first draft in 24 hours or a full refund." />;
}
