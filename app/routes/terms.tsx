import type { MetaFunction } from "@remix-run/node";
import { PageHero } from "~/components/PageHero";
import { pageMeta } from "~/content/meta";

export const meta: MetaFunction = () => pageMeta("Terms of Service | 24-Hour Website", "The terms of our 24-Hour Website service, its guarantee and revision rounds.");

export default function Page() {
  return <PageHero title="Terms of Service" lead="The terms of our 24-Hour Website service, its guarantee and revision rounds." />;
}
